package stockdoc

import (
	"context"
	"strconv"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Borrow or repay (dictionary borrow_repay_type).
const (
	BorrowDoc = 1
	RepayDoc  = 2
)

// Borrow statuses (dictionary borrow_status).
const (
	BorrowNotOut          = 1
	BorrowBorrowed        = 2
	BorrowPartiallyRepaid = 3
	BorrowRepaid          = 4
	BorrowClosed          = 5
)

// MaterialBorrowRepay is a borrow of material or the repay of one
// (domain.md §6.5). The spec names one resource for both, so both are rows
// of one table told apart by borrowRepayType: a borrow is an outbound
// document (locks at startProcess, posts BORROW_OUT with 借出); a repay
// names its borrow (borrowId) and each of its lines the borrowed line it
// returns (borrowDetailId), and posts REPAY_IN (归还入库) at that line's
// cost. borrowStatus and the lines' repaidQty are the borrow's; a borrow is
// numbered by the MBW code rule, a repay by MRY.
type MaterialBorrowRepay struct {
	bun.BaseModel `bun:"table:bb_material_borrow_repay"`
	resource.Base
	Header
	BorrowRepayType    int                         `bun:"borrow_repay_type" json:"borrowRepayType" f:"label=借还类型|Borrow or return;req;once;dict=borrow_repay_type;search;default=1"`
	BorrowerType       int                         `bun:"borrower_type" json:"borrowerType" f:"label=借用方类型|Borrower type;dict=borrower_type;search"`
	BorrowerID         wire.ID                     `bun:"borrower_id" json:"borrowerId" f:"label=借用方|Borrower;type=id;hide"`
	BorrowerName       string                      `bun:"borrower_name" json:"borrowerName" f:"label=借用方名称|Borrower name;max=128;search"`
	WarehouseID        wire.ID                     `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;req;msg=请选择仓库|Please select the warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	ExpectedReturnDate wire.Time                   `bun:"expected_return_date" json:"expectedReturnDate" f:"label=预计归还日期|Expected return date;type=date;sort"`
	Purpose            string                      `bun:"purpose" json:"purpose" f:"label=用途|Purpose;max=500;hide"`
	BorrowStatus       int                         `bun:"borrow_status" json:"borrowStatus" f:"label=借用状态|Borrow status;dict=borrow_status;ro;noform;search"`
	CloseReason        string                      `bun:"close_reason" json:"closeReason" f:"label=关闭原因|Reason closed;ro;noform;hide"`
	BorrowID           wire.ID                     `bun:"borrow_id" json:"borrowId" f:"label=借用单|Borrow;once;ref=bluebird-basic/materialborrowrepaymain;filter=equal"`
	RepayerName        string                      `bun:"repayer_name" json:"repayerName" f:"label=归还人|Returned by;max=128;hide"`
	TotalQty           wire.Decimal                `bun:"total_qty" json:"totalQty" f:"label=总数量|Total quantity;scale=6;noform;ro"`
	Details            []MaterialBorrowRepayDetail `bun:"-" json:"details"`
	WarehouseName      string                      `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
	BorrowNo           string                      `bun:"j_doc_no,scanonly" json:"borrowNo,omitempty"`
}

// MaterialBorrowRepayDetail is a borrowed or a returned line: the kit's
// item line (one position: where it leaves or comes back), its cost, and,
// on a borrow line, how much came back (repaidQty); on a repay line, the
// borrowed line it returns.
type MaterialBorrowRepayDetail struct {
	bun.BaseModel `bun:"table:bb_material_borrow_repay_detail"`
	resource.Base
	MainID wire.ID `bun:"main_id" json:"mainId" f:"label=借还单|Borrow or return;ref=bluebird-basic/materialborrowrepaymain;ro;hide;noform;filter=equal"`
	ItemLine
	UnitCost       wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	RepaidQty      wire.Decimal `bun:"repaid_qty" json:"repaidQty" f:"label=已归还数量|Quantity returned;scale=6;ro;noform"`
	OutstandingQty wire.Decimal `bun:"-" json:"outstandingQty"`
	BorrowDetailID wire.ID      `bun:"borrow_detail_id" json:"borrowDetailId" f:"label=借用明细|Borrowed line;type=id;filter=equal;hide"`
	Remark         string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	DocNo          string       `bun:"j_doc_no,scanonly" json:"docNo,omitempty"`
}

const bizBorrowRepay = "MATERIAL_BORROW_REPAY"

var (
	msgLend          = i18n.T("借出", "Lend out")
	msgRepayIn       = i18n.T("归还入库", "Return to stock")
	msgClose         = i18n.T("关闭", "Close")
	msgCloseDone     = i18n.T("借用单已关闭", "Borrow closed")
	msgBorrowerType  = i18n.T("请选择借用方类型", "Please select the borrower type")
	msgBorrowerName  = i18n.T("请输入借用方名称", "Please enter the borrower's name")
	msgReturnDate    = i18n.T("请选择预计归还日期", "Please select the expected return date")
	msgBorrowID      = i18n.T("请选择借用单", "Please select the borrow being returned")
	msgNoBorrow      = i18n.T("借用单不存在", "No such borrow")
	msgBorrowNotOpen = i18n.T("借用单 %s 不在借出状态, 不能归还", "Borrow %s is not lent out: nothing can be returned")
	msgNotBorrowLine = i18n.T("第%d行: 不是该借用单的借出明细", "Line %d: not a line of the borrow")
	msgBorrowLineReq = i18n.T("第%d行: 请选择借出明细", "Line %d: select the borrowed line")
	msgRepayMaterial = i18n.T("第%d行: 物料与借出的不一致", "Line %d: not the material borrowed")
	msgRepayBatch    = i18n.T("第%d行: 批次号必须与借出的批次「%s」相同", "Line %d: the batch must be the one borrowed (%q)")
	msgOverRepay     = i18n.T("物料 %s 归还 %s, 超过未归还数量 %s", "Material %s: %s returned, more than the %s outstanding")
	msgIsRepay       = i18n.T("单据 %s 是归还单, 请使用归还入库", "Document %s is a return: use return to stock")
	msgIsBorrow      = i18n.T("单据 %s 是借用单, 请使用借出", "Document %s is a borrow: use lend out")
	msgHasRepays     = i18n.T("借用单 %s 已有归还单 %s, 不能作废", "Borrow %s has the return %s: it cannot be voided")
	msgCloseReason   = i18n.T("请输入关闭原因", "Please enter the reason for closing")
	wordWarehouse    = i18n.T("单据的仓库", "document's warehouse")
)

type borrowDocs struct {
	s     *Service
	main  *resource.Resource[MaterialBorrowRepay]
	lines *resource.Resource[MaterialBorrowRepayDetail]
}

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		d := &borrowDocs{s: s}
		d.declare()
		return []resource.Registered{d.lines, d.main}
	})
}

