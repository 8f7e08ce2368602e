package stockdoc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// The stock queries (domain.md §2 "Queries", §8): the material stock screen
// and its line picker read bb_material_stock_v (migration 00011: a bucket
// with its batch dates and the item's average cost), the ledger's
// drill-down reads bb_stock_ledger. Both are read-only resources; stock
// changes only through documents.

// MaterialStock is one material bucket: where it lies, how much is there,
// locked and available, and what it is worth.
type MaterialStock struct {
	bun.BaseModel `bun:"table:bb_material_stock_v"`
	resource.Base
	ItemKind       int          `bun:"item_kind" json:"itemKind" f:"label=物品类别|Item kind;dict=item_kind;ro;noform;hide;nofilter"`
	MaterialID     wire.ID      `bun:"item_id" json:"materialId" f:"label=物料|Material;ref=bluebird-basic/material;ro;noform;hide;filter=equal;search"`
	WarehouseID    wire.ID      `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;ref=bluebird-basic/warehouse;ro;noform;hide;filter=equal;search"`
	PositionID     wire.ID      `bun:"position_id" json:"positionId" f:"label=库位|Location;ref=bluebird-basic/warehouseposition;ro;noform;hide;nofilter"`
	BatchNo        string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;ro;noform;search;sort"`
	ProductionDate string       `bun:"production_date" json:"productionDate" f:"label=生产日期|Production date;ro;noform;nofilter;sort"`
	ExpiryDate     string       `bun:"expiry_date" json:"expiryDate" f:"label=有效期至|Expiry date;ro;noform;nofilter;sort"`
	Qty            wire.Decimal `bun:"qty" json:"qty" f:"label=库存数量|Quantity;scale=6;ro;noform;sort"`
	LockedQty      wire.Decimal `bun:"locked_qty" json:"lockedQty" f:"label=锁定数量|Locked;scale=6;ro;noform"`
	AvailableQty   wire.Decimal `bun:"available_qty" json:"availableQty" f:"label=可用数量|Available;scale=6;ro;noform;sort"`
	AvgCost        wire.Decimal `bun:"avg_cost" json:"avgCost" f:"label=平均单价|Average cost;scale=6;ro;noform;nofilter"`
	Amount         wire.Decimal `bun:"amount" json:"amount" f:"label=金额|Amount;scale=4;precision=18;ro;noform;nofilter"`
	FirstInAt      wire.Time    `bun:"first_in_at" json:"firstInAt" f:"label=首次入库|First received;ro;noform;hide;nofilter"`
	LastPostedAt   wire.Time    `bun:"last_posted_at" json:"lastPostedAt" f:"label=最近变动|Last moved;ro;noform;nofilter;sort"`
	MaterialCode   string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;nofilter"`
	MaterialName   string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;nofilter"`
	Spec           string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform;nofilter"`
	Model          string       `bun:"model" json:"model" f:"label=型号|Model;ro;noform;nofilter"`
	Unit           string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;ro;noform;nofilter"`
	WarehouseName  string       `bun:"warehouse_name" json:"warehouseName" f:"label=仓库|Warehouse;ro;noform;nofilter"`
	PositionKey    string       `bun:"position_key" json:"positionKey" f:"label=库位编号|Location code;ro;noform;nofilter"`
	PositionName   string       `bun:"position_name" json:"positionName" f:"label=库位名称|Location name;ro;noform;nofilter"`
}

