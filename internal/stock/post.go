package stock

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

var (
	msgNoLines      = i18n.T("没有要过账的明细", "There are no lines to post")
	msgZeroQty      = i18n.T("第%d行: 数量不能为0", "Line %d: the quantity cannot be 0")
	msgTransferPair = i18n.T("调拨的调出与调入数量不一致", "The quantities transferred out and in differ")
	msgPosted       = i18n.T("单据 %s 已过账", "Document %s is already posted")
	msgNotPosted    = i18n.T("单据 %s 没有可冲销的库存记录", "Document %s has no stock postings to reverse")
	msgShortage     = i18n.T("库存不足: %s 在 %s 可用 %s, 需要 %s", "Not enough stock: %s at %s has %s available, %s needed")
	msgNegative     = i18n.T("冲销后库存为负: %s 在 %s 现有 %s, 冲销 %s", "The reversal would leave negative stock: %s at %s holds %s, %s to reverse")
	msgFrozen       = i18n.T("%s 正在盘点, 冻结中, 不能过账", "%s is being counted and is frozen: no postings")
	msgPosition     = i18n.T("库位 %s 不存在, 不在该仓库, 或未生效", "Location %s does not exist, is not in the warehouse, or is not effective")
	msgNotLeaf      = i18n.T("库位 %s 有下级库位, 只有末级库位可存放库存", "Location %s has sub-locations: only leaf locations hold stock")
	msgWarehouse    = i18n.T("仓库 %s 不存在, 或不存放此类物品", "Warehouse %s does not exist or does not hold this kind of item")
	msgExpired      = i18n.T("批次 %s 已过期(%s), 不能出库", "Batch %s expired on %s and cannot be issued")
	msgBatchDates   = i18n.T("批次 %s 的%s与已有记录(%s)不一致", "Batch %s: the %s differs from the one on record (%s)")
	wordProduction  = i18n.T("生产日期", "production date")
	wordExpiry      = i18n.T("有效期", "expiry date")
)

