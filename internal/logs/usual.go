package logs

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// LogUsual is one event of the usual log: who did what (audit.Event).
type LogUsual struct {
	bun.BaseModel `bun:"table:blade_log_usual"`
	resource.Base
	LogTime    wire.Time `bun:"log_time" json:"logTime" f:"label=时间|Time;search;sort"`
	CreateBy   string    `bun:"create_by" json:"createBy" f:"label=操作人|User;search;max=64"`
	LogID      string    `bun:"log_id" json:"logId" f:"label=类型|Kind;search;filter=equal;dict=log_kind;max=32"`
	LogLevel   string    `bun:"log_level" json:"logLevel" f:"label=级别|Level;filter=equal;max=10"`
	Title      string    `bun:"title" json:"title" f:"label=操作|Action;search;max=255"`
	LogData    string    `bun:"log_data" json:"logData" f:"label=详情|Details;type=text;search"`
	RemoteIP   string    `bun:"remote_ip" json:"remoteIp" f:"label=操作IP|Remote IP;max=255"`
	Method     string    `bun:"method" json:"method" f:"label=请求方法|Method;hide;max=10"`
	RequestURI string    `bun:"request_uri" json:"requestUri" f:"label=请求地址|Address;hide;max=1000"`
	UserAgent  string    `bun:"user_agent" json:"userAgent" f:"label=用户代理|User agent;hide;max=1000"`
	ServiceID  string    `bun:"service_id" json:"serviceId" f:"label=服务ID|Service;hide;max=32"`
	ServerHost string    `bun:"server_host" json:"serverHost" f:"label=服务器名|Server host;hide;max=255"`
	Env        string    `bun:"env" json:"env" f:"label=环境|Environment;hide;max=255"`
}

// NewUsualLog declares the usual log: read only, by tenant administrators
// (the super user sees every tenant's).
func (s *Service) NewUsualLog() *resource.Resource[LogUsual] {
	return resource.New(resource.Spec{
		Service: "blade-log", Name: "usual", Table: "blade_log_usual", Label: i18n.T("通用日志", "Usual log"),
		MenuCode: "log_usual", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Super,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "log_time DESC, id DESC",
	}, resource.Hooks[LogUsual]{Query: resource.FlushFirst("blade_log_usual", s.Flush)})
}

// warnings are the event kinds logged at level WARN.
var warnings = map[string]bool{audit.LoginFailed: true, audit.Lockout: true}

// Record queues a usual-log event (audit.Recorder). Who: the event's own
// tenant and user when given, else the signed-in caller; where from: the
// request in ctx, when there is one.
func (s *Service) Record(ctx context.Context, e audit.Event) {
	row := &LogUsual{LogTime: wire.Now(), LogID: clip(e.Kind, 32), Title: clip(e.Title, 255), LogData: clip(e.Data, maxParams),
		LogLevel: "INFO", ServiceID: ServiceAPI, ServerHost: s.host, CreateBy: clip(e.Account, 64)}
	if warnings[e.Kind] {
		row.LogLevel = "WARN"
	}
	row.TenantID, row.CreateUser = e.TenantID, e.UserID
	if p := authz.From(ctx); p != nil && e.TenantID == "" {
		row.TenantID, row.CreateUser, row.CreateDept, row.CreateBy = p.TenantID, p.UserID, p.DeptID, clip(p.Account, 64)
	}
	if row.TenantID == "" {
		row.TenantID = authz.SuperTenant
	}
	if note, ok := ctx.Value(noteKey{}).(*requestNote); ok {
		r := note.request
		row.Method, row.RequestURI = r.Method, clip(printable(r.URL.Path), 1000)
		row.RemoteIP, row.UserAgent = clip(remoteIP(r), 255), clip(printable(r.UserAgent()), 1000)
	}
	s.usual.Add(row)
}