// StockLedger is a ledger row as the drill-down shows it.
type StockLedger struct {
	bun.BaseModel `bun:"table:bb_stock_ledger"`
	resource.Base
	ItemKind         int          `bun:"item_kind" json:"itemKind" f:"label=物品类别|Item kind;dict=item_kind;ro;noform;filter=equal;search"`
	ItemID           wire.ID      `bun:"item_id" json:"itemId" f:"label=物品|Item;ref=bluebird-basic/material;ro;noform;hide;filter=equal;search"`
	ItemCode         string       `bun:"item_code" json:"itemCode" f:"label=物品编号|Item code;ro;noform;search"`
	WarehouseID      wire.ID      `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;ref=bluebird-basic/warehouse;ro;noform;hide;filter=equal;search"`
	PositionID       wire.ID      `bun:"position_id" json:"positionId" f:"label=库位|Location;ref=bluebird-basic/warehouseposition;ro;noform;hide;filter=equal"`
	BatchNo          string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;ro;noform;search"`
	TxType           int          `bun:"tx_type" json:"txType" f:"label=交易类型|Transaction type;dict=stock_tx_type;ro;noform;filter=equal;search"`
	Direction        int          `bun:"direction" json:"direction" f:"label=方向|Direction;dict=stock_direction;ro;noform;filter=equal"`
	Qty              wire.Decimal `bun:"qty" json:"qty" f:"label=数量|Quantity;scale=6;ro;noform"`
	UnitCost         wire.Decimal `bun:"unit_cost" json:"unitCost" f:"label=单位成本|Unit cost;scale=6;ro;noform"`
	Amount           wire.Decimal `bun:"amount" json:"amount" f:"label=金额|Amount;scale=6;precision=24;ro;noform"`
	BalanceQty       wire.Decimal `bun:"balance_qty" json:"balanceQty" f:"label=结存数量|Balance;scale=6;ro;noform"`
	AvgCostAfter     wire.Decimal `bun:"avg_cost_after" json:"avgCostAfter" f:"label=结存均价|Average cost after;scale=6;ro;noform"`
	BizType          string       `bun:"biz_type" json:"bizType" f:"label=单据类型|Document type;ro;noform;filter=equal"`
	BizID            wire.ID      `bun:"biz_id" json:"bizId" f:"label=单据|Document;type=id;ro;noform;hide;filter=equal"`
	BizNo            string       `bun:"biz_no" json:"bizNo" f:"label=单据号|Document no.;ro;noform;search;sort"`
	BizDetailID      wire.ID      `bun:"biz_detail_id" json:"bizDetailId" f:"label=单据明细|Document line;type=id;ro;noform;hide;filter=equal"`
	IsReversal       int          `bun:"is_reversal" json:"isReversal" f:"label=冲销|Reversal;ro;noform;filter=equal"`
	ReversedLedgerID wire.ID      `bun:"reversed_ledger_id" json:"reversedLedgerId" f:"label=被冲销流水|Reversed row;type=id;ro;noform;hide;nofilter"`
	PartnerType      string       `bun:"partner_type" json:"partnerType" f:"label=往来类型|Partner type;ro;noform;hide"`
	PartnerID        wire.ID      `bun:"partner_id" json:"partnerId" f:"label=往来单位|Partner;type=id;ro;noform;hide;filter=equal"`
	PostedAt         wire.Time    `bun:"posted_at" json:"postedAt" f:"label=过账时间|Posted at;ro;noform;sort"`
	PostedBy         wire.ID      `bun:"posted_by" json:"postedBy" f:"label=过账人|Posted by;type=id;ro;noform;hide;filter=equal"`
	Seq              int64        `bun:"seq" json:"seq" f:"label=序号|Sequence;ro;noform;hide;nofilter;sort"`
	MaterialName     string       `bun:"j_material_name,scanonly" json:"itemName,omitempty"`
	WarehouseName    string       `bun:"j_warehouse_name,scanonly" json:"warehouseName,omitempty"`
	PositionKey      string       `bun:"j_position_key,scanonly" json:"positionKey,omitempty"`
	PositionName     string       `bun:"j_position_name,scanonly" json:"positionName,omitempty"`
}

const stockPath = "/bluebird-basic/materialstock"

var (
	msgStockByDocuments = i18n.T("库存只能通过出入库单据变动, 不能直接修改或删除", "Stock changes only through stock documents: it cannot be edited or removed directly")
	msgBadDate          = i18n.T("参数%s应为日期(yyyy-MM-dd)", "Parameter %s must be a date (yyyy-MM-dd)")
	msgBadBool          = i18n.T("参数%s应为true或false", "Parameter %s must be true or false")
)

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		return s.declareQueries()
	})
}

