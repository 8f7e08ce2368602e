package stockdoc

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Return types (dictionary back_type).
const (
	BackProduction = 1
	BackOther      = 2
)

// Return stock statuses (dictionary back_status).
const (
	BackNotStored = 1
	BackStored    = 2
)

// MaterialBackStock is a material return (退库, domain.md §6.3): unused
// material going back to stock. Each line names the issue line it returns
// and takes that line's material, batch and cost. The return never writes
// the ledger itself: approved, saveMaterialInRecord makes its BACK_STOCK
// receipt, already approved, whose posting brings the material in at the
// issue's cost, adds to the issue lines' and the plan's returned
// quantities and marks the return stored (stockStatus follows the
// receipt's posting).
type MaterialBackStock struct {
	bun.BaseModel `bun:"table:bb_material_back_stock"`
	resource.Base
	Header
	BackType      int                       `bun:"back_type" json:"backType" f:"label=退库类型|Return type;req;dict=back_type;search;default=1"`
	ProducePlanID wire.ID                   `bun:"produce_plan_id" json:"producePlanId" f:"label=生产计划|Production plan;ref=bluebird-basic/produceplanmain;filter=equal"`
	WarehouseID   wire.ID                   `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;req;msg=请选择仓库|Please select the warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	ReturnerID    wire.ID                   `bun:"returner_id" json:"returnerId" f:"label=退料人|Returned by;ref=blade-user/user;hide"`
	Reason        string                    `bun:"reason" json:"reason" f:"label=退库原因|Reason;max=500;hide"`
	BackStatus    int                       `bun:"back_status" json:"backStatus" f:"label=退库入库状态|Return stock status;dict=back_status;noform;ro;search"`
	InRecordID    wire.ID                   `bun:"in_record_id" json:"inRecordId" f:"label=入库单|Receipt;type=id;noform;ro;hide"`
	TotalQty      wire.Decimal              `bun:"total_qty" json:"totalQty" f:"label=总数量|Total quantity;scale=6;noform;ro"`
	Details       []MaterialBackStockDetail `bun:"-" json:"details"`
	WarehouseName string                    `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
	PlanCode      string                    `bun:"j_produce_plan_code,scanonly" json:"producePlanCode,omitempty"`
}

// MaterialBackStockDetail is a returned line: the kit's item line (the
// position it comes back to, in the return's warehouse), the issue line it
// returns (sourceOutDetailId) with that line's issue, plan and unit cost,
// and, on reading, how much of the issue line may still be returned.
type MaterialBackStockDetail struct {
	bun.BaseModel `bun:"table:bb_material_back_stock_detail"`
	resource.Base
	MainID wire.ID `bun:"main_id" json:"mainId" f:"label=退库单|Material return;ref=bluebird-basic/materialbackstock;ro;hide;noform;filter=equal"`
	// the issue line returned comes first: a line is made by picking it (returnPicker)
	SourceOutDetailID wire.ID `bun:"source_out_detail_id" json:"sourceOutDetailId" f:"label=出库明细|Issue line;req;msg=请选择退库的出库明细|Please select the issue line returned;ref=bluebird-basic/materialoutrecorddetail;filter=equal;hide"`
	ItemLine
	SourceOutRecordID wire.ID      `bun:"source_out_record_id" json:"sourceOutRecordId" f:"label=出库单|Issue;type=id;ro;noform;hide;filter=equal"`
	ProducePlanID     wire.ID      `bun:"produce_plan_id" json:"producePlanId" f:"label=生产计划|Production plan;type=id;ro;noform;hide;filter=equal"`
	UnitCost          wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	ReturnableQty     wire.Decimal `bun:"-" json:"returnableQty"`
	SourceDocNo       string       `bun:"-" json:"sourceDocNo"`
	Remark            string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	DocNo             string       `bun:"j_doc_no,scanonly" json:"docNo,omitempty"`
}

const bizBackStock = "MATERIAL_BACK_STOCK"

// FromPlanPath lists the issue lines a production return may take from.
const FromPlanPath = "/bluebird-basic/materialbackstockdetail/selectMaterialFromProducePlan"

