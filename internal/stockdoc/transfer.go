package stockdoc

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Transfer types (dictionary transfer_type).
const (
	TransferWarehouse = 1
	TransferPosition  = 2
)

// MaterialTransfer moves material between warehouses or between positions
// of one warehouse (domain.md §6.4): an outbound document, locking its
// source at startProcess; its posting (调拨) writes TRANSFER_OUT at the
// source and TRANSFER_IN at the destination in one stock posting.
type MaterialTransfer struct {
	bun.BaseModel `bun:"table:bb_material_transfer"`
	resource.Base
	Header
	TransferType    int                      `bun:"transfer_type" json:"transferType" f:"label=调拨类型|Transfer type;req;dict=transfer_type;search;default=1"`
	FromWarehouseID wire.ID                  `bun:"from_warehouse_id" json:"fromWarehouseId" f:"label=调出仓库|From warehouse;req;msg=请选择调出仓库|Please select the warehouse to transfer from;ref=bluebird-basic/warehouse;filter=equal"`
	ToWarehouseID   wire.ID                  `bun:"to_warehouse_id" json:"toWarehouseId" f:"label=调入仓库|To warehouse;ref=bluebird-basic/warehouse;filter=equal"`
	TotalQty        wire.Decimal             `bun:"total_qty" json:"totalQty" f:"label=总数量|Total quantity;scale=6;noform;ro"`
	Details         []MaterialTransferDetail `bun:"-" json:"details"`
	FromWarehouse   string                   `bun:"j_from_warehouse_name,scanonly" json:"fromWarehouseName,omitempty"`
	ToWarehouse     string                   `bun:"j_to_warehouse_name,scanonly" json:"toWarehouseName,omitempty"`
}

// MaterialTransferDetail is a transfer line. It does not embed ItemLine:
// a transfer line has two positions (fromPositionId in the source
// warehouse, toPositionId in the destination), and ItemLine's one
// positionId would have to mean the source under a misleading name and
// label. The line has ItemLine's other fields under the same names, and
// the kit's fillItemLines does its snapshot, conversion and batch rule on
// a copy (fillTransferLines).
type MaterialTransferDetail struct {
	bun.BaseModel `bun:"table:bb_material_transfer_detail"`
	resource.Base
	MainID         wire.ID      `bun:"main_id" json:"mainId" f:"label=调拨单|Transfer;ref=bluebird-basic/materialtransfermain;ro;hide;noform;filter=equal"`
	MaterialID     wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;req;msg=请选择物料|Please select the material;ref=bluebird-basic/material;filter=equal"`
	MaterialCode   string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;search"`
	MaterialName   string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;search"`
	Spec           string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform"`
	Model          string       `bun:"model" json:"model" f:"label=型号|Model;ro;noform"`
	Unit           string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;max=32"`
	UnitRatio      wire.Decimal `bun:"unit_ratio" json:"unitRatio" f:"label=换算比例|Unit ratio;scale=9;ro;noform;hide"`
	Qty            wire.Decimal `bun:"qty" json:"qty" f:"label=数量|Quantity;req;msg=请输入数量|Please enter the quantity;scale=6;positive"`
	BaseQty        wire.Decimal `bun:"base_qty" json:"baseQty" f:"label=基本数量|Base quantity;scale=6;ro;noform"`
	FromPositionID wire.ID      `bun:"from_position_id" json:"fromPositionId" f:"label=调出库位|From location;req;msg=请选择调出库位|Please select the location to transfer from;ref=bluebird-basic/warehouseposition;filter=equal"`
	ToPositionID   wire.ID      `bun:"to_position_id" json:"toPositionId" f:"label=调入库位|To location;req;msg=请选择调入库位|Please select the location to transfer to;ref=bluebird-basic/warehouseposition;filter=equal"`
	BatchNo        string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;max=64;search"`
	UnitCost       wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	Remark         string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	DocNo          string       `bun:"j_doc_no,scanonly" json:"docNo,omitempty"`
	TransferType   string       `bun:"j_transfer_type,scanonly" json:"transferType,omitempty"`
}

const bizMaterialTransfer = "MATERIAL_TRANSFER"

