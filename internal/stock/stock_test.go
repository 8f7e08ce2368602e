package stock_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/stock"
)

func TestMain(m *testing.M) { apptest.Main(m) }

const basic = "/api/bluebird-basic/"

// world is one tenant with two material warehouses, two leaf positions in
// each, and three materials, made through the API as a user would.
type world struct {
	t         testing.TB
	h         *apptest.H
	ctx       context.Context
	db        *db.DB
	svc       *stock.Service
	tenantID  string
	places    []place // (warehouse, position) leaves
	materials []wire.ID
	codes     map[wire.ID]string
}

type place struct{ warehouse, position wire.ID }

func newWorld(t testing.TB, h *apptest.H) *world {
	tenantID, c := h.NewTenant(fmt.Sprintf("Stock Co %d", rand.IntN(1_000_000)))
	w := &world{t: t, h: h, db: h.App.DB, svc: stock.New(h.App.DB), tenantID: tenantID, codes: map[wire.ID]string{}}
	w.ctx = authz.With(context.Background(), &authz.Principal{TenantID: tenantID, UserID: 1})
	for i := range 2 {
		var wh struct{ ID wire.ID }
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": fmt.Sprintf("W%d", i), "warehouseName": fmt.Sprintf("仓%d", i), "warehouseType": 1}).OK(t, &wh)
		var roots struct {
			Records []struct{ ID wire.ID }
		}
		c.Get(basic+"warehouseposition/list", apptest.Q("warehouseId", wh.ID.String())).OK(t, &roots)
		for j := range 2 {
			var pos struct{ ID wire.ID }
			c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": wh.ID, "parentId": roots.Records[0].ID,
				"warehouseKey": fmt.Sprintf("P%d%d", i, j), "warehouseName": fmt.Sprintf("位%d%d", i, j)}).OK(t, &pos)
			w.places = append(w.places, place{wh.ID, pos.ID})
		}
	}
	for i := range 3 {
		var m struct {
			ID   wire.ID
			Code string `json:"materialCode"`
		}
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": fmt.Sprintf("M%d", i), "materialName": fmt.Sprintf("料%d", i), "unit": "pcs"}).OK(t, &m)
		w.materials = append(w.materials, m.ID)
		w.codes[m.ID] = m.Code
	}
	return w
}

func dec(s string) wire.Decimal { return wire.MustParseDecimal(s) }

func (w *world) bucket(item wire.ID, p place, batch string) stock.Bucket {
	return stock.Bucket{Kind: stock.Material, ItemID: item, WarehouseID: p.warehouse, PositionID: p.position, BatchNo: batch}
}

// post runs one posting in a transaction of its own.
func (w *world) post(p stock.Posting) error {
	return w.db.Tx(w.ctx, func(tx bun.Tx) error { _, err := w.svc.Post(w.ctx, tx, p); return err })
}

func (w *world) reverse(bizType string, bizID wire.ID) error {
	return w.db.Tx(w.ctx, func(tx bun.Tx) error { _, err := w.svc.Reverse(w.ctx, tx, bizType, bizID, bizID.String()); return err })
}

var docs atomic.Int64

func newDoc() wire.ID { return wire.ID(docs.Add(1)) }

func (w *world) receive(b stock.Bucket, qty, price string) (wire.ID, error) {
	id := newDoc()
	return id, w.post(stock.Posting{BizType: "IN", BizID: id, BizNo: "IN-" + id.String(), Lines: []stock.Line{
		{Bucket: b, ItemCode: w.codes[b.ItemID], DetailID: id*100 + 1, TxType: stock.MaterialInPurchase, Qty: dec(qty), UnitCost: dec(price)}}})
}

func (w *world) issue(b stock.Bucket, qty string) (wire.ID, error) {
	id := newDoc()
	return id, w.post(stock.Posting{BizType: "OUT", BizID: id, BizNo: "OUT-" + id.String(), Lines: []stock.Line{
		{Bucket: b, ItemCode: w.codes[b.ItemID], DetailID: id*100 + 1, TxType: stock.MaterialOutOther, Qty: dec(qty).Neg()}}})
}