var (
	msgBackPlan        = i18n.T("生产退料请选择生产计划", "A production return needs its production plan")
	msgNoSource        = i18n.T("第%d行: 出库明细不存在", "Line %d: no such issue line")
	msgSourceNotIssued = i18n.T("第%d行: 出库单 %s 未出库或已作废, 不能退库", "Line %d: issue %s is not issued or is voided: nothing can be returned from it")
	msgSourceNotPlan   = i18n.T("第%d行: 不是该生产计划的领料明细", "Line %d: not a picking line of the return's production plan")
	msgSourceSupplier  = i18n.T("第%d行: 采购退货的明细不能退库", "Line %d: a purchase return's line cannot be returned to stock")
	msgBackMaterial    = i18n.T("第%d行: 物料与出库的不一致", "Line %d: not the material issued")
	msgBackBatch       = i18n.T("第%d行: 批次号必须与出库的批次「%s」相同", "Line %d: the batch must be the one issued (%q)")
	msgOverReturn      = i18n.T("物料 %s 退库 %s, 超过可退数量 %s", "Material %s: %s returned, more than the %s that may be returned")
	msgBackHasReceipt  = i18n.T("退库单 %s 的入库单 %s 未作废, 不能作废", "Material return %s has the receipt %s, which is not voided: it cannot be voided")
	msgBackMade        = i18n.T("退库单 %s 已生成入库单 %s", "Material return %s already has the receipt %s")
	msgBackStored      = i18n.T("退库单 %s 已入库", "Material return %s is already in stock")
	msgMakeReceipt     = i18n.T("生成入库单", "Make the receipt")
	msgReceiptMade     = i18n.T("入库单已生成", "Receipt made")
	msgNoPlanRef       = i18n.T("生产计划不存在", "No such production plan")
	msgBadBackType     = i18n.T("退库类型不正确", "No such return type")
	msgKeywordLong     = i18n.T("关键字长度不能超过64个字符", "The keyword must be at most 64 characters")
)

type backStockDoc struct{ *Service }

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		return (&backStockDoc{Service: s}).declare()
	})
}

var backMainJoin = []resource.Join{{Field: "mainId", Columns: []resource.JoinColumn{
	{Name: "docNo", Column: "doc_no", Label: i18n.T("退库单号", "Return no."), Filter: "like", Sort: true},
}}}

var backJoins = []resource.Join{
	{Field: "warehouseId", Columns: []resource.JoinColumn{{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse"), Filter: "like"}}},
	{Field: "producePlanId", Columns: []resource.JoinColumn{{Name: "producePlanCode", Column: "produce_plan_code", Label: i18n.T("计划单号", "Plan no."), Filter: "like"}}},
}

func (d *backStockDoc) declare() []resource.Registered {
	s := d.Service
	w := &lineWrites[MaterialBackStock, MaterialBackStockDetail]{
		parent: func() *resource.Resource[MaterialBackStock] { return s.backs }, lines: func() *resource.Resource[MaterialBackStockDetail] { return s.backLines },
		mainID:  func(l *MaterialBackStockDetail) wire.ID { return l.MainID },
		details: func(m *MaterialBackStock) *[]MaterialBackStockDetail { return &m.Details },
	}
	s.backLines = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialbackstockdetail", Table: "bb_material_back_stock_detail",
		Label:  i18n.T("退库明细", "Return line"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "id ASC",
		Views: []resource.View{{Name: "selectMaterialBackStockByMainId", Joins: backMainJoin, Query: byMainID}},
	}, resource.Hooks[MaterialBackStockDetail]{
		Routes: map[string]httpx.HandlerFunc{"submit": w.submit, "remove": w.remove},
		Enrich: d.enrichLines,
	})
	cmds := Commands(s.approval, s.stock, Flow[MaterialBackStock]{
		BizType:     bizBackStock,
		Route:       "back_stock",
		Title:       func(m *MaterialBackStock) string { return "物料退库 " + m.DocNo },
		BeforeStart: d.beforeStart,
		BeforeVoid:  d.beforeVoid,
	})
	cmds = append(cmds, resource.Command[MaterialBackStock]{Name: "saveMaterialInRecord", Label: msgMakeReceipt, Done: msgReceiptMade,
		Button: "in_stock", Row: true, From: &resource.States{Field: "status", Values: []int{approval.Approved}}, Run: d.saveInRecord})
	s.backs = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialbackstock", Table: "bb_material_back_stock", Label: i18n.T("物料退库单", "Material return"),
		MenuCode: "back_stock", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC", States: DocStates(),
		Number:        &resource.Number{Field: "docNo", BizType: "MBK"},
		SubmitAliases: []string{"submitDetail"},
		Lines:         &resource.Lines{Field: "details", Child: s.backLines, Parent: "mainId", Totals: []string{"qty"}, Picker: returnPicker()},
		Views:         []resource.View{{Name: "selectMaterialBackStockOfPage", Paged: true, Joins: backJoins}},
		ListView:      "selectMaterialBackStockOfPage",
	}, resource.Hooks[MaterialBackStock]{
		Validate:   validateBack,
		BeforeSave: d.prepare,
		AfterSave:  d.saveTotal,
		Commands:   cmds,
	})
	lines := resource.WithRoutes[MaterialBackStockDetail]{Resource: s.backLines, Extra: func(r chi.Router, _ *resource.Env) {
		r.Get(FromPlanPath, httpx.Handle(resource.Guard(resource.AnyUser)(d.fromPlan)))
	}}
	return []resource.Registered{lines, s.backs}
}

// byMainID narrows selectMaterialBackStockByMainId to one return's lines
// (mainId is required).
func byMainID(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	id, err := httpx.QueryID(r, "mainId")
	if err != nil {
		return nil, err
	}
	return q.Where("?TableAlias.main_id = ?", id), nil
}

