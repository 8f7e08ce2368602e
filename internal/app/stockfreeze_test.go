package app_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

// TestCountFreezeRace races approved receipts' postings against a count
// starting in their warehouse. A count snapshots the warehouse's buckets
// and freezes it in one transaction; a posting checks the freeze and then
// writes. Nothing may slip between the two: for every bucket of the
// warehouse, the snapshot's bookQty plus what was posted after the
// snapshot (nothing: the freeze refuses it) is the bucket's qty, and every
// receipt either went in before the snapshot (it is in bookQty) or was
// refused as frozen. Without the count's lock on its warehouse (stock.
// HoldForCount) PostgreSQL let receipts in after the snapshot; SQLite runs
// one write transaction at a time and holds either way.
func TestCountFreezeRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Freeze Race Co")
		const rounds, receipts = 6, 12
		var posted, refused int
		for round := range rounds {
			pl := newStockPlace(t, c)
			materials := []string{pl.material}
			for i := range 3 {
				materials = append(materials, checkMaterial(t, c, fmt.Sprintf("FR%d", i)))
			}
			// two buckets hold stock before the count, two are new
			for _, m := range materials[:2] {
				if msg := checkReceive(t, c, pl, m, "5", "2"); msg != "" {
					t.Fatal(msg)
				}
			}
			ids := make([]string, receipts)
			for i := range ids {
				var in receipt
				c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
					"details": []map[string]any{{"materialId": materials[i%len(materials)], "qty": "1", "positionId": pl.position, "unitPrice": "2"}}}).OK(t, &in)
				c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
				ids[i] = in.ID
			}
			var chk stockCheck
			c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse}).OK(t, &chk)

			start := make(chan struct{})
			var wg sync.WaitGroup
			answers := make([]*apptest.Resp, receipts)
			for i, id := range ids {
				wg.Go(func() {
					<-start
					answers[i] = c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", id))
				})
			}
			var counted *apptest.Resp
			wg.Go(func() {
				<-start
				time.Sleep(time.Duration(round%3) * time.Millisecond)
				counted = c.Post(checkPath+"/startCount", apptest.Q("ids", chk.ID))
			})
			close(start)
			wg.Wait()
			counted.OK(t, nil)
			for i, a := range answers {
				switch {
				case a.Status == 200:
					posted++
				case a.Status == 400 && strings.Contains(a.Env.Msg, "冻结"):
					refused++
				default:
					t.Fatalf("round %d: receipt %s: HTTP %d %s", round, ids[i], a.Status, a.Body)
				}
			}

			warehouse, _ := wire.ParseID(pl.warehouse)
			checkID, _ := wire.ParseID(chk.ID)
			book := map[string]wire.Decimal{}
			var lines []struct {
				MaterialID wire.ID      `bun:"material_id"`
				BatchNo    string       `bun:"batch_no"`
				BookQty    wire.Decimal `bun:"book_qty"`
			}
			if err := h.App.DB.NewSelect().Table("bb_material_check_detail").Column("material_id", "batch_no", "book_qty").
				Where("main_id = ? AND is_deleted = 0", checkID).Scan(t.Context(), &lines); err != nil {
				t.Fatal(err)
			}
			for _, l := range lines {
				book[l.MaterialID.String()+"#"+l.BatchNo] = l.BookQty
			}
			var buckets []struct {
				ItemID  wire.ID      `bun:"item_id"`
				BatchNo string       `bun:"batch_no"`
				Qty     wire.Decimal `bun:"qty"`
				Docs    string       `bun:"docs"`
			}
			if err := h.App.DB.NewRaw(`SELECT b.item_id, b.batch_no, b.qty,
				(SELECT COUNT(*) FROM bb_stock_ledger l WHERE l.tenant_id = b.tenant_id AND l.item_id = b.item_id AND l.warehouse_id = b.warehouse_id
					AND l.position_id = b.position_id AND l.batch_no = b.batch_no) AS docs
				FROM bb_stock_balance b WHERE b.warehouse_id = ?`, warehouse).Scan(t.Context(), &buckets); err != nil {
				t.Fatal(err)
			}
			for _, b := range buckets {
				key := b.ItemID.String() + "#" + b.BatchNo
				had, ok := book[key]
				if !ok {
					had = wire.NewDecimal(0, 6)
				}
				// the freeze refuses every posting after the snapshot: what
				// was posted after it is qty − bookQty, and must be nothing
				if after := b.Qty.Sub(had); !after.IsZero() {
					t.Errorf("round %d: bucket %s: snapshot bookQty %s, qty %s (%s ledger rows): %s posted after the snapshot into the frozen warehouse",
						round, key, had, b.Qty, b.Docs, after)
				}
			}
		}
		t.Logf("%d receipts posted before the count, %d refused as frozen", posted, refused)
		if posted == 0 || refused == 0 {
			t.Logf("the race was not exercised both ways")
		}
	})
}
