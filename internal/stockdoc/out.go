package stockdoc

import (
	"context"
	"net/http"
	"reflect"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Issue types (dictionary material_out_type).
const (
	OutPicking        = 1
	OutPurchaseReturn = 2
	OutOther          = 3
)

// Other-issue reasons (dictionary out_other_reason) the rules name.
const ReasonScrap = 1

// MaterialOut is a material issue (domain.md §6.2): production picking, a
// return to the supplier, or an other issue (scrap, samples, R&D, loss).
type MaterialOut struct {
	bun.BaseModel `bun:"table:bb_material_out"`
	resource.Base
	Header
	OutType     int     `bun:"out_type" json:"outType" f:"label=出库类型|Issue type;req;dict=material_out_type;search;default=1"`
	OtherReason int     `bun:"other_reason" json:"otherReason" f:"label=其他出库原因|Reason;dict=out_other_reason"`
	WarehouseID wire.ID `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;req;msg=请选择仓库|Please select the warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	// ProducePlanID: the plan a production picking is for (required for
	// picking, not kept for the other types).
	ProducePlanID wire.ID             `bun:"produce_plan_id" json:"producePlanId" f:"label=生产计划|Production plan;ref=bluebird-basic/produceplanmain;filter=equal"`
	Workshop      string              `bun:"workshop" json:"workshop" f:"label=车间|Workshop;max=64;hide"`
	ReceiverID    wire.ID             `bun:"receiver_id" json:"receiverId" f:"label=领料人|Received by;ref=blade-user/user;hide"`
	SupplierID    wire.ID             `bun:"supplier_id" json:"supplierId" f:"label=供应商|Supplier;ref=bluebird-basic/suppliermain;filter=equal"`
	Purpose       string              `bun:"purpose" json:"purpose" f:"label=用途|Purpose;max=200;hide"`
	TotalQty      wire.Decimal        `bun:"total_qty" json:"totalQty" f:"label=总数量|Total quantity;scale=6;noform;ro"`
	TotalAmount   wire.Decimal        `bun:"total_amount" json:"totalAmount" f:"label=总金额|Total amount;scale=4;precision=18;noform;ro"`
	Details       []MaterialOutDetail `bun:"-" json:"details"`
	WarehouseName string              `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
	SupplierName  string              `bun:"j_supplier_name,scanonly" json:"supplierName,omitempty"`
	PlanCode      string              `bun:"j_produce_plan_code,scanonly" json:"producePlanCode,omitempty"`
}

// MaterialOutDetail is an issue line: the material, the position and batch
// it is taken from and the quantity. Its cost and amount are the ledger's,
// written when the issue is posted.
type MaterialOutDetail struct {
	bun.BaseModel `bun:"table:bb_material_out_detail"`
	resource.Base
	MainID wire.ID `bun:"main_id" json:"mainId" f:"label=出库单|Issue;req;once;noform;hide;msg=请选择出库单|Please select the issue;ref=bluebird-basic/materialoutrecordmain;filter=equal"`
	ItemLine
	ProducePlanDetailID wire.ID `bun:"produce_plan_detail_id" json:"producePlanDetailId" f:"label=生产计划明细|Production plan line;type=id;hide;noform;ro"`
	// ProducePlanMaterialID ties a picking line to the plan's requirement
	// row it picks for: the client may name one of the plan's rows of the
	// line's material, else the first such row is taken.
	ProducePlanMaterialID wire.ID      `bun:"produce_plan_material_id" json:"producePlanMaterialId" f:"label=计划物料|Plan material;type=id;hide;noform;filter=equal"`
	RequiredQty           wire.Decimal `bun:"required_qty" json:"requiredQty" f:"label=需求数量|Required quantity;scale=6;ro;noform"`
	UnitCost              wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	Amount                wire.Decimal `bun:"amount" json:"amount" f:"label=金额|Amount;scale=4;precision=18;ro;noform"`
	ReturnedQty           wire.Decimal `bun:"returned_qty" json:"returnedQty" f:"label=已退库数量|Returned quantity;scale=6;ro;noform"`
	Remark                string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	DocNo                 string       `bun:"j_doc_no,scanonly" json:"docNo,omitempty"`
	OutType               string       `bun:"j_out_type,scanonly" json:"outType,omitempty"`
	WarehouseID           string       `bun:"j_warehouse_id,scanonly" json:"warehouseId,omitempty"`
}

const bizMaterialOut = "MATERIAL_OUT"

var (
	msgOutReason       = i18n.T("请选择其他出库原因", "Please select the reason for the issue")
	msgOutSupplier     = i18n.T("采购退货请选择供应商", "A purchase return needs its supplier")
	msgOutbound        = i18n.T("出库", "Issue from stock")
	msgOutReturned     = i18n.T("出库单 %s 的物料已退库, 不能作废", "Issue %s has material returned to stock: it cannot be voided")
	msgOutLineState    = i18n.T("出库单 %s 的审核状态为 %s, 只有待提交或已驳回的出库单可以修改明细", "Issue %s is %s: lines change only while the issue is a draft or rejected")
	msgOutLinePosted   = i18n.T("出库单 %s 已出库, 不能修改明细", "Issue %s has been issued: its lines cannot change")
	msgOutLastLine     = i18n.T("出库单 %s 至少要保留一行明细, 请删除出库单", "Issue %s must keep at least one line: remove the issue instead")
	msgOutLineMoved    = i18n.T("明细不能移到另一张出库单", "A line cannot move to another issue")
	msgOutChanged      = i18n.T("出库单 %s 已提交或已出库, 不能修改明细", "Issue %s has been submitted or issued: its lines cannot change")
	msgOutLineNotFound = i18n.T("出库单不存在", "The issue does not exist")
)

// outDoc is the issue's declaration: the service (approvals, stock,
// numbering) and the issue's resources.
type outDoc struct {
	*Service
	outs       *resource.Resource[MaterialOut]
	outDetails *resource.Resource[MaterialOutDetail]
}

var reflectOutDetail = reflect.TypeFor[MaterialOutDetail]()

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		return (&outDoc{Service: s}).declare()
	})
}