var ledgerJoins = []resource.Join{
	{Field: "itemId", Columns: []resource.JoinColumn{{Name: "itemName", Column: "material_name", Label: i18n.T("物品名称", "Item name"), Filter: "like"}}},
	{Field: "warehouseId", Columns: []resource.JoinColumn{{Name: "warehouseName", Column: "warehouse_name", Label: i18n.T("仓库", "Warehouse")}}},
	{Field: "positionId", Columns: []resource.JoinColumn{
		{Name: "positionKey", Column: "warehouse_key", Label: i18n.T("库位编号", "Location code")},
		{Name: "positionName", Column: "warehouse_name", Label: i18n.T("库位名称", "Location name")},
	}},
}

// stockRoutes are the material stock routes the engine does not make: the
// per-material totals and the refused writes.
func (s *Service) stockRoutes(r chi.Router, _ *resource.Env) {
	read := resource.Guard(resource.AnyUser)
	refuse := read(func(*http.Request) (any, error) { return nil, httpx.BadRequest(msgStockByDocuments) })
	r.Post(stockPath+"/submit", httpx.Handle(refuse))
	r.Post(stockPath+"/remove", httpx.Handle(refuse))
	r.Get(stockPath+"/selectOtherMaterialStockList", httpx.Handle(read(s.handleTotals)))
}

func (s *Service) declareQueries() []resource.Registered {
	stocks := resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "materialstock", Table: "bb_material_stock_v", Label: i18n.T("物料库存", "Material stock"),
		MenuCode: "material_stock", Routes: []string{"list", "detail", "export"},
		// the bucket index's order: a page is read off the index, never sorted
		DefaultOrder: "item_id ASC, warehouse_id ASC, position_id ASC, batch_no ASC",
		Views: []resource.View{
			// the names are columns of the view, looked up for the page's rows
			// only: joins would be made for every row the total counts
			{Name: "selectMaterialStockVOListPage", Paged: true},
			{Name: "allDetail", Paged: true, Query: fefo},
		},
		ListView: "selectMaterialStockVOListPage",
	}, resource.Hooks[MaterialStock]{
		Query:  stockFilters,
		Enrich: stockAmounts,
		Total:  s.stockTotal,
	})
	ledger := resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "stockledger", Table: "bb_stock_ledger", Label: i18n.T("库存流水", "Stock ledger"),
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "posted_at DESC, seq DESC, id DESC",
		Views: []resource.View{{Name: "selectStockLedgerVOPage", Paged: true, Joins: ledgerJoins}},
	}, resource.Hooks[StockLedger]{})
	return []resource.Registered{resource.WithRoutes[MaterialStock]{Resource: stocks, Extra: s.stockRoutes}, ledger}
}

// stockAmounts: amount = qty × avgCost, at four places.
func stockAmounts(_ context.Context, _ bun.IDB, rows []MaterialStock) error {
	for i := range rows {
		r := &rows[i]
		r.Amount = amountOf(r.Qty, r.AvgCost)
	}
	return nil
}

func amountOf(qty, avg wire.Decimal) wire.Decimal {
	if qty.IsNull() || avg.IsNull() {
		return wire.Decimal{}
	}
	return qty.Mul(avg).Round(4, wire.RoundHalfUp)
}

var zeroQty = wire.NewDecimal(0, 6)