// Post writes a document's ledger rows and applies them to balances and
// costs, in the caller's transaction. It is idempotent by the ledger's
// unique key: a document posted once is refused the second time.
//
// Checks, all before anything is written: each position is an effective
// leaf of its warehouse; no bucket is frozen by a running count; an
// outgoing line finds qty − (locked − this document's locks) available
// unless the tenant allows negative stock; an outgoing line's batch has not
// expired unless AllowExpired. The document's locks are released.
func (s *Service) Post(ctx context.Context, tx bun.Tx, p Posting) ([]*LedgerRow, error) {
	pr, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if len(p.Lines) == 0 {
		return nil, httpx.BadRequest(msgNoLines)
	}
	transfer := map[itemKey]wire.Decimal{}
	for i, l := range p.Lines {
		if l.Qty.IsNull() || l.Qty.IsZero() {
			return nil, httpx.BadRequest(msgZeroQty.Format(i + 1))
		}
		if isTransfer(l.TxType) {
			k := itemKey{l.Kind, l.ItemID}
			if t, ok := transfer[k]; ok {
				transfer[k] = t.Add(l.Qty)
			} else {
				transfer[k] = l.Qty
			}
		}
	}
	for _, sum := range transfer {
		if !sum.IsZero() {
			return nil, httpx.BadRequest(msgTransferPair)
		}
	}
	if n, err := tx.NewSelect().Table("bb_stock_ledger").Where("tenant_id = ? AND biz_type = ? AND biz_id = ? AND is_reversal = 0", pr.TenantID, p.BizType, p.BizID).Count(ctx); err != nil {
		return nil, err
	} else if n > 0 {
		return nil, httpx.BadRequest(msgPosted.Format(p.BizNo))
	}
	negative, err := allowNegative(ctx, tx, pr.TenantID)
	if err != nil {
		return nil, err
	}
	if err := s.checkPlaces(ctx, tx, pr.TenantID, p.Lines); err != nil {
		return nil, err
	}
	if err := s.checkFrozen(ctx, tx, pr.TenantID, p.Lines); err != nil {
		return nil, err
	}
	now := wire.Now()

	own, lockIDs, err := s.ownLocks(ctx, tx, pr.TenantID, p.BizType, p.BizID)
	if err != nil {
		return nil, err
	}
	buckets := make([]Bucket, 0, len(p.Lines)+len(own))
	for _, l := range p.Lines {
		buckets = append(buckets, l.Bucket)
	}
	for b := range own {
		buckets = append(buckets, b)
	}
	balances, err := s.lockBalances(ctx, tx, pr.TenantID, pr.UserID, now, sortedBuckets(buckets))
	if err != nil {
		return nil, err
	}
	// the document's locks go first: an outgoing line may use them
	for b, q := range own {
		bal := balances[b]
		bal.LockedQty = bal.LockedQty.Sub(q).Round(qtyScale, wire.RoundHalfUp)
		bal.changed = true
	}
	out := map[Bucket]wire.Decimal{}
	for _, l := range p.Lines {
		bal := balances[l.Bucket]
		if l.Qty.Sign() < 0 {
			need := l.Qty.Neg()
			if prev, ok := out[l.Bucket]; ok {
				need = need.Add(prev)
			}
			out[l.Bucket] = need
		}
		bal.Qty = bal.Qty.Add(l.Qty).Round(qtyScale, wire.RoundHalfUp)
		bal.changed = true
	}
	if !negative {
		for b, need := range out {
			bal := balances[b]
			if bal.Qty.Sub(bal.LockedQty).Sign() < 0 {
				had := bal.Qty.Add(need).Sub(bal.LockedQty)
				return nil, s.shortage(ctx, tx, p.Lines, b, had, need)
			}
		}
	}
	if err := s.batches(ctx, tx, pr.TenantID, pr.UserID, now, p); err != nil {
		return nil, err
	}
	rows, err := s.ledgerRows(ctx, tx, pr.TenantID, pr.UserID, now, p.BizType, p.BizID, p.BizNo, p.Lines, nil, balances)
	if err != nil {
		return nil, err
	}
	if err := s.saveBalances(ctx, tx, pr.UserID, now, balances); err != nil {
		return nil, err
	}
	if len(lockIDs) > 0 {
		if _, err := tx.NewDelete().Table("bb_stock_lock").Where("id IN (?)", bun.In(lockIDs)).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// ledgerRows prices the lines against the items' costs (locked after the
// balances: the fixed order), numbers them per item and inserts them.
// reversed, when set, are the rows the lines reverse, one per line.
func (s *Service) ledgerRows(ctx context.Context, tx bun.Tx, tenantID string, userID wire.ID, now wire.Time, bizType string, bizID wire.ID, bizNo string,
	lines []Line, reversed []*LedgerRow, balances map[Bucket]*balanceRow) ([]*LedgerRow, error) {
	items := make([]itemKey, 0, len(lines))
	for _, l := range lines {
		items = append(items, itemKey{l.Kind, l.ItemID})
	}
	slices.SortFunc(items, compareItems)
	items = slices.Compact(items)
	costs, err := s.lockCosts(ctx, tx, tenantID, userID, now, items)
	if err != nil {
		return nil, err
	}
	// running bucket quantities, for each row's balanceQty
	running := map[Bucket]wire.Decimal{}
	for b, bal := range balances {
		running[b] = bal.Qty
	}
	for i := len(lines) - 1; i >= 0; i-- { // back to before this posting
		running[lines[i].Bucket] = running[lines[i].Bucket].Sub(lines[i].Qty)
	}
	rows := make([]*LedgerRow, len(lines))
	for i, l := range lines {
		c := costs[itemKey{l.Kind, l.ItemID}]
		var r *LedgerRow
		if reversed != nil {
			r = reverseCost(c, l, reversed[i])
		} else {
			r = applyCost(c, l)
		}
		c.changed = true
		c.LastSeq++
		running[l.Bucket] = running[l.Bucket].Add(l.Qty)
		r.Base = newBase(tenantID, userID, now)
		r.ItemKind, r.ItemID, r.ItemCode = l.Kind, l.ItemID, l.ItemCode
		r.WarehouseID, r.PositionID, r.BatchNo = l.WarehouseID, l.PositionID, l.BatchNo
		r.TxType, r.Qty = l.TxType, l.Qty.Round(qtyScale, wire.RoundHalfUp)
		r.Direction = In
		if l.Qty.Sign() < 0 {
			r.Direction = Out
		}
		r.BalanceQty = running[l.Bucket].Round(qtyScale, wire.RoundHalfUp)
		r.AvgCostAfter = c.AvgCost
		r.BizType, r.BizID, r.BizNo, r.BizDetailID = bizType, bizID, bizNo, l.DetailID
		r.ProducePlanID, r.PartnerType, r.PartnerID = l.ProducePlanID, l.PartnerType, l.PartnerID
		r.PostedAt, r.PostedBy, r.Seq = now, userID, c.LastSeq
		if reversed != nil {
			r.IsReversal, r.ReversedLedgerID = 1, reversed[i].ID
		}
		rows[i] = r
	}
	if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, httpx.BadRequest(msgPosted.Format(bizNo))
		}
		return nil, err
	}
	return rows, s.saveCosts(ctx, tx, userID, now, costs)
}