func validateBack(ctx context.Context, m *MaterialBackStock, present map[string]bool, isNew bool) error {
	if m.BackType == BackProduction && m.ProducePlanID == 0 && (isNew || present["producePlanId"]) {
		return resource.FieldErrorOf(ctx, "producePlanId", msgBackPlan)
	}
	return nil
}

// prepare replaces the lines whole (a line route keeps their ids): each
// returns a line of an issue that was issued and is not voided (for a
// production return, a picking line of the return's plan; never a purchase
// return's line), takes its material, batch, unit cost, issue and plan,
// lies in the return's warehouse, and all lines of the return together
// take at most what each issue line may still give back.
func (d *backStockDoc) prepare(ctx context.Context, tx bun.Tx, m *MaterialBackStock, isNew bool) error {
	typ, planID, wh := m.BackType, m.ProducePlanID, m.WarehouseID
	if isNew {
		m.StockStatus, m.PostedAt, m.PostedBy = NotPosted, wire.Time{}, 0
		m.BackStatus, m.InRecordID = BackNotStored, 0
	} else {
		cur, err := d.backs.Get(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		if !resource.Sent(ctx, "backType") {
			typ = cur.BackType
		}
		if !resource.Sent(ctx, "producePlanId") {
			planID = cur.ProducePlanID
		}
		if !resource.Sent(ctx, "warehouseId") {
			wh = cur.WarehouseID
		}
	}
	if !isNew && !resource.Sent(ctx, "details") {
		if resource.Sent(ctx, "backType") || resource.Sent(ctx, "producePlanId") {
			stored, err := d.storedLines(ctx, tx, m.ID)
			if err != nil {
				return err
			}
			if _, err := d.takeSources(ctx, tx, m.ID, typ, planID, stored, false); err != nil {
				return err
			}
		}
		if resource.Sent(ctx, "warehouseId") {
			return linesStayInWarehouse(ctx, tx, "bb_material_back_stock_detail", m.ID, wh)
		}
		return nil
	}
	if !keepLineIDs(ctx) {
		for i := range m.Details {
			m.Details[i].ID = 0
		}
	}
	if len(m.Details) == 0 {
		return httpx.BadRequest(msgNoLines)
	}
	lines := make([]*MaterialBackStockDetail, len(m.Details))
	items := make([]*ItemLine, len(m.Details))
	positions := make([]wire.ID, len(m.Details))
	for i := range m.Details {
		lines[i], items[i], positions[i] = &m.Details[i], &m.Details[i].ItemLine, m.Details[i].PositionID
	}
	sources, err := d.takeSources(ctx, tx, m.ID, typ, planID, lines, true)
	if err != nil {
		return err
	}
	if err := checkPlaces(ctx, tx, "positionId", wordWarehouse, wh, positions); err != nil {
		return err
	}
	if _, err := fillItemLines(ctx, tx, nil, wh, items, false); err != nil {
		return err
	}
	total := wire.NewDecimal(0, 6)
	for _, l := range lines {
		total = total.Add(l.BaseQty)
	}
	m.TotalQty = total.Round(6, wire.RoundHalfUp)
	return checkReturnable(lines, sources, true)
}

func (d *backStockDoc) saveTotal(ctx context.Context, tx bun.Tx, m *MaterialBackStock, isNew bool) error {
	if isNew || !resource.Sent(ctx, "details") {
		return nil
	}
	_, err := tx.NewUpdate().Table("bb_material_back_stock").Set("total_qty = ?", m.TotalQty).Where("id = ? AND tenant_id = ?", m.ID, m.TenantID).Exec(ctx)
	return err
}

func (d *backStockDoc) storedLines(ctx context.Context, tx bun.Tx, backID wire.ID) ([]*MaterialBackStockDetail, error) {
	var lines []*MaterialBackStockDetail
	err := tx.NewSelect().Model(&lines).Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", backID, authz.From(ctx).TenantID).
		OrderExpr("id ASC").Scan(ctx)
	return lines, err
}

// sourceLine is an issue line a return takes from, with its issue, and
// what may still come back of it: left (issued − returned into stock) and
// returnable (left − what other live returns not yet stored hold).
type sourceLine struct {
	ID           wire.ID      `bun:"id"`
	MainID       wire.ID      `bun:"main_id"`
	MaterialID   wire.ID      `bun:"material_id"`
	MaterialCode string       `bun:"material_code"`
	BatchNo      string       `bun:"batch_no"`
	Unit         string       `bun:"unit"`
	BaseQty      wire.Decimal `bun:"base_qty"`
	ReturnedQty  wire.Decimal `bun:"returned_qty"`
	UnitCost     wire.Decimal `bun:"unit_cost"`
	OutType      int          `bun:"out_type"`
	Status       int          `bun:"status"`
	StockStatus  int          `bun:"stock_status"`
	PlanID       wire.ID      `bun:"produce_plan_id"`
	DocNo        string       `bun:"doc_no"`
	Left         wire.Decimal `bun:"-"`
	Returnable   wire.Decimal `bun:"-"`
}

// issued: the line's issue was posted and stands.
func (l *sourceLine) issued() bool { return l.Status == approval.Approved && l.StockStatus == Posted }

// loadSources reads issue lines of the caller's tenant by id with their
// issues (lock: held on PostgreSQL until the transaction ends, as posting a
// return's receipt changes their returnedQty) and what may still come back
// of each, not counting the lines of return exceptBack.
func loadSources(ctx context.Context, tx bun.IDB, ids []wire.ID, exceptBack wire.ID, lock bool) (map[wire.ID]*sourceLine, error) {
	out := map[wire.ID]*sourceLine{}
	if len(ids) == 0 {
		return out, nil
	}
	tenant := authz.From(ctx).TenantID
	var rows []*sourceLine
	q := tx.NewSelect().TableExpr("bb_material_out_detail AS d").Join("JOIN bb_material_out AS o ON o.id = d.main_id").
		ColumnExpr("d.id, d.main_id, d.material_id, d.material_code, d.batch_no, d.unit, d.base_qty, d.returned_qty, d.unit_cost").
		ColumnExpr("o.out_type, o.status, o.stock_status, o.produce_plan_id, o.doc_no").
		Where("d.tenant_id = ? AND d.is_deleted = 0 AND d.id IN (?)", tenant, bun.In(ids)).
		Where("o.tenant_id = ? AND o.is_deleted = 0", tenant).OrderExpr("d.id ASC")
	if t, ok := tx.(bun.Tx); ok && lock && t.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE OF d")
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	pending, err := pendingReturns(ctx, tx, ids, exceptBack)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		r.Left = addQty(r.BaseQty, wire.Decimal{}).Sub(addQty(r.ReturnedQty, wire.Decimal{})).Round(6, wire.RoundHalfUp)
		r.Returnable = r.Left.Sub(addQty(pending[r.ID], wire.Decimal{})).Round(6, wire.RoundHalfUp)
		out[r.ID] = r
	}
	return out, nil
}

