package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/alicebob/miniredis/v2"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/config"
	"github.com/bluebird/console/internal/platform/db"
)

// TestRevocationsWhenRedisIsDown: two instances share revocations through
// Redis. When Redis stops answering, tokens are checked against the database
// (where every revocation is written first): valid tokens keep working and a
// token revoked on the other instance stays refused.
func TestRevocationsWhenRedisIsDown(t *testing.T) {
	mr := miniredis.RunT(t)
	path := filepath.Join(t.TempDir(), "bluebird.db")
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	var pair [2]*apptest.H
	for i := range pair {
		d, err := db.OpenSQLite(path)
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.NewWithDB(context.Background(), config.Config{RedisURL: "redis://" + mr.Addr(), FilesDir: t.TempDir()}, d, logger)
		if err != nil {
			d.Close()
			t.Fatal(err)
		}
		srv := httptest.NewServer(a.Handler)
		t.Cleanup(func() { srv.Close(); a.Close() })
		pair[i] = &apptest.H{T: t, App: a, Server: srv, Kind: "sqlite"}
	}
	a, b := pair[0], pair[1]
	kept := a.Admin()
	gone := a.Admin()
	// Log out on B with the token issued by A: only the database and Redis know.
	onB := *gone
	onB.H = b
	onB.Get("/api/blade-auth/oauth/logout", nil).OK(t, nil)
	gone.Get("/api/blade-auth/oauth/user-info", nil).Fail(t, 401)

	mr.Close()
	kept.Get("/api/blade-auth/oauth/user-info", nil).OK(t, nil)
	gone.Get("/api/blade-auth/oauth/user-info", nil).Fail(t, 401)
}
