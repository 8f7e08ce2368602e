// Package stockdoc holds the material stock documents (domain.md §6):
// receipts, issues, returns, transfers, borrows and counts. Each is a
// resource declaration with lines; what they share is here: the document
// header and item line fields, the document states, the snapshot and unit
// conversion of item lines, and the lifecycle commands (domain.md §3):
// startProcess (which locks stock for outbound documents), the posting
// command (入库 / 出库) and cancellation (which releases or reverses).
// Stock itself moves only through internal/stock.
package stockdoc

import (
	"context"
	"strconv"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Stock statuses of a document (dictionary ready_state).
const (
	NotPosted = 1
	Posted    = 2
	Reversed  = 3
)

// Header are the fields every stock document has besides Base (whose
// status is the audit status). The handler and the remark close the form
// (tag last), after the document's own fields.
type Header struct {
	DocNo       string    `bun:"doc_no" json:"docNo" f:"label=单号|Document no.;max=40;search;sort"`
	DocDate     wire.Time `bun:"doc_date" json:"docDate" f:"label=单据日期|Document date;type=date;sort;default=today"`
	StockStatus int       `bun:"stock_status" json:"stockStatus" f:"label=出入库状态|Stock status;dict=ready_state;noform;ro;search;default=1"`
	PostedAt    wire.Time `bun:"posted_at" json:"postedAt" f:"label=过账时间|Posted at;noform;ro;sort"`
	PostedBy    wire.ID   `bun:"posted_by" json:"postedBy" f:"label=过账人|Posted by;type=id;noform;ro;hide"`
	HandlerID   wire.ID   `bun:"handler_id" json:"handlerId" f:"label=经办人|Handled by;ref=blade-user/user;hide;last"`
	Remark      string    `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide;last"`
}

func (h *Header) header() *Header { return h }

type hasHeader interface{ header() *Header }

// HeaderOf returns a document's header.
func HeaderOf[T any](row *T) *Header { return any(row).(hasHeader).header() }

// DocStates are the state rules of documents: approval.DocStates.
var DocStates = approval.DocStates

// ItemLine are the fields of a line that moves a material: the material
// and its snapshot, the quantity in the unit entered and in the base unit,
// the position and the batch. The warehouse is the document's.
type ItemLine struct {
	MaterialID   wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;req;msg=请选择物料|Please select the material;ref=bluebird-basic/material;filter=equal"`
	MaterialCode string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;search"`
	MaterialName string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;search"`
	Spec         string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform"`
	Model        string       `bun:"model" json:"model" f:"label=型号|Model;ro;noform"`
	Unit         string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;max=32"`
	UnitRatio    wire.Decimal `bun:"unit_ratio" json:"unitRatio" f:"label=换算比例|Unit ratio;scale=9;ro;noform;hide"`
	Qty          wire.Decimal `bun:"qty" json:"qty" f:"label=数量|Quantity;req;msg=请输入数量|Please enter the quantity;scale=6;positive"`
	BaseQty      wire.Decimal `bun:"base_qty" json:"baseQty" f:"label=基本数量|Base quantity;scale=6;ro;noform"`
	PositionID   wire.ID      `bun:"position_id" json:"positionId" f:"label=库位|Location;req;msg=请选择库位|Please select the location;ref=bluebird-basic/warehouseposition;filter=equal"`
	BatchNo      string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;max=64;search"`
}

func (l *ItemLine) itemLine() *ItemLine { return l }

type hasItemLine interface{ itemLine() *ItemLine }

// ItemLineOf returns a line's item fields.
func ItemLineOf[L any](line *L) *ItemLine { return any(line).(hasItemLine).itemLine() }

var (
	msgNoMaterial   = i18n.T("第%d行: 物料不存在或未生效", "Line %d: the material does not exist or is not effective")
	msgNoLines      = i18n.T("单据没有明细", "The document has no lines")
	msgNotApproved  = i18n.T("单据 %s 的审核状态为 %s, 审批通过后才能%s", "Document %s is %s: it must be approved before it can be %s")
	msgWrongPlace   = i18n.T("第%d行: 库位不属于单据的仓库", "Line %d: the location is not in the document's warehouse")
	msgBatchMissing = i18n.T("第%d行: 物料 %s 按批次管理, 请输入批次号", "Line %d: material %s is batch managed: enter a batch number")
)

// materialRow is what a line snapshots of its material.
type materialRow struct {
	ID           wire.ID `bun:"id"`
	MaterialCode string  `bun:"material_code"`
	MaterialName string  `bun:"material_name"`
	Spec         string  `bun:"spec"`
	Model        string  `bun:"model"`
	Unit         string  `bun:"unit"`
	BatchManaged int     `bun:"batch_managed"`
	ShelfLife    int     `bun:"shelf_life_days"`
	IsEffective  int     `bun:"is_effective"`
}

// fillItemLines snapshots each line's material, defaults its unit to the
// material's, converts the quantity into the base unit, checks its position
// lies in the document's warehouse, and, when batches are wanted, fills a
// missing batch number from the BATCH code rule (wantBatch false: outgoing
// lines, which must name the batch they take). The engine has already
// checked every reference is the caller's.
func fillItemLines(ctx context.Context, tx bun.Tx, numbers resource.Numberer, warehouseID wire.ID, lines []*ItemLine, wantBatch bool) (map[wire.ID]materialRow, error) {
	p := authz.From(ctx)
	if len(lines) == 0 {
		return nil, httpx.BadRequest(msgNoLines)
	}
	ids := make([]wire.ID, len(lines))
	positions := make([]wire.ID, len(lines))
	for i, l := range lines {
		ids[i], positions[i] = l.MaterialID, l.PositionID
	}
	var mats []materialRow
	if err := tx.NewSelect().Table("bb_material").Column("id", "material_code", "material_name", "spec", "model", "unit", "batch_managed", "shelf_life_days", "is_effective").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", p.TenantID, bun.In(ids)).Scan(ctx, &mats); err != nil {
		return nil, err
	}
	byID := make(map[wire.ID]materialRow, len(mats))
	for _, m := range mats {
		byID[m.ID] = m
	}
	var places []struct {
		ID          wire.ID `bun:"id"`
		WarehouseID wire.ID `bun:"warehouse_id"`
	}
	if err := tx.NewSelect().Table("bb_warehouse_position").Column("id", "warehouse_id").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", p.TenantID, bun.In(positions)).Scan(ctx, &places); err != nil {
		return nil, err
	}
	warehouseOf := map[wire.ID]wire.ID{}
	for _, pl := range places {
		warehouseOf[pl.ID] = pl.WarehouseID
	}
	for i, l := range lines {
		m, ok := byID[l.MaterialID]
		if !ok || m.IsEffective != inventory.Effective {
			return nil, resource.FieldErrorOf(ctx, "materialId", msgNoMaterial.Format(i+1))
		}
		if warehouseOf[l.PositionID] != warehouseID {
			return nil, httpx.BadRequest(msgWrongPlace.Format(i + 1))
		}
		l.MaterialCode, l.MaterialName, l.Spec, l.Model = m.MaterialCode, m.MaterialName, m.Spec, m.Model
		if l.Unit == "" {
			l.Unit = m.Unit
		}
		base, err := inventory.Convert(ctx, tx, p.TenantID, int(stock.Material), l.MaterialID, l.Unit, m.Unit, l.Qty)
		if err != nil {
			return nil, err
		}
		l.BaseQty = base
		l.UnitRatio = base.Div(l.Qty, 9, wire.RoundHalfUp)
		if m.BatchManaged == inventory.Yes && l.BatchNo == "" {
			if !wantBatch || numbers == nil {
				return nil, httpx.BadRequest(msgBatchMissing.Format(i+1, m.MaterialCode))
			}
			no, err := numbers.Next(ctx, tx, p.TenantID, "BATCH", func(string) string { return "" })
			if err != nil {
				return nil, err
			}
			l.BatchNo = no
		}
	}
	return byID, nil
}