// Reverse voids a document's postings: one reversal row per original row,
// with the negated quantity at the original cost, in one transaction with
// the caller's. A reversal that would leave a bucket below what its locks
// hold is refused unless the tenant allows negative stock. Reversing a
// document twice is refused.
func (s *Service) Reverse(ctx context.Context, tx bun.Tx, bizType string, bizID wire.ID, bizNo string) ([]*LedgerRow, error) {
	pr, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var originals []*LedgerRow
	if err := tx.NewSelect().Model(&originals).Where("tenant_id = ? AND biz_type = ? AND biz_id = ? AND is_reversal = 0", pr.TenantID, bizType, bizID).
		Order("seq", "id").Scan(ctx); err != nil {
		return nil, err
	}
	if len(originals) == 0 {
		return nil, httpx.BadRequest(msgNotPosted.Format(bizNo))
	}
	if n, err := tx.NewSelect().Table("bb_stock_ledger").Where("tenant_id = ? AND biz_type = ? AND biz_id = ? AND is_reversal = 1", pr.TenantID, bizType, bizID).Count(ctx); err != nil {
		return nil, err
	} else if n > 0 {
		return nil, httpx.BadRequest(msgPosted.Format(bizNo))
	}
	lines := make([]Line, len(originals))
	for i, o := range originals {
		lines[i] = Line{Bucket: o.bucket(), ItemCode: o.ItemCode, DetailID: o.BizDetailID, TxType: o.TxType, Qty: o.Qty.Neg(),
			UnitCost: o.UnitCost, ProducePlanID: o.ProducePlanID, PartnerType: o.PartnerType, PartnerID: o.PartnerID}
	}
	if err := s.checkFrozen(ctx, tx, pr.TenantID, lines); err != nil {
		return nil, err
	}
	negative, err := allowNegative(ctx, tx, pr.TenantID)
	if err != nil {
		return nil, err
	}
	now := wire.Now()
	buckets := make([]Bucket, len(lines))
	for i, l := range lines {
		buckets[i] = l.Bucket
	}
	balances, err := s.lockBalances(ctx, tx, pr.TenantID, pr.UserID, now, sortedBuckets(buckets))
	if err != nil {
		return nil, err
	}
	out := map[Bucket]wire.Decimal{}
	for _, l := range lines {
		bal := balances[l.Bucket]
		bal.Qty = bal.Qty.Add(l.Qty).Round(qtyScale, wire.RoundHalfUp)
		bal.changed = true
		if l.Qty.Sign() < 0 {
			need := l.Qty.Neg()
			if prev, ok := out[l.Bucket]; ok {
				need = need.Add(prev)
			}
			out[l.Bucket] = need
		}
	}
	if !negative {
		for b, need := range out {
			bal := balances[b]
			if bal.Qty.Sub(bal.LockedQty).Sign() < 0 {
				return nil, httpx.BadRequest(msgNegative.Format(s.itemName(lines, b), s.placeName(ctx, tx, b), bal.Qty.Add(need).String(), need.String()))
			}
		}
	}
	rows, err := s.ledgerRows(ctx, tx, pr.TenantID, pr.UserID, now, bizType, bizID, bizNo, lines, originals, balances)
	if err != nil {
		return nil, err
	}
	return rows, s.saveBalances(ctx, tx, pr.UserID, now, balances)
}

