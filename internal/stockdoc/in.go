package stockdoc

import (
	"context"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Receipt types (dictionary material_in_type).
const (
	InPurchase  = 1
	InBackStock = 2
	InOther     = 3
)

// MaterialIn is a material receipt (domain.md §6.1).
type MaterialIn struct {
	bun.BaseModel `bun:"table:bb_material_in"`
	resource.Base
	Header
	InType             int                `bun:"in_type" json:"inType" f:"label=入库类型|Receipt type;req;dict=material_in_type;search;default=1"`
	OtherReason        int                `bun:"other_reason" json:"otherReason" f:"label=其他入库原因|Reason;dict=in_other_reason"`
	WarehouseID        wire.ID            `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;req;msg=请选择仓库|Please select the warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	SupplierID         wire.ID            `bun:"supplier_id" json:"supplierId" f:"label=供应商|Supplier;ref=bluebird-basic/suppliermain;filter=equal"`
	SupplierDeliveryNo string             `bun:"supplier_delivery_no" json:"supplierDeliveryNo" f:"label=送货单号|Delivery note no.;max=64;search"`
	PurchaseOrderID    wire.ID            `bun:"purchase_order_id" json:"purchaseOrderId" f:"label=采购订单|Purchase order;type=id;hide;noform;ro"`
	BackStockID        wire.ID            `bun:"back_stock_id" json:"backStockId" f:"label=退库单|Material return;type=id;hide;noform;ro"`
	ProducePlanID      wire.ID            `bun:"produce_plan_id" json:"producePlanId" f:"label=生产计划|Production plan;type=id;hide;noform;ro"`
	KeeperID           wire.ID            `bun:"keeper_id" json:"keeperId" f:"label=库管员|Warehouse keeper;ref=blade-user/user;hide"`
	TestStatus         int                `bun:"test_status" json:"testStatus" f:"label=检验合格|Inspection passed;dict=business_yes_no;noform;ro"`
	TestRemark         string             `bun:"test_remark" json:"testRemark" f:"label=检验说明|Inspection note;max=500;noform;ro;hide"`
	TotalQty           wire.Decimal       `bun:"total_qty" json:"totalQty" f:"label=总数量|Total quantity;scale=6;noform;ro"`
	TotalAmount        wire.Decimal       `bun:"total_amount" json:"totalAmount" f:"label=总金额|Total amount;scale=4;precision=18;noform;ro"`
	Details            []MaterialInDetail `bun:"-" json:"details"`
	WarehouseName      string             `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
	SupplierName       string             `bun:"j_supplier_name,scanonly" json:"supplierName,omitempty"`
}

// MaterialInDetail is a receipt line.
type MaterialInDetail struct {
	bun.BaseModel `bun:"table:bb_material_in_detail"`
	resource.Base
	MainID wire.ID `bun:"main_id" json:"mainId" f:"label=入库单|Receipt;ref=bluebird-basic/materialinrecordmain;ro;hide;noform;filter=equal"`
	ItemLine
	ProductionDate        wire.Time    `bun:"production_date" json:"productionDate" f:"label=生产日期|Production date;type=date"`
	ExpiryDate            wire.Time    `bun:"expiry_date" json:"expiryDate" f:"label=有效期至|Expiry date;type=date"`
	UnitPrice             wire.Decimal `bun:"unit_price" json:"unitPrice" f:"label=单价|Unit price;scale=4;precision=18;min=0"`
	Amount                wire.Decimal `bun:"amount" json:"amount" f:"label=金额|Amount;scale=4;precision=18;ro;noform"`
	TaxRate               wire.Decimal `bun:"tax_rate" json:"taxRate" f:"label=税率|Tax rate;scale=4;precision=9;min=0;max=1;hide"`
	PurchaseOrderDetailID wire.ID      `bun:"purchase_order_detail_id" json:"purchaseOrderDetailId" f:"label=采购订单明细|Purchase order line;type=id;hide;noform;ro"`
	BackStockDetailID     wire.ID      `bun:"back_stock_detail_id" json:"backStockDetailId" f:"label=退库明细|Return line;type=id;hide;noform;ro"`
	Remark                string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	DocNo                 string       `bun:"j_doc_no,scanonly" json:"docNo,omitempty"`
	InType                string       `bun:"j_in_type,scanonly" json:"inType,omitempty"`
	WarehouseID           string       `bun:"j_warehouse_id,scanonly" json:"warehouseId,omitempty"`
}

const bizMaterialIn = "MATERIAL_IN"

var (
	msgOtherReason  = i18n.T("请选择其他入库原因", "Please select the reason for the receipt")
	msgSupplier     = i18n.T("采购入库请选择供应商", "A purchase receipt needs its supplier")
	msgBackStockNew = i18n.T("退库入库单只能由退库单生成", "Back-stock receipts are made from a material return only")
	msgInStock      = i18n.T("入库", "Receive into stock")
	msgTestDone     = i18n.T("检验结果已保存", "Inspection result saved")
	msgTest         = i18n.T("检验", "Inspect")
)

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		s.declareIn()
		return []resource.Registered{s.inDetails, s.ins}
	})
}

