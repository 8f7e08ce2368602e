// Package logs is blade-log: the error log and the web console's upload of
// the errors it recorded in the browser (spec §2 error-log dialog,
// "SendLogs"), the API log of every /api request (api.go) and the usual log
// of who signed in, out, changed passwords, grants and tenants (usual.go),
// both written in batches off the request path, and their retention
// (service.go).
package logs

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// LogError is one error: raised in the server or reported by a browser.
type LogError struct {
	bun.BaseModel `bun:"table:blade_log_error"`
	resource.Base
	ServiceID     string `bun:"service_id" json:"serviceId" f:"label=服务ID|Service;search;filter=equal;max=32"`
	ServerHost    string `bun:"server_host" json:"serverHost" f:"label=服务器名|Server host;hide;max=255"`
	ServerIP      string `bun:"server_ip" json:"serverIp" f:"label=服务器IP|Server IP;hide;max=255"`
	Env           string `bun:"env" json:"env" f:"label=环境|Environment;hide;max=255"`
	Method        string `bun:"method" json:"method" f:"label=请求方法|Method;hide;max=10"`
	RequestURI    string `bun:"request_uri" json:"requestUri" f:"label=请求地址|Address;search;max=1000"`
	RemoteIP      string `bun:"remote_ip" json:"remoteIp" f:"label=操作IP|Remote IP;hide;max=255"`
	UserAgent     string `bun:"user_agent" json:"userAgent" f:"label=用户代理|User agent;hide;max=1000"`
	ExceptionName string `bun:"exception_name" json:"exceptionName" f:"label=类型|Type;search;filter=equal;max=255"`
	Message       string `bun:"message" json:"message" f:"label=内容|Content;search;type=text"`
	StackTrace    string `bun:"stack_trace" json:"stackTrace" f:"label=堆栈|Stack;type=text;hide;nofilter"`
	Params        string `bun:"params" json:"params" f:"label=附加信息|Info;type=text;hide;nofilter"`
	ClientTime    string `bun:"client_time" json:"clientTime" f:"label=发生时间|Occurred at;max=32;nofilter"`
	CreateBy      string `bun:"create_by" json:"createBy" f:"label=操作人|User;search;max=64"`
}

// NewErrorLog declares the error log: read only, by tenant administrators
// (the super user sees every tenant's).
func NewErrorLog() *resource.Resource[LogError] {
	return resource.New(resource.Spec{
		Service: "blade-log", Name: "error", Table: "blade_log_error", Label: i18n.T("错误日志", "Error log"),
		MenuCode: "log_error", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Super,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "create_time DESC, id DESC",
	}, resource.Hooks[LogError]{})
}

// ClientLogsPath receives the web console's error-log upload.
const ClientLogsPath = "/blade-log/error/client-logs"

// ServiceWeb is the service_id of errors reported by browsers.
const ServiceWeb = "bluebird-web"

// Limits of one upload: the browser keeps at most 500 entries.
const (
	maxEntries = 500
	maxMessage = 4000
	maxStack   = 16000
	maxInfo    = 4000
	maxURL     = 1000
	maxType    = 255
	maxTime    = 32
)

// ClientEntry is one entry of the browser's error log (spec §3: type, url,
// message, stack, time, info).
type ClientEntry struct {
	Type    string `json:"type"`
	URL     string `json:"url"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
	Time    string `json:"time"`
	Info    string `json:"info"`
}

var (
	msgEmpty   = i18n.T("没有可上传的日志", "There are no logs to upload")
	msgTooMany = i18n.T("一次最多上传 500 条日志", "At most 500 log entries can be uploaded at once")
	msgNoText  = i18n.T("日志内容不能为空", "A log entry needs a message")
)

// Mount adds the upload route; any signed-in user may report their browser's errors.
func (s *Service) Mount(r chi.Router) {
	r.Post(ClientLogsPath, httpx.Handle(resource.Guard(resource.AnyUser)(s.handleClientLogs)))
}

// handleClientLogs stores an uploaded error log in one transaction: all
// entries or none. Over-long texts are cut, not refused: a stack trace is
// worth keeping even when it is longer than the column allows.
func (s *Service) handleClientLogs(r *http.Request) (any, error) {
	var entries []ClientEntry
	if err := httpx.DecodeJSON(r, &entries); err != nil {
		return nil, err
	}
	switch {
	case len(entries) == 0:
		return nil, httpx.BadRequest(msgEmpty)
	case len(entries) > maxEntries:
		return nil, httpx.BadRequest(msgTooMany)
	}
	p := authz.From(r.Context())
	now := wire.Now()
	rows := make([]*LogError, 0, len(entries))
	for _, e := range entries {
		if strings.TrimSpace(e.Message) == "" {
			return nil, httpx.BadRequest(msgNoText)
		}
		row := &LogError{
			ServiceID: ServiceWeb, Env: "browser", Method: "CLIENT",
			RequestURI: clip(e.URL, maxURL), RemoteIP: clip(remoteIP(r), 255), UserAgent: clip(r.UserAgent(), 1000),
			ExceptionName: clip(e.Type, maxType), Message: clip(e.Message, maxMessage), StackTrace: clip(e.Stack, maxStack),
			Params: clip(e.Info, maxInfo), ClientTime: clip(e.Time, maxTime), CreateBy: clip(p.Account, 64),
		}
		row.ID, row.TenantID, row.CreateUser, row.CreateDept, row.UpdateUser = db.NewID(), p.TenantID, p.UserID, p.DeptID, p.UserID
		row.CreateTime, row.UpdateTime, row.Status, row.Version = now, now, 1, 1
		rows = append(rows, row)
	}
	if _, err := s.DB.NewInsert().Model(&rows).Exec(r.Context()); err != nil {
		return nil, err
	}
	return nil, nil
}

// remoteIP is the peer address without the port (no proxy headers: they are
// the client's word).
func remoteIP(r *http.Request) string {
	addr := r.RemoteAddr
	if i := strings.LastIndexByte(addr, ':'); i > 0 {
		addr = addr[:i]
	}
	return strings.Trim(addr, "[]")
}

// printable drops invalid UTF-8 and control characters: raw request text
// (a path or header the input check refuses further in) must not break the
// log's batch insert (PostgreSQL refuses NUL and invalid UTF-8).
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