// checkPlaces: every position is an effective leaf of its warehouse, and
// the warehouse holds this kind of item.
func (s *Service) checkPlaces(ctx context.Context, tx bun.Tx, tenantID string, lines []Line) error {
	positions := make([]wire.ID, 0, len(lines))
	warehouses := make([]wire.ID, 0, 2)
	for _, l := range lines {
		positions = append(positions, l.PositionID)
		warehouses = append(warehouses, l.WarehouseID)
	}
	slices.Sort(positions)
	positions = slices.Compact(positions)
	slices.Sort(warehouses)
	warehouses = slices.Compact(warehouses)
	var places []struct {
		ID          wire.ID `bun:"id"`
		WarehouseID wire.ID `bun:"warehouse_id"`
		Key         string  `bun:"warehouse_key"`
		IsEffective int     `bun:"is_effective"`
		Children    int     `bun:"children"`
	}
	if err := tx.NewSelect().Table("bb_warehouse_position").Column("id", "warehouse_id", "warehouse_key", "is_effective").
		ColumnExpr("(SELECT COUNT(*) FROM bb_warehouse_position c WHERE c.parent_id = bb_warehouse_position.id AND c.is_deleted = 0) AS children").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", tenantID, bun.In(positions)).Scan(ctx, &places); err != nil {
		return err
	}
	type place struct {
		warehouse wire.ID
		key       string
		effective bool
		leaf      bool
	}
	byID := make(map[wire.ID]place, len(places))
	for _, p := range places {
		byID[p.ID] = place{p.WarehouseID, p.Key, p.IsEffective == positionEffective, p.Children == 0}
	}
	var kinds []struct {
		ID   wire.ID `bun:"id"`
		Code string  `bun:"warehouse_code"`
		Type int     `bun:"warehouse_type"`
	}
	if err := tx.NewSelect().Table("bb_warehouse").Column("id", "warehouse_code", "warehouse_type").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", tenantID, bun.In(warehouses)).Scan(ctx, &kinds); err != nil {
		return err
	}
	warehouseType := make(map[wire.ID]int, len(kinds))
	for _, k := range kinds {
		warehouseType[k.ID] = k.Type
	}
	for _, l := range lines {
		t, ok := warehouseType[l.WarehouseID]
		if !ok || (t == warehouseMaterial && l.Kind != Material) || (t == warehouseProduct && l.Kind != Product) {
			return httpx.BadRequest(msgWarehouse.Format(l.WarehouseID.String()))
		}
		p, ok := byID[l.PositionID]
		if !ok || p.warehouse != l.WarehouseID || !p.effective {
			return httpx.BadRequest(msgPosition.Format(l.PositionID.String()))
		}
		if !p.leaf {
			return httpx.BadRequest(msgNotLeaf.Format(p.key))
		}
	}
	return nil
}

// Warehouse types (dictionary warehouse_type) and the effective status
// (dictionary effective_status) as inventory stores them.
const (
	warehouseMaterial = 1
	warehouseProduct  = 2
	positionEffective = 2
)

// checkFrozen refuses lines into a bucket a running count has frozen. On
// PostgreSQL it first takes the lines' warehouse rows FOR KEY SHARE, the
// first lock of every posting: a count starting (HoldForCount) takes them
// FOR UPDATE before its snapshot, so a posting either commits before the
// snapshot is read, or waits for the count's commit and then reads its
// freeze here. Postings share the lock among themselves, and an edit of a
// warehouse's fields (FOR NO KEY UPDATE) does not wait for them.
func (s *Service) checkFrozen(ctx context.Context, tx bun.Tx, tenantID string, lines []Line) error {
	warehouses := make([]wire.ID, 0, 2)
	for _, l := range lines {
		warehouses = append(warehouses, l.WarehouseID)
	}
	slices.Sort(warehouses)
	warehouses = slices.Compact(warehouses)
	if err := s.lockWarehouses(ctx, tx, tenantID, warehouses, "KEY SHARE"); err != nil {
		return err
	}
	var freezes []struct {
		WarehouseID wire.ID `bun:"warehouse_id"`
		PositionID  wire.ID `bun:"position_id"`
	}
	if err := tx.NewSelect().Table("bb_stock_freeze").Column("warehouse_id", "position_id").
		Where("tenant_id = ? AND is_deleted = 0 AND warehouse_id IN (?)", tenantID, bun.In(warehouses)).Scan(ctx, &freezes); err != nil {
		return err
	}
	for _, f := range freezes {
		for _, l := range lines {
			if l.WarehouseID == f.WarehouseID && (f.PositionID == 0 || f.PositionID == l.PositionID) {
				return httpx.BadRequest(msgFrozen.Format(s.placeName(ctx, tx, l.Bucket)))
			}
		}
	}
	return nil
}