// linesStayInWarehouse: a document whose warehouse changes without its
// lines being sent again keeps lines only in positions of the new one.
func linesStayInWarehouse(ctx context.Context, tx bun.Tx, table string, mainID, warehouseID wire.ID) error {
	n, err := tx.NewSelect().TableExpr(table+" AS d").Join("JOIN bb_warehouse_position AS p ON p.id = d.position_id").
		Where("d.main_id = ? AND d.is_deleted = 0 AND p.warehouse_id <> ?", mainID, warehouseID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.BadRequest(msgLinesElsewhere)
	}
	return nil
}

var msgLinesElsewhere = i18n.T("明细的库位不在新选的仓库中, 请同时修改明细", "The lines' locations are not in the new warehouse: change the lines too")

// Flow is the lifecycle of one kind of stock document.
type Flow[T any] struct {
	// BizType names the document in approval records and ledger rows.
	BizType string
	// Route is its flow_route dictionary key when it is not BizType in lower case.
	Route string
	// Title names a document in its approval record.
	Title func(*T) string
	// Outbound documents lock their stock at startProcess.
	Outbound bool
	// Lock answers the stock an outbound document holds.
	Lock func(ctx context.Context, tx bun.Tx, row *T) ([]stock.LockLine, error)
	// Post is the posting command: its name (submitInStockMaterial), button
	// suffix (in_stock), label (入库) and what it posts. A document that
	// never posts itself (a material return, whose receipt does) has none.
	Post        PostCommand[T]
	BeforeStart func(ctx context.Context, tx bun.Tx, rows []*T) error
	// BeforeVoid holds the document's own refusals (a downstream document
	// that references it), before stock is released or reversed.
	BeforeVoid func(ctx context.Context, tx bun.Tx, rows []*T) error
	// AfterReverse undoes what AfterPost did (plan and source quantities).
	AfterReverse func(ctx context.Context, tx bun.Tx, row *T) error
}