// businessError: a refusal the user reads (400), not a failure of the code.
func businessError(err error) bool {
	var he *httpx.Error
	return errors.As(err, &he) && he.Status == 400
}

type balance struct {
	ItemID      wire.ID      `bun:"item_id"`
	WarehouseID wire.ID      `bun:"warehouse_id"`
	PositionID  wire.ID      `bun:"position_id"`
	BatchNo     string       `bun:"batch_no"`
	Qty         wire.Decimal `bun:"qty"`
	LockedQty   wire.Decimal `bun:"locked_qty"`
	Available   wire.Decimal `bun:"available_qty"`
}

func (w *world) balance(b stock.Bucket) balance {
	var rows []balance
	if err := w.db.NewSelect().Table("bb_stock_balance").Column("item_id", "warehouse_id", "position_id", "batch_no", "qty", "locked_qty", "available_qty").
		Where("tenant_id = ? AND item_id = ? AND warehouse_id = ? AND position_id = ? AND batch_no = ?", w.tenantID, b.ItemID, b.WarehouseID, b.PositionID, b.BatchNo).
		Scan(w.ctx, &rows); err != nil {
		w.t.Fatal(err)
	}
	if len(rows) == 0 {
		return balance{Qty: dec("0"), LockedQty: dec("0"), Available: dec("0")}
	}
	return rows[0]
}