// stockFilters are the stock screens' own parameters: zero buckets hidden
// unless showZero=true, onlyAvailable=true, positionId with its subtree,
// keyword on the material's code and name, the batch's production date
// range and expiryBefore.
func stockFilters(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	p := authz.From(r.Context())
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	v := r.URL.Query()
	showZero, err := boolParam(v.Get("showZero"), "showZero")
	if err != nil {
		return nil, err
	}
	if !showZero {
		if q.Dialect().Name() == dialect.SQLite {
			// the stock core stores quantities at scale 6, so zero is the
			// text 0.000000: compared as bytes, not through the DECIMAL
			// collation's callback for each of the rows a total counts
			q = q.Where("NOT (?TableAlias.qty COLLATE BINARY = '0.000000' AND ?TableAlias.locked_qty COLLATE BINARY = '0.000000')")
		} else {
			q = q.Where("NOT (?TableAlias.qty = ? AND ?TableAlias.locked_qty = ?)", zeroQty, zeroQty)
		}
	}
	only, err := boolParam(v.Get("onlyAvailable"), "onlyAvailable")
	if err != nil {
		return nil, err
	}
	if only {
		q = q.Where("?TableAlias.available_qty > ?", zeroQty)
	}
	if raw := strings.TrimSpace(v.Get("positionId")); raw != "" {
		id, err := wire.ParseID(raw)
		if err != nil {
			return nil, httpx.InvalidParam("positionId")
		}
		q = q.Where("?TableAlias.position_id IN (SELECT id FROM bb_warehouse_position WHERE tenant_id = ? AND is_deleted = 0 AND (id = ? OR ancestors LIKE ? OR ancestors LIKE ?))",
			p.TenantID, id, "%,"+id.String(), "%,"+id.String()+",%")
	}
	if kw := strings.TrimSpace(v.Get(resource.KeywordParam)); kw != "" {
		if len([]rune(kw)) > resource.MaxFilterLen {
			return nil, httpx.InvalidParam(resource.KeywordParam)
		}
		like := "%" + db.EscapeLike(strings.ToLower(kw)) + "%"
		q = q.Where(`?TableAlias.item_id IN (SELECT id FROM bb_material WHERE tenant_id = ? AND is_deleted = 0 AND
			(LOWER(material_code) LIKE ? ESCAPE '\' OR LOWER(material_name) LIKE ? ESCAPE '\'))`, p.TenantID, like, like)
	}
	for _, d := range []struct{ param, cond string }{
		{"productionDateFrom", "?TableAlias.production_date <> '' AND ?TableAlias.production_date >= ?"},
		{"productionDateTo", "?TableAlias.production_date <> '' AND ?TableAlias.production_date <= ?"},
		{"expiryBefore", "?TableAlias.expiry_date <> '' AND ?TableAlias.expiry_date < ?"},
	} {
		day, err := dateParam(v.Get(d.param), d.param)
		if err != nil {
			return nil, err
		}
		if day != "" {
			q = q.Where(d.cond, day)
		}
	}
	return q, nil
}

// stockTotal answers the total of a page of the non-empty buckets, of all
// warehouses or of one, from the stock core's bucket count instead of
// counting every bucket (issue #11: 50,000 buckets took 30-40 ms to count).
// Any other parameter that may narrow the rows (a material, a position, a
// keyword, dates, onlyAvailable, showZero=true, or one this list does not
// know) leaves the total to the exact count.
func (s *Service) stockTotal(r *http.Request, q *resource.Query) (int64, bool, error) {
	p := authz.From(r.Context())
	if p == nil {
		return 0, false, nil
	}
	var warehouseID wire.ID
	for _, c := range q.Conds {
		if c.Field == nil || c.Field.Name != "warehouseId" || c.Op != "equal" || warehouseID != 0 {
			return 0, false, nil
		}
		id, err := wire.ParseID(fmt.Sprint(c.Value))
		if err != nil || id == 0 {
			return 0, false, nil
		}
		warehouseID = id
	}
	for key, vals := range r.URL.Query() {
		raw := ""
		if len(vals) > 0 {
			raw = strings.TrimSpace(vals[0])
		}
		switch key {
		case "current", "size", "descs", "ascs", "_t", "t", "warehouseId", "warehouseId_equal":
		case "showZero", "onlyAvailable":
			if on, err := boolParam(raw, key); err != nil || on {
				return 0, false, nil
			}
		default:
			if raw != "" || len(vals) > 1 {
				return 0, false, nil
			}
		}
	}
	n, err := stock.HeldBuckets(r.Context(), s.env.DB, p.TenantID, stock.Material, warehouseID)
	return n, err == nil, err
}

