package stock

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// balanceRow is a bucket's balance (bb_stock_balance).
type balanceRow struct {
	bun.BaseModel `bun:"table:bb_stock_balance"`
	resource.Base
	ItemKind     Kind         `bun:"item_kind"`
	ItemID       wire.ID      `bun:"item_id"`
	WarehouseID  wire.ID      `bun:"warehouse_id"`
	PositionID   wire.ID      `bun:"position_id"`
	BatchNo      string       `bun:"batch_no"`
	Qty          wire.Decimal `bun:"qty"`
	LockedQty    wire.Decimal `bun:"locked_qty"`
	AvailableQty wire.Decimal `bun:"available_qty"`
	LastPostedAt wire.Time    `bun:"last_posted_at"`

	isNew   bool `bun:"-"`
	changed bool `bun:"-"`
	// wasHeld: the bucket was non-empty when read, for the bucket count
	wasHeld bool `bun:"-"`
}

func (b *balanceRow) bucket() Bucket {
	return Bucket{Kind: b.ItemKind, ItemID: b.ItemID, WarehouseID: b.WarehouseID, PositionID: b.PositionID, BatchNo: b.BatchNo}
}

// held: the bucket is non-empty, as the stock screens show it (zero
// buckets are hidden unless asked for).
func (b *balanceRow) held() bool { return !b.Qty.IsZero() || !b.LockedQty.IsZero() }

// costRow is an item's moving-average cost (bb_item_cost): qty and amount
// are the sums of the item's ledger rows, avgCost = amount / qty.
type costRow struct {
	bun.BaseModel `bun:"table:bb_item_cost"`
	resource.Base
	ItemKind Kind         `bun:"item_kind"`
	ItemID   wire.ID      `bun:"item_id"`
	Qty      wire.Decimal `bun:"qty"`
	Amount   wire.Decimal `bun:"amount"`
	AvgCost  wire.Decimal `bun:"avg_cost"`
	LastSeq  int64        `bun:"last_seq"`

	isNew   bool `bun:"-"`
	changed bool `bun:"-"`
}

var zero = wire.NewDecimal(0, qtyScale)

func newBase(tenantID string, userID wire.ID, now wire.Time) resource.Base {
	return resource.Base{ID: db.NewID(), TenantID: tenantID, CreateUser: userID, UpdateUser: userID, CreateTime: now, UpdateTime: now, Status: 1, Version: 1}
}

// tupleIn renders "(cols) IN ((?,..),..)" for n tuples.
func tupleIn(cols string, width, n int) string {
	one := "(" + strings.Repeat("?,", width-1) + "?)"
	var b strings.Builder
	b.WriteString("(" + cols + ") IN (")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one)
	}
	b.WriteByte(')')
	return b.String()
}

// lockBalances reads the balances of buckets (sorted), locking them on
// PostgreSQL; a bucket without a row gets a new one (written by
// saveBalances). On PostgreSQL the missing rows are inserted first, so two
// postings into a new bucket queue on its row instead of both creating it.
func (s *Service) lockBalances(ctx context.Context, tx bun.Tx, tenantID string, userID wire.ID, now wire.Time, buckets []Bucket) (map[Bucket]*balanceRow, error) {
	out := make(map[Bucket]*balanceRow, len(buckets))
	if len(buckets) == 0 {
		return out, nil
	}
	args := make([]any, 0, 1+5*len(buckets))
	args = append(args, tenantID)
	for _, b := range buckets {
		args = append(args, b.Kind, b.ItemID, b.WarehouseID, b.PositionID, b.BatchNo)
	}
	if s.postgres {
		fresh := make([]*balanceRow, len(buckets))
		for i, b := range buckets {
			fresh[i] = &balanceRow{Base: newBase(tenantID, userID, now), ItemKind: b.Kind, ItemID: b.ItemID, WarehouseID: b.WarehouseID,
				PositionID: b.PositionID, BatchNo: b.BatchNo, Qty: zero, LockedQty: zero, AvailableQty: zero}
		}
		if _, err := tx.NewInsert().Model(&fresh).On("CONFLICT (tenant_id, item_kind, item_id, warehouse_id, position_id, batch_no) DO NOTHING").Exec(ctx); err != nil {
			return nil, err
		}
	}
	var rows []*balanceRow
	q := tx.NewSelect().Model(&rows).
		Where("tenant_id = ? AND "+tupleIn("item_kind, item_id, warehouse_id, position_id, batch_no", 5, len(buckets)), args...).
		Order("item_kind", "item_id", "warehouse_id", "position_id", "batch_no")
	if s.postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	for _, r := range rows {
		r.wasHeld = r.held()
		out[r.bucket()] = r
	}
	for _, b := range buckets {
		if out[b] == nil {
			out[b] = &balanceRow{Base: newBase(tenantID, userID, now), ItemKind: b.Kind, ItemID: b.ItemID, WarehouseID: b.WarehouseID,
				PositionID: b.PositionID, BatchNo: b.BatchNo, Qty: zero, LockedQty: zero, AvailableQty: zero, isNew: true}
		}
	}
	return out, nil
}

