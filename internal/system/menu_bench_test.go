package system_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// BenchmarkMenuRoutes is GET menu/routes for the super user through the whole
// handler stack (authentication, routing, access log, envelope), in process.
func BenchmarkMenuRoutes(b *testing.B) {
	benchRoutes(b, "/api/blade-system/menu/routes", func(h *apptest.H) *apptest.Client { return h.Admin() })
}

// BenchmarkMenuRoutesTenantAdmin is the same for a tenant's admin, whose
// routes are built per request from the cached menus and grants.
func BenchmarkMenuRoutesTenantAdmin(b *testing.B) {
	benchRoutes(b, "/api/blade-system/menu/routes", func(h *apptest.H) *apptest.Client {
		_, c := h.NewTenant("Bench Co")
		return c
	})
}

func benchRoutes(b *testing.B, path string, login func(h *apptest.H) *apptest.Client) {
	h := apptest.New(b, "sqlite")
	c := login(h)
	get := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", apptest.Basic)
		req.Header.Set("Blade-Auth", "bearer "+c.Token)
		rec := httptest.NewRecorder()
		h.App.Handler.ServeHTTP(rec, req)
		return rec
	}
	if rec := get(); rec.Code != 200 || rec.Body.Len() < 1000 {
		b.Fatalf("routes: %d %.200s", rec.Code, rec.Body.String())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		get()
	}
}
