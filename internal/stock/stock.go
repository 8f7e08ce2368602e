// Package stock is the stock core of domain.md §2: one append-only ledger,
// the balance of every bucket (item, warehouse, position, batch) beside it,
// batches, the moving-average cost of each item, the locks outbound
// documents hold and the freezes of a running count.
//
// Documents never write these tables: they call Post, Reverse, Lock,
// Release, Freeze and Unfreeze inside their own transaction, so that the
// document's state and its stock effect commit together. Every call takes
// its rows in one fixed order (the warehouses FOR KEY SHARE, balances sorted
// by bucket, then batches, then item costs sorted by item, then the bucket
// counts by place), which is what keeps concurrent postings from
// deadlocking on PostgreSQL; on SQLite the one writer connection serialises
// them anyway. A count starting takes its warehouses FOR UPDATE
// (HoldForCount) before its snapshot, so no posting slips in between.
package stock

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Kind is what a bucket holds: the key of the dictionary item_kind.
type Kind int

const (
	Material Kind = 1
	Product  Kind = 2
)

// TxType is a ledger row's transaction type: the key of the dictionary
// stock_tx_type (domain.md §2 names them).
type TxType int

const (
	MaterialInPurchase  TxType = 1
	MaterialInBackStock TxType = 2
	MaterialInOther     TxType = 3
	MaterialOutPicking  TxType = 4
	MaterialOutReturn   TxType = 5
	MaterialOutOther    TxType = 6
	BorrowOut           TxType = 7
	RepayIn             TxType = 8
	CheckGain           TxType = 9
	CheckLoss           TxType = 10
	TransferOut         TxType = 11
	TransferIn          TxType = 12
	ProductInProduction TxType = 13
	ProductInReturn     TxType = 14
	ProductInOther      TxType = 15
	ProductOutSales     TxType = 16
	ProductOutOther     TxType = 17
)

// Directions (dictionary stock_direction).
const (
	In  = 1
	Out = 2
)

// isTransfer: a transfer moves stock at the average cost and leaves the
// item's cost alone (its two halves cancel).
func isTransfer(txType TxType) bool { return txType == TransferOut || txType == TransferIn }

// Scales of the stored values (migration 00009).
const (
	qtyScale    = 6
	costScale   = 6
	amountScale = 6
)

// Bucket is where a quantity sits.
type Bucket struct {
	Kind        Kind
	ItemID      wire.ID
	WarehouseID wire.ID
	PositionID  wire.ID
	BatchNo     string
}

func compareBuckets(a, b Bucket) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ItemID, b.ItemID), cmp.Compare(a.WarehouseID, b.WarehouseID),
		cmp.Compare(a.PositionID, b.PositionID), cmp.Compare(a.BatchNo, b.BatchNo))
}

type itemKey struct {
	Kind   Kind
	ItemID wire.ID
}

func compareItems(a, b itemKey) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ItemID, b.ItemID))
}

// BatchInfo are the dates a receipt gives its batch.
type BatchInfo struct {
	ProductionDate string // yyyy-MM-dd or ""
	ExpiryDate     string // yyyy-MM-dd or ""
	SupplierID     wire.ID
}

// Line is one ledger row a posting writes.
type Line struct {
	Bucket
	ItemCode string
	DetailID wire.ID // the document line (biz_detail_id)
	TxType   TxType
	// Qty is signed, in the base unit: > 0 comes in, < 0 goes out.
	Qty wire.Decimal
	// UnitCost prices an incoming line; null means the item's current
	// average. Outgoing lines and transfers always go at the average.
	UnitCost      wire.Decimal
	Batch         *BatchInfo
	ProducePlanID wire.ID
	PartnerType   string
	PartnerID     wire.ID
}

// Posting is one document's stock effect.
type Posting struct {
	BizType string
	BizID   wire.ID
	BizNo   string
	Lines   []Line
	// AllowExpired lets outgoing lines take expired batches (scrap, a
	// return to the supplier).
	AllowExpired bool
}

