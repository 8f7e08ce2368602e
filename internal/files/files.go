// Package files is the blade-resource upload area: oss put-file stores an
// upload under a generated name after checking its type from its content
// and its size, records it in blade_attach, and answers a signed link; the
// file route serves stored files to whoever presents a valid signed link.
package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/storage"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Routes and limits.
const (
	PutFilePath = "/api/blade-resource/oss/endpoint/put-file"
	// FilePrefix is the public file route; the rest of the path is the key.
	FilePrefix = "/api/blade-resource/oss/endpoint/file/"

	MaxFileSize   = 10 << 20  // any accepted upload
	AvatarMaxSize = 500 << 10 // kind=avatar: spec §5/§9, 500kb
	// VideoMaxSize is the default limit of kind=video (Service.VideoMax).
	VideoMaxSize = 200 << 20
	// MaxRequestBody is the body limit of put-file: the file plus room for the multipart framing.
	MaxRequestBody = MaxFileSize + multipartRoom
	multipartRoom  = 1 << 20
	// LinkTTL is how long an issued link stays valid (long enough for an avatar).
	LinkTTL = 7 * 24 * time.Hour
)

var (
	errNoFile     = httpx.BadRequest(i18n.T("请选择要上传的文件", "Choose a file to upload"))
	errAvatarType = httpx.BadRequest(i18n.T("上传头像图片只能是 JPG/PNG 格式!", "Avatar images can only be JPG/PNG!"))
	errAvatarSize = httpx.BadRequest(i18n.T("上传头像图片大小不能超过 500KB!", "Avatar images cannot be larger than 500KB!"))
	errType       = httpx.BadRequest(i18n.T("不支持的文件类型,只能上传图片(JPG/PNG/GIF/WEBP)、PDF、Word/Excel/PowerPoint 文档或文本文件",
		"This file type is not allowed: upload an image (JPG/PNG/GIF/WEBP), a PDF, a Word/Excel/PowerPoint document or a text file"))
	errSize = httpx.BadRequest(i18n.T("上传文件大小不能超过 10MB!", "Files cannot be larger than 10MB!"))
	// The limit is the service's (VideoMax), so the message says it.
	msgVideoSize = i18n.T("上传视频大小不能超过 %dMB!", "Videos cannot be larger than %dMB!")
	errVideoType = httpx.BadRequest(i18n.T("视频只能是 MP4 或 WebM 格式!", "Videos can only be MP4 or WebM!"))
	errLink      = &httpx.Error{Status: 403, Msg: i18n.T("文件链接无效或已过期", "The file link is invalid or has expired")}
)

// Attach is a row of blade_attach: one upload, or a link registered by
// attach/submit. Everything but the display name is set by the server.
type Attach struct {
	bun.BaseModel `bun:"table:blade_attach"`
	resource.Base
	OriginalName string  `bun:"original_name" json:"originalName" f:"label=附件原名|Original name;req;max=500;search;sort"`
	Link         string  `bun:"link" json:"link" f:"label=附件地址|Link;req;once;max=1000;format=url;hide;nofilter"`
	DomainURL    string  `bun:"domain_url" json:"domainUrl" f:"label=附件域名|Domain;ro;max=500;hide"`
	Name         string  `bun:"name" json:"name" f:"label=附件名称|Name;ro;max=500;search"`
	Extension    string  `bun:"extension" json:"extension" f:"label=附件拓展名|Extension;ro;max=12;search;filter=equal"`
	AttachSize   int64   `bun:"attach_size" json:"attachSize" f:"label=附件大小|Size;ro;sort"`
	ContentType  string  `bun:"content_type" json:"contentType" f:"label=文件类型|Type;ro;max=100;hide"`
	OssID        wire.ID `bun:"oss_id" json:"ossId" f:"label=存储配置|Storage;ro;hide;nofilter"`
}

// ExternalOss is the oss_id of a link registered without an upload: there
// is no object behind it to serve or remove.
const ExternalOss wire.ID = -1

// Service holds the store, the database and the link signing key.
type Service struct {
	DB *db.DB
	// Store is the console's own disk: uploads go there unless the tenant
	// enabled another object store (oss.go).
	Store storage.Store
	TTL   time.Duration    // link lifetime; LinkTTL when zero
	Now   func() time.Time // clock; time.Now when nil
	// Downloads records the files sent (the goods-download monitor); nil records nothing.
	Downloads audit.Downloads
	// VideoMax is the size limit of a video upload (kind=video); VideoMaxSize when zero.
	VideoMax int64
	// Outbound is what tenants' S3 endpoints may reach; nil refuses every
	// internal address (outbound.Policy).
	Outbound      *outbound.Policy
	tenantClients outbound.Lazy

	signKey []byte

	// The declared resources (MountResources): attach rows and oss configurations.
	Attaches *resource.Resource[Attach]
	Configs  *resource.Resource[Oss]
}

