package website

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// The public side: what a company website reads and sends without a token.
// The tenant is the one whose domain the request names (`domain`, else the
// Host the website was reached by); only its published rows are read, each
// answer is kept PublicTTL and dropped when any website row changes.
const (
	PublicPath = "/website/public/"
	ApplyPath  = PublicPath + "apply"
	// PublicTTL is how long a public answer is kept.
	PublicTTL = 30 * time.Second
	// publicMaxSize caps a public page.
	publicMaxSize = 100
)

// Rate limits per client IP (the peer address: proxy headers are the client's word).
var (
	ReadLimit  = Limit{Max: 120, Window: time.Minute}
	ApplyLimit = Limit{Max: 5, Window: time.Hour}
)

var (
	errNoSite  = &httpx.Error{Status: 404, Msg: i18n.T("未找到该域名的网站", "No website is configured for this domain")}
	errTooMany = &httpx.Error{Status: 429, Msg: i18n.T("请求过于频繁,请稍后再试", "Too many requests; try again later")}
	errCaptcha = httpx.BadRequest(i18n.T("验证码不正确", "The captcha is wrong"))
	errJob     = httpx.BadRequest(i18n.T("应聘职位不存在或已下线", "The job opening does not exist or is no longer open"))
	msgApplied = i18n.T("提交成功,我们会尽快与您联系", "Sent; we will contact you soon")
)

// CaptchaStore verifies the login captcha's one-use answers (auth.CaptchaStore).
type CaptchaStore interface {
	Verify(key, answer string) bool
}

// TenantByDomain answers the live tenant of a domain, "" when none.
type TenantByDomain func(ctx context.Context, domain string) (string, error)

// Service is the website area.
type Service struct {
	DB      *db.DB
	Captcha CaptchaStore
	Tenant  TenantByDomain
	Res     *Resources

	env     *resource.Env
	cache   *publicCache
	reads   *limiter
	applies *limiter
}

// New builds the area.
func New(d *db.DB, captcha CaptchaStore, tenant TenantByDomain) *Service {
	return &Service{DB: d, Captcha: captcha, Tenant: tenant, cache: newPublicCache(PublicTTL),
		reads: newLimiter(ReadLimit), applies: newLimiter(ApplyLimit)}
}

// publicKind is one kind of published content: its list and detail reads.
type publicKind struct {
	name   string
	list   func(ctx context.Context, tenantID string, current, size int) (any, error)
	detail func(ctx context.Context, tenantID string, id wire.ID) (any, error)
}

func (s *Service) publicKinds() []publicKind {
	return []publicKind{
		published(s, s.Res.Employee), published(s, s.Res.News), published(s, s.Res.Case),
		published(s, s.Res.Video), published(s, s.Res.Job), published(s, s.Res.Customer),
	}
}

// PublicPaths are the routes that need no token, for the app's bypass list:
// exactly these, nothing else under /api/website.
func PublicPaths() []string {
	var out []string
	for _, name := range []string{"employee", "news", "cases", "video", "job", "customer"} {
		out = append(out, "/api"+PublicPath+name+"/list", "/api"+PublicPath+name+"/detail")
	}
	return append(out, "/api"+ApplyPath)
}

func (s *Service) mountPublic(r chi.Router) {
	for _, k := range s.publicKinds() {
		r.Get(PublicPath+k.name+"/list", httpx.Handle(s.handlePublicList(k)))
		r.Get(PublicPath+k.name+"/detail", httpx.Handle(s.handlePublicDetail(k)))
	}
	r.Post(ApplyPath, httpx.Handle(s.handleApply))
}

// site checks the caller's rate and finds the tenant of the request's domain.
func (s *Service) site(r *http.Request, l *limiter) (string, error) {
	if !l.allow(clientIP(r)) {
		return "", errTooMany
	}
	domain := strings.TrimSpace(r.URL.Query().Get("domain"))
	if domain == "" {
		domain = r.Host
	}
	if len(domain) > 255 {
		return "", errNoSite
	}
	tenantID, err := s.Tenant(r.Context(), domain)
	if err != nil {
		return "", err
	}
	if tenantID == "" {
		return "", errNoSite
	}
	return tenantID, nil
}

func (s *Service) handlePublicList(k publicKind) httpx.HandlerFunc {
	return func(r *http.Request) (any, error) {
		tenantID, err := s.site(r, s.reads)
		if err != nil {
			return nil, err
		}
		paging, err := httpx.ParsePaging(r.URL.Query())
		if err != nil {
			return nil, err
		}
		current, size := paging.Current, min(paging.Size, publicMaxSize)
		key := fmt.Sprintf("%s|%s|list|%d|%d", tenantID, k.name, current, size)
		return s.cache.get(key, func() (any, error) { return k.list(r.Context(), tenantID, current, size) })
	}
}