var borrowMainJoin = []resource.Join{{Field: "mainId", Columns: []resource.JoinColumn{
	{Name: "docNo", Column: "doc_no", Label: i18n.T("借还单号", "Document no."), Filter: "like", Sort: true},
}}}

var borrowJoins = []resource.Join{
	{Field: "warehouseId", Columns: []resource.JoinColumn{{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse"), Filter: "like"}}},
	{Field: "borrowId", Columns: []resource.JoinColumn{{Name: "borrowNo", Column: "doc_no", Label: i18n.T("借用单号", "Borrow no."), Filter: "like"}}},
}

func (d *borrowDocs) declare() {
	s := d.s
	w := &lineWrites[MaterialBorrowRepay, MaterialBorrowRepayDetail]{
		parent: func() *resource.Resource[MaterialBorrowRepay] { return d.main }, lines: func() *resource.Resource[MaterialBorrowRepayDetail] { return d.lines },
		mainID:  func(l *MaterialBorrowRepayDetail) wire.ID { return l.MainID },
		details: func(m *MaterialBorrowRepay) *[]MaterialBorrowRepayDetail { return &m.Details },
	}
	d.lines = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialborrowrepaydetail", Table: "bb_material_borrow_repay_detail",
		Label:  i18n.T("借还明细", "Borrow or return line"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "id ASC",
		Views: []resource.View{
			{Name: "selectMaterialBorrowRepayDetailVOList", Joins: borrowMainJoin},
			{Name: "selectMaterialBorrowRepayDetailVOListPage", Paged: true, Joins: borrowMainJoin},
		},
	}, resource.Hooks[MaterialBorrowRepayDetail]{
		Routes: map[string]httpx.HandlerFunc{"submit": w.submit, "remove": w.remove},
		Enrich: func(_ context.Context, _ bun.IDB, rows []MaterialBorrowRepayDetail) error {
			for i := range rows {
				if r := &rows[i]; r.BorrowDetailID == 0 && !r.RepaidQty.IsNull() && !r.BaseQty.IsNull() {
					r.OutstandingQty = r.BaseQty.Sub(r.RepaidQty).Round(6, wire.RoundHalfUp)
				}
			}
			return nil
		},
	})
	flow := Flow[MaterialBorrowRepay]{
		BizType:  bizBorrowRepay,
		Route:    "borrow_repay",
		Title:    func(m *MaterialBorrowRepay) string { return "物料借还 " + m.DocNo },
		Outbound: true,
		Lock:     d.lock,
		Post: PostCommand[MaterialBorrowRepay]{Name: "outboundSubmitted", Button: "outbound", Label: msgLend,
			Posting: d.borrowPosting, AfterPost: d.afterBorrowPost},
		BeforeVoid:   d.beforeVoid,
		AfterReverse: d.afterReverse,
	}
	cmds := Commands(s.approval, s.stock, flow)
	flow.Post = PostCommand[MaterialBorrowRepay]{Name: "submitInStock", Button: "in_stock", Label: msgRepayIn,
		Posting: d.repayPosting, AfterPost: d.afterRepayPost}
	repay := Commands(s.approval, s.stock, flow)
	cmds = append(cmds, repay[len(repay)-1], resource.Command[MaterialBorrowRepay]{Name: "closeBorrow", Label: msgClose, Done: msgCloseDone,
		Button: "outbound", Row: true, From: &resource.States{Field: "borrowStatus", Values: []int{BorrowBorrowed, BorrowPartiallyRepaid}},
		Run: d.closeBorrow})

	d.main = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialborrowrepaymain", Table: "bb_material_borrow_repay", Label: i18n.T("物料借还单", "Material borrow or return"),
		MenuCode: "borrow_repay", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC", States: DocStates(),
		// a borrow is numbered by the MBW rule, a repay by MRY
		Number: &resource.Number{Field: "docNo", BizType: "MBW",
			By: &resource.NumberBy{Field: "borrowRepayType", BizTypes: map[string]string{strconv.Itoa(RepayDoc): "MRY"}}},
		SubmitAliases: []string{"saveMaterialBorrowRepayMain"},
		Lines: &resource.Lines{Field: "details", Child: d.lines, Parent: "mainId", Totals: []string{"qty"},
			Picker: stockPicker("warehouseId", "positionId", &resource.States{Field: "borrowRepayType", Values: []int{BorrowDoc}})},
		Related:  ledgerRows(bizBorrowRepay, "stockStatus", postedStates...),
		Print:    printOutbound,
		Views:    []resource.View{{Name: "selectMaterialBorrowRepayMainVOListPage", Paged: true, Joins: borrowJoins}},
		ListView: "selectMaterialBorrowRepayMainVOListPage",
	}, resource.Hooks[MaterialBorrowRepay]{
		Validate:   validateBorrow,
		BeforeSave: d.prepare,
		AfterSave:  d.saveTotal,
		Commands:   cmds,
	})
}