// pendingReturns sums, per issue line, the lines of live returns (not
// voided, not yet stored: a stored return is in the issue line's
// returnedQty already) other than exceptBack.
func pendingReturns(ctx context.Context, idb bun.IDB, ids []wire.ID, exceptBack wire.ID) (map[wire.ID]wire.Decimal, error) {
	tenant := authz.From(ctx).TenantID
	var rows []struct {
		SourceID wire.ID      `bun:"source_out_detail_id"`
		BaseQty  wire.Decimal `bun:"base_qty"`
	}
	if err := idb.NewSelect().TableExpr("bb_material_back_stock_detail AS d").Join("JOIN bb_material_back_stock AS b ON b.id = d.main_id").
		ColumnExpr("d.source_out_detail_id, d.base_qty").
		Where("d.tenant_id = ? AND d.is_deleted = 0 AND d.source_out_detail_id IN (?)", tenant, bun.In(ids)).
		Where("b.tenant_id = ? AND b.is_deleted = 0 AND b.status <> ? AND b.back_status = ? AND b.id <> ?", tenant, approval.Voided, BackNotStored, exceptBack).
		Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[wire.ID]wire.Decimal{}
	for _, r := range rows {
		out[r.SourceID] = addQty(out[r.SourceID], r.BaseQty)
	}
	return out, nil
}

// takeSources checks each line's issue line (see prepare) and, with take,
// copies its material, batch (when none was sent), unit (likewise), cost,
// issue and plan onto the line; a material or batch sent that is not the
// issued one is refused.
func (d *backStockDoc) takeSources(ctx context.Context, tx bun.Tx, backID wire.ID, typ int, planID wire.ID, lines []*MaterialBackStockDetail, take bool) (map[wire.ID]*sourceLine, error) {
	ids := make([]wire.ID, 0, len(lines))
	for i, l := range lines {
		if l.SourceOutDetailID == 0 {
			return nil, resource.FieldErrorOf(ctx, "sourceOutDetailId", i18n.T("第%d行: 请选择退库的出库明细", "Line %d: select the issue line returned").Format(i+1))
		}
		ids = append(ids, l.SourceOutDetailID)
	}
	sources, err := loadSources(ctx, tx, ids, backID, false)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		src := sources[l.SourceOutDetailID]
		switch {
		case src == nil:
			return nil, resource.FieldErrorOf(ctx, "sourceOutDetailId", msgNoSource.Format(i+1))
		case !src.issued():
			return nil, resource.FieldErrorOf(ctx, "sourceOutDetailId", msgSourceNotIssued.Format(i+1, src.DocNo))
		case typ == BackProduction && (src.OutType != OutPicking || src.PlanID != planID):
			return nil, resource.FieldErrorOf(ctx, "sourceOutDetailId", msgSourceNotPlan.Format(i+1))
		case src.OutType == OutPurchaseReturn:
			return nil, resource.FieldErrorOf(ctx, "sourceOutDetailId", msgSourceSupplier.Format(i+1))
		case l.MaterialID != 0 && l.MaterialID != src.MaterialID:
			return nil, resource.FieldErrorOf(ctx, "materialId", msgBackMaterial.Format(i+1))
		case l.BatchNo != "" && l.BatchNo != src.BatchNo:
			return nil, resource.FieldErrorOf(ctx, "batchNo", msgBackBatch.Format(i+1, src.BatchNo))
		}
		if !take {
			continue
		}
		l.MaterialID, l.BatchNo, l.UnitCost = src.MaterialID, src.BatchNo, src.UnitCost
		l.SourceOutRecordID, l.ProducePlanID = src.MainID, 0
		if src.OutType == OutPicking {
			l.ProducePlanID = src.PlanID
		}
		if l.Unit == "" {
			l.Unit = src.Unit
		}
	}
	return sources, nil
}