func (s *Service) handlePublicDetail(k publicKind) httpx.HandlerFunc {
	return func(r *http.Request) (any, error) {
		tenantID, err := s.site(r, s.reads)
		if err != nil {
			return nil, err
		}
		id, err := httpx.QueryID(r, "id")
		if err != nil {
			return nil, err
		}
		key := fmt.Sprintf("%s|%s|detail|%d", tenantID, k.name, id)
		return s.cache.get(key, func() (any, error) { return k.detail(r.Context(), tenantID, id) })
	}
}

// published reads the published rows of one resource's table for a tenant:
// the resource's own store needs a signed-in caller, a website has none, so
// the tenant, soft-delete and publish predicates are written out here.
func published[T any](s *Service, res *resource.Resource[T]) publicKind {
	spec, meta := res.Spec(), res.Meta()
	where := func(q *bun.SelectQuery, tenantID string) *bun.SelectQuery {
		return q.Where("tenant_id = ? AND is_deleted = 0 AND is_published = 1", tenantID)
	}
	return publicKind{
		name: spec.Name,
		list: func(ctx context.Context, tenantID string, current, size int) (any, error) {
			var rows []T
			total, err := where(s.DB.NewSelect().Model(&rows), tenantID).OrderExpr(spec.DefaultOrder).
				Limit(int64(size)).Offset(int64((current - 1) * size)).ScanAndCount(ctx)
			if err != nil {
				return nil, err
			}
			out := make([]map[string]any, 0, len(rows))
			for i := range rows {
				m, err := s.publicRow(meta, tenantID, &rows[i])
				if err != nil {
					return nil, err
				}
				out = append(out, m)
			}
			return httpx.NewPage(out, int64(total), current, size), nil
		},
		detail: func(ctx context.Context, tenantID string, id wire.ID) (any, error) {
			var rows []T
			if err := where(s.DB.NewSelect().Model(&rows), tenantID).Where("id = ?", id).Limit(1).Scan(ctx); err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				return nil, httpx.ErrNotFound
			}
			return s.publicRow(meta, tenantID, &rows[0])
		},
	}
}

// publicRow is what a website sees of a row: its id, creation time and
// declared fields (no tenant, users, versions or flags), with file links
// signed for the reader.
func (s *Service) publicRow(meta *resource.Meta, tenantID string, row any) (map[string]any, error) {
	raw, err := json.Marshal(row)
	if err != nil {
		return nil, err
	}
	var all map[string]any
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, err
	}
	out := map[string]any{"id": all["id"], "createTime": all["createTime"]}
	for _, f := range meta.Fields {
		if f.Readonly || !f.Form || f.Name == "isPublished" {
			continue
		}
		v := all[f.Name]
		if link, ok := v.(string); ok && f.FileLink() && link != "" && s.env != nil && s.env.Files != nil {
			v = s.env.Files.Sign(tenantID, link)
		}
		out[f.Name] = v
	}
	return out, nil
}

// Application is the body of the public application form.
type Application struct {
	ApplicantName string  `json:"applicantName"`
	Phone         string  `json:"phone"`
	Email         string  `json:"email"`
	JobID         wire.ID `json:"jobId"`
	Content       string  `json:"content"`
}

// handleApply lands an application in the tenant's messages. The captcha is
// the login's (GET /api/blade-auth/oauth/captcha, answered in the
// Captcha-Key and Captcha-Code headers); every attempt counts against the
// caller's rate, so guessing captchas is as limited as sending.
func (s *Service) handleApply(r *http.Request) (any, error) {
	tenantID, err := s.site(r, s.applies)
	if err != nil {
		return nil, err
	}
	var in Application
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return nil, err
	}
	if !s.Captcha.Verify(r.Header.Get("Captcha-Key"), r.Header.Get("Captcha-Code")) {
		return nil, errCaptcha
	}
	ctx := i18n.With(r.Context(), i18n.FromRequest(r))
	msg := Message{ApplicantName: strings.TrimSpace(in.ApplicantName), Phone: strings.TrimSpace(in.Phone),
		Email: strings.TrimSpace(in.Email), JobID: in.JobID, Content: in.Content, ClientIP: clientIP(r)}
	msg.TenantID = tenantID
	present := map[string]bool{"applicantName": true, "phone": true, "email": true, "content": true}
	if err := s.Res.Message.Check(ctx, &msg, present, true); err != nil {
		return nil, err
	}
	if msg.JobID != 0 {
		n, err := s.DB.NewSelect().Table("bb_website_job").
			Where("id = ? AND tenant_id = ? AND is_deleted = 0 AND is_published = 1", msg.JobID, tenantID).Count(ctx)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, resource.FieldErrorOf(ctx, "jobId", errJob.Msg)
		}
	}
	if err := s.Res.Message.Insert(ctx, s.DB, &msg); err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgApplied}, nil
}

// clientIP is the peer address without the port.
func clientIP(r *http.Request) string {
	addr := r.RemoteAddr
	if i := strings.LastIndexByte(addr, ':'); i > 0 {
		addr = addr[:i]
	}
	return strings.Trim(addr, "[]")
}