func validateBorrow(ctx context.Context, m *MaterialBorrowRepay, present map[string]bool, isNew bool) error {
	if !isNew || m.BorrowRepayType == RepayDoc {
		if isNew && m.BorrowID == 0 {
			return resource.FieldErrorOf(ctx, "borrowId", msgBorrowID)
		}
		return nil
	}
	switch {
	case m.BorrowerType == 0:
		return resource.FieldErrorOf(ctx, "borrowerType", msgBorrowerType)
	case m.BorrowerName == "":
		return resource.FieldErrorOf(ctx, "borrowerName", msgBorrowerName)
	case m.ExpectedReturnDate.IsZero():
		return resource.FieldErrorOf(ctx, "expectedReturnDate", msgReturnDate)
	}
	return nil
}

// prepare replaces the lines whole (a line route keeps their ids): a
// borrow's are snapshot, converted and placed in its warehouse; a repay's must each return a line
// of its borrow, with the borrowed material and batch, no more than is
// outstanding, and take the borrowed line's cost.
func (d *borrowDocs) prepare(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay, isNew bool) error {
	typ, wh, borrowID := m.BorrowRepayType, m.WarehouseID, m.BorrowID
	if isNew {
		m.StockStatus = NotPosted
		if typ == BorrowDoc {
			m.BorrowStatus, m.BorrowID, borrowID = BorrowNotOut, 0, 0
		} else {
			m.BorrowStatus, m.BorrowerType, m.BorrowerID = 0, 0, 0
		}
	} else {
		cur, err := d.main.Get(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		typ, borrowID = cur.BorrowRepayType, cur.BorrowID
		if !resource.Sent(ctx, "warehouseId") {
			wh = cur.WarehouseID
		}
	}
	if !isNew && !resource.Sent(ctx, "details") {
		if resource.Sent(ctx, "warehouseId") {
			return linesStayInWarehouse(ctx, tx, "bb_material_borrow_repay_detail", m.ID, wh)
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
	var borrowed map[wire.ID]*MaterialBorrowRepayDetail
	if typ == RepayDoc {
		b, err := d.openBorrow(ctx, tx, borrowID)
		if err != nil {
			return err
		}
		if borrowed, err = d.borrowLines(ctx, tx, b.ID, false); err != nil {
			return err
		}
		for i := range m.Details {
			l := &m.Details[i]
			bl := borrowed[l.BorrowDetailID]
			switch {
			case l.BorrowDetailID == 0:
				return resource.FieldErrorOf(ctx, "borrowDetailId", msgBorrowLineReq.Format(i+1))
			case bl == nil:
				return resource.FieldErrorOf(ctx, "borrowDetailId", msgNotBorrowLine.Format(i+1))
			case l.MaterialID != 0 && l.MaterialID != bl.MaterialID:
				return resource.FieldErrorOf(ctx, "materialId", msgRepayMaterial.Format(i+1))
			}
			l.MaterialID = bl.MaterialID
			if l.BatchNo == "" {
				l.BatchNo = bl.BatchNo
			} else if l.BatchNo != bl.BatchNo {
				return resource.FieldErrorOf(ctx, "batchNo", msgRepayBatch.Format(i+1, bl.BatchNo))
			}
			if l.Unit == "" {
				l.Unit = bl.Unit
			}
		}
	}
	positions := make([]wire.ID, len(m.Details))
	items := make([]*ItemLine, len(m.Details))
	for i := range m.Details {
		positions[i], items[i] = m.Details[i].PositionID, &m.Details[i].ItemLine
	}
	if err := checkPlaces(ctx, tx, "positionId", wordWarehouse, wh, positions); err != nil {
		return err
	}
	if _, err := fillItemLines(ctx, tx, nil, wh, items, false); err != nil {
		return err
	}
	total := wire.NewDecimal(0, 6)
	for i := range m.Details {
		l := &m.Details[i]
		total = total.Add(l.BaseQty)
		if typ == BorrowDoc {
			l.RepaidQty, l.UnitCost, l.BorrowDetailID = wire.NewDecimal(0, 6), wire.Decimal{}, 0
		} else {
			l.RepaidQty, l.UnitCost = wire.Decimal{}, borrowed[l.BorrowDetailID].UnitCost
		}
	}
	m.TotalQty = total.Round(6, wire.RoundHalfUp)
	if typ == RepayDoc {
		return checkOutstanding(m.Details, borrowed)
	}
	return nil
}

// checkOutstanding: what a repay returns of each borrowed line is at most
// what is still out (borrowed − repaid).
func checkOutstanding(lines []MaterialBorrowRepayDetail, borrowed map[wire.ID]*MaterialBorrowRepayDetail) error {
	sums := map[wire.ID]wire.Decimal{}
	var order []wire.ID
	for _, l := range lines {
		if prev, ok := sums[l.BorrowDetailID]; ok {
			sums[l.BorrowDetailID] = prev.Add(l.BaseQty)
		} else {
			sums[l.BorrowDetailID] = l.BaseQty
			order = append(order, l.BorrowDetailID)
		}
	}
	for _, id := range order {
		bl := borrowed[id]
		left := bl.BaseQty.Sub(repaid(bl)).Round(6, wire.RoundHalfUp)
		if sums[id].Sub(left).Sign() > 0 {
			return httpx.BadRequest(msgOverRepay.Format(bl.MaterialCode, sums[id].Round(6, wire.RoundHalfUp).String(), left.String()))
		}
	}
	return nil
}

func repaid(l *MaterialBorrowRepayDetail) wire.Decimal {
	if l.RepaidQty.IsNull() {
		return wire.NewDecimal(0, 6)
	}
	return l.RepaidQty
}

// openBorrow is a repay's borrow, which must be lent out and not closed.
func (d *borrowDocs) openBorrow(ctx context.Context, tx bun.Tx, id wire.ID) (*MaterialBorrowRepay, error) {
	b, err := d.main.Get(ctx, tx, id)
	if err != nil || b.BorrowRepayType != BorrowDoc {
		return nil, resource.FieldErrorOf(ctx, "borrowId", msgNoBorrow)
	}
	if b.Status != approval.Approved || b.StockStatus != Posted || (b.BorrowStatus != BorrowBorrowed && b.BorrowStatus != BorrowPartiallyRepaid) {
		return nil, resource.FieldErrorOf(ctx, "borrowId", msgBorrowNotOpen.Format(b.DocNo))
	}
	return b, nil
}

// borrowLines are a borrow's lines by id; forUpdate locks them on
// PostgreSQL (a repay's posting changes their repaidQty).
func (d *borrowDocs) borrowLines(ctx context.Context, tx bun.Tx, borrowID wire.ID, forUpdate bool) (map[wire.ID]*MaterialBorrowRepayDetail, error) {
	var rows []*MaterialBorrowRepayDetail
	q := tx.NewSelect().Model(&rows).Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", borrowID, authz.From(ctx).TenantID).Order("id")
	if forUpdate && tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[wire.ID]*MaterialBorrowRepayDetail, len(rows))
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}

func (d *borrowDocs) saveTotal(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay, isNew bool) error {
	if isNew || !resource.Sent(ctx, "details") {
		return nil
	}
	_, err := tx.NewUpdate().Table("bb_material_borrow_repay").Set("total_qty = ?", m.TotalQty).Where("id = ? AND tenant_id = ?", m.ID, m.TenantID).Exec(ctx)
	return err
}

// lock: a borrow holds what it lends; a repay holds nothing.
func (d *borrowDocs) lock(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay) ([]stock.LockLine, error) {
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return nil, err
	}
	if len(full.Details) == 0 {
		return nil, httpx.BadRequest(msgNoLines)
	}
	if m.BorrowRepayType != BorrowDoc {
		return nil, nil
	}
	out := make([]stock.LockLine, len(full.Details))
	for i, l := range full.Details {
		out[i] = stock.LockLine{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: full.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo},
			ItemCode: l.MaterialCode, DetailID: l.ID, Qty: l.BaseQty}
	}
	return out, nil
}