// checkInvariants: the ledger explains every balance and every cost.
//   - each bucket's qty is the sum of its ledger rows, never negative, and
//     its lockedQty is the sum of its locks, available = qty − locked ≥ 0;
//   - each ledger row's balanceQty is its bucket's running sum in seq order;
//   - each item's cost qty and amount are the sums of its ledger rows, its
//     seqs run 1..n, an empty item carries no amount, and after every row
//     that is not a transfer the row's avgCostAfter is amount/qty recomputed
//     from the rows so far (when qty > 0);
//   - the item's average is the last row's avgCostAfter;
//   - each stored bucket count (bb_stock_bucket_count) is the recount of
//     its warehouse's non-empty buckets (qty or lockedQty not zero), and
//     every warehouse holding one has its count.
func (w *world) checkInvariants() {
	t := w.t
	var ledger []stock.LedgerRow
	if err := w.db.NewSelect().Model(&ledger).Where("tenant_id = ?", w.tenantID).Order("item_id", "seq").Scan(w.ctx); err != nil {
		t.Fatal(err)
	}
	type bk struct {
		item, wh, pos wire.ID
		batch         string
	}
	sums := map[bk]wire.Decimal{}
	add := func(m map[bk]wire.Decimal, k bk, d wire.Decimal) wire.Decimal {
		if v, ok := m[k]; ok {
			m[k] = v.Add(d)
		} else {
			m[k] = d
		}
		return m[k]
	}
	type itemSum struct {
		qty, amount, avg wire.Decimal
		seq              int64
	}
	items := map[wire.ID]*itemSum{}
	for _, r := range ledger {
		running := add(sums, bk{r.ItemID, r.WarehouseID, r.PositionID, r.BatchNo}, r.Qty)
		if running.Cmp(r.BalanceQty) != 0 {
			t.Errorf("ledger row %s (%d seq %d): balanceQty %s, running sum %s", r.ID, r.TxType, r.Seq, r.BalanceQty, running)
		}
		s := items[r.ItemID]
		if s == nil {
			s = &itemSum{qty: dec("0"), amount: dec("0")}
			items[r.ItemID] = s
		}
		s.seq++
		if r.Seq != s.seq {
			t.Errorf("item %s: seq %d where %d was due", r.ItemID, r.Seq, s.seq)
		}
		s.qty, s.amount, s.avg = s.qty.Add(r.Qty), s.amount.Add(r.Amount), r.AvgCostAfter
		if r.TxType != stock.TransferOut && r.TxType != stock.TransferIn && s.qty.Sign() > 0 {
			if want := s.amount.Div(s.qty, 6, wire.RoundHalfUp); want.Cmp(r.AvgCostAfter) != 0 {
				t.Errorf("item %s seq %d (%d): avgCostAfter %s, recomputed %s (qty %s amount %s)", r.ItemID, r.Seq, r.TxType, r.AvgCostAfter, want, s.qty, s.amount)
			}
		}
	}
	var bals []balance
	if err := w.db.NewSelect().Table("bb_stock_balance").Column("item_id", "warehouse_id", "position_id", "batch_no", "qty", "locked_qty", "available_qty").
		Where("tenant_id = ?", w.tenantID).Scan(w.ctx, &bals); err != nil {
		t.Fatal(err)
	}
	var locks []struct {
		ItemID      wire.ID      `bun:"item_id"`
		WarehouseID wire.ID      `bun:"warehouse_id"`
		PositionID  wire.ID      `bun:"position_id"`
		BatchNo     string       `bun:"batch_no"`
		Qty         wire.Decimal `bun:"qty"`
	}
	if err := w.db.NewSelect().Table("bb_stock_lock").Column("item_id", "warehouse_id", "position_id", "batch_no", "qty").
		Where("tenant_id = ?", w.tenantID).Scan(w.ctx, &locks); err != nil {
		t.Fatal(err)
	}
	locked := map[bk]wire.Decimal{}
	for _, l := range locks {
		add(locked, bk{l.ItemID, l.WarehouseID, l.PositionID, l.BatchNo}, l.Qty)
	}
	for _, b := range bals {
		k := bk{b.ItemID, b.WarehouseID, b.PositionID, b.BatchNo}
		want, ok := sums[k]
		if !ok {
			want = dec("0")
		}
		if b.Qty.Cmp(want) != 0 {
			t.Errorf("bucket %+v: qty %s, ledger sum %s", k, b.Qty, want)
		}
		wantLocked, ok := locked[k]
		if !ok {
			wantLocked = dec("0")
		}
		if b.LockedQty.Cmp(wantLocked) != 0 {
			t.Errorf("bucket %+v: lockedQty %s, locks sum %s", k, b.LockedQty, wantLocked)
		}
		if b.Qty.Sign() < 0 || b.Available.Sign() < 0 || b.Available.Cmp(b.Qty.Sub(b.LockedQty)) != 0 {
			t.Errorf("bucket %+v: qty %s locked %s available %s", k, b.Qty, b.LockedQty, b.Available)
		}
		delete(sums, k)
	}
	recount := map[wire.ID]int64{}
	for _, b := range bals {
		if !b.Qty.IsZero() || !b.LockedQty.IsZero() {
			recount[b.WarehouseID]++
		}
	}
	var counts []struct {
		ItemKind    stock.Kind `bun:"item_kind"`
		WarehouseID wire.ID    `bun:"warehouse_id"`
		Buckets     int64      `bun:"buckets"`
	}
	if err := w.db.NewSelect().Table("bb_stock_bucket_count").Column("item_kind", "warehouse_id", "buckets").
		Where("tenant_id = ?", w.tenantID).Scan(w.ctx, &counts); err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		if c.ItemKind != stock.Material || c.Buckets != recount[c.WarehouseID] {
			t.Errorf("bucket count of kind %d in warehouse %s: stored %d, recounted %d", c.ItemKind, c.WarehouseID, c.Buckets, recount[c.WarehouseID])
		}
		delete(recount, c.WarehouseID)
	}
	for wh, n := range recount {
		t.Errorf("warehouse %s holds %d non-empty buckets and has no bucket count", wh, n)
	}
	if all, err := stock.HeldBuckets(w.ctx, w.db, w.tenantID, stock.Material, 0); err != nil {
		t.Fatal(err)
	} else if sum := int64(len(bals)) - zeroBuckets(bals); all != sum {
		t.Errorf("HeldBuckets: %d, recounted %d", all, sum)
	}
	for k, v := range sums {
		if !v.IsZero() {
			t.Errorf("ledger rows of bucket %+v (sum %s) have no balance", k, v)
		}
	}
	var costs []struct {
		ItemID  wire.ID      `bun:"item_id"`
		Qty     wire.Decimal `bun:"qty"`
		Amount  wire.Decimal `bun:"amount"`
		AvgCost wire.Decimal `bun:"avg_cost"`
		LastSeq int64        `bun:"last_seq"`
	}
	if err := w.db.NewSelect().Table("bb_item_cost").Column("item_id", "qty", "amount", "avg_cost", "last_seq").Where("tenant_id = ?", w.tenantID).Scan(w.ctx, &costs); err != nil {
		t.Fatal(err)
	}
	for _, c := range costs {
		s := items[c.ItemID]
		if s == nil {
			s = &itemSum{qty: dec("0"), amount: dec("0"), avg: c.AvgCost}
		}
		if c.Qty.Cmp(s.qty) != 0 || c.Amount.Cmp(s.amount) != 0 || c.LastSeq != s.seq || c.AvgCost.Cmp(s.avg) != 0 {
			t.Errorf("item %s cost: qty %s amount %s avg %s seq %d; ledger: qty %s amount %s last avg %s seq %d",
				c.ItemID, c.Qty, c.Amount, c.AvgCost, c.LastSeq, s.qty, s.amount, s.avg, s.seq)
		}
		if c.Qty.IsZero() && !c.Amount.IsZero() || c.AvgCost.Sign() < 0 {
			t.Errorf("item %s: qty %s amount %s avg %s", c.ItemID, c.Qty, c.Amount, c.AvgCost)
		}
	}
}