var (
	msgTransfer         = i18n.T("调拨", "Transfer")
	msgFromWarehouse    = i18n.T("调出仓库", "warehouse transferred from")
	msgToWarehouse      = i18n.T("调入仓库", "warehouse transferred to")
	msgSameBucket       = i18n.T("第%d行: 调出与调入的库位相同", "Line %d: the locations transferred from and to are the same")
	msgPositionOneHouse = i18n.T("库位间调拨的调入仓库必须与调出仓库相同", "A transfer between locations stays in one warehouse: the warehouses must be the same")
	msgWarehouseTwo     = i18n.T("仓库间调拨的调入仓库必须与调出仓库不同", "A transfer between warehouses needs two different warehouses")
	msgToWarehouseReq   = i18n.T("请选择调入仓库", "Please select the warehouse to transfer to")
	msgTransferLines    = i18n.T("明细的库位不在新选的仓库中, 请同时修改明细", "The lines' locations are not in the new warehouses: change the lines too")
)

// transferDocs are the transfer's resources, for the hooks that need them.
type transferDocs struct {
	s      *Service
	main   *resource.Resource[MaterialTransfer]
	lines  *resource.Resource[MaterialTransferDetail]
	voList *resource.Resource[MaterialTransferDetail]
}

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		d := &transferDocs{s: s}
		d.declare()
		return []resource.Registered{d.lines, d.voList, d.main}
	})
}

var transferMainJoin = []resource.Join{{Field: "mainId", Columns: []resource.JoinColumn{
	{Name: "docNo", Column: "doc_no", Label: i18n.T("调拨单号", "Transfer no."), Filter: "like", Sort: true},
	{Name: "transferType", Column: "transfer_type", Label: i18n.T("调拨类型", "Transfer type"), Filter: "equal"},
}}}

var transferJoins = []resource.Join{
	{Field: "fromWarehouseId", Columns: []resource.JoinColumn{{Name: "fromWarehouseName", Column: "warehouse_name", Label: i18n.T("调出仓库", "From warehouse"), Filter: "like"}}},
	{Field: "toWarehouseId", Columns: []resource.JoinColumn{{Name: "toWarehouseName", Column: "warehouse_name", Label: i18n.T("调入仓库", "To warehouse"), Filter: "like"}}},
}

func (d *transferDocs) declare() {
	s := d.s
	w := &lineWrites[MaterialTransfer, MaterialTransferDetail]{
		parent: func() *resource.Resource[MaterialTransfer] { return d.main }, lines: func() *resource.Resource[MaterialTransferDetail] { return d.lines },
		mainID: func(l *MaterialTransferDetail) wire.ID { return l.MainID }, details: func(m *MaterialTransfer) *[]MaterialTransferDetail { return &m.Details },
	}
	// the lines' own routes (bluebird-warehouse): reads as the engine
	// answers a document's lines, writes through the document (lineWrites)
	d.lines = resource.New(resource.Spec{
		Service: "bluebird-warehouse", Name: "materialtransferdetail", Table: "bb_material_transfer_detail",
		Label:  i18n.T("调拨明细", "Transfer line"),
		Routes: []string{"list", "detail", "submit", "remove"}, DefaultOrder: "id ASC",
	}, resource.Hooks[MaterialTransferDetail]{Routes: map[string]httpx.HandlerFunc{"submit": w.submit, "remove": w.remove}})
	// the same lines with their transfer's number (bluebird-basic's VO list)
	d.voList = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialtransferdetail", Table: "bb_material_transfer_detail",
		Label:  i18n.T("调拨明细", "Transfer line"),
		Routes: []string{"list", "detail"}, DefaultOrder: "id ASC",
		Views: []resource.View{{Name: "selectMaterialTransferDetailVOList", Joins: transferMainJoin}},
	}, resource.Hooks[MaterialTransferDetail]{
		Query:  d.ofReadableTransfers,
		Routes: map[string]httpx.HandlerFunc{"detail": d.voDetail},
	})

	d.main = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialtransfermain", Table: "bb_material_transfer", Label: i18n.T("物料调拨单", "Material transfer"),
		MenuCode: "material_transfer", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"docNo"}}, Title: "docNo", DefaultOrder: "id DESC", States: DocStates(),
		Number:        &resource.Number{Field: "docNo", BizType: "MTR"},
		SubmitAliases: []string{"saveMaterialTransferMain"},
		Lines: &resource.Lines{Field: "details", Child: d.lines, Parent: "mainId", Totals: []string{"qty"},
			Picker: stockPicker("fromWarehouseId", "fromPositionId", nil)},
		Related:  ledgerRows(bizMaterialTransfer, "stockStatus", postedStates...),
		Print:    printOutbound,
		Views:    []resource.View{{Name: "selectMaterialTransferMainVOListPage", Paged: true, Joins: transferJoins}},
		ListView: "selectMaterialTransferMainVOListPage",
	}, resource.Hooks[MaterialTransfer]{
		BeforeSave: d.prepare,
		AfterSave:  d.saveTotal,
		Commands: Commands(s.approval, s.stock, Flow[MaterialTransfer]{
			BizType:  bizMaterialTransfer,
			Title:    func(m *MaterialTransfer) string { return "物料调拨 " + m.DocNo },
			Outbound: true,
			Lock:     d.lock,
			Post: PostCommand[MaterialTransfer]{Name: "outboundSubmitted", Aliases: []string{"submitTransfer"},
				Button: "outbound", Label: msgTransfer, Posting: d.posting, AfterPost: d.afterPost},
		}),
	})
}