var borrowerTypes = map[int]string{1: "EMPLOYEE", 2: "DEPT", 3: "CUSTOMER", 4: "SUPPLIER"}

// borrowPosting: BORROW_OUT per line at the average cost.
func (d *borrowDocs) borrowPosting(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay) (stock.Posting, error) {
	if m.BorrowRepayType != BorrowDoc {
		return stock.Posting{}, httpx.BadRequest(msgIsRepay.Format(m.DocNo))
	}
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return stock.Posting{}, err
	}
	p := stock.Posting{}
	for _, l := range full.Details {
		p.Lines = append(p.Lines, stock.Line{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: m.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo},
			ItemCode: l.MaterialCode, DetailID: l.ID, TxType: stock.BorrowOut, Qty: l.BaseQty.Neg(), PartnerType: borrowerTypes[m.BorrowerType], PartnerID: m.BorrowerID})
	}
	return p, nil
}

// afterBorrowPost keeps each line's cost (what a repay comes back at) and
// marks the borrow lent out.
func (d *borrowDocs) afterBorrowPost(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay, rows []*stock.LedgerRow) error {
	for _, r := range rows {
		if _, err := tx.NewUpdate().Table("bb_material_borrow_repay_detail").Set("unit_cost = ?", r.UnitCost).
			Where("id = ? AND tenant_id = ?", r.BizDetailID, m.TenantID).Exec(ctx); err != nil {
			return err
		}
	}
	return d.main.SetFields(ctx, tx, []*MaterialBorrowRepay{m}, map[string]any{"borrowStatus": BorrowBorrowed})
}