// TestPropertyRandomStreams: random receipts, issues, transfers, borrows,
// repays, counts, locks and voids from several goroutines; after the
// streams the ledger explains every balance and every cost, and nothing is
// negative.
func TestPropertyRandomStreams(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		const workers, steps = 4, 60
		var posted sync.Map // bizID → bizType, for voids
		var wg sync.WaitGroup
		var ok, refused atomic.Int64
		for g := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(g), 42))
				randQty := func() string { return fmt.Sprintf("%d.%03d", rng.IntN(20), rng.IntN(1000)+1) }
				randBucket := func() stock.Bucket {
					batch := ""
					if rng.IntN(2) == 0 {
						batch = fmt.Sprintf("B%d", rng.IntN(3))
					}
					return w.bucket(w.materials[rng.IntN(len(w.materials))], w.places[rng.IntN(len(w.places))], batch)
				}
				for range steps {
					id := newDoc()
					b := randBucket()
					line := stock.Line{Bucket: b, ItemCode: w.codes[b.ItemID], DetailID: id*100 + 1}
					p := stock.Posting{BizID: id, BizNo: id.String()}
					var err error
					switch op := rng.IntN(9); op {
					case 0, 1: // receipt at a price
						p.BizType, line.TxType, line.Qty, line.UnitCost = "IN", stock.MaterialInPurchase, dec(randQty()), dec(fmt.Sprintf("%d.%04d", rng.IntN(50), rng.IntN(10000)))
						p.Lines = []stock.Line{line}
						err = w.post(p)
					case 2: // issue
						p.BizType, line.TxType, line.Qty = "OUT", stock.MaterialOutPicking, dec(randQty()).Neg()
						p.Lines = []stock.Line{line}
						err = w.post(p)
					case 3: // transfer to another place
						to := line
						to.Bucket.WarehouseID, to.Bucket.PositionID = w.places[rng.IntN(len(w.places))].warehouse, w.places[rng.IntN(len(w.places))].position
						to.WarehouseID = placeOf(w, to.PositionID)
						q := dec(randQty())
						line.TxType, line.Qty = stock.TransferOut, q.Neg()
						to.TxType, to.Qty, to.DetailID = stock.TransferIn, q, id*100+2
						p.BizType, p.Lines = "TRANSFER", []stock.Line{line, to}
						err = w.post(p)
					case 4: // borrow out, then repay in part at the borrowed cost
						p.BizType, line.TxType, line.Qty = "BORROW", stock.BorrowOut, dec(randQty()).Neg()
						p.Lines = []stock.Line{line}
						if err = w.post(p); err == nil {
							repay := newDoc()
							back := line
							back.TxType, back.Qty, back.UnitCost, back.DetailID = stock.RepayIn, line.Qty.Neg().Div(dec("2"), 6, wire.RoundDown), dec("1.5"), repay*100+1
							err = w.post(stock.Posting{BizType: "REPAY", BizID: repay, BizNo: repay.String(), Lines: []stock.Line{back}})
						}
					case 5: // count: a gain or a loss
						p.BizType = "CHECK"
						line.TxType, line.Qty = stock.CheckGain, dec(randQty())
						if rng.IntN(2) == 0 {
							line.TxType, line.Qty = stock.CheckLoss, line.Qty.Neg()
						}
						p.Lines = []stock.Line{line}
						err = w.post(p)
					case 6: // lock for an outbound, then post it, let go or keep holding
						q := dec(randQty())
						err = w.db.Tx(w.ctx, func(tx bun.Tx) error {
							return w.svc.Lock(w.ctx, tx, "OUT", id, id.String(), []stock.LockLine{{Bucket: b, DetailID: id*100 + 1, Qty: q}})
						})
						if err == nil {
							switch rng.IntN(3) {
							case 0:
								line.TxType, line.Qty = stock.MaterialOutPicking, q.Neg()
								p.BizType, p.Lines = "OUT", []stock.Line{line}
								err = w.post(p)
							case 1:
								err = w.db.Tx(w.ctx, func(tx bun.Tx) error { return w.svc.Release(w.ctx, tx, "OUT", id) })
							}
						}
					default: // void something posted
						var victim wire.ID
						var bizType string
						posted.Range(func(k, v any) bool {
							if rng.IntN(4) == 0 {
								victim, bizType = k.(wire.ID), v.(string)
								return false
							}
							return true
						})
						if victim == 0 {
							continue
						}
						if err = w.reverse(bizType, victim); err == nil {
							posted.Delete(victim)
						}
						id = 0
					}
					switch {
					case err == nil:
						ok.Add(1)
						if id != 0 && p.BizType != "" {
							posted.Store(id, p.BizType)
						}
					case businessError(err):
						refused.Add(1)
					default:
						t.Errorf("step failed: %v", err)
					}
				}
			}()
		}
		wg.Wait()
		if ok.Load() < workers*steps/4 {
			t.Errorf("only %d of %d steps went through (%d refused): the stream tests little", ok.Load(), workers*steps, refused.Load())
		}
		t.Logf("%s: %d postings, %d refused", h.Kind, ok.Load(), refused.Load())
		w.checkInvariants()
	})
}