// saveBalances writes the changed balances: new rows in one insert, the
// others in one update from a VALUES list; then the bucket counts of the
// places where a bucket became empty or non-empty.
func (s *Service) saveBalances(ctx context.Context, tx bun.Tx, userID wire.ID, now wire.Time, rows map[Bucket]*balanceRow) error {
	var fresh, old []*balanceRow
	counts := map[countKey]int64{}
	for _, r := range rows {
		if !r.changed {
			continue
		}
		if held := r.held(); held != r.wasHeld {
			k := countKey{r.TenantID, r.ItemKind, r.WarehouseID}
			if held {
				counts[k]++
			} else {
				counts[k]--
			}
		}
		r.AvailableQty = r.Qty.Sub(r.LockedQty).Round(qtyScale, wire.RoundHalfUp)
		if r.isNew {
			r.LastPostedAt = now
			fresh = append(fresh, r)
		} else {
			old = append(old, r)
		}
	}
	if len(fresh) > 0 {
		if _, err := tx.NewInsert().Model(&fresh).Exec(ctx); err != nil {
			return err
		}
	}
	if len(old) > 0 {
		values := make([][]any, len(old))
		for i, r := range old {
			values[i] = []any{r.ID, r.Qty, r.LockedQty, r.AvailableQty}
		}
		if err := s.updateFromValues(ctx, tx, "bb_stock_balance", []string{"qty", "locked_qty", "available_qty"},
			"last_posted_at = ?, update_user = ?, update_time = ?, version = version + 1", []any{now, userID, now}, values); err != nil {
			return err
		}
	}
	return addBucketCounts(ctx, tx, counts)
}

// updateFromValues runs UPDATE table SET col = v.columnN ... FROM (VALUES
// (id, col...), ...) WHERE table.id = v.column1: one statement for many rows.
// Every value column is a decimal except a trailing int64 (last_seq).
func (s *Service) updateFromValues(ctx context.Context, tx bun.Tx, table string, cols []string, extraSet string, extraArgs []any, values [][]any) error {
	decimalType, idType := "TEXT", "BIGINT"
	if s.postgres {
		decimalType = "NUMERIC"
	}
	var b strings.Builder
	b.WriteString("UPDATE " + table + " SET ")
	for i, c := range cols {
		typ := decimalType
		if c == "last_seq" {
			typ = idType
		}
		b.WriteString(c + " = CAST(v.column" + itoa(i+2) + " AS " + typ + "), ")
	}
	b.WriteString(extraSet + " FROM (VALUES ")
	args := append([]any(nil), extraArgs...)
	width := len(cols) + 1
	one := "(" + strings.Repeat("?,", width-1) + "?)"
	for i, row := range values {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one)
		args = append(args, row...)
	}
	b.WriteString(") AS v WHERE " + table + ".id = CAST(v.column1 AS " + idType + ")")
	_, err := tx.ExecContext(ctx, b.String(), args...)
	return err
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// lockCosts reads (and on PostgreSQL locks) the cost rows of items, sorted.
func (s *Service) lockCosts(ctx context.Context, tx bun.Tx, tenantID string, userID wire.ID, now wire.Time, items []itemKey) (map[itemKey]*costRow, error) {
	out := make(map[itemKey]*costRow, len(items))
	if len(items) == 0 {
		return out, nil
	}
	args := make([]any, 0, 1+2*len(items))
	args = append(args, tenantID)
	for _, it := range items {
		args = append(args, it.Kind, it.ItemID)
	}
	if s.postgres {
		fresh := make([]*costRow, len(items))
		for i, it := range items {
			fresh[i] = &costRow{Base: newBase(tenantID, userID, now), ItemKind: it.Kind, ItemID: it.ItemID, Qty: zero, Amount: zero, AvgCost: zero}
		}
		if _, err := tx.NewInsert().Model(&fresh).On("CONFLICT (tenant_id, item_kind, item_id) DO NOTHING").Exec(ctx); err != nil {
			return nil, err
		}
	}
	var rows []*costRow
	q := tx.NewSelect().Model(&rows).Where("tenant_id = ? AND "+tupleIn("item_kind, item_id", 2, len(items)), args...).Order("item_kind", "item_id")
	if s.postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[itemKey{r.ItemKind, r.ItemID}] = r
	}
	for _, it := range items {
		if out[it] == nil {
			out[it] = &costRow{Base: newBase(tenantID, userID, now), ItemKind: it.Kind, ItemID: it.ItemID, Qty: zero, Amount: zero, AvgCost: zero, isNew: true}
		}
	}
	return out, nil
}

func (s *Service) saveCosts(ctx context.Context, tx bun.Tx, userID wire.ID, now wire.Time, rows map[itemKey]*costRow) error {
	var fresh, old []*costRow
	for _, r := range rows {
		switch {
		case !r.changed:
		case r.isNew:
			fresh = append(fresh, r)
		default:
			old = append(old, r)
		}
	}
	if len(fresh) > 0 {
		if _, err := tx.NewInsert().Model(&fresh).Exec(ctx); err != nil {
			return err
		}
	}
	if len(old) == 0 {
		return nil
	}
	values := make([][]any, len(old))
	for i, r := range old {
		values[i] = []any{r.ID, r.Qty, r.Amount, r.AvgCost, r.LastSeq}
	}
	return s.updateFromValues(ctx, tx, "bb_item_cost", []string{"qty", "amount", "avg_cost", "last_seq"},
		"update_user = ?, update_time = ?, version = version + 1", []any{userID, now}, values)
}
