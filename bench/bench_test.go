// Package bench holds the Go benchmarks of the hot API paths; the load
// harness (bench/load) measures the same paths over real connections.
package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/seed"
	"github.com/bluebird/console/migrations"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func serve(b *testing.B, h *apptest.H, token, path string) {
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", apptest.Basic)
	req.Header.Set("Blade-Auth", "bearer "+token)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.App.Handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
		}
	}
	reportCPU(b, cpu0)
}

// processCPU is the user+system CPU time of this process so far. On a shared
// machine the CPU time per operation is steadier than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the process CPU time per operation since cpu0 (GC included) as cpu-ns/op.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkUserPage: GET /api/blade-user/page?current=1&size=10 with 10,000 users in the tenant.
func BenchmarkUserPage(b *testing.B) {
	h := apptest.New(b, "sqlite")
	if err := SeedUsers(context.Background(), h.App.DB, "000000", 10000); err != nil {
		b.Fatal(err)
	}
	serve(b, h, h.Admin().Token, "/api/blade-user/page?current=1&size=10")
}

// BenchmarkMaterialVOPage: GET selectMaterialVOListPage (brand and default
// warehouse joined) with 100,000 materials in the tenant, as its admin.
func BenchmarkMaterialVOPage(b *testing.B) {
	h := apptest.New(b, "sqlite")
	if err := SeedMaterials(context.Background(), h.App.DB, "000000", 100000); err != nil {
		b.Fatal(err)
	}
	serve(b, h, h.Admin().Token, "/api/bluebird-basic/material/selectMaterialVOListPage?current=1&size=10")
}

// BenchmarkMenuRoutes: GET /api/blade-system/menu/routes as the super user (full seeded tree).
func BenchmarkMenuRoutes(b *testing.B) {
	h := apptest.New(b, "sqlite")
	serve(b, h, h.Admin().Token, "/api/blade-system/menu/routes")
}

// BenchmarkFirstStart: migrate and seed an empty SQLite database (the
// first-start cost, regions included), without the HTTP listener.
func BenchmarkFirstStart(b *testing.B) {
	cpu0 := processCPU()
	defer func() { reportCPU(b, cpu0) }()
	for b.Loop() {
		b.StopTimer()
		d, err := db.OpenSQLite(filepath.Join(b.TempDir(), "bluebird.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := d.Migrate(context.Background(), migrations.FS); err != nil {
			b.Fatal(err)
		}
		if err := seed.Run(context.Background(), d); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		d.Close()
		b.StartTimer()
	}
}