func placeOf(w *world, position wire.ID) wire.ID {
	for _, p := range w.places {
		if p.position == position {
			return p.warehouse
		}
	}
	return 0
}

// TestConcurrentIssues: 16 issues of 1 at once against a bucket holding 10:
// exactly 10 go through, the others are told what is short.
func TestConcurrentIssues(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		b := w.bucket(w.materials[0], w.places[0], "")
		if _, err := w.receive(b, "10", "2.5"); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var ok atomic.Int64
		msgs := make(chan string, 16)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := w.issue(b, "1")
				switch {
				case err == nil:
					ok.Add(1)
				case businessError(err):
					msgs <- err.Error()
				default:
					t.Errorf("issue failed: %v", err)
				}
			}()
		}
		wg.Wait()
		close(msgs)
		if ok.Load() != 10 {
			t.Errorf("%d issues went through, want 10", ok.Load())
		}
		for m := range msgs {
			if !strings.Contains(m, "库存不足") || !strings.Contains(m, "M0") || !strings.Contains(m, "W0/P00") {
				t.Errorf("shortage message %q", m)
			}
		}
		if bal := w.balance(b); !bal.Qty.IsZero() {
			t.Errorf("left %s", bal.Qty)
		}
		w.checkInvariants()
	})
}

// TestLocks: what a document locks, others cannot take; the document
// itself posts against its lock; a release gives it back.
func TestLocks(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		b := w.bucket(w.materials[0], w.places[0], "")
		if _, err := w.receive(b, "10", "1"); err != nil {
			t.Fatal(err)
		}
		holder := newDoc()
		lock := func(doc wire.ID, qty string) error {
			return w.db.Tx(w.ctx, func(tx bun.Tx) error {
				return w.svc.Lock(w.ctx, tx, "OUT", doc, doc.String(), []stock.LockLine{{Bucket: b, ItemCode: "M0", DetailID: doc*100 + 1, Qty: dec(qty)}})
			})
		}
		if err := lock(holder, "6"); err != nil {
			t.Fatal(err)
		}
		if bal := w.balance(b); bal.LockedQty.Cmp(dec("6")) != 0 || bal.Available.Cmp(dec("4")) != 0 {
			t.Errorf("after locking 6 of 10: %+v", bal)
		}
		if err := lock(newDoc(), "5"); !businessError(err) {
			t.Errorf("locking 5 of the 4 left: %v", err)
		}
		if _, err := w.issue(b, "5"); !businessError(err) {
			t.Errorf("issuing 5 of the 4 left: %v", err)
		}
		if _, err := w.issue(b, "4"); err != nil {
			t.Errorf("issuing the 4 left: %v", err)
		}
		if err := w.post(stock.Posting{BizType: "OUT", BizID: holder, BizNo: "h", Lines: []stock.Line{
			{Bucket: b, DetailID: holder*100 + 1, TxType: stock.MaterialOutPicking, Qty: dec("-6")}}}); err != nil {
			t.Errorf("the holder posting its 6: %v", err)
		}
		if bal := w.balance(b); !bal.Qty.IsZero() || !bal.LockedQty.IsZero() {
			t.Errorf("after the holder posted: %+v", bal)
		}
		if _, err := w.receive(b, "3", "1"); err != nil {
			t.Fatal(err)
		}
		other := newDoc()
		if err := lock(other, "3"); err != nil {
			t.Fatal(err)
		}
		if err := w.db.Tx(w.ctx, func(tx bun.Tx) error { return w.svc.Release(w.ctx, tx, "OUT", other) }); err != nil {
			t.Fatal(err)
		}
		if bal := w.balance(b); bal.Available.Cmp(dec("3")) != 0 {
			t.Errorf("after the release: %+v", bal)
		}
		w.checkInvariants()
	})
}