// New builds the service; signKey must be secret and stable across restarts
// and instances (links issued by one instance are honoured by the others).
func New(d *db.DB, store storage.Store, signKey []byte) *Service {
	return &Service{DB: d, Store: store, signKey: signKey}
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) videoMax() int64 {
	if s.VideoMax > 0 {
		return s.VideoMax
	}
	return VideoMaxSize
}

// BodyLimit is the request body limit of put-file: the largest file its
// kind accepts plus room for the multipart framing.
func (s *Service) BodyLimit(r *http.Request) int64 {
	if r.URL.Query().Get("kind") == "video" {
		return s.videoMax() + multipartRoom
	}
	return MaxRequestBody
}

func (s *Service) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return LinkTTL
}

// Mount adds the routes to the /api router. The file route must be public
// (the app lists FilePrefix among its public paths): <img src> sends no token.
func (s *Service) Mount(r chi.Router) {
	r.Post(strings.TrimPrefix(PutFilePath, "/api"), httpx.Handle(s.handlePutFile))
	file := strings.TrimPrefix(FilePrefix, "/api") + "*"
	r.Get(file, s.handleFile)
	r.Head(file, s.handleFile)
}

// PutResult is the data of a put-file answer.
type PutResult struct {
	Link         string  `json:"link"`
	Domain       string  `json:"domain"`
	Name         string  `json:"name"`
	OriginalName string  `json:"originalName"`
	AttachID     wire.ID `json:"attachId"`
}

func (s *Service) handlePutFile(r *http.Request) (any, error) {
	p := authz.From(r.Context())
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	// Whatever happens, read the rest of the (limited) body so that the client
	// gets the answer instead of a reset connection.
	defer io.Copy(io.Discard, r.Body)
	avatar := false
	switch r.URL.Query().Get("kind") {
	case "":
	case "avatar":
		avatar = true
	case "video":
		return s.putVideo(r, p)
	default:
		return nil, httpx.InvalidParam("kind")
	}
	limit := int64(MaxFileSize)
	if avatar {
		limit = AvatarMaxSize
	}
	data, clientName, err := readFilePart(r, limit)
	if err != nil {
		return nil, err
	}
	k, ok := detect(data, clientName)
	switch {
	case avatar && (!ok || (k.ContentType != "image/jpeg" && k.ContentType != "image/png")):
		return nil, errAvatarType
	case avatar && int64(len(data)) > limit:
		return nil, errAvatarSize
	case int64(len(data)) > limit:
		return nil, errSize
	case !ok:
		return nil, errType
	}
	return s.save(r.Context(), p, bytes.NewReader(data), int64(len(data)), k, clientName)
}

// putVideo stores a video upload. Videos are up to VideoMax, so the part
// goes to a temporary file rather than memory, and its type is read from
// its first bytes: MP4 or WebM only.
func (s *Service) putVideo(r *http.Request, p *authz.Principal) (*PutResult, error) {
	part, err := filePart(r)
	if err != nil {
		return nil, err
	}
	defer part.Close()
	tmp, err := os.CreateTemp("", "bluebird-upload-*")
	if err != nil {
		return nil, err
	}
	defer func() { tmp.Close(); os.Remove(tmp.Name()) }()
	limit := s.videoMax()
	size, err := io.Copy(tmp, io.LimitReader(part, limit+1))
	switch {
	case err != nil:
		return nil, bodyError(err)
	case size == 0:
		return nil, errNoFile
	case size > limit:
		return nil, httpx.Badf(msgVideoSize.Zh, msgVideoSize.En, limit>>20)
	}
	head := make([]byte, 512)
	n, err := tmp.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	k, ok := detectVideo(head[:n])
	if !ok {
		return nil, errVideoType
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return s.save(r.Context(), p, tmp, size, k, cleanName(part.FileName()))
}

// readFilePart streams the multipart body to the part named "file" and reads
// at most limit+1 bytes of it; the caller tells "too large" by the length.
func readFilePart(r *http.Request, limit int64) ([]byte, string, error) {
	part, err := filePart(r)
	if err != nil {
		return nil, "", err
	}
	defer part.Close()
	data, err := io.ReadAll(io.LimitReader(part, limit+1))
	if err != nil {
		return nil, "", bodyError(err)
	}
	if len(data) == 0 {
		return nil, "", errNoFile
	}
	return data, cleanName(part.FileName()), nil
}

// filePart streams the multipart body to the part named "file".
func filePart(r *http.Request) (*multipart.Part, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, errNoFile
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, errNoFile
		}
		if err != nil {
			return nil, bodyError(err)
		}
		if part.FormName() == "file" {
			return part, nil
		}
		part.Close()
	}
}

func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return httpx.ErrBodyTooLarge
	}
	return errNoFile
}

// cleanName keeps the last path element of a client's file name, without
// control characters, at most 200 characters; it is only ever displayed.
func cleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > 200 {
		name = string([]rune(name)[:200])
	}
	return name
}