// ofReadableTransfers: the VO list answers only lines of transfers the
// caller may read (tenant, data scope, not removed).
func (d *transferDocs) ofReadableTransfers(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	sub, err := d.main.Select(r.Context(), q.DB(), (*MaterialTransfer)(nil))
	if err != nil {
		return nil, err
	}
	return q.Where("main_id IN (?)", sub.Column("id")), nil
}

func (d *transferDocs) voDetail(r *http.Request) (any, error) {
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	row, err := d.voList.Detail(r.Context(), d.voList.Env().DB, id)
	if err != nil {
		return nil, err
	}
	if _, err := d.main.Get(r.Context(), d.voList.Env().DB, row.MainID); err != nil {
		return nil, err
	}
	return row, nil
}

// prepare checks the header's warehouses against the transfer type and
// replaces the lines whole (a line route keeps their ids) with their
// snapshots and base quantities, and totals them.
func (d *transferDocs) prepare(ctx context.Context, tx bun.Tx, m *MaterialTransfer, isNew bool) error {
	typ, from, to := m.TransferType, m.FromWarehouseID, m.ToWarehouseID
	if isNew {
		m.StockStatus = NotPosted
	} else {
		cur, err := d.main.Get(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		if !resource.Sent(ctx, "transferType") {
			typ = cur.TransferType
		}
		if !resource.Sent(ctx, "fromWarehouseId") {
			from = cur.FromWarehouseID
		}
		if !resource.Sent(ctx, "toWarehouseId") {
			to = cur.ToWarehouseID
		}
	}
	headerSent := isNew || resource.Sent(ctx, "transferType") || resource.Sent(ctx, "fromWarehouseId") || resource.Sent(ctx, "toWarehouseId")
	if headerSent {
		switch {
		case typ == TransferPosition && to == 0:
			to, m.ToWarehouseID = from, from
		case typ == TransferPosition && to != from:
			return resource.FieldErrorOf(ctx, "toWarehouseId", msgPositionOneHouse)
		case to == 0:
			return resource.FieldErrorOf(ctx, "toWarehouseId", msgToWarehouseReq)
		case typ == TransferWarehouse && to == from:
			return resource.FieldErrorOf(ctx, "toWarehouseId", msgWarehouseTwo)
		}
	}
	if !isNew && !resource.Sent(ctx, "details") {
		if !headerSent {
			return nil
		}
		n, err := tx.NewSelect().TableExpr("bb_material_transfer_detail AS d").
			Join("JOIN bb_warehouse_position AS f ON f.id = d.from_position_id").
			Join("JOIN bb_warehouse_position AS t ON t.id = d.to_position_id").
			Where("d.main_id = ? AND d.is_deleted = 0 AND (f.warehouse_id <> ? OR t.warehouse_id <> ?)", m.ID, from, to).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.BadRequest(msgTransferLines)
		}
		return nil
	}
	if !keepLineIDs(ctx) {
		for i := range m.Details {
			m.Details[i].ID = 0
		}
	}
	if err := fillTransferLines(ctx, tx, from, to, m.Details); err != nil {
		return err
	}
	total := wire.NewDecimal(0, 6)
	for _, l := range m.Details {
		total = total.Add(l.BaseQty)
	}
	m.TotalQty = total.Round(6, wire.RoundHalfUp)
	return nil
}

