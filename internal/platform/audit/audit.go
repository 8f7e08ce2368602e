// Package audit carries "who did what" from the areas that do it to the
// area that keeps it, through two small interfaces: the usual log's events
// (logins, logouts, lockouts, password changes, grants, tenant changes) and
// the record of every file a caller takes away (Excel exports, stored file
// downloads). The areas hold a Recorder or a Downloads; blade-log and the
// monitor implement them (internal/logs, internal/monitor). A nil one
// records nothing, so an area works without them (tests, tools).
package audit

import (
	"context"
	"time"

	"github.com/bluebird/console/internal/platform/wire"
)

// Kinds of usual-log events.
const (
	Login       = "login"        // a successful sign-in
	LoginFailed = "login_failed" // a wrong password, or an attempt while locked
	Lockout     = "lockout"      // the failure that locked the account
	Logout      = "logout"
	Password    = "password" // a password changed or reset
	Grant       = "grant"    // menus, scopes or roles granted
	Tenant      = "tenant"   // a tenant created, changed or removed
)

// Event is one entry of the usual log. Who did it: TenantID, UserID and
// Account when the area knows better than the request's signed-in caller
// (a login has no caller yet); left empty, the caller's are used.
type Event struct {
	Kind     string
	Title    string // what happened, in a few words
	Data     string // the details: ids, names, values (never a secret)
	TenantID string
	UserID   wire.ID
	Account  string
}

// Recorder keeps usual-log events. Record must not block the request.
type Recorder interface {
	Record(ctx context.Context, e Event)
}

// Record sends e to r when there is one.
func Record(ctx context.Context, r Recorder, e Event) {
	if r != nil {
		r.Record(ctx, e)
	}
}

// Kinds of downloads.
const (
	Export = "export" // an Excel export of a list
	File   = "file"   // a stored file through its signed link
)

// Download is one file a caller took away. The caller (tenant, user) is
// read from ctx by the recorder unless TenantID is set (a signed file link
// needs no sign-in: the file's tenant is given).
type Download struct {
	Kind     string
	Target   string // the resource ("blade-system/post") or the stored file's key
	FileName string
	Rows     int   // exported rows; 0 for a file
	Bytes    int64 // bytes sent
	Status   int   // the HTTP status answered
	Elapsed  time.Duration
	TenantID string
}

// Downloads keeps download records. Record must not block the request.
type Downloads interface {
	RecordDownload(ctx context.Context, d Download)
}

// RecordDownload sends d to r when there is one.
func RecordDownload(ctx context.Context, r Downloads, d Download) {
	if r != nil {
		r.RecordDownload(ctx, d)
	}
}