// TestReversals: a void reverses exactly what was posted; a void that would
// leave negative stock, a second void and a second posting are refused.
func TestReversals(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		b := w.bucket(w.materials[0], w.places[0], "B1")
		in1, err := w.receive(b, "10", "5")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.receive(b, "10", "7"); err != nil {
			t.Fatal(err)
		}
		out, err := w.issue(b, "4")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.reverse("OUT", out); err != nil {
			t.Fatal(err)
		}
		if bal := w.balance(b); bal.Qty.Cmp(dec("20")) != 0 {
			t.Errorf("after voiding the issue: %s", bal.Qty)
		}
		if err := w.reverse("OUT", out); !businessError(err) {
			t.Errorf("a second void: %v", err)
		}
		if _, err := w.issue(b, "15"); err != nil {
			t.Fatal(err)
		}
		if err := w.reverse("IN", in1); !businessError(err) || !strings.Contains(err.Error(), "冲销后库存为负") {
			t.Errorf("a void leaving -5: %v", err)
		}
		// the same document twice
		p := stock.Posting{BizType: "IN", BizID: in1, BizNo: "again", Lines: []stock.Line{{Bucket: b, DetailID: in1*100 + 1, TxType: stock.MaterialInPurchase, Qty: dec("1"), UnitCost: dec("1")}}}
		if err := w.post(p); !businessError(err) {
			t.Errorf("a second posting: %v", err)
		}
		w.checkInvariants()
	})
}