// repayPosting: REPAY_IN per line at the borrowed line's cost, checked
// again under the borrow lines' lock against what is still out.
func (d *borrowDocs) repayPosting(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay) (stock.Posting, error) {
	if m.BorrowRepayType != RepayDoc {
		return stock.Posting{}, httpx.BadRequest(msgIsBorrow.Format(m.DocNo))
	}
	b, err := d.openBorrow(ctx, tx, m.BorrowID)
	if err != nil {
		return stock.Posting{}, err
	}
	borrowed, err := d.borrowLines(ctx, tx, b.ID, true)
	if err != nil {
		return stock.Posting{}, err
	}
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return stock.Posting{}, err
	}
	if err := checkOutstanding(full.Details, borrowed); err != nil {
		return stock.Posting{}, err
	}
	p := stock.Posting{}
	for _, l := range full.Details {
		bl := borrowed[l.BorrowDetailID]
		p.Lines = append(p.Lines, stock.Line{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: m.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo},
			ItemCode: l.MaterialCode, DetailID: l.ID, TxType: stock.RepayIn, Qty: l.BaseQty, UnitCost: bl.UnitCost,
			PartnerType: borrowerTypes[b.BorrowerType], PartnerID: b.BorrowerID})
	}
	return p, nil
}

func (d *borrowDocs) afterRepayPost(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay, _ []*stock.LedgerRow) error {
	return d.applyRepay(ctx, tx, m, false)
}