// fefo orders a picker's buckets first expiry first out: the earliest
// expiry first, then the oldest batch, and buckets without expiry last.
func fefo(_ *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	return q.OrderExpr("CASE WHEN ?TableAlias.expiry_date = '' THEN 1 ELSE 0 END, ?TableAlias.expiry_date ASC, ?TableAlias.first_in_at ASC, ?TableAlias.id ASC"), nil
}

func boolParam(raw, name string) (bool, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		return false, httpx.BadRequest(msgBadBool.Format(name))
	}
	return b, nil
}

// dateParam reads a date, "yyyy-MM-dd" or "yyyy-MM-dd HH:mm:ss", as the
// batch's yyyy-MM-dd text.
func dateParam(raw, name string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	t, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		if t, err = time.Parse(time.DateTime, raw); err != nil {
			return "", httpx.BadRequest(msgBadDate.Format(name))
		}
	}
	return t.Format(time.DateOnly), nil
}

// MaterialStockTotal is a material's stock over all its buckets (or those
// of one warehouse), beside the stock levels its master asks for.
type MaterialStockTotal struct {
	MaterialID   wire.ID      `bun:"item_id" json:"materialId"`
	MaterialCode string       `bun:"material_code" json:"materialCode"`
	MaterialName string       `bun:"material_name" json:"materialName"`
	Spec         string       `bun:"spec" json:"spec"`
	Model        string       `bun:"model" json:"model"`
	Unit         string       `bun:"unit" json:"unit"`
	SafetyStock  wire.Decimal `bun:"safety_stock" json:"safetyStock"`
	MinStock     wire.Decimal `bun:"min_stock" json:"minStock"`
	MaxStock     wire.Decimal `bun:"max_stock" json:"maxStock"`
	AvgCost      wire.Decimal `bun:"avg_cost" json:"avgCost"`
	Qty          wire.Decimal `bun:"-" json:"qty"`
	LockedQty    wire.Decimal `bun:"-" json:"lockedQty"`
	AvailableQty wire.Decimal `bun:"-" json:"availableQty"`
	Amount       wire.Decimal `bun:"-" json:"amount"`
	// BelowSafety: the quantity is under the safety stock.
	BelowSafety bool `bun:"-" json:"belowSafety"`
}