// LedgerRow is a row of the ledger as posted.
type LedgerRow struct {
	bun.BaseModel `bun:"table:bb_stock_ledger"`
	resource.Base
	ItemKind         Kind         `bun:"item_kind" json:"itemKind"`
	ItemID           wire.ID      `bun:"item_id" json:"itemId"`
	ItemCode         string       `bun:"item_code" json:"itemCode"`
	WarehouseID      wire.ID      `bun:"warehouse_id" json:"warehouseId"`
	PositionID       wire.ID      `bun:"position_id" json:"positionId"`
	BatchNo          string       `bun:"batch_no" json:"batchNo"`
	TxType           TxType       `bun:"tx_type" json:"txType"`
	Direction        int          `bun:"direction" json:"direction"`
	Qty              wire.Decimal `bun:"qty" json:"qty"`
	UnitCost         wire.Decimal `bun:"unit_cost" json:"unitCost"`
	Amount           wire.Decimal `bun:"amount" json:"amount"`
	BalanceQty       wire.Decimal `bun:"balance_qty" json:"balanceQty"`
	AvgCostAfter     wire.Decimal `bun:"avg_cost_after" json:"avgCostAfter"`
	BizType          string       `bun:"biz_type" json:"bizType"`
	BizID            wire.ID      `bun:"biz_id" json:"bizId"`
	BizNo            string       `bun:"biz_no" json:"bizNo"`
	BizDetailID      wire.ID      `bun:"biz_detail_id" json:"bizDetailId"`
	IsReversal       int          `bun:"is_reversal" json:"isReversal"`
	ReversedLedgerID wire.ID      `bun:"reversed_ledger_id" json:"reversedLedgerId"`
	ProducePlanID    wire.ID      `bun:"produce_plan_id" json:"producePlanId"`
	PartnerType      string       `bun:"partner_type" json:"partnerType"`
	PartnerID        wire.ID      `bun:"partner_id" json:"partnerId"`
	PostedAt         wire.Time    `bun:"posted_at" json:"postedAt"`
	PostedBy         wire.ID      `bun:"posted_by" json:"postedBy"`
	Seq              int64        `bun:"seq" json:"seq"`
}

func (r *LedgerRow) bucket() Bucket {
	return Bucket{Kind: r.ItemKind, ItemID: r.ItemID, WarehouseID: r.WarehouseID, PositionID: r.PositionID, BatchNo: r.BatchNo}
}

// Service posts stock. It holds no state of its own: everything is in the
// caller's transaction.
type Service struct {
	postgres bool
}

// New returns the stock service for a database.
func New(d *db.DB) *Service { return &Service{postgres: d.Postgres} }

// Settings a tenant may change (bb_tenant_setting).
const SettingAllowNegative = "allowNegativeStock"

// allowNegative reads the tenant's negative-stock setting inside the
// posting's transaction (off unless set to "true").
func allowNegative(ctx context.Context, tx bun.IDB, tenantID string) (bool, error) {
	var values []string
	err := tx.NewSelect().Table("bb_tenant_setting").Column("setting_value").
		Where("tenant_id = ? AND setting_key = ? AND is_deleted = 0", tenantID, SettingAllowNegative).Scan(ctx, &values)
	return len(values) > 0 && values[0] == "true", err
}

// SetTenantSetting writes one tenant setting (insert or update).
func SetTenantSetting(ctx context.Context, tx bun.IDB, tenantID, key, value string) error {
	res, err := tx.NewUpdate().Table("bb_tenant_setting").Set("setting_value = ?", value).Set("update_time = ?", wire.Now()).
		Where("tenant_id = ? AND setting_key = ? AND is_deleted = 0", tenantID, key).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	now := wire.Now()
	return db.InsertRow(ctx, tx, "bb_tenant_setting", map[string]any{"id": db.NewID(), "tenant_id": tenantID,
		"create_time": now, "update_time": now, "setting_key": key, "setting_value": value})
}

func principal(ctx context.Context) (*authz.Principal, error) {
	p := authz.From(ctx)
	if p == nil || p.TenantID == "" {
		return nil, errors.New("stock: no principal in the context")
	}
	return p, nil
}

// sortedBuckets returns the distinct buckets, in lock order.
func sortedBuckets(bs []Bucket) []Bucket {
	out := slices.Clone(bs)
	slices.SortFunc(out, compareBuckets)
	return slices.CompactFunc(out, func(a, b Bucket) bool { return compareBuckets(a, b) == 0 })
}

func (b Bucket) String() string {
	return fmt.Sprintf("%d %s @ %s/%s [%s]", b.Kind, b.ItemID, b.WarehouseID, b.PositionID, b.BatchNo)
}

// HeldIn tells whether any stock, on hand or locked, lies in the given
// warehouses or in the subtrees of the given positions: a place that holds
// stock may not be made not effective (domain.md §5).
func (s *Service) HeldIn(ctx context.Context, tx bun.Tx, warehouseIDs, positionIDs []wire.ID) (bool, error) {
	pr, err := principal(ctx)
	if err != nil {
		return false, err
	}
	if len(warehouseIDs) == 0 && len(positionIDs) == 0 {
		return false, nil
	}
	q := tx.NewSelect().Table("bb_stock_balance").Column("id").
		Where("tenant_id = ? AND (qty <> ? OR locked_qty <> ?)", pr.TenantID, zero, zero)
	q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		if len(warehouseIDs) > 0 {
			q = q.WhereOr("warehouse_id IN (?)", bun.In(warehouseIDs))
		}
		for _, p := range positionIDs {
			q = q.WhereOr("position_id IN (SELECT id FROM bb_warehouse_position WHERE tenant_id = ? AND (id = ? OR ancestors LIKE ? OR ancestors LIKE ?))",
				pr.TenantID, p, "%,"+p.String(), "%,"+p.String()+",%")
		}
		return q
	})
	return q.Exists(ctx)
}