// applyRepay adds a repay's quantities to its borrow's lines (or takes
// them off again, undo) and recomputes the borrow's status.
func (d *borrowDocs) applyRepay(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay, undo bool) error {
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return err
	}
	borrowed, err := d.borrowLines(ctx, tx, m.BorrowID, true)
	if err != nil {
		return err
	}
	for _, l := range full.Details {
		bl := borrowed[l.BorrowDetailID]
		if bl == nil {
			continue
		}
		if undo {
			bl.RepaidQty = repaid(bl).Sub(l.BaseQty).Round(6, wire.RoundHalfUp)
		} else {
			bl.RepaidQty = repaid(bl).Add(l.BaseQty).Round(6, wire.RoundHalfUp)
		}
	}
	some, all := false, true
	for _, bl := range borrowed {
		if _, err := tx.NewUpdate().Table("bb_material_borrow_repay_detail").Set("repaid_qty = ?", bl.RepaidQty).Where("id = ?", bl.ID).Exec(ctx); err != nil {
			return err
		}
		if repaid(bl).Sign() > 0 {
			some = true
		}
		if bl.BaseQty.Sub(repaid(bl)).Sign() > 0 {
			all = false
		}
	}
	status := BorrowBorrowed
	switch {
	case all:
		status = BorrowRepaid
	case some:
		status = BorrowPartiallyRepaid
	}
	_, err = tx.NewUpdate().Table("bb_material_borrow_repay").Set("borrow_status = ?", status).Set("version = version + 1").
		Where("id = ? AND tenant_id = ? AND borrow_status <> ?", m.BorrowID, m.TenantID, BorrowClosed).Exec(ctx)
	return err
}

// beforeVoid: a borrow with a return that is not voided stays.
func (d *borrowDocs) beforeVoid(ctx context.Context, tx bun.Tx, rows []*MaterialBorrowRepay) error {
	for _, m := range rows {
		if m.BorrowRepayType != BorrowDoc {
			continue
		}
		var nos []string
		if err := tx.NewSelect().Table("bb_material_borrow_repay").Column("doc_no").
			Where("tenant_id = ? AND is_deleted = 0 AND borrow_id = ? AND status <> ?", m.TenantID, m.ID, approval.Voided).Order("id").Limit(1).Scan(ctx, &nos); err != nil {
			return err
		}
		if len(nos) > 0 {
			return httpx.BadRequest(msgHasRepays.Format(m.DocNo, nos[0]))
		}
	}
	return nil
}

// afterReverse: a voided repay's quantities are out again.
func (d *borrowDocs) afterReverse(ctx context.Context, tx bun.Tx, m *MaterialBorrowRepay) error {
	if m.BorrowRepayType != RepayDoc {
		return nil
	}
	return d.applyRepay(ctx, tx, m, true)
}

// closeBorrow writes off what is still out (domain.md §6.5): the goods
// have left already, so no stock moves. reason is required.
func (d *borrowDocs) closeBorrow(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialBorrowRepay], rows []*MaterialBorrowRepay, req *resource.CommandRequest) (any, error) {
	reason := req.Values.Get("reason")
	if reason == "" {
		return nil, resource.FieldErrorOf(ctx, "reason", msgCloseReason)
	}
	if len([]rune(reason)) > 500 {
		return nil, httpx.InvalidParam("reason")
	}
	return nil, res.SetFields(ctx, tx, rows, map[string]any{"borrowStatus": BorrowClosed, "closeReason": reason})
}
