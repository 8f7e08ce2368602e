package stock

import (
	"context"
	"slices"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// lockRow is stock an outbound document holds from its startProcess until
// it posts or lets go (bb_stock_lock). A bucket's lockedQty is the sum of
// its lock rows.
type lockRow struct {
	bun.BaseModel `bun:"table:bb_stock_lock"`
	ID            wire.ID      `bun:"id,pk"`
	TenantID      string       `bun:"tenant_id"`
	CreateUser    wire.ID      `bun:"create_user"`
	CreateTime    wire.Time    `bun:"create_time"`
	UpdateTime    wire.Time    `bun:"update_time"`
	BizType       string       `bun:"biz_type"`
	BizID         wire.ID      `bun:"biz_id"`
	BizDetailID   wire.ID      `bun:"biz_detail_id"`
	ItemKind      Kind         `bun:"item_kind"`
	ItemID        wire.ID      `bun:"item_id"`
	WarehouseID   wire.ID      `bun:"warehouse_id"`
	PositionID    wire.ID      `bun:"position_id"`
	BatchNo       string       `bun:"batch_no"`
	Qty           wire.Decimal `bun:"qty"`
}

func (l *lockRow) bucket() Bucket {
	return Bucket{Kind: l.ItemKind, ItemID: l.ItemID, WarehouseID: l.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo}
}

// LockLine is a quantity (> 0, base unit) an outbound line holds.
type LockLine struct {
	Bucket
	ItemCode string
	DetailID wire.ID
	Qty      wire.Decimal
}

var msgLocked = i18n.T("单据 %s 已锁定库存", "Document %s already holds stock")

// ownLocks sums a document's locks per bucket.
func (s *Service) ownLocks(ctx context.Context, tx bun.Tx, tenantID, bizType string, bizID wire.ID) (map[Bucket]wire.Decimal, []wire.ID, error) {
	var locks []*lockRow
	if err := tx.NewSelect().Model(&locks).Where("tenant_id = ? AND biz_type = ? AND biz_id = ?", tenantID, bizType, bizID).Scan(ctx); err != nil {
		return nil, nil, err
	}
	sums := map[Bucket]wire.Decimal{}
	ids := make([]wire.ID, len(locks))
	for i, l := range locks {
		ids[i] = l.ID
		if prev, ok := sums[l.bucket()]; ok {
			sums[l.bucket()] = prev.Add(l.Qty)
		} else {
			sums[l.bucket()] = l.Qty
		}
	}
	return sums, ids, nil
}

// Lock makes an outbound document hold its lines' stock (startProcess):
// each bucket must have the quantity available (qty − lockedQty), checked
// and taken under the bucket's lock. With negative stock allowed nothing is
// locked (domain.md §1.4). A document locks once; Release lets go.
func (s *Service) Lock(ctx context.Context, tx bun.Tx, bizType string, bizID wire.ID, bizNo string, lines []LockLine) error {
	pr, err := principal(ctx)
	if err != nil {
		return err
	}
	negative, err := allowNegative(ctx, tx, pr.TenantID)
	if err != nil || negative || len(lines) == 0 {
		return err
	}
	if n, err := tx.NewSelect().Table("bb_stock_lock").Where("tenant_id = ? AND biz_type = ? AND biz_id = ?", pr.TenantID, bizType, bizID).Count(ctx); err != nil {
		return err
	} else if n > 0 {
		return httpx.BadRequest(msgLocked.Format(bizNo))
	}
	asLines := make([]Line, len(lines))
	buckets := make([]Bucket, len(lines))
	for i, l := range lines {
		if l.Qty.IsNull() || l.Qty.Sign() <= 0 {
			return httpx.BadRequest(msgZeroQty.Format(i + 1))
		}
		asLines[i] = Line{Bucket: l.Bucket, ItemCode: l.ItemCode, Qty: l.Qty.Neg()}
		buckets[i] = l.Bucket
	}
	if err := s.checkFrozen(ctx, tx, pr.TenantID, asLines); err != nil {
		return err
	}
	now := wire.Now()
	balances, err := s.lockBalances(ctx, tx, pr.TenantID, pr.UserID, now, sortedBuckets(buckets))
	if err != nil {
		return err
	}
	need := map[Bucket]wire.Decimal{}
	rows := make([]*lockRow, len(lines))
	for i, l := range lines {
		bal := balances[l.Bucket]
		bal.LockedQty = bal.LockedQty.Add(l.Qty).Round(qtyScale, wire.RoundHalfUp)
		bal.changed = true
		if prev, ok := need[l.Bucket]; ok {
			need[l.Bucket] = prev.Add(l.Qty)
		} else {
			need[l.Bucket] = l.Qty
		}
		rows[i] = &lockRow{ID: newBase("", 0, now).ID, TenantID: pr.TenantID, CreateUser: pr.UserID, CreateTime: now, UpdateTime: now,
			BizType: bizType, BizID: bizID, BizDetailID: l.DetailID, ItemKind: l.Kind, ItemID: l.ItemID,
			WarehouseID: l.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo, Qty: l.Qty.Round(qtyScale, wire.RoundHalfUp)}
	}
	for b, q := range need {
		bal := balances[b]
		if bal.Qty.Sub(bal.LockedQty).Sign() < 0 {
			return s.shortage(ctx, tx, asLines, b, bal.Qty.Sub(bal.LockedQty).Add(q), q)
		}
	}
	if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return err
	}
	return s.saveBalances(ctx, tx, pr.UserID, now, balances)
}