// handleTotals answers selectOtherMaterialStockList: a page of materials
// that hold stock (showZero=true: every material that ever had some),
// ordered by code, each with its totals. Filters: materialId, warehouseId
// (totals of that warehouse only), keyword.
func (s *Service) handleTotals(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	v := r.URL.Query()
	paging, err := httpx.ParsePaging(v)
	if err != nil {
		return nil, err
	}
	showZero, err := boolParam(v.Get("showZero"), "showZero")
	if err != nil {
		return nil, err
	}
	var materialID, warehouseID wire.ID
	for name, dst := range map[string]*wire.ID{"materialId": &materialID, "warehouseId": &warehouseID} {
		if raw := strings.TrimSpace(v.Get(name)); raw != "" {
			if *dst, err = wire.ParseID(raw); err != nil {
				return nil, httpx.InvalidParam(name)
			}
		}
	}
	idb := s.env.DB
	var rows []MaterialStockTotal
	q := idb.NewSelect().TableExpr("bb_item_cost AS c").
		Join("JOIN bb_material AS m ON m.id = c.item_id AND m.tenant_id = c.tenant_id AND m.is_deleted = 0").
		ColumnExpr("c.item_id, c.avg_cost, m.material_code, m.material_name, m.spec, m.model, m.unit, m.safety_stock, m.min_stock, m.max_stock").
		Where("c.tenant_id = ? AND c.item_kind = ? AND c.is_deleted = 0", p.TenantID, stock.Material)
	// only the materials the caller may read (tenant, removal, data scope)
	mats, ok := s.env.Refs.Get("bluebird-basic/material").(*resource.Resource[inventory.Material])
	if !ok {
		return nil, errors.New("stockdoc: no material resource")
	}
	var readable []inventory.Material
	sub, err := mats.Select(ctx, idb, &readable)
	if err != nil {
		return nil, err
	}
	q = q.Where("c.item_id IN (?)", sub.ColumnExpr("?TableAlias.id"))
	if materialID != 0 {
		q = q.Where("c.item_id = ?", materialID)
	}
	if warehouseID != 0 {
		q = q.Where("c.item_id IN (SELECT item_id FROM bb_stock_balance WHERE tenant_id = ? AND item_kind = ? AND warehouse_id = ? AND NOT (qty = ? AND locked_qty = ?))",
			p.TenantID, stock.Material, warehouseID, zeroQty, zeroQty)
	} else if !showZero {
		q = q.Where("c.qty <> ?", zeroQty)
	}
	if kw := strings.TrimSpace(v.Get(resource.KeywordParam)); kw != "" {
		if len([]rune(kw)) > resource.MaxFilterLen {
			return nil, httpx.InvalidParam(resource.KeywordParam)
		}
		like := "%" + db.EscapeLike(strings.ToLower(kw)) + "%"
		q = q.Where(`(LOWER(m.material_code) LIKE ? ESCAPE '\' OR LOWER(m.material_name) LIKE ? ESCAPE '\')`, like, like)
	}
	total, err := q.Count(ctx)
	if err != nil {
		return nil, err
	}
	if err := q.OrderExpr("m.material_code ASC, c.item_id ASC").Limit(int64(paging.Size)).Offset(int64((paging.Current-1)*paging.Size)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		if err := s.fillTotals(ctx, idb, p.TenantID, warehouseID, rows); err != nil {
			return nil, err
		}
	}
	return httpx.NewPage(rows, int64(total), paging.Current, paging.Size), nil
}

// fillTotals sums the buckets of the page's materials.
func (s *Service) fillTotals(ctx context.Context, idb bun.IDB, tenantID string, warehouseID wire.ID, rows []MaterialStockTotal) error {
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = rows[i].MaterialID
	}
	var buckets []struct {
		ItemID    wire.ID      `bun:"item_id"`
		Qty       wire.Decimal `bun:"qty"`
		LockedQty wire.Decimal `bun:"locked_qty"`
	}
	q := idb.NewSelect().Table("bb_stock_balance").Column("item_id", "qty", "locked_qty").
		Where("tenant_id = ? AND item_kind = ? AND is_deleted = 0 AND item_id IN (?)", tenantID, stock.Material, bun.In(ids))
	if warehouseID != 0 {
		q = q.Where("warehouse_id = ?", warehouseID)
	}
	if err := q.Scan(ctx, &buckets); err != nil {
		return err
	}
	type sum struct{ qty, locked wire.Decimal }
	sums := map[wire.ID]*sum{}
	for _, b := range buckets {
		x := sums[b.ItemID]
		if x == nil {
			x = &sum{zeroQty, zeroQty}
			sums[b.ItemID] = x
		}
		x.qty, x.locked = x.qty.Add(b.Qty), x.locked.Add(b.LockedQty)
	}
	for i := range rows {
		r := &rows[i]
		x := sums[r.MaterialID]
		if x == nil {
			x = &sum{zeroQty, zeroQty}
		}
		r.Qty, r.LockedQty = x.qty.Round(6, wire.RoundHalfUp), x.locked.Round(6, wire.RoundHalfUp)
		r.AvailableQty = r.Qty.Sub(r.LockedQty).Round(6, wire.RoundHalfUp)
		r.Amount = amountOf(r.Qty, r.AvgCost)
		r.BelowSafety = !r.SafetyStock.IsNull() && r.Qty.Cmp(r.SafetyStock) < 0
	}
	return nil
}