// checkReturnable: what the lines take of each issue line, together, is at
// most its returnable quantity (withPending) or, at posting, what is left
// of it (issued − returned).
func checkReturnable(lines []*MaterialBackStockDetail, sources map[wire.ID]*sourceLine, withPending bool) error {
	var order []wire.ID
	sums := map[wire.ID]wire.Decimal{}
	for _, l := range lines {
		if _, ok := sums[l.SourceOutDetailID]; !ok {
			order = append(order, l.SourceOutDetailID)
		}
		sums[l.SourceOutDetailID] = addQty(sums[l.SourceOutDetailID], l.BaseQty)
	}
	for _, id := range order {
		src := sources[id]
		limit := src.Left
		if withPending {
			limit = src.Returnable
		}
		if sums[id].Cmp(limit) > 0 {
			if limit.Sign() < 0 {
				limit = wire.NewDecimal(0, 6)
			}
			return httpx.BadRequest(msgOverReturn.Format(src.MaterialCode, sums[id].Round(6, wire.RoundHalfUp).String(), limit.String()))
		}
	}
	return nil
}

// enrichLines shows each line's returnable quantity: what its issue line
// may still give back, this return's own lines not counted.
func (d *backStockDoc) enrichLines(ctx context.Context, idb bun.IDB, rows []MaterialBackStockDetail) error {
	byBack := map[wire.ID][]wire.ID{}
	for _, r := range rows {
		if r.SourceOutDetailID != 0 {
			byBack[r.MainID] = append(byBack[r.MainID], r.SourceOutDetailID)
		}
	}
	for backID, ids := range byBack {
		sources, err := loadSources(ctx, idb, ids, backID, false)
		if err != nil {
			return err
		}
		for i := range rows {
			if src := sources[rows[i].SourceOutDetailID]; src != nil && rows[i].MainID == backID {
				rows[i].ReturnableQty, rows[i].SourceDocNo = src.Returnable, src.DocNo
			}
		}
	}
	return nil
}

