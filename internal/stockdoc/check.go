package stockdoc

import (
	"context"
	"slices"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Stocktaking (domain.md §6.6). A check names a warehouse, optionally some
// of its positions (each with its subtree) and some materials. startCount
// snapshots every non-zero bucket in that scope into lines (bookQty, the
// item's average cost) and freezes the places; saveCheckResult records the
// counted quantities (new combinations become added lines) and, finishing,
// unfreezes and totals the differences; startProcess approves the counted
// check and posts the differences at once (CHECK_GAIN at the current
// average, CHECK_LOSS), which makes it ADJUSTED; cancellation unfreezes a
// check not yet adjusted, and reverses the adjustment of one that is.

// Check states (dictionary check_status).
const (
	CheckDraft    = 1
	CheckCounting = 2
	CheckCounted  = 3
	CheckAdjusted = 4
	CheckVoided   = 5
)

// Material scopes (dictionary check_scope).
const (
	ScopeAll      = 1
	ScopeCategory = 2
	ScopeList     = 3
)

const bizMaterialCheck = "MATERIAL_CHECK"

// checkButton is the button (盘点结果) that records counts; editButton sets
// a check up and starts its count.
const (
	checkButton = "material_check_check"
	editButton  = "material_check_edit"
)

// MaterialCheck is a stocktaking document.
type MaterialCheck struct {
	bun.BaseModel `bun:"table:bb_material_check"`
	resource.Base
	DocNo         string                `bun:"doc_no" json:"docNo" f:"label=盘点单号|Check no.;max=40;search;sort"`
	DocDate       wire.Time             `bun:"doc_date" json:"docDate" f:"label=单据日期|Document date;type=date;sort;default=today"`
	WarehouseID   wire.ID               `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;req;msg=请选择仓库|Please select the warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	PositionIDs   string                `bun:"position_ids" json:"positionIds" f:"label=盘点库位|Locations;type=tree;multi;tree=/api/bluebird-basic/warehouseposition/tree;ref=bluebird-basic/warehouseposition;nofilter;hide"`
	MaterialScope int                   `bun:"material_scope" json:"materialScope" f:"label=物料范围|Material scope;dict=check_scope;default=1"`
	MaterialIDs   string                `bun:"material_ids" json:"materialIds" f:"label=盘点物料|Materials;multi;ref=bluebird-basic/material;nofilter;hide"`
	CheckType     int                   `bun:"check_type" json:"checkType" f:"label=盘点类型|Check type;dict=check_type;search;default=1"`
	BlindCount    int                   `bun:"blind_count" json:"blindCount" f:"label=盲盘|Blind count;dict=business_yes_no;default=1"`
	CheckerID     wire.ID               `bun:"checker_id" json:"checkerId" f:"label=盘点人|Counted by;ref=blade-user/user;hide"`
	CheckStatus   int                   `bun:"check_status" json:"checkStatus" f:"label=盘点状态|Check status;dict=check_status;noform;search"`
	StartTime     wire.Time             `bun:"start_time" json:"startTime" f:"label=开始时间|Started at;ro;noform;sort"`
	FinishTime    wire.Time             `bun:"finish_time" json:"finishTime" f:"label=完成时间|Finished at;ro;noform;sort"`
	AdjustedAt    wire.Time             `bun:"adjusted_at" json:"adjustedAt" f:"label=调整时间|Adjusted at;ro;noform;hide"`
	GainQty       wire.Decimal          `bun:"gain_qty" json:"gainQty" f:"label=盘盈数量|Gain quantity;scale=6;ro;noform"`
	LossQty       wire.Decimal          `bun:"loss_qty" json:"lossQty" f:"label=盘亏数量|Loss quantity;scale=6;ro;noform"`
	GainAmount    wire.Decimal          `bun:"gain_amount" json:"gainAmount" f:"label=盘盈金额|Gain amount;scale=4;precision=18;ro;noform"`
	LossAmount    wire.Decimal          `bun:"loss_amount" json:"lossAmount" f:"label=盘亏金额|Loss amount;scale=4;precision=18;ro;noform"`
	Remark        string                `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	Details       []MaterialCheckDetail `bun:"-" json:"details"`
	WarehouseName string                `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
}

// MaterialCheckDetail is one counted bucket. Only actualQty and reason are
// written by the line's own submit; everything else comes from the snapshot
// and the count.
type MaterialCheckDetail struct {
	bun.BaseModel `bun:"table:bb_material_check_detail"`
	resource.Base
	MainID       wire.ID      `bun:"main_id" json:"mainId" f:"label=盘点单|Check;ref=bluebird-basic/checkmaterial;ro;hide;noform;filter=equal"`
	MaterialID   wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;ref=bluebird-basic/material;ro;noform;filter=equal"`
	MaterialCode string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;search"`
	MaterialName string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;search"`
	Spec         string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform"`
	Model        string       `bun:"model" json:"model" f:"label=型号|Model;ro;noform"`
	Unit         string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;ro;noform"`
	PositionID   wire.ID      `bun:"position_id" json:"positionId" f:"label=库位|Location;ref=bluebird-basic/warehouseposition;ro;noform;filter=equal"`
	BatchNo      string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;ro;noform;search"`
	BookQty      wire.Decimal `bun:"book_qty" json:"bookQty" f:"label=账面数量|Book quantity;scale=6;ro;noform"`
	ActualQty    wire.Decimal `bun:"actual_qty" json:"actualQty" f:"label=实盘数量|Counted quantity;scale=6;min=0"`
	DiffQty      wire.Decimal `bun:"diff_qty" json:"diffQty" f:"label=差异数量|Difference;scale=6;ro;noform"`
	UnitCost     wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	DiffAmount   wire.Decimal `bun:"diff_amount" json:"diffAmount" f:"label=差异金额|Difference amount;scale=4;precision=18;ro;noform"`
	CountedBy    wire.ID      `bun:"counted_by" json:"countedBy" f:"label=盘点人|Counted by;type=id;ro;noform;hide"`
	CountedAt    wire.Time    `bun:"counted_at" json:"countedAt" f:"label=盘点时间|Counted at;ro;noform"`
	Reason       string       `bun:"reason" json:"reason" f:"label=差异原因|Reason;max=500"`
	IsAdded      int          `bun:"is_added" json:"isAdded" f:"label=盘点新增|Found in count;dict=business_yes_no;ro;noform"`
}

var (
	msgStartCount     = i18n.T("开始盘点", "Start count")
	msgStartCountDone = i18n.T("已开始盘点, 盘点范围已冻结", "Counting: the places are frozen")
	msgCountLocked    = i18n.T("%s 在 %s 有 %s 被单据锁定, 请先完成或撤回待出库单据再盘点", "%s at %s has %s held by documents: post or withdraw them before the count")
	msgCountOverlap   = i18n.T("盘点范围与正在进行的盘点单 %s 重叠", "The places overlap those of check %s, which is being counted")
	msgCheckLines     = i18n.T("盘点明细由开始盘点和盘点结果生成, 不能直接编辑", "Check lines come from starting the count and recording results: they cannot be edited here")
	msgCategoryScope  = i18n.T("暂不支持按分类盘点, 请选择全部物料或指定物料", "Counting by category is not available: choose all materials or selected materials")
	msgListScope      = i18n.T("请选择盘点物料", "Please select the materials to count")
	msgScopePlace     = i18n.T("盘点库位不属于所选仓库", "A location to count is not in the selected warehouse")
	msgNotCounting    = i18n.T("盘点单 %s 当前状态为「%s」, 只有盘点中的单据才能录入盘点结果", "Check %s is %s: results are recorded only while counting")
	msgNegativeCount  = i18n.T("第%d行: 实盘数量不能小于0", "Line %d: the counted quantity cannot be negative")
	msgNoCount        = i18n.T("第%d行: 请输入实盘数量", "Line %d: enter the counted quantity")
	msgCountLine      = i18n.T("第%d行: 请指定明细, 或物料和库位", "Line %d: name the line, or the material and location")
	msgCountNotOwned  = i18n.T("第%d行: 明细不属于本盘点单", "Line %d: the line does not belong to this check")
	msgCountPlace     = i18n.T("第%d行: 库位不在本次盘点范围内", "Line %d: the location is not in this check's scope")
	msgCountMaterial  = i18n.T("第%d行: 物料不存在或不在本次盘点范围内", "Line %d: the material does not exist or is not in this check's scope")
	msgUncounted      = i18n.T("还有 %d 行未盘点, 请录入实盘数量, 或选择未盘按0处理", "%d lines are not counted yet: count them, or finish with uncounted lines as zero")
	msgCountSaved     = i18n.T("盘点结果已保存", "Count results saved")
	msgCheckInAudit   = i18n.T("盘点单 %s 正在审批中, 请先撤回", "Check %s is in approval: withdraw it first")
	msgAddedOnly      = i18n.T("只能删除盘点中新增的明细", "Only lines added during the count can be removed")
	msgReasonTooLong  = i18n.T("第%d行: 差异原因长度不能超过500个字符", "Line %d: the reason must be at most 500 characters")
	msgTooManyCounted = i18n.T("一次最多录入%d行", "At most %d lines at a time")
)

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		d := &checkDoc{s: s}
		d.declare()
		return []resource.Registered{d.details, resource.WithRoutes[MaterialCheck]{Resource: d.checks, Extra: func(r chi.Router, _ *resource.Env) {
			r.Post(SaveCheckResultPath, httpx.Handle(resource.Guard(resource.AnyUser)(d.saveCheckResult)))
		}}}
	})
}