// PostCommand is a document's posting action.
type PostCommand[T any] struct {
	Name    string
	Aliases []string
	Button  string
	Label   i18n.Text
	// Posting builds the document's stock effect.
	Posting func(ctx context.Context, tx bun.Tx, row *T) (stock.Posting, error)
	// AfterPost updates what depends on the posting (plan, source lines).
	AfterPost func(ctx context.Context, tx bun.Tx, row *T, rows []*stock.LedgerRow) error
}

var msgPostDone = i18n.T("过账成功", "Posted")

// Commands are the document's startProcess, posting and cancellation.
func Commands[T any](ap *approval.Service, st *stock.Service, f Flow[T]) []resource.Command[T] {
	lc := approval.Lifecycle[T]{BizType: f.BizType, Void: true, Route: f.Route,
		No:    func(row *T) string { return HeaderOf(row).DocNo },
		Title: f.Title,
		// a rejected or deleted process releases the locks startProcess took,
		// the same release a void of an unposted document does
		Release: func(ctx context.Context, tx bun.Tx, rows []*T) error {
			if !f.Outbound {
				return nil
			}
			for _, row := range rows {
				if err := st.Release(ctx, tx, f.BizType, resource.BaseOf(row).ID); err != nil {
					return err
				}
			}
			return nil
		},
		BeforeStart: func(ctx context.Context, tx bun.Tx, rows []*T) error {
			if f.BeforeStart != nil {
				if err := f.BeforeStart(ctx, tx, rows); err != nil {
					return err
				}
			}
			if !f.Outbound {
				return nil
			}
			for _, row := range rows {
				lines, err := f.Lock(ctx, tx, row)
				if err != nil {
					return err
				}
				if err := st.Lock(ctx, tx, f.BizType, resource.BaseOf(row).ID, HeaderOf(row).DocNo, lines); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmds := approval.Commands(ap, lc)
	for i := range cmds {
		if cmds[i].Name != "cancellation" {
			continue
		}
		run := cmds[i].Run
		cmds[i].Run = func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T, req *resource.CommandRequest) (any, error) {
			if f.BeforeVoid != nil {
				if err := f.BeforeVoid(ctx, tx, rows); err != nil {
					return nil, err
				}
			}
			for _, row := range rows {
				h, id := HeaderOf(row), resource.BaseOf(row).ID
				if h.StockStatus != Posted {
					if err := st.Release(ctx, tx, f.BizType, id); err != nil {
						return nil, err
					}
					continue
				}
				if _, err := st.Reverse(ctx, tx, f.BizType, id, h.DocNo); err != nil {
					return nil, err
				}
				if f.AfterReverse != nil {
					if err := f.AfterReverse(ctx, tx, row); err != nil {
						return nil, err
					}
				}
				if err := res.SetFields(ctx, tx, []*T{row}, map[string]any{"stockStatus": Reversed}); err != nil {
					return nil, err
				}
			}
			return run(ctx, tx, res, rows, req)
		}
	}
	if f.Post.Name == "" {
		return cmds
	}
	post := resource.Command[T]{Name: f.Post.Name, Aliases: f.Post.Aliases, Button: f.Post.Button, Label: f.Post.Label, Done: msgPostDone, Row: true,
		From: &resource.States{Field: "stockStatus", Values: []int{NotPosted}},
		Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T, _ *resource.CommandRequest) (any, error) {
			for _, row := range rows {
				if resource.BaseOf(row).Status != approval.Approved {
					label := stateLabel(ctx, tx, res, resource.BaseOf(row).Status)
					return nil, httpx.BadRequest(msgNotApproved.Format(HeaderOf(row).DocNo, label, f.Post.Label.In(i18n.From(ctx))))
				}
				p, err := f.Post.Posting(ctx, tx, row)
				if err != nil {
					return nil, err
				}
				p.BizType, p.BizID, p.BizNo = f.BizType, resource.BaseOf(row).ID, HeaderOf(row).DocNo
				ledger, err := st.Post(ctx, tx, p)
				if err != nil {
					return nil, err
				}
				if f.Post.AfterPost != nil {
					if err := f.Post.AfterPost(ctx, tx, row, ledger); err != nil {
						return nil, err
					}
				}
				u := authz.From(ctx).UserID
				if err := res.SetFields(ctx, tx, []*T{row}, map[string]any{"stockStatus": Posted, "postedAt": wire.Now(), "postedBy": u}); err != nil {
					return nil, err
				}
			}
			return nil, nil
		}}
	return append(cmds, post)
}

// stateLabel names an audit status in the caller's language.
func stateLabel[T any](ctx context.Context, idb bun.IDB, res *resource.Resource[T], status int) string {
	return dictLabel(ctx, idb, res.Env(), "audit_status", status)
}

// dictLabel names a state in the caller's language: its label in the
// dictionary code, or the key when there is none.
func dictLabel(ctx context.Context, idb bun.IDB, env *resource.Env, code string, state int) string {
	key := strconv.Itoa(state)
	if env != nil && env.Dicts != nil {
		if l := env.Dicts.DictLabel(ctx, idb, code, false, key); l != "" {
			return l
		}
	}
	return key
}