// beforeStart: a return goes for approval with lines that still take no
// more than their issue lines may give back, from issues still standing.
func (d *backStockDoc) beforeStart(ctx context.Context, tx bun.Tx, rows []*MaterialBackStock) error {
	for _, m := range rows {
		if err := validateBack(ctx, m, nil, true); err != nil {
			return err
		}
		lines, err := d.storedLines(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		if len(lines) == 0 {
			return httpx.BadRequest(msgNoLines)
		}
		sources, err := d.takeSources(ctx, tx, m.ID, m.BackType, m.ProducePlanID, lines, false)
		if err != nil {
			return err
		}
		if err := checkReturnable(lines, sources, true); err != nil {
			return err
		}
	}
	return nil
}

// receiptOf reads the receipt a return made (tenant only: a receipt is
// judged whoever made it).
func receiptOf(ctx context.Context, idb bun.IDB, id wire.ID) (status int, docNo string, err error) {
	var rows []struct {
		Status int    `bun:"status"`
		DocNo  string `bun:"doc_no"`
	}
	if err := idb.NewSelect().Table("bb_material_in").Column("status", "doc_no").
		Where("id = ? AND tenant_id = ? AND is_deleted = 0", id, authz.From(ctx).TenantID).Scan(ctx, &rows); err != nil {
		return 0, "", err
	}
	if len(rows) == 0 {
		return approval.Voided, "", nil
	}
	return rows[0].Status, rows[0].DocNo, nil
}

// beforeVoid: a return whose receipt is not voided stays.
func (d *backStockDoc) beforeVoid(ctx context.Context, tx bun.Tx, rows []*MaterialBackStock) error {
	for _, m := range rows {
		if m.InRecordID == 0 {
			continue
		}
		status, no, err := receiptOf(ctx, tx, m.InRecordID)
		if err != nil {
			return err
		}
		if status != approval.Voided {
			return httpx.BadRequest(msgBackHasReceipt.Format(m.DocNo, no))
		}
	}
	return nil
}

type madeReceipt struct {
	ID         wire.ID `json:"id"`
	InRecordID wire.ID `json:"inRecordId"`
	InRecordNo string  `json:"inRecordNo"`
}

// saveInRecord (saveMaterialInRecord) makes the BACK_STOCK receipt of each
// approved return: the return's warehouse, plan and lines (position,
// batch, quantity; the line's cost as the price per unit entered; each
// line's backStockDetailId), approved with the return. A return has one
// live receipt: a second is made only once the first is voided.
func (d *backStockDoc) saveInRecord(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialBackStock], rows []*MaterialBackStock, _ *resource.CommandRequest) (any, error) {
	out := make([]madeReceipt, 0, len(rows))
	for _, m := range rows {
		if m.BackStatus == BackStored {
			return nil, httpx.BadRequest(msgBackStored.Format(m.DocNo))
		}
		if m.InRecordID != 0 {
			status, no, err := receiptOf(ctx, tx, m.InRecordID)
			if err != nil {
				return nil, err
			}
			if status != approval.Voided {
				return nil, httpx.BadRequest(msgBackMade.Format(m.DocNo, no))
			}
		}
		lines, err := d.storedLines(ctx, tx, m.ID)
		if err != nil {
			return nil, err
		}
		sources, err := d.takeSources(ctx, tx, m.ID, m.BackType, m.ProducePlanID, lines, false)
		if err != nil {
			return nil, err
		}
		if err := checkReturnable(lines, sources, true); err != nil {
			return nil, err
		}
		in := &MaterialIn{InType: InBackStock, WarehouseID: m.WarehouseID, BackStockID: m.ID, ProducePlanID: m.ProducePlanID,
			Header: Header{DocDate: wire.Now(), HandlerID: m.HandlerID, Remark: strings.TrimSpace("退库单 " + m.DocNo)}}
		for _, l := range lines {
			line := MaterialInDetail{ItemLine: ItemLine{MaterialID: l.MaterialID, Unit: l.Unit, Qty: l.Qty, PositionID: l.PositionID, BatchNo: l.BatchNo},
				BackStockDetailID: l.ID, Remark: l.Remark}
			if !l.UnitCost.IsNull() && !l.UnitRatio.IsNull() {
				line.UnitPrice = l.UnitCost.Mul(l.UnitRatio).Round(4, wire.RoundHalfUp)
			}
			in.Details = append(in.Details, line)
		}
		made := context.WithValue(ctx, fromBackStockKey{}, true)
		if err := d.ins.Save(made, tx, in, map[string]bool{"details": true}); err != nil {
			return nil, err
		}
		if err := d.ins.SetFields(ctx, tx, []*MaterialIn{in}, map[string]any{"status": approval.Approved}); err != nil {
			return nil, err
		}
		if err := res.SetFields(ctx, tx, []*MaterialBackStock{m}, map[string]any{"inRecordId": in.ID}); err != nil {
			return nil, err
		}
		out = append(out, madeReceipt{ID: m.ID, InRecordID: in.ID, InRecordNo: in.DocNo})
	}
	return out, nil
}

// backStockCosts (posting a BACK_STOCK receipt) holds the returned issue
// lines and checks again, under that lock, that the return's approved
// lines take no more than is left of them, from issues still standing; it
// answers each return line's cost, the issue line's.
func (s *Service) backStockCosts(ctx context.Context, tx bun.Tx, in *MaterialIn) (map[wire.ID]wire.Decimal, error) {
	back, lines, err := s.backOf(ctx, tx, in)
	if err != nil {
		return nil, err
	}
	ids := make([]wire.ID, len(lines))
	for i, l := range lines {
		ids[i] = l.SourceOutDetailID
	}
	sources, err := loadSources(ctx, tx, ids, back.ID, true)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		if src := sources[l.SourceOutDetailID]; src == nil || !src.issued() {
			no := ""
			if src != nil {
				no = src.DocNo
			}
			return nil, httpx.BadRequest(msgSourceNotIssued.Format(i+1, no))
		}
	}
	if err := checkReturnable(lines, sources, false); err != nil {
		return nil, err
	}
	costs := make(map[wire.ID]wire.Decimal, len(lines))
	for _, l := range lines {
		costs[l.ID] = l.UnitCost
	}
	return costs, nil
}

var msgReceiptNoReturn = i18n.T("入库单 %s 的退库单不存在或未审批", "The material return of receipt %s does not exist or is not approved")

// backOf reads a BACK_STOCK receipt's return and its lines (tenant only:
// the keeper posting the receipt need not see the return in the list).
func (s *Service) backOf(ctx context.Context, tx bun.Tx, in *MaterialIn) (*MaterialBackStock, []*MaterialBackStockDetail, error) {
	var backs []MaterialBackStock
	if err := tx.NewSelect().Model(&backs).Where("id = ? AND tenant_id = ? AND is_deleted = 0", in.BackStockID, authz.From(ctx).TenantID).Scan(ctx); err != nil {
		return nil, nil, err
	}
	if len(backs) == 0 || backs[0].Status != approval.Approved {
		return nil, nil, httpx.BadRequest(msgReceiptNoReturn.Format(in.DocNo))
	}
	lines, err := (&backStockDoc{Service: s}).storedLines(ctx, tx, backs[0].ID)
	return &backs[0], lines, err
}

