package stock_test

import (
	"fmt"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/stock"
)

// benchWorld is a world whose first warehouse has enough materials for
// the benchmarks' documents.
func benchWorld(b *testing.B, kind string, materials int) *world {
	w := newWorld(b, apptest.New(b, kind))
	for len(w.materials) < materials {
		// the API is too slow for thousands: insert the master rows directly
		id := wire.ID(9_000_000 + len(w.materials))
		if _, err := w.db.NewInsert().TableExpr("bb_material").Model(&map[string]any{"id": id, "tenant_id": w.tenantID,
			"material_code": fmt.Sprintf("BM%d", len(w.materials)), "material_name": "bench", "unit": "pcs"}).Exec(w.ctx); err != nil {
			b.Fatal(err)
		}
		w.materials = append(w.materials, id)
	}
	return w
}

func receipt(w *world, lines int, first int) stock.Posting {
	id := newDoc()
	p := stock.Posting{BizType: "IN", BizID: id, BizNo: id.String()}
	for i := range lines {
		m := w.materials[(first+i)%len(w.materials)]
		p.Lines = append(p.Lines, stock.Line{Bucket: w.bucket(m, w.places[i%2], "B1"), DetailID: id*1000 + wire.ID(i),
			TxType: stock.MaterialInPurchase, Qty: dec("10.5"), UnitCost: dec("3.25")})
	}
	return p
}

// BenchmarkReceipt100Lines: one 100-line receipt per op on SQLite
// (issue #11: at most 50 ms).
func BenchmarkReceipt100Lines(b *testing.B) {
	w := benchWorld(b, "sqlite", 100)
	b.ResetTimer()
	for b.Loop() {
		if err := w.post(receipt(w, 100, 0)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDocuments10Lines: sustained 10-line documents from 4 goroutines
// on SQLite, receipts and issues alternating (issue #11: at least 500/s).
func BenchmarkDocuments10Lines(b *testing.B) {
	w := benchWorld(b, "sqlite", 200)
	for i := range 20 { // stock to issue from
		if err := w.post(receipt(w, 10, i*10)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetParallelism(2) // 2 × GOMAXPROCS goroutines
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := 0
		for pb.Next() {
			n++
			p := receipt(w, 10, (n*10)%200)
			if n%2 == 0 {
				p.BizType = "OUT"
				for i := range p.Lines {
					p.Lines[i].TxType, p.Lines[i].Qty = stock.MaterialOutOther, dec("-0.5")
				}
			}
			if err := w.post(p); err != nil {
				b.Error(err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}
