// Package monitor is the monitoring area: the goods-download monitor
// (monitor/goodsDownloadM: every Excel export and stored-file download,
// which an administrator marks as checked) and the online-duration
// statistics from the web console's heartbeats (log-service/active).
package monitor

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/batch"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// GoodsDownload is one file a caller took away (audit.Download).
type GoodsDownload struct {
	bun.BaseModel `bun:"table:bb_goods_download"`
	resource.Base
	DownloadTime wire.Time `bun:"download_time" json:"downloadTime" f:"label=下载时间|Downloaded at;search;sort;ro"`
	CreateBy     string    `bun:"create_by" json:"createBy" f:"label=下载人|User;search;max=64;ro"`
	Kind         string    `bun:"kind" json:"kind" f:"label=类型|Kind;search;filter=equal;dict=download_kind;max=16;ro"`
	Target       string    `bun:"target" json:"target" f:"label=内容|Content;search;max=255;ro"`
	FileName     string    `bun:"file_name" json:"fileName" f:"label=文件名|File name;max=255;ro"`
	RowCount     int       `bun:"row_count" json:"rowCount" f:"label=行数|Rows;sort;nofilter;ro"`
	ByteSize     int64     `bun:"byte_size" json:"byteSize" f:"label=大小(字节)|Size (bytes);sort;nofilter;ro"`
	HTTPStatus   int       `bun:"http_status" json:"httpStatus" f:"label=状态码|Status;search;filter=equal;ro"`
	DurationMs   int64     `bun:"duration_ms" json:"durationMs" f:"label=耗时(毫秒)|Duration (ms);hide;nofilter;ro"`
	Checked      int       `bun:"checked" json:"checked" f:"label=已检查|Checked;search;filter=equal;dict=yes_no;ro"`
	CheckBy      string    `bun:"check_by" json:"checkBy" f:"label=检查人|Checked by;max=64;ro"`
	CheckTime    wire.Time `bun:"check_time" json:"checkTime" f:"label=检查时间|Checked at;ro;nofilter"`
}

var (
	msgCheck     = i18n.T("标记已检查", "Mark as checked")
	msgCheckAsk  = i18n.T("确定将选择的下载记录标记为已检查?", "Mark the selected downloads as checked?")
	msgCheckDone = i18n.T("已标记为已检查", "Marked as checked")
)

// Service is the monitoring area.
type Service struct {
	DB        *db.DB
	Downloads *resource.Resource[GoodsDownload]
	Active    *resource.Resource[UserActive]

	queue *batch.Writer[GoodsDownload]
}

// New starts the download recorder's writer; Close stops it.
func New(d *db.DB, o batch.Options) *Service {
	s := &Service{DB: d}
	s.queue = batch.New("bb_goods_download", o, func(ctx context.Context, rows []*GoodsDownload) error {
		now := wire.Now()
		for _, r := range rows {
			r.ID, r.CreateTime, r.UpdateTime, r.UpdateUser, r.Status, r.Version = db.NewID(), now, now, r.CreateUser, 1, 1
		}
		_, err := d.NewInsert().Model(&rows).Exec(ctx)
		return err
	})
	s.Downloads = s.declareDownloads()
	s.Active = s.declareActive()
	return s
}

// Close writes the queued download records and stops the writer.
func (s *Service) Close() { s.queue.Close() }

// Flush writes every download record queued so far.
func (s *Service) Flush(ctx context.Context) error { return s.queue.Flush(ctx) }

// declareDownloads: the monitor is read by tenant administrators (the
// super user sees every tenant's); the one write is marking rows checked,
// the update command, which needs the goods_download_edit button.
func (s *Service) declareDownloads() *resource.Resource[GoodsDownload] {
	return resource.New(resource.Spec{
		Service: "monitor", Name: "goodsDownloadM", Table: "bb_goods_download", Label: i18n.T("货物下载记录", "Download record"),
		MenuCode: "goods_download", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Admin,
		Routes: []string{"page", "detail", "export"}, DefaultOrder: "download_time DESC, id DESC",
	}, resource.Hooks[GoodsDownload]{
		Query: resource.FlushFirst("bb_goods_download", s.Flush), // the export just made is in the page
		Commands: []resource.Command[GoodsDownload]{{
			Name: "update", Label: msgCheck, Button: "edit", Confirm: msgCheckAsk, Done: msgCheckDone,
			Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[GoodsDownload], rows []*GoodsDownload, _ *resource.CommandRequest) (any, error) {
				p := authz.From(ctx)
				return nil, res.SetFields(ctx, tx, rows, map[string]any{"checked": 1, "checkBy": p.Account, "checkTime": wire.Now()})
			}}},
	})
}

// RecordDownload queues a download record (audit.Downloads). The caller is
// the signed-in one, or, for a signed link nobody signed in to, the file's
// tenant with no user.
func (s *Service) RecordDownload(ctx context.Context, d audit.Download) {
	row := &GoodsDownload{DownloadTime: wire.Now(), Kind: d.Kind, Target: clip(d.Target, 255), FileName: clip(d.FileName, 255),
		RowCount: d.Rows, ByteSize: d.Bytes, HTTPStatus: d.Status, DurationMs: d.Elapsed.Milliseconds()}
	if p := authz.From(ctx); p != nil {
		row.TenantID, row.CreateUser, row.CreateDept, row.CreateBy = p.TenantID, p.UserID, p.DeptID, clip(p.Account, 64)
	}
	if d.TenantID != "" && row.TenantID != d.TenantID {
		// a signed link followed without a sign-in, or from another tenant:
		// the record is the file's tenant's, who took it is the link's holder
		row.TenantID, row.CreateUser, row.CreateDept = d.TenantID, 0, 0
	}
	if row.TenantID == "" {
		return // nobody's: nothing a tenant administrator could check
	}
	s.queue.Add(row)
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