// applyBackStock (a BACK_STOCK receipt posted, or with undo reversed)
// moves the received quantities into the issue lines' returnedQty and the
// plan's returned quantities, and marks the return stored (or not).
func (s *Service) applyBackStock(ctx context.Context, tx bun.Tx, in *MaterialIn, undo bool) error {
	back, lines, err := s.backOf(ctx, tx, in)
	if err != nil {
		return err
	}
	p := authz.From(ctx)
	ids := make([]wire.ID, len(lines))
	for i, l := range lines {
		ids[i] = l.SourceOutDetailID
	}
	sources, err := loadSources(ctx, tx, ids, back.ID, true)
	if err != nil {
		return err
	}
	type planMat struct{ plan, material wire.ID }
	var order []planMat
	toPlan := map[planMat]wire.Decimal{}
	for _, l := range lines {
		src := sources[l.SourceOutDetailID]
		if src == nil {
			return httpx.BadRequest(msgNoSource.Format(1))
		}
		qty := l.BaseQty
		if undo {
			qty = qty.Neg()
		}
		src.ReturnedQty = addQty(src.ReturnedQty, qty).Round(6, wire.RoundHalfUp)
		if src.ReturnedQty.Sign() < 0 {
			return httpx.BadRequest(msgOverReturn.Format(src.MaterialCode, l.BaseQty.String(), "0"))
		}
		if _, err := tx.NewUpdate().Table("bb_material_out_detail").Set("returned_qty = ?", src.ReturnedQty).
			Set("update_time = ?", wire.Now()).Set("update_user = ?", p.UserID).Set("version = version + 1").
			Where("id = ? AND tenant_id = ?", src.ID, p.TenantID).Exec(ctx); err != nil {
			return err
		}
		if l.ProducePlanID != 0 {
			k := planMat{l.ProducePlanID, l.MaterialID}
			if _, ok := toPlan[k]; !ok {
				order = append(order, k)
			}
			toPlan[k] = addQty(toPlan[k], qty)
		}
	}
	for _, k := range order {
		if err := s.plans.AddReturned(ctx, tx, k.plan, k.material, toPlan[k]); err != nil {
			return err
		}
	}
	q := tx.NewUpdate().Table("bb_material_back_stock").Set("update_time = ?", wire.Now()).Set("update_user = ?", p.UserID).Set("version = version + 1")
	if undo {
		q = q.Set("back_status = ?", BackNotStored).Set("stock_status = ?", NotPosted).Set("posted_at = NULL").Set("posted_by = 0")
	} else {
		q = q.Set("back_status = ?", BackStored).Set("stock_status = ?", Posted).Set("posted_at = ?", wire.Now()).Set("posted_by = ?", p.UserID)
	}
	_, err = q.Where("id = ? AND tenant_id = ?", back.ID, p.TenantID).Exec(ctx)
	return err
}

