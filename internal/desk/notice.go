// Package desk is blade-desk's own part: notices, with a sanitised rich-text
// body and per-user read receipts, and the home page's summary of the
// tenant's key figures. (The leave process's blade-desk routes belong to the
// workflow, internal/flow.)
package desk

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Notice is one announcement of a tenant.
type Notice struct {
	bun.BaseModel `bun:"table:blade_notice"`
	resource.Base
	Title       string    `bun:"title" json:"title" f:"label=通知标题|Title;req;max=255;search"`
	Category    int       `bun:"category" json:"category" f:"label=通知类型|Type;req;dict=notice;search;msg=请选择通知类型|Please select the notice type"`
	ReleaseTime wire.Time `bun:"release_time" json:"releaseTime" f:"label=通知时间|Released at;sort;filter=date"`
	Content     string    `bun:"content" json:"content" f:"label=通知内容|Content;req;type=html;max=100000;hide;msg=通知内容不能为空|The notice needs some content"`
	// Read tells whether the caller has opened the notice (blade_notice_read).
	Read bool `bun:"-" json:"read"`
}

// NoticeRead is one user's receipt of having opened a notice.
type NoticeRead struct {
	bun.BaseModel `bun:"table:blade_notice_read"`
	NoticeID      wire.ID   `bun:"notice_id,pk"`
	UserID        wire.ID   `bun:"user_id,pk"`
	TenantID      string    `bun:"tenant_id"`
	ReadTime      wire.Time `bun:"read_time"`
}

// Notices serves blade-desk/notice.
type Notices struct {
	DB  *db.DB
	Res *resource.Resource[Notice]
}

// NewNotices declares the notice resource: read by those granted the 通知公告
// menu, written with its add, edit and delete buttons.
func NewNotices(d *db.DB) *Notices {
	n := &Notices{DB: d}
	n.Res = resource.New(resource.Spec{
		Service: "blade-desk", Name: "notice", Table: "blade_notice", Label: i18n.T("通知公告", "Notice"),
		MenuCode: "notice", Read: resource.Granted, Write: resource.Granted,
		DefaultOrder: "release_time DESC, id DESC", Title: "title",
	}, resource.Hooks[Notice]{
		Validate: n.validate,
		Enrich:   n.markRead,
		Routes:   map[string]httpx.HandlerFunc{"detail": n.handleDetail},
	})
	return n
}

// validate releases a new notice without a release time now. (The body,
// type=html, is sanitised by the engine: no reader, be it the bell, the
// home page, the detail view or an export, is ever sent a script.)
func (n *Notices) validate(_ context.Context, row *Notice, _ map[string]bool, isNew bool) error {
	if isNew && row.ReleaseTime.IsZero() {
		row.ReleaseTime = wire.Now()
	}
	return nil
}

// markRead fills Read for the caller.
func (n *Notices) markRead(ctx context.Context, idb bun.IDB, rows []Notice) error {
	p := authz.From(ctx)
	if p == nil || len(rows) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	var read []wire.ID
	if err := idb.NewSelect().Table("blade_notice_read").Column("notice_id").
		Where("user_id = ? AND notice_id IN (?)", p.UserID, bun.In(ids)).Scan(ctx, &read); err != nil {
		return err
	}
	seen := make(map[wire.ID]bool, len(read))
	for _, id := range read {
		seen[id] = true
	}
	for i := range rows {
		rows[i].Read = seen[rows[i].ID]
	}
	return nil
}

// handleDetail answers a notice and records that the caller has read it:
// opening a notice is reading it.
func (n *Notices) handleDetail(r *http.Request) (any, error) {
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	row, err := n.Res.Detail(ctx, n.DB, id)
	if err != nil {
		return nil, err
	}
	if !row.Read {
		p := authz.From(ctx)
		receipt := &NoticeRead{NoticeID: row.ID, UserID: p.UserID, TenantID: row.TenantID, ReadTime: wire.Now()}
		// two tabs opening it at once: the second finds the receipt there
		if _, err := n.DB.NewInsert().Model(receipt).On("CONFLICT (notice_id, user_id) DO NOTHING").Exec(ctx); err != nil {
			return nil, err
		}
	}
	row.Read = true
	return row, nil
}