func (s *Service) declareIn() {
	detail := resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialinrecorddetail", Table: "bb_material_in_detail",
		Label:  i18n.T("入库明细", "Receipt line"),
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "id ASC",
		Views: []resource.View{
			{Name: "detailListVO", Joins: inMainJoin},
			{Name: "selectMaterialInRecordDetailVOList", Joins: inMainJoin},
			{Name: "selectMaterialInRecordDetailVOListPage", Paged: true, Joins: inMainJoin},
			{Name: "materialinrecorddetailList", Joins: inMainJoin},
		},
	}, resource.Hooks[MaterialInDetail]{})
	s.inDetails = detail

	s.ins = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialinrecordmain", Table: "bb_material_in", Label: i18n.T("物料入库单", "Material receipt"),
		MenuCode: "material_in", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC", States: DocStates(),
		Number:        &resource.Number{Field: "docNo", BizType: "MIN"},
		SubmitAliases: []string{"saveMaterialInRecord", "saveMaterialInRecordOthers"},
		Lines:         &resource.Lines{Field: "details", Child: detail, Parent: "mainId", Totals: []string{"qty", "amount"}},
		Related:       ledgerRows(bizMaterialIn, "stockStatus", postedStates...),
		Print:         printInbound,
		Views: []resource.View{
			{Name: "selectvo", Paged: true, Joins: inJoins, Query: columnIn("in_type", InPurchase, InBackStock)},
			{Name: "selectOthersvo", Paged: true, Joins: inJoins, Query: columnIn("in_type", InOther)},
		},
		ListView: "selectvo",
		Screens: []resource.Screen{{MenuCode: "material_in_other", Label: i18n.T("其他入库单", "Other receipt"),
			ListView: "selectOthersvo", Fixed: map[string]string{"inType": "3"}}},
	}, resource.Hooks[MaterialIn]{
		Validate:   validateIn,
		BeforeSave: s.prepareIn,
		Commands: append(Commands(s.approval, s.stock, Flow[MaterialIn]{
			BizType: bizMaterialIn,
			Title:   func(m *MaterialIn) string { return "物料入库 " + m.DocNo },
			Post: PostCommand[MaterialIn]{Name: "submitInStockMaterial", Aliases: []string{"submitInStockMaterialOthers"},
				Button: "in_stock", Label: msgInStock, Posting: s.receiptPosting, AfterPost: s.afterReceiptPosted},
			AfterReverse: s.afterReceiptReversed,
		}), resource.Command[MaterialIn]{Name: "saveMaterialTest", Label: msgTest, Done: msgTestDone, Row: true,
			Run: s.saveTest}),
	})
}

