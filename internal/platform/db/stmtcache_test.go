package db

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// The statement cache must give the same answers as fresh statements: after
// writes, with a nested read of the same text on one connection, and past eviction.
func TestStatementCache(t *testing.T) {
	d, err := OpenSQLite(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	if _, err := d.ExecContext(ctx, "CREATE TABLE t (n INTEGER)"); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		if err := d.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := 1; i <= 3; i++ {
		if _, err := d.ExecContext(ctx, "INSERT INTO t VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
		if got := count(); got != i {
			t.Fatalf("cached count after %d inserts: %d", i, got)
		}
	}
	// nested use of the same text on one connection (a transaction pins one)
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	outer, err := tx.QueryContext(ctx, "SELECT n FROM t ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for outer.Next() {
		inner, err := tx.QueryContext(ctx, "SELECT n FROM t ORDER BY n")
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		for inner.Next() {
			m++
		}
		inner.Close()
		if m != 3 {
			t.Fatalf("inner read %d rows", m)
		}
		seen++
	}
	outer.Close()
	tx.Rollback()
	if seen != 3 {
		t.Fatalf("outer read %d rows", seen)
	}
	// more distinct queries than the cache holds
	for i := 0; i < stmtCacheSize+20; i++ {
		var n int
		if err := d.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) + %d FROM t", i)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 3+i {
			t.Fatalf("query %d: %d", i, n)
		}
	}
}

// A statement used all along stays prepared while many others, each met once
// (bun's queries with their arguments in the text), pass through the cache.
func TestStatementCacheKeepsTheUsedOnes(t *testing.T) {
	d, err := OpenSQLite(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	conn, err := d.txDB.DB.Conn(ctx) // the writer: one connection
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const hot = "SELECT 1 WHERE ? = ?"
	for i := 0; i < 3*stmtCacheSize; i++ {
		var n int
		if err := conn.QueryRowContext(ctx, hot, i, i).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&n); err != nil || n != i {
			t.Fatalf("one-off query %d: %d %v", i, n, err)
		}
	}
	err = conn.Raw(func(dc any) error {
		c := dc.(*cachingConn)
		if c.stmts[hot] == nil {
			t.Error("the statement used all along was evicted")
		}
		if len(c.stmts) > stmtCacheSize {
			t.Errorf("the cache holds %d statements, more than %d", len(c.stmts), stmtCacheSize)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
