package files

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// RemoveFilesPath removes uploads by their storage names (fileNames).
const RemoveFilesPath = "/api/blade-resource/oss/endpoint/remove-files"

var (
	errNoFileNames = httpx.BadRequest(i18n.T("请选择要删除的文件", "Choose the files to remove"))
	msgRemoved     = i18n.T("删除成功", "Removed")
)

// NewAttachResource declares blade-resource/attach: the uploads of a tenant.
// put-file makes the rows; submit registers an outside link (a file kept
// elsewhere) or renames one; remove removes the stored object too.
func (s *Service) NewAttachResource() *resource.Resource[Attach] {
	return resource.New(resource.Spec{
		Service: "blade-resource", Name: "attach", Table: "blade_attach", Label: i18n.T("附件", "Attachment"),
		MenuCode: "attach", Scope: resource.TenantAdmin, DataScope: true, DefaultOrder: "create_time DESC, id DESC",
	}, resource.Hooks[Attach]{
		BeforeSave: func(_ context.Context, _ bun.Tx, a *Attach, isNew bool) error {
			if isNew {
				registerLink(a)
			}
			return nil
		},
		Enrich: func(_ context.Context, _ bun.IDB, rows []Attach) error {
			for i := range rows {
				if rows[i].OssID != ExternalOss {
					rows[i].Link = s.DownloadLink(rows[i].TenantID, rows[i].Name)
				}
			}
			return nil
		},
		Routes: map[string]httpx.HandlerFunc{"remove": s.handleAttachRemove},
	})
}

// registerLink fills a link registered by submit: no object, a name of its
// own (never a storage key: those start with the tenant), the link's host
// as its domain and its path's extension.
func registerLink(a *Attach) {
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	a.Name, a.OssID, a.AttachSize, a.ContentType = "link-"+hex.EncodeToString(rnd[:]), ExternalOss, 0, ""
	a.DomainURL, a.Extension = "", ""
	if u, err := url.Parse(a.Link); err == nil {
		a.DomainURL = u.Scheme + "://" + u.Host
		if ext := strings.ToLower(strings.TrimPrefix(path.Ext(u.Path), ".")); len(ext) <= 12 && storageSafe(ext) {
			a.Extension = ext
		}
	}
}

func storageSafe(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// DownloadLink is a fresh signed link to an upload of tenantID that always
// downloads (attachment disposition, spec §9), or "" for another tenant's key.
func (s *Service) DownloadLink(tenantID, key string) string {
	if !ownedKey(tenantID, key) {
		return ""
	}
	day := s.now().UTC().Truncate(24 * time.Hour)
	return s.Link(key, day.Add(s.ttl()+24*time.Hour)) + "&download=1"
}

// MountResources declares, mounts and returns attach and oss, and routes
// remove-files.
func (s *Service) MountResources(r chi.Router, env *resource.Env) []resource.Registered {
	s.Attaches, s.Configs = s.NewAttachResource(), s.NewOssResource()
	s.Attaches.Mount(r, env)
	s.Configs.Mount(r, env)
	r.Post(strings.TrimPrefix(RemoveFilesPath, "/api"), httpx.Handle(resource.Guard(resource.AnyUser)(s.handleRemoveFiles)))
	return []resource.Registered{s.Attaches, s.Configs}
}

func (s *Service) handleAttachRemove(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	return s.removeAttaches(r, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("?TableAlias.id IN (?)", bun.In(ids)) })
}

// handleRemoveFiles removes uploads by name (fileNames, a comma list), the
// caller's own only, like attach/remove.
func (s *Service) handleRemoveFiles(r *http.Request) (any, error) {
	raw := r.URL.Query().Get("fileNames")
	if raw == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		_ = r.ParseForm()
		raw = r.PostForm.Get("fileNames")
	}
	var names []string
	for _, n := range strings.Split(raw, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, errNoFileNames
	}
	if len(names) > httpx.MaxPageSize {
		return nil, httpx.InvalidParam("fileNames")
	}
	return s.removeAttaches(r, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("?TableAlias.name IN (?)", bun.In(names)) })
}

// removeAttaches removes the rows where picks among those the caller may
// see (tenant, data scope), in one transaction, then their objects from the
// stores they went to. An object that cannot be removed is logged and left
// behind: its row is gone, so no link serves it any more.
func (s *Service) removeAttaches(r *http.Request, where func(*bun.SelectQuery) *bun.SelectQuery) (any, error) {
	ctx := i18n.With(r.Context(), i18n.FromRequest(r))
	var rows []Attach
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		q, err := s.Attaches.Select(ctx, tx, &rows)
		if err != nil {
			return err
		}
		if err := where(q).Scan(ctx); err != nil {
			return err
		}
		if len(rows) == 0 {
			return httpx.ErrNotFound
		}
		ids := make([]wire.ID, len(rows))
		for i := range rows {
			ids[i] = rows[i].ID
		}
		_, err = s.Attaches.Remove(ctx, tx, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, a := range rows {
		if a.OssID == ExternalOss {
			continue
		}
		store, err := s.storeOf(ctx, a.OssID)
		if err == nil {
			err = store.Delete(context.WithoutCancel(ctx), a.Name)
		}
		if err != nil {
			slog.WarnContext(ctx, "attachment removed, its object was not", "key", a.Name, "err", err)
		}
	}
	return httpx.Message{Text: msgRemoved}, nil
}
