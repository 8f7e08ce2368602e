package stock

import (
	"cmp"
	"context"
	"slices"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
)

// The bucket count (bb_stock_bucket_count, migration 00017): how many
// non-empty buckets each tenant holds of a kind in a warehouse. saveBalances
// keeps it, in the posting's transaction, from each bucket it changes: a
// bucket read empty and saved non-empty adds one, the other way round takes
// one away. The stock page reads its total from it instead of counting
// tens of thousands of buckets.
//
// Its rows are taken last, after balances, batches and costs, in place
// order; a count changes only when a bucket empties or fills, so most
// postings never touch it.

type countKey struct {
	TenantID    string
	Kind        Kind
	WarehouseID wire.ID
}

// addBucketCounts adds each place's change to its count, creating the row
// the first time: one upsert per place, in place order.
func addBucketCounts(ctx context.Context, tx bun.Tx, counts map[countKey]int64) error {
	keys := make([]countKey, 0, len(counts))
	for k, n := range counts {
		if n != 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b countKey) int {
		return cmp.Or(cmp.Compare(a.TenantID, b.TenantID), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.WarehouseID, b.WarehouseID))
	})
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, `INSERT INTO bb_stock_bucket_count (tenant_id, item_kind, warehouse_id, buckets) VALUES (?, ?, ?, ?)
			ON CONFLICT (tenant_id, item_kind, warehouse_id) DO UPDATE SET buckets = bb_stock_bucket_count.buckets + excluded.buckets`,
			k.TenantID, k.Kind, k.WarehouseID, counts[k]); err != nil {
			return err
		}
	}
	return nil
}

// HeldBuckets is the number of a tenant's non-empty buckets of a kind, in
// one warehouse or (warehouseID 0) in all: what counting the balances with
// NOT (qty = 0 AND locked_qty = 0) answers, read from the bucket count.
func HeldBuckets(ctx context.Context, idb bun.IDB, tenantID string, kind Kind, warehouseID wire.ID) (int64, error) {
	q := idb.NewSelect().Table("bb_stock_bucket_count").ColumnExpr("COALESCE(SUM(buckets), 0)").
		Where("tenant_id = ? AND item_kind = ?", tenantID, kind)
	if warehouseID != 0 {
		q = q.Where("warehouse_id = ?", warehouseID)
	}
	var n int64
	err := q.Scan(ctx, &n)
	return n, err
}

// RecountBuckets rebuilds a tenant's bucket counts from its balances: for
// stock written around the stock core (a bulk load, the benchmark's seed).
func RecountBuckets(ctx context.Context, tx bun.Tx, tenantID string) error {
	if _, err := tx.NewDelete().Table("bb_stock_bucket_count").Where("tenant_id = ?", tenantID).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO bb_stock_bucket_count (tenant_id, item_kind, warehouse_id, buckets)
		SELECT tenant_id, item_kind, warehouse_id, COUNT(*) FROM bb_stock_balance
		WHERE tenant_id = ? AND is_deleted = 0 AND NOT (qty = ? AND locked_qty = ?)
		GROUP BY tenant_id, item_kind, warehouse_id`, tenantID, zero, zero)
	return err
}