var inJoins = []resource.Join{
	{Field: "warehouseId", Columns: []resource.JoinColumn{{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse"), Filter: "like"}}},
	{Field: "supplierId", Columns: []resource.JoinColumn{{Name: "supplierName", Column: "supplier_name", Label: i18n.T("供应商", "Supplier"), Filter: "like"}}},
}

var inMainJoin = []resource.Join{{Field: "mainId", Columns: []resource.JoinColumn{
	{Name: "docNo", Column: "doc_no", Label: i18n.T("入库单号", "Receipt no."), Filter: "like", Sort: true},
	{Name: "inType", Column: "in_type", Label: i18n.T("入库类型", "Receipt type"), Filter: "equal"},
	{Name: "warehouseId", Column: "warehouse_id", Label: i18n.T("仓库", "Warehouse"), Filter: "equal"},
}}}

// columnIn narrows a list to rows whose column holds one of values (a
// receipt or issue list to some types).
func columnIn(column string, values ...int) func(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	return func(_ *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
		return q.Where("?TableAlias.? IN (?)", bun.Ident(column), bun.In(values)), nil
	}
}

func validateIn(ctx context.Context, m *MaterialIn, present map[string]bool, isNew bool) error {
	if present["inType"] && m.InType == InBackStock && !fromBackStock(ctx) {
		return resource.FieldErrorOf(ctx, "inType", msgBackStockNew)
	}
	if m.InType == InOther && m.OtherReason == 0 && (isNew || present["otherReason"]) {
		return resource.FieldErrorOf(ctx, "otherReason", msgOtherReason)
	}
	if m.InType == InPurchase && m.SupplierID == 0 && (isNew || present["supplierId"]) {
		return resource.FieldErrorOf(ctx, "supplierId", msgSupplier)
	}
	return nil
}

type fromBackStockKey struct{}

// fromBackStock: the receipt is being made by a material return's
// saveMaterialInRecord, the one way to a BACK_STOCK receipt.
func fromBackStock(ctx context.Context) bool { v, _ := ctx.Value(fromBackStockKey{}).(bool); return v }

// prepareIn replaces the lines whole (domain.md §3) with their snapshots,
// base quantities, batch numbers, expiry dates and amounts, and totals them.
func (s *Service) prepareIn(ctx context.Context, tx bun.Tx, m *MaterialIn, isNew bool) error {
	if isNew {
		// what posting and other documents write is not the client's to send
		m.StockStatus, m.PostedAt, m.PostedBy = NotPosted, wire.Time{}, 0
		m.TestStatus, m.TestRemark, m.PurchaseOrderID = 0, "", 0
		if !fromBackStock(ctx) {
			m.BackStockID, m.ProducePlanID = 0, 0
		}
	}
	if !isNew && !resource.Sent(ctx, "details") {
		if resource.Sent(ctx, "warehouseId") {
			return linesStayInWarehouse(ctx, tx, "bb_material_in_detail", m.ID, m.WarehouseID)
		}
		return nil
	}
	lines := make([]*ItemLine, len(m.Details))
	for i := range m.Details {
		m.Details[i].ID = 0
		lines[i] = &m.Details[i].ItemLine
	}
	mats, err := fillItemLines(ctx, tx, s.numbers, m.WarehouseID, lines, true)
	if err != nil {
		return err
	}
	totalQty, totalAmount := wire.NewDecimal(0, 6), wire.NewDecimal(0, 4)
	for i := range m.Details {
		d := &m.Details[i]
		if d.ExpiryDate.IsZero() && !d.ProductionDate.IsZero() {
			if days := mats[d.MaterialID].ShelfLife; days > 0 {
				d.ExpiryDate = wire.Time{Time: d.ProductionDate.AddDate(0, 0, days)}
			}
		}
		d.Amount, d.PurchaseOrderDetailID = wire.Decimal{}, 0
		if !fromBackStock(ctx) {
			d.BackStockDetailID = 0
		}
		if !d.UnitPrice.IsNull() {
			d.Amount = d.Qty.Mul(d.UnitPrice).Round(4, wire.RoundHalfUp)
			totalAmount = totalAmount.Add(d.Amount)
		}
		totalQty = totalQty.Add(d.BaseQty)
	}
	m.TotalQty, m.TotalAmount = totalQty.Round(6, wire.RoundHalfUp), totalAmount.Round(4, wire.RoundHalfUp)
	return nil
}

// receiptPosting: one incoming row per line at the line's price per base
// unit (the item's average when it has none).
func (s *Service) receiptPosting(ctx context.Context, tx bun.Tx, m *MaterialIn) (stock.Posting, error) {
	full, err := s.ins.Detail(ctx, tx, m.ID)
	if err != nil {
		return stock.Posting{}, err
	}
	tx2 := map[int]stock.TxType{InPurchase: stock.MaterialInPurchase, InBackStock: stock.MaterialInBackStock, InOther: stock.MaterialInOther}[m.InType]
	var backCosts map[wire.ID]wire.Decimal
	if m.InType == InBackStock {
		// returned material comes back at its issue's cost, checked again under lock
		if backCosts, err = s.backStockCosts(ctx, tx, m); err != nil {
			return stock.Posting{}, err
		}
	}
	p := stock.Posting{}
	for _, d := range full.Details {
		cost := wire.Decimal{}
		if !d.UnitPrice.IsNull() && !d.BaseQty.IsZero() {
			cost = d.UnitPrice.Mul(d.Qty).Div(d.BaseQty, 6, wire.RoundHalfUp)
		}
		if backCosts != nil {
			c, ok := backCosts[d.BackStockDetailID]
			if !ok {
				return stock.Posting{}, httpx.BadRequest(msgReceiptNoReturn.Format(m.DocNo))
			}
			cost = c
		}
		line := stock.Line{
			Bucket:   stock.Bucket{Kind: stock.Material, ItemID: d.MaterialID, WarehouseID: m.WarehouseID, PositionID: d.PositionID, BatchNo: d.BatchNo},
			ItemCode: d.MaterialCode, DetailID: d.ID, TxType: tx2, Qty: d.BaseQty, UnitCost: cost,
			ProducePlanID: m.ProducePlanID, PartnerID: m.SupplierID,
		}
		if m.SupplierID != 0 {
			line.PartnerType = "SUPPLIER"
		}
		if d.BatchNo != "" {
			line.Batch = &stock.BatchInfo{ProductionDate: dateText(d.ProductionDate), ExpiryDate: dateText(d.ExpiryDate), SupplierID: m.SupplierID}
		}
		p.Lines = append(p.Lines, line)
	}
	return p, nil
}

// afterReceiptPosted: a BACK_STOCK receipt in stock is its return stored.
func (s *Service) afterReceiptPosted(ctx context.Context, tx bun.Tx, m *MaterialIn, _ []*stock.LedgerRow) error {
	if m.InType != InBackStock {
		return nil
	}
	return s.applyBackStock(ctx, tx, m, false)
}

// afterReceiptReversed: a voided BACK_STOCK receipt takes its return out
// of stock again.
func (s *Service) afterReceiptReversed(ctx context.Context, tx bun.Tx, m *MaterialIn) error {
	if m.InType != InBackStock {
		return nil
	}
	return s.applyBackStock(ctx, tx, m, true)
}

func dateText(t wire.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// saveTest records the incoming inspection of receipts not yet in stock:
// testResult 2 passed, 1 failed; testRemark optional.
func (s *Service) saveTest(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialIn], rows []*MaterialIn, req *resource.CommandRequest) (any, error) {
	result, err := req.Int("testResult", inventory.No, inventory.Yes)
	if err != nil {
		return nil, err
	}
	note := req.Values.Get("testRemark")
	if len([]rune(note)) > 500 {
		return nil, httpx.InvalidParam("testRemark")
	}
	for _, m := range rows {
		if m.StockStatus != NotPosted {
			return nil, httpx.BadRequest(msgTestPosted.Format(m.DocNo))
		}
	}
	return nil, res.SetFields(ctx, tx, rows, map[string]any{"testStatus": result, "testRemark": note})
}

var msgTestPosted = i18n.T("入库单 %s 已入库, 不能再检验", "Receipt %s is already in stock: it can no longer be inspected")
