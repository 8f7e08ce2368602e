package stockdoc

import (
	"context"
	"errors"
	"net/http"
	"slices"
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

// The threshold monitor (menu user_monitor, /system/user/monitor) and the
// dashboard's stock value: read-only screens over the stock core's tables.
//
//   - stockthreshold: materials whose stock breaks the levels their master
//     asks for. Below safety and below minimum compare the AVAILABLE
//     quantity (what can still be issued: on hand less what documents have
//     locked); above maximum compares the quantity ON HAND (what takes the
//     room). A maximum of 0 is no maximum. With warehouseId the quantities
//     are that warehouse's and the materials those kept there (a bucket in
//     it, or it is their default warehouse). A material's sums are one
//     grouped read with the exact decimal sum (db.DecimalSumFunc), so the
//     kind filter and the paging are the database's; the list is written
//     here because the engine's reads are of rows, not of groups.
//   - stockexpiry: the buckets of batches whose expiry date is within
//     `days` (default 30) or past, an engine resource over the stock view
//     (bb_material_stock_v) with the stock list's own filters (stockFilters).
//   - materialstock/valueByWarehouse: Σ qty × the item's average cost of
//     each warehouse, exact.
//
// Every read is the caller's tenant's, and of the materials the caller may
// read (the material resource's tenant, removal and data-scope predicates).

// Alert kinds: the keys of the stock_alert_type dictionary.
const (
	AlertBelowSafety = 1
	AlertBelowMin    = 2
	AlertAboveMax    = 3
	AlertExpiring    = 4
	AlertExpired     = 5
)

const (
	thresholdPath = "/bluebird-basic/stockthreshold"
	// defaultExpiryDays: a batch expiring within this many days is listed.
	defaultExpiryDays = 30
	maxExpiryDays     = 3650
)

var (
	msgBadDays      = i18n.T("参数days应为0到%d之间的整数", "Parameter days must be a whole number from 0 to %d")
	msgBadAlertType = i18n.T("参数alertType不是可选的预警类型", "Parameter alertType is not one of the alert types")
)

func init() {
	documents = append(documents, func(s *Service) []resource.Registered {
		return s.declareMonitor()
	})
}

// ThresholdAlert is a material against its stock levels.
type ThresholdAlert struct {
	ID           wire.ID      `bun:"id" json:"id" f:"label=物料|Material;ro;noform;hide;nofilter"`
	MaterialCode string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;search"`
	MaterialName string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;search"`
	Spec         string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform;nofilter"`
	Unit         string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;ro;noform;nofilter"`
	WarehouseID  wire.ID      `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;ref=bluebird-basic/warehouse;ro;noform;hide;filter=equal;search"`
	AlertType    int          `bun:"alert_type" json:"alertType" f:"label=预警类型|Alert type;dict=stock_alert_type;ro;noform;filter=equal;search"`
	Qty          wire.Decimal `bun:"qty" json:"qty" f:"label=库存数量|Quantity;scale=6;ro;noform;nofilter"`
	LockedQty    wire.Decimal `bun:"locked_qty" json:"lockedQty" f:"label=锁定数量|Locked;scale=6;ro;noform;nofilter"`
	AvailableQty wire.Decimal `bun:"available_qty" json:"availableQty" f:"label=可用数量|Available;scale=6;ro;noform;nofilter"`
	SafetyStock  wire.Decimal `bun:"safety_stock" json:"safetyStock" f:"label=安全库存|Safety stock;scale=6;ro;noform;nofilter"`
	MinStock     wire.Decimal `bun:"min_stock" json:"minStock" f:"label=最低库存|Minimum stock;scale=6;ro;noform;nofilter"`
	MaxStock     wire.Decimal `bun:"max_stock" json:"maxStock" f:"label=最高库存|Maximum stock;scale=6;ro;noform;nofilter"`
	// ShortageQty: how much is missing to the highest level the available
	// quantity is below; ExcessQty: how much is on hand above the maximum.
	ShortageQty wire.Decimal `bun:"shortage_qty" json:"shortageQty" f:"label=缺口数量|Shortage;scale=6;ro;noform;nofilter"`
	ExcessQty   wire.Decimal `bun:"excess_qty" json:"excessQty" f:"label=超出数量|Excess;scale=6;ro;noform;nofilter"`
	// Alerts are every kind the row breaks (AlertType is the first of them).
	Alerts []int `bun:"-" json:"alerts"`
}

// ExpiryAlert is a bucket of a batch that expires soon or has expired.
type ExpiryAlert struct {
	bun.BaseModel `bun:"table:bb_material_stock_v"`
	resource.Base
	MaterialID     wire.ID      `bun:"item_id" json:"materialId" f:"label=物料|Material;ref=bluebird-basic/material;ro;noform;hide;filter=equal"`
	WarehouseID    wire.ID      `bun:"warehouse_id" json:"warehouseId" f:"label=仓库|Warehouse;ref=bluebird-basic/warehouse;ro;noform;hide;filter=equal;search"`
	MaterialCode   string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform;nofilter"`
	MaterialName   string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform;nofilter"`
	Spec           string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform;nofilter"`
	Unit           string       `bun:"unit" json:"unit" f:"label=单位|Unit;dict=unit;ro;noform;nofilter"`
	BatchNo        string       `bun:"batch_no" json:"batchNo" f:"label=批次号|Batch no.;ro;noform;search;sort"`
	ExpiryDate     string       `bun:"expiry_date" json:"expiryDate" f:"label=有效期至|Expiry date;ro;noform;nofilter;sort"`
	ProductionDate string       `bun:"production_date" json:"productionDate" f:"label=生产日期|Production date;ro;noform;nofilter"`
	WarehouseName  string       `bun:"warehouse_name" json:"warehouseName" f:"label=仓库|Warehouse;ro;noform;nofilter"`
	PositionID     wire.ID      `bun:"position_id" json:"positionId" f:"label=库位|Location;ref=bluebird-basic/warehouseposition;ro;noform;hide;nofilter"`
	PositionName   string       `bun:"position_name" json:"positionName" f:"label=库位|Location;ro;noform;nofilter"`
	Qty            wire.Decimal `bun:"qty" json:"qty" f:"label=库存数量|Quantity;scale=6;ro;noform;sort"`
	LockedQty      wire.Decimal `bun:"locked_qty" json:"lockedQty" f:"label=锁定数量|Locked;scale=6;ro;noform;nofilter"`
	AvailableQty   wire.Decimal `bun:"available_qty" json:"availableQty" f:"label=可用数量|Available;scale=6;ro;noform;nofilter"`
	// DaysLeft: days from today to the expiry date, negative once expired.
	DaysLeft  int `bun:"-" json:"daysLeft"`
	AlertType int `bun:"-" json:"alertType"`
}

func (s *Service) declareMonitor() []resource.Registered {
	expiry := resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "stockexpiry", Table: "bb_material_stock_v", Label: i18n.T("批次效期预警", "Batch expiry alert"),
		// no menu of its own: user_monitor is the threshold list's (a menu
		// names one resource); the monitor page shows both
		Routes:       []string{"list", "detail", "export"},
		DefaultOrder: "expiry_date ASC, item_id ASC, warehouse_id ASC, position_id ASC, batch_no ASC",
	}, resource.Hooks[ExpiryAlert]{
		Query:  s.expiryFilters,
		Enrich: expiryDays,
	})
	var threshold *resource.Described
	threshold = resource.Describe[ThresholdAlert](resource.Spec{
		Service: "bluebird-basic", Name: "stockthreshold", Table: "bb_material", Label: i18n.T("库存阈值预警", "Stock level alert"),
		MenuCode: "user_monitor", Routes: []string{"list", "detail", "export"},
	}, func(r chi.Router, env *resource.Env) { s.mountThreshold(r, env, threshold) })
	return []resource.Registered{resource.WithRoutes[ExpiryAlert]{Resource: expiry, Extra: s.valueRoutes}, threshold}
}

