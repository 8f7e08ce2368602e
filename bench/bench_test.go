// Package bench holds the Go benchmarks of the hot API paths; the load
// harness (bench/load) measures the same paths over real connections.
package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func serve(b *testing.B, h *apptest.H, token, path string) {
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", apptest.Basic)
	req.Header.Set("Blade-Auth", "bearer "+token)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.App.Handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
		}
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

// BenchmarkMenuRoutes: GET /api/blade-system/menu/routes as the super user (full seeded tree).
func BenchmarkMenuRoutes(b *testing.B) {
	h := apptest.New(b, "sqlite")
	serve(b, h, h.Admin().Token, "/api/blade-system/menu/routes")
}