// outLineHooks keep a line edited on its own (the detail resources' submit
// and remove) under its issue's rules: only while the issue is a draft or
// rejected and not issued, snapshotted and converted as the issue's save
// does, never moved to another issue, never the issue's last line; the
// issue's total follows.
func (s *outDoc) outLineHooks() resource.Hooks[MaterialOutDetail] {
	return resource.Hooks[MaterialOutDetail]{
		BeforeSave: func(ctx context.Context, tx bun.Tx, d *MaterialOutDetail, isNew bool) error {
			if resource.AsLine(ctx) {
				return nil // saved with its issue: prepareOut did the work
			}
			// what the ledger and the plan write starts empty whatever the body said
			d.ProducePlanDetailID = 0
			d.RequiredQty, d.UnitCost, d.Amount, d.ReturnedQty = wire.Decimal{}, wire.Decimal{}, wire.Decimal{}, wire.Decimal{}
			mainID := d.MainID
			if !isNew {
				var cur []wire.ID
				if err := tx.NewSelect().Table("bb_material_out_detail").Column("main_id").
					Where("id = ? AND tenant_id = ? AND is_deleted = 0", d.ID, authz.From(ctx).TenantID).Scan(ctx, &cur); err != nil {
					return err
				}
				if len(cur) == 0 {
					return httpx.ErrNotFound
				}
				if d.MainID != 0 && d.MainID != cur[0] {
					return httpx.BadRequest(msgOutLineMoved)
				}
				mainID, d.MainID = cur[0], cur[0]
			}
			_, err := s.editableOut(ctx, tx, mainID)
			return err
		},
		AfterSave: func(ctx context.Context, tx bun.Tx, d *MaterialOutDetail, _ bool) error {
			if resource.AsLine(ctx) {
				return nil
			}
			return s.refillOutLine(ctx, tx, d.ID)
		},
		BeforeRemove: func(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
			var lines []MaterialOutDetail
			if err := tx.NewSelect().Model(&lines).Column("id", "main_id").
				Where("id IN (?) AND tenant_id = ? AND is_deleted = 0", bun.In(ids), authz.From(ctx).TenantID).Scan(ctx); err != nil {
				return err
			}
			gone := map[wire.ID]int{}
			for _, l := range lines {
				gone[l.MainID]++
			}
			for mainID, n := range gone {
				m, err := s.editableOut(ctx, tx, mainID)
				if err != nil {
					return err
				}
				left, err := tx.NewSelect().Table("bb_material_out_detail").
					Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", mainID, m.TenantID).Count(ctx)
				if err != nil {
					return err
				}
				if int(left)-n < 1 {
					return httpx.BadRequest(msgOutLastLine.Format(m.DocNo))
				}
				if err := s.outTotals(ctx, tx, m, ids); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// editableOut loads an issue the caller may see and refuses it unless its
// lines may change (draft or rejected, not issued).
func (s *outDoc) editableOut(ctx context.Context, tx bun.Tx, id wire.ID) (*MaterialOut, error) {
	m, err := s.outs.Get(ctx, tx, id)
	if err != nil {
		if id == 0 || err == httpx.ErrNotFound {
			return nil, resource.FieldErrorOf(ctx, "mainId", msgOutLineNotFound)
		}
		return nil, err
	}
	if m.Status != approval.Draft && m.Status != approval.Rejected {
		return nil, httpx.BadRequest(msgOutLineState.Format(m.DocNo, stateLabel(ctx, tx, s.outs, m.Status)))
	}
	if m.StockStatus != NotPosted {
		return nil, httpx.BadRequest(msgOutLinePosted.Format(m.DocNo))
	}
	return m, nil
}

// refillOutLine re-derives a line saved on its own (snapshot, base
// quantity, unit ratio) from what is now stored, and the issue's total.
func (s *outDoc) refillOutLine(ctx context.Context, tx bun.Tx, id wire.ID) error {
	var d MaterialOutDetail
	if err := tx.NewSelect().Model(&d).Where("id = ?", id).Scan(ctx); err != nil {
		return err
	}
	m, err := s.editableOut(ctx, tx, d.MainID)
	if err != nil {
		return err
	}
	if _, err := fillItemLines(ctx, tx, nil, m.WarehouseID, []*ItemLine{&d.ItemLine}, false); err != nil {
		return err
	}
	if err := s.tieLines(ctx, tx, m.OutType, m.ProducePlanID, []*MaterialOutDetail{&d}, false); err != nil {
		return err
	}
	if _, err := tx.NewUpdate().Model(&d).Column("material_code", "material_name", "spec", "model", "unit", "unit_ratio", "base_qty",
		"produce_plan_detail_id", "produce_plan_material_id", "required_qty").
		WherePK().Exec(ctx); err != nil {
		return err
	}
	return s.outTotals(ctx, tx, m, nil)
}

// outTotals sets an issue's total quantity from its live lines (less those
// being removed), only while the issue is still editable: a concurrent
// startProcess that got there first makes the edit fail instead of
// changing an issue in approval.
func (s *outDoc) outTotals(ctx context.Context, tx bun.Tx, m *MaterialOut, removing []wire.ID) error {
	q := tx.NewSelect().Table("bb_material_out_detail").Column("base_qty").
		Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", m.ID, m.TenantID)
	if len(removing) > 0 {
		q = q.Where("id NOT IN (?)", bun.In(removing))
	}
	var qtys []struct {
		Qty wire.Decimal `bun:"base_qty"`
	}
	if err := q.Scan(ctx, &qtys); err != nil {
		return err
	}
	total := wire.NewDecimal(0, 6)
	for _, v := range qtys {
		total = total.Add(v.Qty)
	}
	res, err := tx.NewUpdate().Table("bb_material_out").Set("total_qty = ?", total.Round(6, wire.RoundHalfUp)).
		Set("version = version + 1").Set("update_time = ?", wire.Now()).Set("update_user = ?", authz.From(ctx).UserID).
		Where("id = ? AND tenant_id = ? AND is_deleted = 0 AND status IN (?) AND stock_status = ?", m.ID, m.TenantID,
			bun.In([]int{approval.Draft, approval.Rejected}), NotPosted).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return httpx.BadRequest(msgOutLineState.Format(m.DocNo, "?"))
	}
	return nil
}

func (s *outDoc) declare() []resource.Registered {
	hooks := s.outLineHooks()
	detail := resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialoutrecorddetail", Table: "bb_material_out_detail",
		Label:  i18n.T("出库明细", "Issue line"),
		Routes: []string{"list", "detail", "submit", "remove", "export"}, DefaultOrder: "id ASC",
		Views: []resource.View{{Name: "listNew", Paged: true, Joins: outMainJoin}},
	}, hooks)
	s.outDetails = detail

	// the bluebird-warehouse service's views of the same lines: the lines
	// as such, and the lines by the position and batch they are issued
	// from (a line names exactly one position and batch, so a line is its
	// own position split); same rules as the lines of bluebird-basic
	whHooks := s.outLineHooks()
	whHooks.Query = s.ofLiveOuts
	whDetail := resource.New(resource.Spec{
		Service: "bluebird-warehouse", Name: "materialoutrecorddetail", Table: "bb_material_out_detail",
		Label:  i18n.T("出库明细(仓库)", "Issue line (warehouse)"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "id ASC",
	}, withOutDetailRoute(s, whHooks))
	whPosition := resource.New(resource.Spec{
		Service: "bluebird-warehouse", Name: "materialoutrecorddetailposition", Table: "bb_material_out_detail",
		Label:  i18n.T("出库明细库位", "Issue line location"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "position_id ASC, batch_no ASC, id ASC",
	}, withOutDetailRoute(s, whHooks))

	s.outs = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialoutrecordmain", Table: "bb_material_out", Label: i18n.T("物料出库单", "Material issue"),
		MenuCode: "material_out", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC", States: DocStates(),
		Number:        &resource.Number{Field: "docNo", BizType: "MOUT"},
		SubmitAliases: []string{"submitNew", "addOutRecord", "addOtherOutRecord"},
		Lines: &resource.Lines{Field: "details", Child: detail, Parent: "mainId", Totals: []string{"qty", "amount"},
			Picker: stockPicker("warehouseId", "positionId", nil)},
		Related: ledgerRows(bizMaterialOut, "stockStatus", postedStates...),
		Print:   printOutbound,
		Views: []resource.View{
			{Name: "page", Paged: true, Joins: outJoins, Query: columnIn("out_type", OutPicking, OutPurchaseReturn)},
			{Name: "otherPage", Paged: true, Joins: outJoins, Query: columnIn("out_type", OutOther)},
			{Name: "pickingPage", Paged: true, Joins: outJoins, Query: columnIn("out_type", OutPicking)},
		},
		ListView: "page",
		Screens: []resource.Screen{
			{MenuCode: "material_out_other", Label: i18n.T("其他出库单", "Other issue"), ListView: "otherPage", Fixed: map[string]string{"outType": "3"}},
			{MenuCode: "production_picking", Label: i18n.T("生产领料单", "Production picking"), ListView: "pickingPage", Fixed: map[string]string{"outType": "1"}},
		},
	}, resource.Hooks[MaterialOut]{
		Validate:   validateOut,
		BeforeSave: s.prepareOut,
		Commands: Commands(s.approval, s.stock, Flow[MaterialOut]{
			BizType:     bizMaterialOut,
			Title:       func(m *MaterialOut) string { return "物料出库 " + m.DocNo },
			Outbound:    true,
			Lock:        s.outLocks,
			BeforeStart: s.checkOutRules,
			BeforeVoid:  s.refuseVoidWhileReturned,
			Post: PostCommand[MaterialOut]{Name: "outboundSubmitted", Button: "outbound", Label: msgOutbound,
				Posting: s.issuePosting, AfterPost: s.afterIssuePosted},
			AfterReverse: s.afterIssueReversed,
		}),
	})
	s.Service.issues = s.outs
	return []resource.Registered{s.outDetails, s.outs, whDetail, whPosition}
}

// withOutDetailRoute answers a line's detail on the bluebird-warehouse
// paths only when the caller may read its issue (those resources are not
// the issue's Lines, so the engine does not link them to it).
func withOutDetailRoute(s *outDoc, h resource.Hooks[MaterialOutDetail]) resource.Hooks[MaterialOutDetail] {
	routes := map[string]httpx.HandlerFunc{}
	h.Routes = routes
	routes["detail"] = func(req *http.Request) (any, error) {
		id, err := httpx.QueryID(req, "id")
		if err != nil {
			return nil, err
		}
		ctx := req.Context()
		d, err := s.outDetails.Detail(ctx, s.env.DB, id)
		if err != nil {
			return nil, err
		}
		if _, err := s.outs.Get(ctx, s.env.DB, d.MainID); err != nil {
			return nil, httpx.ErrNotFound
		}
		return d, nil
	}
	return h
}

// ofLiveOuts narrows a line list to lines of issues the caller may read.
func (s *outDoc) ofLiveOuts(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	parents, err := s.outs.Select(r.Context(), q.DB(), (*MaterialOut)(nil))
	if err != nil {
		return nil, err
	}
	alias := q.DB().Dialect().Tables().Get(reflectOutDetail).Alias
	return q.Where("? IN (?)", bun.Ident(alias+".main_id"), parents.Column("id")), nil
}

var outJoins = []resource.Join{
	{Field: "warehouseId", Columns: []resource.JoinColumn{{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse"), Filter: "like"}}},
	{Field: "supplierId", Columns: []resource.JoinColumn{{Name: "supplierName", Column: "supplier_name", Label: i18n.T("供应商", "Supplier"), Filter: "like"}}},
	{Field: "producePlanId", Columns: []resource.JoinColumn{{Name: "producePlanCode", Column: "produce_plan_code", Label: i18n.T("计划单号", "Plan no."), Filter: "like"}}},
}

var outMainJoin = []resource.Join{{Field: "mainId", Columns: []resource.JoinColumn{
	{Name: "docNo", Column: "doc_no", Label: i18n.T("出库单号", "Issue no."), Filter: "like", Sort: true},
	{Name: "outType", Column: "out_type", Label: i18n.T("出库类型", "Issue type"), Filter: "equal"},
	{Name: "warehouseId", Column: "warehouse_id", Label: i18n.T("仓库", "Warehouse"), Filter: "equal"},
}}}

func validateOut(ctx context.Context, m *MaterialOut, present map[string]bool, isNew bool) error {
	if m.OutType == OutPicking && m.ProducePlanID == 0 && (isNew || present["producePlanId"]) {
		return resource.FieldErrorOf(ctx, "producePlanId", msgPickingPlan)
	}
	if m.OutType == OutOther && m.OtherReason == 0 && (isNew || present["otherReason"]) {
		return resource.FieldErrorOf(ctx, "otherReason", msgOutReason)
	}
	if m.OutType == OutPurchaseReturn && m.SupplierID == 0 && (isNew || present["supplierId"]) {
		return resource.FieldErrorOf(ctx, "supplierId", msgOutSupplier)
	}
	return nil
}

// checkOutRules holds the stored issue to its type's rules before it goes
// for approval (an edit may have changed the type without the field the
// new type needs); a production picking's plan must still take picking and
// its lines stay within their requirement (picking.go).
func (s *outDoc) checkOutRules(ctx context.Context, tx bun.Tx, rows []*MaterialOut) error {
	for _, m := range rows {
		if err := validateOut(ctx, m, nil, true); err != nil {
			return err
		}
		if m.OutType == OutPicking {
			if err := s.checkPickingLimits(ctx, tx, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepareOut replaces the lines whole (domain.md §3) with their snapshots
// and base quantities; outgoing lines name their batch. What posting
// writes starts empty whatever the body said.
func (s *outDoc) prepareOut(ctx context.Context, tx bun.Tx, m *MaterialOut, isNew bool) error {
	outType, planID := m.OutType, m.ProducePlanID
	if isNew {
		m.StockStatus, m.PostedAt, m.PostedBy, m.TotalAmount = NotPosted, wire.Time{}, 0, wire.Decimal{}
		if m.OutType != OutPicking {
			m.ProducePlanID, planID = 0, 0 // only a picking is for a plan
		}
	} else {
		cur, err := s.outs.Get(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		if !resource.Sent(ctx, "outType") {
			outType = cur.OutType
		}
		if !resource.Sent(ctx, "producePlanId") {
			planID = cur.ProducePlanID
		}
	}
	if !isNew && !resource.Sent(ctx, "details") {
		if resource.Sent(ctx, "outType") || resource.Sent(ctx, "producePlanId") {
			if err := s.retieStored(ctx, tx, m.ID, outType, planID); err != nil {
				return err
			}
		}
		if resource.Sent(ctx, "warehouseId") {
			return linesStayInWarehouse(ctx, tx, "bb_material_out_detail", m.ID, m.WarehouseID)
		}
		return nil
	}
	lines := make([]*ItemLine, len(m.Details))
	ptrs := make([]*MaterialOutDetail, len(m.Details))
	for i := range m.Details {
		d := &m.Details[i]
		d.ID = 0
		d.ProducePlanDetailID = 0 // the plan material the client named (if any) is checked by tieLines
		d.RequiredQty, d.UnitCost, d.Amount, d.ReturnedQty = wire.Decimal{}, wire.Decimal{}, wire.Decimal{}, wire.Decimal{}
		lines[i], ptrs[i] = &d.ItemLine, d
	}
	if _, err := fillItemLines(ctx, tx, nil, m.WarehouseID, lines, false); err != nil {
		return err
	}
	if err := s.tieLines(ctx, tx, outType, planID, ptrs, true); err != nil {
		return err
	}
	total := wire.NewDecimal(0, 6)
	for i := range m.Details {
		total = total.Add(m.Details[i].BaseQty)
	}
	m.TotalQty = total.Round(6, wire.RoundHalfUp)
	return nil
}

// outLines are an issue's live lines, in line order.
func (s *outDoc) outLines(ctx context.Context, tx bun.Tx, m *MaterialOut) ([]MaterialOutDetail, error) {
	var lines []MaterialOutDetail
	err := tx.NewSelect().Model(&lines).Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", m.ID, m.TenantID).
		OrderExpr("id ASC").Scan(ctx)
	return lines, err
}

// outLocks: each line holds its base quantity in its bucket from
// startProcess until it is issued or the issue lets go.
func (s *outDoc) outLocks(ctx context.Context, tx bun.Tx, m *MaterialOut) ([]stock.LockLine, error) {
	lines, err := s.outLines(ctx, tx, m)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, httpx.BadRequest(msgNoLines)
	}
	out := make([]stock.LockLine, len(lines))
	for i, d := range lines {
		out[i] = stock.LockLine{Bucket: outBucket(m, &d), ItemCode: d.MaterialCode, DetailID: d.ID, Qty: d.BaseQty}
	}
	return out, nil
}

func outBucket(m *MaterialOut, d *MaterialOutDetail) stock.Bucket {
	return stock.Bucket{Kind: stock.Material, ItemID: d.MaterialID, WarehouseID: m.WarehouseID, PositionID: d.PositionID, BatchNo: d.BatchNo}
}

// issuePosting: one outgoing row per line at the item's average cost.
// Scrap and returns to the supplier may take expired batches.
func (s *outDoc) issuePosting(ctx context.Context, tx bun.Tx, m *MaterialOut) (stock.Posting, error) {
	lines, err := s.outLines(ctx, tx, m)
	if err != nil {
		return stock.Posting{}, err
	}
	txType := map[int]stock.TxType{OutPicking: stock.MaterialOutPicking, OutPurchaseReturn: stock.MaterialOutReturn, OutOther: stock.MaterialOutOther}[m.OutType]
	p := stock.Posting{AllowExpired: m.OutType == OutPurchaseReturn || (m.OutType == OutOther && m.OtherReason == ReasonScrap)}
	for i := range lines {
		d := &lines[i]
		line := stock.Line{Bucket: outBucket(m, d), ItemCode: d.MaterialCode, DetailID: d.ID, TxType: txType, Qty: d.BaseQty.Neg()}
		if m.OutType == OutPicking {
			line.ProducePlanID = m.ProducePlanID
		}
		if m.OutType == OutPurchaseReturn && m.SupplierID != 0 {
			line.PartnerType, line.PartnerID = "SUPPLIER", m.SupplierID
		}
		p.Lines = append(p.Lines, line)
	}
	return p, nil
}

// afterIssuePosted writes each line's cost and amount as the ledger priced
// them, and the issue's total amount; a picking adds its quantities to its
// plan's picked quantities.
func (s *outDoc) afterIssuePosted(ctx context.Context, tx bun.Tx, m *MaterialOut, rows []*stock.LedgerRow) error {
	total := wire.NewDecimal(0, 4)
	for _, r := range rows {
		amount := r.Amount.Neg().Round(4, wire.RoundHalfUp)
		total = total.Add(amount)
		if _, err := tx.NewUpdate().Table("bb_material_out_detail").Set("unit_cost = ?", r.UnitCost).Set("amount = ?", amount).
			Where("id = ? AND tenant_id = ?", r.BizDetailID, m.TenantID).Exec(ctx); err != nil {
			return err
		}
	}
	if _, err := tx.NewUpdate().Table("bb_material_out").Set("total_amount = ?", total.Round(4, wire.RoundHalfUp)).
		Where("id = ? AND tenant_id = ?", m.ID, m.TenantID).Exec(ctx); err != nil {
		return err
	}
	m.TotalAmount = total
	return s.addPicked(ctx, tx, m, false)
}

// afterIssueReversed takes a voided picking's quantities off its plan.
func (s *outDoc) afterIssueReversed(ctx context.Context, tx bun.Tx, m *MaterialOut) error {
	return s.addPicked(ctx, tx, m, true)
}

// refuseVoidWhileReturned: an issue whose material went back to stock
// through a material return cannot be voided (domain.md §6.2).
func (s *outDoc) refuseVoidWhileReturned(ctx context.Context, tx bun.Tx, rows []*MaterialOut) error {
	for _, m := range rows {
		n, err := tx.NewSelect().Table("bb_material_out_detail").
			Where("main_id = ? AND tenant_id = ? AND is_deleted = 0 AND returned_qty > 0", m.ID, m.TenantID).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			n, err = backStocksOnOutLines(ctx, tx, m)
			if err != nil {
				return err
			}
		}
		if n > 0 {
			return httpx.BadRequest(msgOutReturned.Format(m.DocNo))
		}
	}
	return nil
}