// readableMaterials is the scoped select of the ids of the materials the
// caller may read.
func (s *Service) readableMaterials(ctx context.Context) (*bun.SelectQuery, error) {
	mats, ok := s.env.Refs.Get("bluebird-basic/material").(*resource.Resource[inventory.Material])
	if !ok {
		return nil, errors.New("stockdoc: no material resource")
	}
	var readable []inventory.Material
	sub, err := mats.Select(ctx, s.env.DB, &readable)
	if err != nil {
		return nil, err
	}
	return sub.ColumnExpr("id"), nil
}

// today is the date expiry is measured from: the stock core refuses a batch
// whose expiry date is before it (stock.Post).
func today() time.Time {
	y, m, d := time.Now().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// expiryFilters: the stock list's filters (keyword, positionId, zero
// buckets hidden...), then batches with an expiry date up to `days` from
// today, alertType 4 (not yet expired) or 5 (expired), of readable materials.
func (s *Service) expiryFilters(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	q, err := stockFilters(r, q)
	if err != nil {
		return nil, err
	}
	v := r.URL.Query()
	days := defaultExpiryDays
	if raw := strings.TrimSpace(v.Get("days")); raw != "" {
		if days, err = strconv.Atoi(raw); err != nil || days < 0 || days > maxExpiryDays {
			return nil, httpx.BadRequest(msgBadDays.Format(maxExpiryDays))
		}
	}
	now := today()
	q = q.Where("?TableAlias.expiry_date <> '' AND ?TableAlias.expiry_date <= ?", now.AddDate(0, 0, days).Format(time.DateOnly))
	switch strings.TrimSpace(v.Get("alertType")) {
	case "":
	case strconv.Itoa(AlertExpiring):
		q = q.Where("?TableAlias.expiry_date >= ?", now.Format(time.DateOnly))
	case strconv.Itoa(AlertExpired):
		q = q.Where("?TableAlias.expiry_date < ?", now.Format(time.DateOnly))
	default:
		return nil, httpx.BadRequest(msgBadAlertType)
	}
	readable, err := s.readableMaterials(r.Context())
	if err != nil {
		return nil, err
	}
	// formatted on its own: its alias is not the stock view's
	return q.Where("?TableAlias.item_id IN (?)", bun.Safe(readable.String())), nil
}

// expiryDays fills the days left and the kind of each row.
func expiryDays(_ context.Context, _ bun.IDB, rows []ExpiryAlert) error {
	now := today()
	for i := range rows {
		r := &rows[i]
		d, err := time.Parse(time.DateOnly, r.ExpiryDate)
		if err != nil {
			continue // no expiry date: listed only by detail
		}
		r.DaysLeft = int(d.Sub(now).Hours() / 24)
		r.AlertType = AlertExpiring
		if r.DaysLeft < 0 {
			r.AlertType = AlertExpired
		}
	}
	return nil
}

func (s *Service) mountThreshold(r chi.Router, env *resource.Env, threshold *resource.Described) {
	read := resource.Guard(resource.AnyUser)
	r.Get(thresholdPath+"/list", httpx.Handle(read(s.handleThresholdList)))
	r.Get(thresholdPath+"/detail", httpx.Handle(read(s.handleThresholdDetail)))
	r.Get(thresholdPath+"/export", httpx.Handle(read(func(r *http.Request) (any, error) { return s.handleThresholdExport(r, env, threshold) })))
}

// thresholdQuery is what the threshold list reads.
type thresholdQuery struct {
	id, warehouseID wire.ID
	alertType       int
	code, name, kw  string
}

func parseThresholdQuery(r *http.Request) (thresholdQuery, error) {
	v := r.URL.Query()
	var tq thresholdQuery
	var err error
	for name, dst := range map[string]*wire.ID{"id": &tq.id, "warehouseId": &tq.warehouseID} {
		if raw := strings.TrimSpace(v.Get(name)); raw != "" {
			if *dst, err = wire.ParseID(raw); err != nil {
				return tq, httpx.InvalidParam(name)
			}
		}
	}
	if raw := strings.TrimSpace(v.Get("alertType")); raw != "" {
		tq.alertType, err = strconv.Atoi(raw)
		if err != nil || tq.alertType < AlertBelowSafety || tq.alertType > AlertAboveMax {
			return tq, httpx.BadRequest(msgBadAlertType)
		}
	}
	for name, dst := range map[string]*string{"materialCode": &tq.code, "materialName": &tq.name, resource.KeywordParam: &tq.kw} {
		*dst = strings.TrimSpace(v.Get(name))
		if len([]rune(*dst)) > resource.MaxFilterLen {
			return tq, httpx.InvalidParam(name)
		}
	}
	return tq, nil
}

// thresholdSelect is the scoped, filtered select of the alerts (without
// order or paging).
func (s *Service) thresholdSelect(ctx context.Context, tq thresholdQuery) (*bun.SelectQuery, error) {
	p := authz.From(ctx)
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	idb := s.env.DB
	pg := idb.Dialect().Name() == dialect.PG
	sum, zero := db.DecimalSumFunc(pg), "'0'"
	if pg {
		zero = "0"
	}
	// the materials that ask for a level, and their stock (in one warehouse)
	levelled := "(safety_stock IS NOT NULL OR min_stock IS NOT NULL OR max_stock IS NOT NULL)"
	sums := idb.NewSelect().TableExpr("bb_stock_balance AS b").
		ColumnExpr("b.item_id").
		ColumnExpr(sum+"(b.qty) AS qty").ColumnExpr(sum+"(b.locked_qty) AS locked_qty").ColumnExpr(sum+"(b.available_qty) AS available_qty").
		Where("b.tenant_id = ? AND b.item_kind = ? AND b.is_deleted = 0", p.TenantID, stock.Material).
		Where("b.item_id IN (SELECT id FROM bb_material WHERE tenant_id = ? AND is_deleted = 0 AND "+levelled+")", p.TenantID).
		GroupExpr("b.item_id")
	if tq.warehouseID != 0 {
		sums = sums.Where("b.warehouse_id = ?", tq.warehouseID)
	}
	readable, err := s.readableMaterials(ctx)
	if err != nil {
		return nil, err
	}
	qty, avail := "COALESCE(s.qty, "+zero+")", "COALESCE(s.available_qty, "+zero+")"
	// the level is the comparison's left operand: on SQLite its column's
	// DECIMAL collation compares the two texts as numbers
	conds := map[int]string{
		AlertBelowSafety: "(m.safety_stock IS NOT NULL AND m.safety_stock > " + avail + ")",
		AlertBelowMin:    "(m.min_stock IS NOT NULL AND m.min_stock > " + avail + ")",
		AlertAboveMax:    "(m.max_stock IS NOT NULL AND m.max_stock > " + zero + " AND m.max_stock < " + qty + ")",
	}
	q := idb.NewSelect().TableExpr("bb_material AS m").
		ColumnExpr("m.id, m.material_code, m.material_name, m.spec, m.unit, m.safety_stock, m.min_stock, m.max_stock").
		ColumnExpr(qty+" AS qty, COALESCE(s.locked_qty, "+zero+") AS locked_qty, "+avail+" AS available_qty").
		Join("LEFT JOIN (?) AS s ON s.item_id = m.id", sums).
		Where("m.tenant_id = ? AND m.is_deleted = 0", p.TenantID).
		Where("m.id IN (?)", readable)
	if tq.alertType != 0 {
		q = q.Where(conds[tq.alertType])
	} else {
		q = q.Where("(" + conds[AlertBelowSafety] + " OR " + conds[AlertBelowMin] + " OR " + conds[AlertAboveMax] + ")")
	}
	if tq.warehouseID != 0 {
		q = q.Where("(s.item_id IS NOT NULL OR m.default_warehouse_id = ?)", tq.warehouseID)
	}
	if tq.id != 0 {
		q = q.Where("m.id = ?", tq.id)
	}
	for _, f := range []struct{ text, cond string }{
		{tq.code, "LOWER(m.material_code) LIKE ? ESCAPE '\\'"},
		{tq.name, "LOWER(m.material_name) LIKE ? ESCAPE '\\'"},
	} {
		if f.text != "" {
			q = q.Where(f.cond, "%"+db.EscapeLike(strings.ToLower(f.text))+"%")
		}
	}
	if tq.kw != "" {
		like := "%" + db.EscapeLike(strings.ToLower(tq.kw)) + "%"
		q = q.Where(`(LOWER(m.material_code) LIKE ? ESCAPE '\' OR LOWER(m.material_name) LIKE ? ESCAPE '\')`, like, like)
	}
	return q.OrderExpr("m.material_code ASC, m.id ASC"), nil
}

// classify sets the kinds a row breaks, its first kind and its gaps.
func classify(rows []ThresholdAlert, warehouseID wire.ID) {
	for i := range rows {
		r := &rows[i]
		r.WarehouseID = warehouseID
		r.Qty, r.LockedQty, r.AvailableQty = r.Qty.Round(6, wire.RoundHalfUp), r.LockedQty.Round(6, wire.RoundHalfUp), r.AvailableQty.Round(6, wire.RoundHalfUp)
		r.Alerts = []int{}
		var short wire.Decimal
		for _, lvl := range []struct {
			kind  int
			level wire.Decimal
		}{{AlertBelowMin, r.MinStock}, {AlertBelowSafety, r.SafetyStock}} {
			if !lvl.level.IsNull() && r.AvailableQty.Cmp(lvl.level) < 0 {
				r.Alerts = append(r.Alerts, lvl.kind)
				if gap := lvl.level.Sub(r.AvailableQty); short.IsNull() || gap.Cmp(short) > 0 {
					short = gap
				}
			}
		}
		r.ShortageQty = short
		if !r.MaxStock.IsNull() && r.MaxStock.Sign() > 0 && r.Qty.Cmp(r.MaxStock) > 0 {
			r.Alerts = append(r.Alerts, AlertAboveMax)
			r.ExcessQty = r.Qty.Sub(r.MaxStock)
		}
		slices.Sort(r.Alerts)
		if len(r.Alerts) > 0 {
			// below minimum is the more urgent of the two shortages
			r.AlertType = r.Alerts[0]
			if slices.Contains(r.Alerts, AlertBelowMin) {
				r.AlertType = AlertBelowMin
			}
		}
	}
}

// handleThresholdList answers a page of alerts, by material code.
func (s *Service) handleThresholdList(r *http.Request) (any, error) {
	paging, err := httpx.ParsePaging(r.URL.Query())
	if err != nil {
		return nil, err
	}
	tq, err := parseThresholdQuery(r)
	if err != nil {
		return nil, err
	}
	q, err := s.thresholdSelect(r.Context(), tq)
	if err != nil {
		return nil, err
	}
	rows := []ThresholdAlert{}
	total, err := q.Limit(int64(paging.Size)).Offset(int64((paging.Current-1)*paging.Size)).ScanAndCount(r.Context(), &rows)
	if err != nil {
		return nil, err
	}
	classify(rows, tq.warehouseID)
	return httpx.NewPage(rows, int64(total), paging.Current, paging.Size), nil
}

// handleThresholdDetail answers one material's alert (404 when it breaks
// no level, or the caller may not read it).
func (s *Service) handleThresholdDetail(r *http.Request) (any, error) {
	tq, err := parseThresholdQuery(r)
	if err != nil {
		return nil, err
	}
	if tq.id == 0 {
		return nil, httpx.MissingParam("id")
	}
	q, err := s.thresholdSelect(r.Context(), tq)
	if err != nil {
		return nil, err
	}
	rows := []ThresholdAlert{}
	if err := q.Limit(1).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	classify(rows, tq.warehouseID)
	return rows[0], nil
}

// handleThresholdExport answers the filtered alerts as an .xlsx file.
func (s *Service) handleThresholdExport(r *http.Request, env *resource.Env, threshold *resource.Described) (any, error) {
	tq, err := parseThresholdQuery(r)
	if err != nil {
		return nil, err
	}
	q, err := s.thresholdSelect(r.Context(), tq)
	if err != nil {
		return nil, err
	}
	rows := []ThresholdAlert{}
	if err := q.Limit(resource.ExportLimit).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	classify(rows, tq.warehouseID)
	return resource.ExportRows(r, env, threshold, rows)
}

// WarehouseValue is the stock value of one warehouse.
type WarehouseValue struct {
	WarehouseID   wire.ID      `json:"warehouseId"`
	WarehouseName string       `json:"warehouseName"`
	Qty           wire.Decimal `json:"qty"`
	Amount        wire.Decimal `json:"amount"`
}

// valueRoutes mounts materialstock/valueByWarehouse beside the stock list's routes.
func (s *Service) valueRoutes(r chi.Router, _ *resource.Env) {
	r.Get(stockPath+"/valueByWarehouse", httpx.Handle(resource.Guard(resource.AnyUser)(s.handleValueByWarehouse)))
}

// handleValueByWarehouse answers each warehouse holding material stock with
// its value: Σ qty × the item's average cost, exact, shown at four places
// (the stock list's amounts are the same products per bucket), largest
// first. A removed warehouse's name reads empty.
func (s *Service) handleValueByWarehouse(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	idb := s.env.DB
	sum := db.DecimalSumFunc(idb.Dialect().Name() == dialect.PG)
	readable, err := s.readableMaterials(ctx)
	if err != nil {
		return nil, err
	}
	// one row per warehouse and item: the item's quantity there and its cost
	var sums []struct {
		WarehouseID wire.ID      `bun:"warehouse_id"`
		Qty         wire.Decimal `bun:"qty"`
		AvgCost     wire.Decimal `bun:"avg_cost"`
	}
	if err := idb.NewSelect().TableExpr("bb_stock_balance AS b").
		ColumnExpr("b.warehouse_id, "+sum+"(b.qty) AS qty, c.avg_cost").
		Join("JOIN bb_item_cost AS c ON c.tenant_id = b.tenant_id AND c.item_kind = b.item_kind AND c.item_id = b.item_id AND c.is_deleted = 0").
		Where("b.tenant_id = ? AND b.item_kind = ? AND b.is_deleted = 0", p.TenantID, stock.Material).
		Where("b.item_id IN (?)", readable).
		GroupExpr("b.warehouse_id, b.item_id, c.avg_cost").
		Scan(ctx, &sums); err != nil {
		return nil, err
	}
	byWarehouse := map[wire.ID]*WarehouseValue{}
	var out []*WarehouseValue
	for _, x := range sums {
		if x.Qty.IsNull() || x.Qty.IsZero() {
			continue
		}
		w := byWarehouse[x.WarehouseID]
		if w == nil {
			w = &WarehouseValue{WarehouseID: x.WarehouseID, Qty: zeroQty, Amount: wire.NewDecimal(0, 4)}
			byWarehouse[x.WarehouseID] = w
			out = append(out, w)
		}
		w.Qty = w.Qty.Add(x.Qty)
		if !x.AvgCost.IsNull() {
			w.Amount = w.Amount.Add(x.Qty.Mul(x.AvgCost))
		}
	}
	if len(out) == 0 {
		return []*WarehouseValue{}, nil
	}
	ids := make([]wire.ID, len(out))
	for i, w := range out {
		ids[i] = w.WarehouseID
		w.Qty, w.Amount = w.Qty.Round(6, wire.RoundHalfUp), w.Amount.Round(4, wire.RoundHalfUp)
	}
	var names []struct {
		ID   wire.ID `bun:"id"`
		Name string  `bun:"warehouse_name"`
	}
	if err := idb.NewSelect().Table("bb_warehouse").Column("id", "warehouse_name").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", p.TenantID, bun.In(ids)).Scan(ctx, &names); err != nil {
		return nil, err
	}
	for _, n := range names {
		byWarehouse[n.ID].WarehouseName = n.Name
	}
	slices.SortFunc(out, func(a, b *WarehouseValue) int {
		if c := b.Amount.Cmp(a.Amount); c != 0 {
			return c
		}
		return strings.Compare(a.WarehouseName, b.WarehouseName)
	})
	return out, nil
}