// batches records each incoming batch on its first receipt and refuses a
// later receipt whose dates contradict it; outgoing lines may not take an
// expired batch unless the posting allows it.
func (s *Service) batches(ctx context.Context, tx bun.Tx, tenantID string, userID wire.ID, now wire.Time, p Posting) error {
	type key struct {
		kind  Kind
		item  wire.ID
		batch string
	}
	seen := map[key]*Line{}
	var keys []key
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.BatchNo == "" {
			continue
		}
		k := key{l.Kind, l.ItemID, l.BatchNo}
		if _, ok := seen[k]; !ok {
			keys = append(keys, k)
		}
		if seen[k] == nil || (l.Qty.Sign() > 0 && l.Batch != nil) {
			seen[k] = l
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, func(a, b key) int {
		return compareBuckets(Bucket{Kind: a.kind, ItemID: a.item, BatchNo: a.batch}, Bucket{Kind: b.kind, ItemID: b.item, BatchNo: b.batch})
	})
	args := []any{tenantID}
	for _, k := range keys {
		args = append(args, k.kind, k.item, k.batch)
	}
	var stored []struct {
		ItemKind       Kind    `bun:"item_kind"`
		ItemID         wire.ID `bun:"item_id"`
		BatchNo        string  `bun:"batch_no"`
		ProductionDate string  `bun:"production_date"`
		ExpiryDate     string  `bun:"expiry_date"`
	}
	if err := tx.NewSelect().Table("bb_stock_batch").Column("item_kind", "item_id", "batch_no", "production_date", "expiry_date").
		Where("tenant_id = ? AND is_deleted = 0 AND "+tupleIn("item_kind, item_id, batch_no", 3, len(keys)), args...).Scan(ctx, &stored); err != nil {
		return err
	}
	known := map[key]int{}
	for i, b := range stored {
		known[key{b.ItemKind, b.ItemID, b.BatchNo}] = i
	}
	today := time.Now().Format(time.DateOnly)
	var fresh []map[string]any
	for _, k := range keys {
		l := seen[k]
		i, ok := known[k]
		if ok {
			b := stored[i]
			if l.Qty.Sign() > 0 && l.Batch != nil {
				if l.Batch.ProductionDate != "" && b.ProductionDate != "" && l.Batch.ProductionDate != b.ProductionDate {
					return httpx.BadRequest(msgBatchDates.Format(k.batch, wordProduction, b.ProductionDate))
				}
				if l.Batch.ExpiryDate != "" && b.ExpiryDate != "" && l.Batch.ExpiryDate != b.ExpiryDate {
					return httpx.BadRequest(msgBatchDates.Format(k.batch, wordExpiry, b.ExpiryDate))
				}
			}
			if !p.AllowExpired && b.ExpiryDate != "" && b.ExpiryDate < today {
				for _, line := range p.Lines {
					if line.Qty.Sign() < 0 && line.Kind == k.kind && line.ItemID == k.item && line.BatchNo == k.batch {
						return httpx.BadRequest(msgExpired.Format(k.batch, b.ExpiryDate))
					}
				}
			}
			continue
		}
		row := map[string]any{"id": newBase("", 0, now).ID, "tenant_id": tenantID, "create_user": userID, "update_user": userID,
			"create_time": now, "update_time": now, "item_kind": k.kind, "item_id": k.item, "batch_no": k.batch,
			"first_in_biz_no": p.BizNo, "first_in_at": now}
		if l.Batch != nil {
			row["production_date"], row["expiry_date"], row["supplier_id"] = l.Batch.ProductionDate, l.Batch.ExpiryDate, l.Batch.SupplierID
		}
		fresh = append(fresh, row)
	}
	for _, row := range fresh {
		q := tx.NewInsert().Model(&row).TableExpr("bb_stock_batch")
		if s.postgres {
			q = q.On("CONFLICT DO NOTHING")
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// shortage is the refusal of an outgoing line: what the bucket had, what
// was needed, in words a clerk reads.
func (s *Service) shortage(ctx context.Context, tx bun.Tx, lines []Line, b Bucket, had, need wire.Decimal) error {
	return httpx.BadRequest(msgShortage.Format(s.itemName(lines, b), s.placeName(ctx, tx, b),
		had.Round(qtyScale, wire.RoundHalfUp).String(), need.Round(qtyScale, wire.RoundHalfUp).String()))
}

func (s *Service) itemName(lines []Line, b Bucket) string {
	for _, l := range lines {
		if l.Kind == b.Kind && l.ItemID == b.ItemID && l.ItemCode != "" {
			return l.ItemCode
		}
	}
	return b.ItemID.String()
}

// placeName names a bucket's place for a message: warehouse code, position
// key and batch.
func (s *Service) placeName(ctx context.Context, tx bun.Tx, b Bucket) string {
	var names []struct {
		Warehouse string `bun:"w"`
		Position  string `bun:"p"`
	}
	_ = tx.NewSelect().TableExpr("bb_warehouse_position AS p").Join("JOIN bb_warehouse AS w ON w.id = p.warehouse_id").
		ColumnExpr("w.warehouse_code AS w, p.warehouse_key AS p").Where("p.id = ?", b.PositionID).Scan(ctx, &names)
	name := fmt.Sprintf("%s/%s", b.WarehouseID, b.PositionID)
	if len(names) > 0 {
		name = names[0].Warehouse + "/" + names[0].Position
	}
	if b.BatchNo != "" {
		name += " #" + b.BatchNo
	}
	return name
}