// backStocksOnOutLines counts the lines of live material returns (not
// voided, stored or not) that take from an issue's lines.
func backStocksOnOutLines(ctx context.Context, tx bun.Tx, m *MaterialOut) (int64, error) {
	return tx.NewSelect().TableExpr("bb_material_back_stock_detail AS d").Join("JOIN bb_material_back_stock AS b ON b.id = d.main_id").
		Where("d.tenant_id = ? AND d.is_deleted = 0 AND b.tenant_id = ? AND b.is_deleted = 0 AND b.status <> ?", m.TenantID, m.TenantID, approval.Voided).
		Where("d.source_out_detail_id IN (?)", tx.NewSelect().Table("bb_material_out_detail").Column("id").
			Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", m.ID, m.TenantID)).
		Count(ctx)
}

// returnableRow is a line selectMaterialFromProducePlan answers.
type returnableRow struct {
	SourceOutDetailID wire.ID      `json:"sourceOutDetailId"`
	SourceOutRecordID wire.ID      `json:"sourceOutRecordId"`
	DocNo             string       `json:"docNo"`
	SourceDocNo       string       `json:"sourceDocNo"`
	ProducePlanID     wire.ID      `json:"producePlanId"`
	MaterialID        wire.ID      `json:"materialId"`
	MaterialCode      string       `json:"materialCode"`
	MaterialName      string       `json:"materialName"`
	Spec              string       `json:"spec"`
	Model             string       `json:"model"`
	Unit              string       `json:"unit"`
	BaseUnit          string       `json:"baseUnit"`
	BatchNo           string       `json:"batchNo"`
	PositionID        wire.ID      `json:"positionId"`
	Qty               wire.Decimal `json:"qty"`
	BaseQty           wire.Decimal `json:"baseQty"`
	ReturnedQty       wire.Decimal `json:"returnedQty"`
	UnitCost          wire.Decimal `json:"unitCost"`
	ReturnableQty     wire.Decimal `json:"returnableQty"`
}

// fromPlan (GET selectMaterialFromProducePlan?producePlanId=&backType=&keyword=&mainId=)
// lists the posted issue lines of the caller's tenant that may still give
// something back (returnableQty > 0: issued − returned − held by other live
// returns; mainId, a return being edited, does not count its own lines), in
// the caller's data scope of issues: the picking lines of the plan, or, for
// another return (backType=2) without a plan, the lines of any issue but a
// purchase return, newest first. keyword matches the material code or
// name, the batch or the issue number.
func (d *backStockDoc) fromPlan(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	q := req.URL.Query()
	other := q.Get("backType") == strconv.Itoa(BackOther)
	if t := q.Get("backType"); t != "" && !other && t != strconv.Itoa(BackProduction) {
		return nil, resource.FieldErrorOf(ctx, "backType", msgBadBackType)
	}
	var planID wire.ID
	if q.Get("producePlanId") != "" || !other {
		id, err := httpx.QueryID(req, "producePlanId")
		if err != nil {
			return nil, err
		}
		planID = id
	}
	var exceptBack wire.ID
	if q.Get("mainId") != "" {
		id, err := httpx.QueryID(req, "mainId")
		if err != nil {
			return nil, err
		}
		exceptBack = id
	}
	keyword := strings.TrimSpace(q.Get("keyword"))
	if len([]rune(keyword)) > 64 {
		return nil, resource.FieldErrorOf(ctx, "keyword", msgKeywordLong)
	}
	idb := d.env.DB
	tenant := authz.From(ctx).TenantID
	if planID != 0 {
		n, err := idb.NewSelect().Table("bb_produce_plan").Where("id = ? AND tenant_id = ? AND is_deleted = 0", planID, tenant).Count(ctx)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, resource.FieldErrorOf(ctx, "producePlanId", msgNoPlanRef)
		}
	}
	issues, err := d.issues.Select(ctx, idb, (*MaterialOut)(nil))
	if err != nil {
		return nil, err
	}
	issues = issues.Column("id").Where("?TableAlias.status = ? AND ?TableAlias.stock_status = ?", approval.Approved, Posted)
	order := "main_id DESC, id ASC"
	if planID != 0 {
		issues = issues.Where("?TableAlias.produce_plan_id = ? AND ?TableAlias.out_type = ?", planID, OutPicking)
		order = "main_id ASC, id ASC"
	} else {
		issues = issues.Where("?TableAlias.out_type <> ?", OutPurchaseReturn)
	}
	var lines []MaterialOutDetail
	sel := idb.NewSelect().Model(&lines).Where("tenant_id = ? AND is_deleted = 0 AND main_id IN (?)", tenant, issues)
	if keyword != "" {
		like := "%" + keyword + "%"
		sel = sel.Where("(material_code LIKE ? OR material_name LIKE ? OR batch_no LIKE ? OR main_id IN (?))", like, like, like,
			idb.NewSelect().Table("bb_material_out").Column("id").Where("tenant_id = ? AND doc_no LIKE ?", tenant, like))
	}
	if err := sel.OrderExpr(order).Limit(httpx.MaxPageSize).Scan(ctx); err != nil {
		return nil, err
	}
	ids := make([]wire.ID, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	sources, err := loadSources(ctx, idb, ids, exceptBack, false)
	if err != nil {
		return nil, err
	}
	baseUnits, err := materialUnits(ctx, idb, lines)
	if err != nil {
		return nil, err
	}
	out := []returnableRow{}
	for _, l := range lines {
		src := sources[l.ID]
		if src == nil || src.Returnable.Sign() <= 0 {
			continue
		}
		out = append(out, returnableRow{SourceOutDetailID: l.ID, SourceOutRecordID: l.MainID, DocNo: src.DocNo, SourceDocNo: src.DocNo, ProducePlanID: src.PlanID,
			MaterialID: l.MaterialID, MaterialCode: l.MaterialCode, MaterialName: l.MaterialName, Spec: l.Spec, Model: l.Model,
			Unit: l.Unit, BaseUnit: baseUnits[l.MaterialID], BatchNo: l.BatchNo, PositionID: l.PositionID, Qty: l.Qty, BaseQty: l.BaseQty, ReturnedQty: addQty(l.ReturnedQty, wire.Decimal{}),
			UnitCost: l.UnitCost, ReturnableQty: src.Returnable})
	}
	return out, nil
}

// materialUnits are the base units of the lines' materials (the unit a
// returnable quantity is in).
func materialUnits(ctx context.Context, idb bun.IDB, lines []MaterialOutDetail) (map[wire.ID]string, error) {
	out := map[wire.ID]string{}
	if len(lines) == 0 {
		return out, nil
	}
	ids := make([]wire.ID, len(lines))
	for i, l := range lines {
		ids[i] = l.MaterialID
	}
	var rows []struct {
		ID   wire.ID `bun:"id"`
		Unit string  `bun:"unit"`
	}
	if err := idb.NewSelect().Table("bb_material").Column("id", "unit").
		Where("tenant_id = ? AND id IN (?)", authz.From(ctx).TenantID, bun.In(ids)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = r.Unit
	}
	return out, nil
}