func (s *Service) save(ctx context.Context, p *authz.Principal, body io.Reader, size int64, k kind, clientName string) (*PutResult, error) {
	now := s.now().UTC()
	var rnd [16]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/%04d/%02d/%s.%s", p.TenantID, now.Year(), int(now.Month()), hex.EncodeToString(rnd[:]), k.Ext)
	if !storage.ValidKey(key) {
		return nil, fmt.Errorf("files: generated key %q is not valid", key)
	}
	ossID, store, domain, err := s.target(ctx, p.TenantID)
	if err != nil {
		return nil, storeFailed(ctx, p.TenantID, err)
	}
	if err := store.Put(ctx, key, body, size, k.ContentType); err != nil {
		return nil, storeFailed(ctx, p.TenantID, err)
	}
	link := s.Link(key, now.Add(s.ttl()))
	if clientName == "" {
		clientName = path.Base(key)
	}
	t := wire.Now()
	a := &Attach{Link: link, DomainURL: domain, Name: key, OriginalName: clientName, Extension: k.Ext,
		AttachSize: size, ContentType: k.ContentType, OssID: ossID}
	a.ID, a.TenantID, a.CreateUser, a.CreateDept, a.UpdateUser = db.NewID(), p.TenantID, p.UserID, p.DeptID, p.UserID
	a.CreateTime, a.UpdateTime, a.Status, a.Version = t, t, 1, 1
	if _, err := s.DB.NewInsert().Model(a).Exec(ctx); err != nil {
		_ = store.Delete(context.WithoutCancel(ctx), key)
		return nil, err
	}
	return &PutResult{Link: link, Domain: domain, Name: key, OriginalName: clientName, AttachID: a.ID}, nil
}

// handleFile serves a stored file to the holder of a valid signed link. The
// upload's record must still exist: removing the attach row revokes its links.
func (s *Service) handleFile(w http.ResponseWriter, r *http.Request) {
	key := chi.URLParam(r, "*")
	q := r.URL.Query()
	if !storage.ValidKey(key) || !s.verify(key, q) {
		httpx.WriteError(w, r, errLink)
		return
	}
	ctx := r.Context()
	var row Attach
	// Unscoped by tenant on purpose: the signature is the authorisation.
	err := s.DB.NewSelect().Model(&row).Column("original_name", "oss_id").
		Where("name = ?", key).Where("is_deleted = 0").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || row.OssID == ExternalOss {
		httpx.WriteError(w, r, httpx.ErrNotFound)
		return
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	orig := row.OriginalName
	store, err := s.storeOf(ctx, row.OssID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	// S3 objects stream through this route rather than a presigned URL:
	// the link stays ours (signed, revoked with its row, with our
	// disposition and sandbox headers), and the bucket need not be
	// reachable from the browser.
	rc, info, err := store.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		httpx.WriteError(w, r, httpx.ErrNotFound)
		return
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rc.Close()

	h := w.Header()
	h.Set("Content-Type", info.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	disposition := "attachment"
	if (strings.HasPrefix(info.ContentType, "image/") || strings.HasPrefix(info.ContentType, "video/")) && q.Get("download") == "" {
		// so an avatar renders when opened and a video plays (<img> and
		// <video> ignore the header anyway); a player's range requests are
		// not downloads to record
		disposition = "inline"
	}
	if orig == "" {
		orig = path.Base(key)
	}
	if cd := mime.FormatMediaType(disposition, map[string]string{"filename": orig}); cd != "" {
		h.Set("Content-Disposition", cd)
	} else {
		h.Set("Content-Disposition", disposition)
	}
	if disposition == "attachment" {
		var recorded func()
		w, recorded = s.recordDownload(w, r, key, orig) // downloads.go
		defer recorded()
	}
	// Cache privately, never past the link's expiry.
	exp, _ := strconv.ParseInt(q.Get("expires"), 10, 64)
	age := min(exp-s.now().Unix(), 86400)
	h.Set("Cache-Control", "private, max-age="+strconv.FormatInt(max(age, 0), 10))

	if rs, ok := rc.(io.ReadSeeker); ok {
		http.ServeContent(w, r, "", info.ModTime, rs)
		return
	}
	h.Set("Content-Length", strconv.FormatInt(info.Size, 10))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = io.Copy(w, rc)
}

var errLinkNotOwned = i18n.T("只能使用本租户已上传的文件", "Only files uploaded in your own tenant can be used")

// CheckLink is what a field holding a file link accepts (resource.FileLinks):
// a link to a live upload of tenantID, given signed or not. It answers the
// link to store, without a signature (rows keep the key; reads re-sign it).
func (s *Service) CheckLink(ctx context.Context, idb bun.IDB, tenantID, link string) (string, error) {
	key, ours := keyOf(link)
	if !ours || !ownedKey(tenantID, key) {
		return "", httpx.BadRequest(errLinkNotOwned)
	}
	n, err := idb.NewSelect().Model((*Attach)(nil)).
		Where("name = ? AND tenant_id = ? AND is_deleted = 0", key, tenantID).Count(ctx)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", httpx.BadRequest(errLinkNotOwned)
	}
	return FilePrefix + key, nil
}