// TestFrozenBuckets: while a count runs nothing posts into its scope, and
// stock elsewhere moves on.
func TestFrozenBuckets(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		frozen, free := w.bucket(w.materials[0], w.places[0], ""), w.bucket(w.materials[0], w.places[2], "")
		check := newDoc()
		if err := w.db.Tx(w.ctx, func(tx bun.Tx) error { return w.svc.Freeze(w.ctx, tx, check, w.places[0].warehouse, nil) }); err != nil {
			t.Fatal(err)
		}
		if _, err := w.receive(frozen, "1", "1"); !businessError(err) || !strings.Contains(err.Error(), "正在盘点") {
			t.Errorf("a receipt into a frozen warehouse: %v", err)
		}
		if _, err := w.receive(free, "1", "1"); err != nil {
			t.Errorf("a receipt elsewhere: %v", err)
		}
		if err := w.db.Tx(w.ctx, func(tx bun.Tx) error { return w.svc.Unfreeze(w.ctx, tx, check) }); err != nil {
			t.Fatal(err)
		}
		if _, err := w.receive(frozen, "1", "1"); err != nil {
			t.Errorf("after the count: %v", err)
		}
	})
}

// TestPlacesAndBatches: stock sits only in effective leaf positions of its
// warehouse; an expired batch does not go out; a batch keeps its dates.
func TestPlacesAndBatches(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		m := w.materials[0]
		wrong := stock.Bucket{Kind: stock.Material, ItemID: m, WarehouseID: w.places[2].warehouse, PositionID: w.places[0].position}
		if _, err := w.receive(wrong, "1", "1"); !businessError(err) {
			t.Errorf("a position of another warehouse: %v", err)
		}
		product := w.bucket(m, w.places[0], "")
		product.Kind = stock.Product
		if _, err := w.receive(product, "1", "1"); !businessError(err) {
			t.Errorf("a product into a material warehouse: %v", err)
		}
		b := w.bucket(m, w.places[0], "OLD")
		id := newDoc()
		in := stock.Posting{BizType: "IN", BizID: id, BizNo: "x", Lines: []stock.Line{{Bucket: b, DetailID: id, TxType: stock.MaterialInOther, Qty: dec("5"), UnitCost: dec("1"),
			Batch: &stock.BatchInfo{ProductionDate: "2020-01-01", ExpiryDate: "2021-01-01"}}}}
		if err := w.post(in); err != nil {
			t.Fatal(err)
		}
		id = newDoc()
		in.BizID, in.Lines[0].DetailID, in.Lines[0].Batch = id, id, &stock.BatchInfo{ExpiryDate: "2030-01-01"}
		if err := w.post(in); !businessError(err) || !strings.Contains(err.Error(), "有效期") {
			t.Errorf("a receipt contradicting the batch: %v", err)
		}
		if _, err := w.issue(b, "1"); !businessError(err) || !strings.Contains(err.Error(), "已过期") {
			t.Errorf("issuing an expired batch: %v", err)
		}
		id = newDoc()
		scrap := stock.Posting{BizType: "OUT", BizID: id, BizNo: "s", AllowExpired: true, Lines: []stock.Line{{Bucket: b, DetailID: id, TxType: stock.MaterialOutOther, Qty: dec("-1")}}}
		if err := w.post(scrap); err != nil {
			t.Errorf("scrapping an expired batch: %v", err)
		}
		w.checkInvariants()
	})
}

// TestNegativeStockSetting: with the tenant's allowNegativeStock on, an
// issue may go below zero, and nothing is locked.
func TestNegativeStockSetting(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		w := newWorld(t, h)
		b := w.bucket(w.materials[1], w.places[1], "")
		if _, err := w.issue(b, "1"); !businessError(err) {
			t.Fatalf("an issue from nothing: %v", err)
		}
		if err := w.db.Tx(w.ctx, func(tx bun.Tx) error {
			return stock.SetTenantSetting(w.ctx, tx, w.tenantID, stock.SettingAllowNegative, "true")
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.issue(b, "2"); err != nil {
			t.Fatalf("an issue below zero when allowed: %v", err)
		}
		if bal := w.balance(b); bal.Qty.Cmp(dec("-2")) != 0 {
			t.Errorf("balance %s", bal.Qty)
		}
	})
}

func zeroBuckets(bals []balance) int64 {
	var n int64
	for _, b := range bals {
		if b.Qty.IsZero() && b.LockedQty.IsZero() {
			n++
		}
	}
	return n
}
