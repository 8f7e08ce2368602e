package db_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/db"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// Concurrent writers of different kinds must all succeed: tenant creation
// (a long transaction that also reads parameters) beside parameter writes.
// Before the single-writer discipline, the tenant transaction read its
// parameters through a second pooled connection while the other writers held
// the rest of the pool waiting on SQLite's write lock, and requests failed
// with SQLITE_BUSY after the 10 s busy timeout.
func TestConcurrentWritersAllSucceed(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		const tenants, params = 8, 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failures []string
		submit := func(path string, body map[string]any) {
			defer wg.Done()
			r := admin.PostJSON(path, body)
			if r.Status != 200 || !r.Env.Success {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("%s: HTTP %d %s", path, r.Status, r.Body))
				mu.Unlock()
			}
		}
		for i := range tenants {
			wg.Add(1)
			go submit("/api/blade-system/tenant/submit", map[string]any{"tenantName": fmt.Sprintf("并发租户%d", i), "linkman": "tester"})
		}
		for i := range params {
			wg.Add(1)
			go submit("/api/blade-system/param/submit", map[string]any{
				"paramName": fmt.Sprintf("p%d", i), "paramKey": fmt.Sprintf("bench.concurrent.%d", i), "paramValue": "v"})
		}
		wg.Wait()
		for _, f := range failures {
			t.Error(f)
		}
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/tenant/page", apptest.Q("current", "1", "size", "100", "tenantName", "并发租户")).OK(t, &page)
		if page.Total != tenants {
			t.Errorf("tenants created: %d, want %d", page.Total, tenants)
		}
	})
}

// eachDB runs fn on a fresh, empty database of every kind, with a table g.
func eachDB(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	for _, kind := range apptest.Kinds() {
		t.Run(kind, func(t *testing.T) {
			var d *db.DB
			var err error
			if kind == "sqlite" {
				d, err = db.OpenSQLite(filepath.Join(t.TempDir(), "g.db"))
			} else {
				d, err = db.OpenPostgres(apptest.EmptyPostgres(t))
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.ExecContext(context.Background(), "CREATE TABLE g (n INTEGER)"); err != nil {
				t.Fatal(err)
			}
			fn(t, d)
		})
	}
}

// tracked is a request's context: tracked by the db package, and bounded,
// so that a statement waiting for the writer connection its own transaction
// holds fails the test instead of hanging it.
func tracked(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(db.Track(context.Background()), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func insertG(ctx context.Context, tx bun.Tx, n int) error {
	_, err := tx.NewRaw("INSERT INTO g VALUES (?)", n).Exec(ctx)
	return err
}

func countG(t *testing.T, ctx context.Context, idb bun.IDB) int {
	t.Helper()
	n, err := idb.NewSelect().TableExpr("g").Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// Inside a write transaction every statement of the request must go through
// it: the plain handle refuses reads, writes (at once: on SQLite the writer
// connection is the transaction's) and the fast scanner's reads, and a
// second transaction; after the commit the plain handle works again.
func TestGuardRefusesStatementsBesideTheTransaction(t *testing.T) {
	defer db.PanicOutside(false)()
	eachDB(t, func(t *testing.T, d *db.DB) {
		ctx := tracked(t)
		refused := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, db.ErrOutsideTx) {
				t.Errorf("%s beside the transaction: got %v, want ErrOutsideTx", what, err)
			}
		}
		err := d.Tx(ctx, func(tx bun.Tx) error {
			if err := insertG(ctx, tx, 1); err != nil {
				return err
			}
			if n := countG(t, ctx, tx); n != 1 {
				t.Errorf("the transaction sees %d rows, want 1", n)
			}
			_, err := d.NewSelect().TableExpr("g").Count(ctx)
			refused("a read", err)
			_, err = d.NewUpdate().Table("g").Set("n = 2").Where("n = 1").Exec(ctx)
			refused("an update", err)
			_, err = d.ExecContext(ctx, "INSERT INTO g VALUES (3)")
			refused("a raw insert", err)
			_, err = d.Reader().QueryContext(ctx, "SELECT n FROM g")
			refused("a fast-path read", err)
			if err := d.Tx(ctx, func(bun.Tx) error { return nil }); !errors.Is(err, db.ErrNestedTx) {
				t.Errorf("nested transaction: got %v, want ErrNestedTx", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := countG(t, ctx, d); n != 1 {
			t.Errorf("after the commit: %d rows, want 1 (only the transaction's insert)", n)
		}
	})
}

// In tests the guard panics, so that a caller swallowing the error (a cache
// falling back to a default) still fails; the panic rolls the transaction
// back and frees the writer and the request's mark.
func TestGuardPanicsInTests(t *testing.T) {
	eachDB(t, func(t *testing.T, d *db.DB) {
		ctx := tracked(t)
		func() {
			defer func() {
				err, _ := recover().(error)
				if !errors.Is(err, db.ErrOutsideTx) {
					t.Errorf("recovered %v, want a panic with ErrOutsideTx", err)
				}
			}()
			_ = d.Tx(ctx, func(tx bun.Tx) error {
				if err := insertG(ctx, tx, 1); err != nil {
					return err
				}
				_, _ = d.NewSelect().TableExpr("g").Count(ctx)
				return nil
			})
		}()
		err := d.Tx(ctx, func(tx bun.Tx) error { return insertG(ctx, tx, 2) })
		if err != nil {
			t.Fatal(err)
		}
		if n := countG(t, ctx, d); n != 1 {
			t.Errorf("%d rows, want 1 (the panicking transaction rolled back)", n)
		}
	})
}

// On SQLite plain SELECTs run on the query_only readers, transactions and
// writes on the writer.
func TestSQLiteReadsOnQueryOnlyConnections(t *testing.T) {
	d, err := db.OpenSQLite(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := tracked(t)
	queryOnly := func(idb bun.IDB) int {
		var on int
		if err := idb.NewSelect().TableExpr("pragma_query_only").Column("query_only").Scan(ctx, &on); err != nil {
			t.Fatal(err)
		}
		return on
	}
	if queryOnly(d) != 1 {
		t.Error("a plain SELECT ran on a connection that may write")
	}
	if _, err := d.Reader().QueryContext(ctx, "CREATE TABLE x (n INTEGER)"); err == nil {
		t.Error("the fast path's reader wrote")
	}
	if _, err := d.NewRaw("CREATE TABLE x (n INTEGER)").Exec(ctx); err != nil {
		t.Errorf("a plain write: %v", err)
	}
	err = d.Tx(ctx, func(tx bun.Tx) error {
		if queryOnly(tx) != 0 {
			t.Error("the transaction runs on a query_only connection")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
