package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// LogAPI is one /api request: who asked what, and how it went.
type LogAPI struct {
	bun.BaseModel `bun:"table:blade_log_api"`
	resource.Base
	LogTime    wire.Time `bun:"log_time" json:"logTime" f:"label=请求时间|Requested at;search;sort"`
	CreateBy   string    `bun:"create_by" json:"createBy" f:"label=操作人|User;search;max=64"`
	Method     string    `bun:"method" json:"method" f:"label=请求方法|Method;search;filter=equal;max=10"`
	RequestURI string    `bun:"request_uri" json:"requestUri" f:"label=请求地址|Address;search;max=1000"`
	HTTPStatus int       `bun:"http_status" json:"httpStatus" f:"label=状态码|Status;search;filter=equal;sort"`
	DurationMs int64     `bun:"duration_ms" json:"durationMs" f:"label=耗时(毫秒)|Duration (ms);sort;nofilter"`
	RemoteIP   string    `bun:"remote_ip" json:"remoteIp" f:"label=操作IP|Remote IP;max=255"`
	Title      string    `bun:"title" json:"title" f:"label=接口|Route;hide;max=255"`
	Params     string    `bun:"params" json:"params" f:"label=请求参数|Parameters;type=text;hide;nofilter"`
	UserAgent  string    `bun:"user_agent" json:"userAgent" f:"label=用户代理|User agent;hide;max=1000"`
	RequestID  string    `bun:"request_id" json:"requestId" f:"label=请求号|Request ID;hide;filter=equal;max=64"`
	ServiceID  string    `bun:"service_id" json:"serviceId" f:"label=服务ID|Service;hide;max=32"`
	ServerHost string    `bun:"server_host" json:"serverHost" f:"label=服务器名|Server host;hide;max=255"`
	Env        string    `bun:"env" json:"env" f:"label=环境|Environment;hide;max=255"`
}

// NewAPILog declares the API log: read only, by tenant administrators (the
// super user sees every tenant's). A list first writes what is queued, so
// the request just made is in it.
func (s *Service) NewAPILog() *resource.Resource[LogAPI] {
	return resource.New(resource.Spec{
		Service: "blade-log", Name: "api", Table: "blade_log_api", Label: i18n.T("接口日志", "API log"),
		MenuCode: "log_api", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Super,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "log_time DESC, id DESC",
	}, resource.Hooks[LogAPI]{Query: resource.FlushFirst("blade_log_api", s.Flush)})
}

// Limits of what one API log row keeps.
const (
	maxLoggedBody = 4 << 10 // a JSON or form body up to this size is logged, masked
	maxParams     = 8000
	// Mask replaces a secret's value in a logged parameter.
	Mask = "******"
)

// requestNote travels in the request's context from APILog (outermost) to
// Caller (after authentication): who called, with which parameters.
type requestNote struct {
	request   *http.Request
	principal *authz.Principal
	params    string
}

type noteKey struct{}

// APILog is the first middleware of /api: it times the request and queues
// its log row once answered. Caller, further in, notes the caller and the
// parameters.
func (s *Service) APILog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.SkipPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		note := &requestNote{request: r}
		rec := &httpx.StatusRecorder{ResponseWriter: w}
		r = r.WithContext(context.WithValue(r.Context(), noteKey{}, note))
		next.ServeHTTP(rec, r)
		status := rec.Status
		if status == 0 {
			status = http.StatusOK
		}
		row := &LogAPI{LogTime: wire.Time{Time: start.UTC().Truncate(time.Second)}, Method: r.Method,
			RequestURI: clip(printable(r.URL.Path), 1000), HTTPStatus: status, DurationMs: time.Since(start).Milliseconds(),
			RemoteIP: clip(remoteIP(r), 255), UserAgent: clip(printable(r.UserAgent()), 1000), RequestID: clip(printable(httpx.RequestID(r.Context())), 64),
			ServiceID: ServiceAPI, ServerHost: s.host, Params: note.params}
		if rc := chi.RouteContext(r.Context()); rc != nil {
			row.Title = clip(printable(r.Method+" "+rc.RoutePattern()), 255)
		}
		row.TenantID = authz.SuperTenant // an anonymous request belongs to the platform
		if p := note.principal; p != nil {
			row.TenantID, row.CreateUser, row.CreateDept, row.CreateBy = p.TenantID, p.UserID, p.DeptID, clip(p.Account, 64)
		}
		s.api.Add(row)
	})
}

// Caller goes after authentication and input cleaning: it notes the
// signed-in caller and the request's parameters, secrets masked.
func (s *Service) Caller(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if note, ok := r.Context().Value(noteKey{}).(*requestNote); ok {
			note.principal = authz.From(r.Context())
			note.params = requestParams(r)
		}
		next.ServeHTTP(w, r)
	})
}

// requestParams is the query string and a small form or JSON body, with
// the values of secret parameters masked. The body is read and put back.
func requestParams(r *http.Request) string {
	var b strings.Builder
	if r.URL.RawQuery != "" {
		b.WriteString(maskValues(r.URL.Query()))
	}
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return clip(b.String(), maxParams)
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	body := ""
	switch {
	case ct == "multipart/form-data":
		body = "(multipart)"
	case r.ContentLength < 0 || r.ContentLength > maxLoggedBody:
		body = "(body not logged: larger than 4 KB)"
	default:
		raw, err := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		if err != nil {
			break
		}
		if ct == "application/x-www-form-urlencoded" {
			if form, err := url.ParseQuery(string(raw)); err == nil {
				body = maskValues(form)
			}
		} else {
			body = maskJSON(raw)
		}
	}
	if body != "" {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(body)
	}
	return clip(b.String(), maxParams)
}

// secretWords: a parameter whose name (lower case, without - and _)
// contains one of them holds a secret.
var secretWords = []string{"password", "passwd", "pwd", "secret", "token", "credential", "signature",
	"accesskey", "secretkey", "apikey", "privatekey", "appkey", "authorization"}

// nameSeparators are left out of a parameter name before it is matched.
var nameSeparators = strings.NewReplacer("-", "", "_", "")

// IsSecret tells whether a parameter of that name holds a secret. It runs
// for every parameter of every request: the replacer is built once (one
// per call was a quarter of the API log's allocations).
func IsSecret(name string) bool {
	n := strings.ToLower(nameSeparators.Replace(name))
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// maskValues encodes query or form values with secrets masked.
func maskValues(v url.Values) string {
	for k, vals := range v {
		if IsSecret(k) {
			for i := range vals {
				vals[i] = Mask
			}
		}
	}
	s, _ := url.QueryUnescape(v.Encode())
	return s
}

// maskJSON re-encodes a JSON body with the values of secret keys masked, at
// any depth. A body that is not JSON is not logged: it could hide a secret
// where no key names it.
func maskJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "(body not logged: not JSON)"
	}
	out, err := json.Marshal(maskAny(v))
	if err != nil {
		return ""
	}
	return string(out)
}

func maskAny(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if IsSecret(k) {
				x[k] = Mask
			} else {
				x[k] = maskAny(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = maskAny(e)
		}
	}
	return v
}