// saveTotal writes the total of an edit's new lines (the engine writes
// only the fields a body sent, and the total is computed).
func (d *transferDocs) saveTotal(ctx context.Context, tx bun.Tx, m *MaterialTransfer, isNew bool) error {
	if isNew || !resource.Sent(ctx, "details") {
		return nil
	}
	_, err := tx.NewUpdate().Table("bb_material_transfer").Set("total_qty = ?", m.TotalQty).Where("id = ? AND tenant_id = ?", m.ID, m.TenantID).Exec(ctx)
	return err
}

// fillTransferLines checks each line's positions (the source in the
// source warehouse, the destination in the destination warehouse, not the
// same bucket) and, through the kit's fillItemLines on a copy, snapshots the
// material, converts the quantity and requires the batch of a batch-managed
// material (an outgoing line names the batch it takes).
func fillTransferLines(ctx context.Context, tx bun.Tx, from, to wire.ID, ds []MaterialTransferDetail) error {
	if len(ds) == 0 {
		return httpx.BadRequest(msgNoLines)
	}
	froms, tos := make([]wire.ID, len(ds)), make([]wire.ID, len(ds))
	items := make([]*ItemLine, len(ds))
	for i, l := range ds {
		froms[i], tos[i] = l.FromPositionID, l.ToPositionID
		items[i] = &ItemLine{MaterialID: l.MaterialID, Unit: l.Unit, Qty: l.Qty, PositionID: l.FromPositionID, BatchNo: l.BatchNo}
	}
	if err := checkPlaces(ctx, tx, "fromPositionId", msgFromWarehouse, from, froms); err != nil {
		return err
	}
	if err := checkPlaces(ctx, tx, "toPositionId", msgToWarehouse, to, tos); err != nil {
		return err
	}
	for i, l := range ds {
		if l.FromPositionID == l.ToPositionID {
			return resource.FieldErrorOf(ctx, "toPositionId", msgSameBucket.Format(i+1))
		}
	}
	if _, err := fillItemLines(ctx, tx, nil, from, items, false); err != nil {
		return err
	}
	for i, it := range items {
		l := &ds[i]
		l.MaterialCode, l.MaterialName, l.Spec, l.Model = it.MaterialCode, it.MaterialName, it.Spec, it.Model
		l.Unit, l.UnitRatio, l.BaseQty = it.Unit, it.UnitRatio, it.BaseQty
		l.UnitCost = wire.Decimal{}
	}
	return nil
}

// lock: the source buckets the transfer takes from.
func (d *transferDocs) lock(ctx context.Context, tx bun.Tx, m *MaterialTransfer) ([]stock.LockLine, error) {
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return nil, err
	}
	if len(full.Details) == 0 {
		return nil, httpx.BadRequest(msgNoLines)
	}
	out := make([]stock.LockLine, len(full.Details))
	for i, l := range full.Details {
		out[i] = stock.LockLine{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: full.FromWarehouseID, PositionID: l.FromPositionID, BatchNo: l.BatchNo},
			ItemCode: l.MaterialCode, DetailID: l.ID, Qty: l.BaseQty}
	}
	return out, nil
}

// posting: per line, out of the source and into the destination, same
// batch, at the item's average (a transfer leaves the average alone).
func (d *transferDocs) posting(ctx context.Context, tx bun.Tx, m *MaterialTransfer) (stock.Posting, error) {
	full, err := d.main.Detail(ctx, tx, m.ID)
	if err != nil {
		return stock.Posting{}, err
	}
	p := stock.Posting{}
	for _, l := range full.Details {
		p.Lines = append(p.Lines,
			stock.Line{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: full.FromWarehouseID, PositionID: l.FromPositionID, BatchNo: l.BatchNo},
				ItemCode: l.MaterialCode, DetailID: l.ID, TxType: stock.TransferOut, Qty: l.BaseQty.Neg()},
			stock.Line{Bucket: stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: full.ToWarehouseID, PositionID: l.ToPositionID, BatchNo: l.BatchNo},
				ItemCode: l.MaterialCode, DetailID: l.ID, TxType: stock.TransferIn, Qty: l.BaseQty})
	}
	return p, nil
}

// afterPost records each line's unit cost: the cost its stock moved at.
func (d *transferDocs) afterPost(ctx context.Context, tx bun.Tx, m *MaterialTransfer, rows []*stock.LedgerRow) error {
	for _, r := range rows {
		if r.TxType != stock.TransferOut {
			continue
		}
		if _, err := tx.NewUpdate().Table("bb_material_transfer_detail").Set("unit_cost = ?", r.UnitCost).
			Where("id = ? AND tenant_id = ?", r.BizDetailID, r.TenantID).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