// checkDoc holds the check's two resources (the Service's fields are the
// shared file's).
type checkDoc struct {
	s       *Service
	checks  *resource.Resource[MaterialCheck]
	details *resource.Resource[MaterialCheckDetail]
}

// SaveCheckResultPath (mounted with the check resource: the spec puts the
// count's result under the stock resource's path) is the count result's route under /api.
const SaveCheckResultPath = "/bluebird-basic/materialstock/saveCheckResult"

func (d *checkDoc) declare() {
	d.details = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "checkmaterialdetail", Table: "bb_material_check_detail",
		Label:  i18n.T("盘点明细", "Check line"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "id ASC",
	}, resource.Hooks[MaterialCheckDetail]{
		Enrich: d.hideBook,
		Routes: map[string]httpx.HandlerFunc{"submit": d.lineSubmit, "remove": d.lineRemove},
	})

	start := resource.Command[MaterialCheck]{Name: "startCount", Label: msgStartCount, Button: "edit", Done: msgStartCountDone, Row: true,
		From: &resource.States{Field: "checkStatus", Values: []int{CheckDraft}}, Run: d.startCount}
	d.checks = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "checkmaterial", Table: "bb_material_check", Label: i18n.T("物料盘点单", "Stocktaking"),
		MenuCode: "material_check", DataScope: true, Routes: []string{"list", "detail", "submit", "remove"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC",
		States: &resource.StateRules{Field: "checkStatus", Initial: CheckDraft, Edit: []int{CheckDraft}, Remove: []int{CheckDraft},
			Dict: "check_status", Label: i18n.T("盘点状态", "Check status")},
		Number:  &resource.Number{Field: "docNo", BizType: "MCK"},
		Lines:   &resource.Lines{Field: "details", Child: d.details, Parent: "mainId"},
		Related: ledgerRows(bizMaterialCheck, "checkStatus", CheckAdjusted, CheckVoided),
		Print:   printCount,
		Views: []resource.View{{Name: "selectvo", Paged: true, Joins: []resource.Join{{Field: "warehouseId", Columns: []resource.JoinColumn{
			{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse"), Filter: "like"}}}}}},
		ListView: "selectvo",
	}, resource.Hooks[MaterialCheck]{
		Validate:   validateCheck,
		BeforeSave: d.prepareCheck,
		Commands:   append([]resource.Command[MaterialCheck]{start}, d.lifecycle()...),
	})
}

func validateCheck(ctx context.Context, m *MaterialCheck, present map[string]bool, isNew bool) error {
	if m.MaterialScope == ScopeCategory && (isNew || present["materialScope"]) {
		return resource.FieldErrorOf(ctx, "materialScope", msgCategoryScope)
	}
	if m.MaterialScope == ScopeList && m.MaterialIDs == "" && (isNew || present["materialScope"] || present["materialIds"]) {
		return resource.FieldErrorOf(ctx, "materialIds", msgListScope)
	}
	return nil
}

// prepareCheck starts a check as a draft (the audit status is not the
// submit's to set), refuses lines sent by hand and keeps the scope's
// positions in the check's warehouse.
func (d *checkDoc) prepareCheck(ctx context.Context, tx bun.Tx, m *MaterialCheck, isNew bool) error {
	if resource.Sent(ctx, "details") && len(m.Details) > 0 {
		return httpx.BadRequest(msgCheckLines)
	}
	if isNew {
		m.Status = approval.Draft
		m.GainQty, m.LossQty, m.GainAmount, m.LossAmount = wire.Decimal{}, wire.Decimal{}, wire.Decimal{}, wire.Decimal{}
	}
	if !isNew && !resource.Sent(ctx, "positionIds") && !resource.Sent(ctx, "warehouseId") {
		return nil
	}
	positions, warehouse := m.PositionIDs, m.WarehouseID
	if !isNew && (!resource.Sent(ctx, "positionIds") || !resource.Sent(ctx, "warehouseId")) {
		var cur MaterialCheck
		if err := tx.NewSelect().Model(&cur).Column("warehouse_id", "position_ids").Where("id = ?", m.ID).Scan(ctx); err != nil {
			return err
		}
		if !resource.Sent(ctx, "positionIds") {
			positions = cur.PositionIDs
		}
		if !resource.Sent(ctx, "warehouseId") {
			warehouse = cur.WarehouseID
		}
	}
	ids, err := wire.ParseIDs(positions)
	if err != nil {
		return httpx.InvalidParam("positionIds")
	}
	if len(ids) == 0 {
		return nil
	}
	n, err := tx.NewSelect().Table("bb_warehouse_position").
		Where("tenant_id = ? AND is_deleted = 0 AND warehouse_id = ? AND id IN (?)", authz.From(ctx).TenantID, warehouse, bun.In(ids)).Count(ctx)
	if err != nil {
		return err
	}
	if int(n) != len(uniqueIDs(ids)) {
		return resource.FieldErrorOf(ctx, "positionIds", msgScopePlace)
	}
	return nil
}

// uniqueIDs is ids sorted, without repeats.
func uniqueIDs(ids []wire.ID) []wire.ID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkScope is where a check counts: the warehouse, the positions (the
// chosen ones with their subtrees; nil: all of the warehouse) and the
// materials (nil: all).
type checkScope struct {
	warehouse wire.ID
	positions []wire.ID
	materials []wire.ID
}

func (d *checkDoc) scopeOf(ctx context.Context, tx bun.Tx, m *MaterialCheck) (checkScope, error) {
	tenant := authz.From(ctx).TenantID
	sc := checkScope{warehouse: m.WarehouseID}
	chosen, err := wire.ParseIDs(m.PositionIDs)
	if err != nil {
		return sc, err
	}
	if chosen = uniqueIDs(chosen); len(chosen) > 0 {
		q := tx.NewSelect().Table("bb_warehouse_position").Column("id").
			Where("tenant_id = ? AND is_deleted = 0 AND warehouse_id = ?", tenant, m.WarehouseID)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			q = q.WhereOr("id IN (?)", bun.In(chosen))
			for _, p := range chosen {
				q = q.WhereOr("ancestors LIKE ? OR ancestors LIKE ?", "%,"+p.String(), "%,"+p.String()+",%")
			}
			return q
		})
		if err := q.Scan(ctx, &sc.positions); err != nil {
			return sc, err
		}
		sc.positions = uniqueIDs(sc.positions)
	}
	if m.MaterialScope == ScopeList {
		if sc.materials, err = wire.ParseIDs(m.MaterialIDs); err != nil {
			return sc, err
		}
		sc.materials = uniqueIDs(sc.materials)
		if len(sc.materials) == 0 {
			return sc, httpx.BadRequest(msgListScope)
		}
	}
	return sc, nil
}

// where narrows a bb_stock_balance query to the scope's material buckets.
func (sc checkScope) where(q *bun.SelectQuery, tenant string) *bun.SelectQuery {
	q = q.Where("tenant_id = ? AND item_kind = ? AND warehouse_id = ?", tenant, int(stock.Material), sc.warehouse)
	if sc.positions != nil {
		q = q.Where("position_id IN (?)", bun.In(sc.positions))
	}
	if sc.materials != nil {
		q = q.Where("item_id IN (?)", bun.In(sc.materials))
	}
	return q
}

func (sc checkScope) holdsPosition(p wire.ID) bool {
	return sc.positions == nil || slices.Contains(sc.positions, p)
}

type checkBucket struct {
	ItemID     wire.ID      `bun:"item_id"`
	PositionID wire.ID      `bun:"position_id"`
	BatchNo    string       `bun:"batch_no"`
	Qty        wire.Decimal `bun:"qty"`
	LockedQty  wire.Decimal `bun:"locked_qty"`
}

// startCount snapshots the scope's non-zero buckets into lines and freezes
// the scope. A bucket something holds (lockedQty > 0) refuses the count,
// and so does a running count whose places overlap.
func (d *checkDoc) startCount(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialCheck], rows []*MaterialCheck, _ *resource.CommandRequest) (any, error) {
	p := authz.From(ctx)
	// before the overlap check and the snapshot: postings under way in the
	// warehouses commit first, later ones wait and then meet the freeze
	warehouses := make([]wire.ID, len(rows))
	for i, m := range rows {
		warehouses[i] = m.WarehouseID
	}
	if err := d.s.stock.HoldForCount(ctx, tx, warehouses); err != nil {
		return nil, err
	}
	for _, m := range rows {
		sc, err := d.scopeOf(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		if err := d.noOverlap(ctx, tx, m, sc); err != nil {
			return nil, err
		}
		var buckets []checkBucket
		q := sc.where(tx.NewSelect().Table("bb_stock_balance").Column("item_id", "position_id", "batch_no", "qty", "locked_qty"), p.TenantID).
			Where("(qty <> 0 OR locked_qty <> 0)").OrderExpr("item_id, warehouse_id, position_id, batch_no")
		if tx.Dialect().Name() == dialect.PG {
			q = q.For("UPDATE") // in the stock core's bucket order: a lock taken meanwhile waits or is seen
		}
		if err := q.Scan(ctx, &buckets); err != nil {
			return nil, err
		}
		for _, b := range buckets {
			if b.LockedQty.Sign() > 0 {
				code, place := d.bucketNames(ctx, tx, b)
				return nil, httpx.BadRequest(msgCountLocked.Format(code, place, b.LockedQty.String()))
			}
		}
		mats, err := d.materialsOf(ctx, tx, buckets)
		if err != nil {
			return nil, err
		}
		costs, err := d.avgCosts(ctx, tx, mats)
		if err != nil {
			return nil, err
		}
		now := wire.Now()
		var lines []MaterialCheckDetail
		for _, b := range buckets {
			if b.Qty.IsZero() {
				continue
			}
			mat := mats[b.ItemID]
			l := MaterialCheckDetail{MainID: m.ID, MaterialID: b.ItemID, MaterialCode: mat.MaterialCode, MaterialName: mat.MaterialName,
				Spec: mat.Spec, Model: mat.Model, Unit: mat.Unit, PositionID: b.PositionID, BatchNo: b.BatchNo,
				BookQty: b.Qty, UnitCost: costs[b.ItemID], IsAdded: inventory.No}
			l.TenantID = m.TenantID
			lines = append(lines, l)
		}
		for i := range lines {
			if err := d.details.Insert(ctx, tx, &lines[i]); err != nil {
				return nil, err
			}
		}
		if err := d.s.stock.Freeze(ctx, tx, m.ID, m.WarehouseID, sc.positions); err != nil {
			return nil, err
		}
		if err := res.SetFields(ctx, tx, []*MaterialCheck{m}, map[string]any{"checkStatus": CheckCounting, "startTime": now}); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// noOverlap refuses a count over places another running count has frozen.
func (d *checkDoc) noOverlap(ctx context.Context, tx bun.Tx, m *MaterialCheck, sc checkScope) error {
	var freezes []struct {
		CheckID    wire.ID `bun:"check_id"`
		PositionID wire.ID `bun:"position_id"`
	}
	if err := tx.NewSelect().Table("bb_stock_freeze").Column("check_id", "position_id").
		Where("tenant_id = ? AND is_deleted = 0 AND warehouse_id = ? AND check_id <> ?", authz.From(ctx).TenantID, m.WarehouseID, m.ID).
		Scan(ctx, &freezes); err != nil {
		return err
	}
	for _, f := range freezes {
		if f.PositionID == 0 || sc.holdsPosition(f.PositionID) {
			var no []string
			if err := tx.NewSelect().Table("bb_material_check").Column("doc_no").Where("id = ?", f.CheckID).Scan(ctx, &no); err != nil {
				return err
			}
			return httpx.BadRequest(msgCountOverlap.Format(append(no, "")[0]))
		}
	}
	return nil
}

// bucketNames are a bucket's material code and position name, for messages.
func (d *checkDoc) bucketNames(ctx context.Context, tx bun.Tx, b checkBucket) (string, string) {
	var code, place []string
	_ = tx.NewSelect().Table("bb_material").Column("material_code").Where("id = ?", b.ItemID).Scan(ctx, &code)
	_ = tx.NewSelect().Table("bb_warehouse_position").Column("warehouse_name").Where("id = ?", b.PositionID).Scan(ctx, &place)
	c, p := append(code, b.ItemID.String())[0], append(place, b.PositionID.String())[0]
	if b.BatchNo != "" {
		p += " [" + b.BatchNo + "]"
	}
	return c, p
}

// materialsOf reads the snapshot of the buckets' materials (effective or
// not: stock on the books is counted whatever its material's state).
func (d *checkDoc) materialsOf(ctx context.Context, tx bun.Tx, buckets []checkBucket) (map[wire.ID]materialRow, error) {
	out := map[wire.ID]materialRow{}
	if len(buckets) == 0 {
		return out, nil
	}
	ids := make([]wire.ID, len(buckets))
	for i, b := range buckets {
		ids[i] = b.ItemID
	}
	var mats []materialRow
	if err := tx.NewSelect().Table("bb_material").Column("id", "material_code", "material_name", "spec", "model", "unit", "batch_managed", "shelf_life_days", "is_effective").
		Where("tenant_id = ? AND id IN (?)", authz.From(ctx).TenantID, bun.In(uniqueIDs(ids))).Scan(ctx, &mats); err != nil {
		return nil, err
	}
	for _, m := range mats {
		out[m.ID] = m
	}
	return out, nil
}

// avgCosts are the materials' current average costs (null: never costed).
func (d *checkDoc) avgCosts(ctx context.Context, tx bun.Tx, mats map[wire.ID]materialRow) (map[wire.ID]wire.Decimal, error) {
	out := map[wire.ID]wire.Decimal{}
	if len(mats) == 0 {
		return out, nil
	}
	ids := make([]wire.ID, 0, len(mats))
	for id := range mats {
		ids = append(ids, id)
	}
	var costs []struct {
		ItemID  wire.ID      `bun:"item_id"`
		AvgCost wire.Decimal `bun:"avg_cost"`
	}
	if err := tx.NewSelect().Table("bb_item_cost").Column("item_id", "avg_cost").
		Where("tenant_id = ? AND item_kind = ? AND item_id IN (?)", authz.From(ctx).TenantID, int(stock.Material), bun.In(ids)).Scan(ctx, &costs); err != nil {
		return nil, err
	}
	for _, c := range costs {
		out[c.ItemID] = c.AvgCost
	}
	return out, nil
}