// Release lets go of everything a document holds (withdraw, reject, void).
// A document that holds nothing is released at once.
func (s *Service) Release(ctx context.Context, tx bun.Tx, bizType string, bizID wire.ID) error {
	pr, err := principal(ctx)
	if err != nil {
		return err
	}
	own, ids, err := s.ownLocks(ctx, tx, pr.TenantID, bizType, bizID)
	if err != nil || len(ids) == 0 {
		return err
	}
	buckets := make([]Bucket, 0, len(own))
	for b := range own {
		buckets = append(buckets, b)
	}
	now := wire.Now()
	balances, err := s.lockBalances(ctx, tx, pr.TenantID, pr.UserID, now, sortedBuckets(buckets))
	if err != nil {
		return err
	}
	for b, q := range own {
		bal := balances[b]
		bal.LockedQty = bal.LockedQty.Sub(q).Round(qtyScale, wire.RoundHalfUp)
		bal.changed = true
	}
	if _, err := tx.NewDelete().Table("bb_stock_lock").Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return err
	}
	return s.saveBalances(ctx, tx, pr.UserID, now, balances)
}

// HoldForCount makes a count that starts in the warehouses wait for the
// postings under way there and keeps new ones out until it commits: it
// takes the warehouses' rows FOR UPDATE on PostgreSQL, which conflicts with
// the FOR KEY SHARE every posting, reversal and lock takes on them before
// it reads the freezes (checkFrozen). Call it before reading the snapshot,
// then Freeze. On SQLite the one writer connection runs the count's
// transaction alone: nothing to take.
func (s *Service) HoldForCount(ctx context.Context, tx bun.Tx, warehouseIDs []wire.ID) error {
	pr, err := principal(ctx)
	if err != nil {
		return err
	}
	ids := slices.Clone(warehouseIDs)
	slices.Sort(ids)
	return s.lockWarehouses(ctx, tx, pr.TenantID, slices.Compact(ids), "UPDATE")
}

// lockWarehouses locks the rows of warehouses (sorted) in mode on
// PostgreSQL: the first of the fixed lock order (warehouses, balances,
// batches, costs, bucket counts).
func (s *Service) lockWarehouses(ctx context.Context, tx bun.Tx, tenantID string, warehouses []wire.ID, mode string) error {
	if !s.postgres || len(warehouses) == 0 {
		return nil
	}
	var ids []wire.ID
	return tx.NewSelect().Table("bb_warehouse").Column("id").Where("tenant_id = ? AND id IN (?)", tenantID, bun.In(warehouses)).
		Order("id").For(mode).Scan(ctx, &ids)
}

// Freeze stops postings into a warehouse (positionIDs empty) or into some
// of its positions while the count checkID runs.
func (s *Service) Freeze(ctx context.Context, tx bun.Tx, checkID, warehouseID wire.ID, positionIDs []wire.ID) error {
	pr, err := principal(ctx)
	if err != nil {
		return err
	}
	if len(positionIDs) == 0 {
		positionIDs = []wire.ID{0}
	}
	now := wire.Now()
	for _, p := range positionIDs {
		b := newBase(pr.TenantID, pr.UserID, now)
		if _, err := tx.NewInsert().TableExpr("bb_stock_freeze").Model(&map[string]any{"id": b.ID, "tenant_id": pr.TenantID,
			"create_user": pr.UserID, "update_user": pr.UserID, "create_time": now, "update_time": now,
			"check_id": checkID, "warehouse_id": warehouseID, "position_id": p}).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Unfreeze ends the freezes of the count checkID.
func (s *Service) Unfreeze(ctx context.Context, tx bun.Tx, checkID wire.ID) error {
	pr, err := principal(ctx)
	if err != nil {
		return err
	}
	_, err = tx.NewDelete().Table("bb_stock_freeze").Where("tenant_id = ? AND check_id = ?", pr.TenantID, checkID).Exec(ctx)
	return err
}
