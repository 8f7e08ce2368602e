// Package db opens the database (embedded SQLite or PostgreSQL) behind one
// bun handle, runs the migrations and gives transactions and ids.
package db

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/schema"
	_ "modernc.org/sqlite"
)

// DB is the application's database handle.
type DB struct {
	*bun.DB
	Postgres bool
	// Writes counts this process's writes; Counts caches page totals by it (SQLite only).
	Writes *Generation
	Counts *CountCache
	Memo   *Memo
}

// OpenSQLite opens (creating if needed) the SQLite file at path.
func OpenSQLite(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	// WAL for concurrent readers, a busy timeout instead of SQLITE_BUSY errors,
	// and foreign keys off (the app owns referential rules and soft deletes).
	// A 1 MB page cache per connection instead of SQLite's 2 MB: the hot pages
	// of a page request are a few dozen, and the driver's allocator keeps what
	// a first start's seeding filled resident afterwards (2.5 MB of idle RSS).
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_pragma=cache_size(-1000)&_txlock=immediate"
	registerCachingDriver()
	sqldb, err := sql.Open("sqlite-stmtcache", dsn)
	if err != nil {
		return nil, err
	}
	// One writer at a time is all SQLite allows; readers share the pool.
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8)
	if err := sqldb.Ping(); err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	d := &DB{DB: bun.NewDB(sqldb, sqlitedialect.New()), Writes: &Generation{}}
	d.AddQueryHook(d.Writes)
	d.Counts = NewCountCache(d.Writes)
	d.Memo = NewMemo(d.Writes)
	return d, nil
}

// OpenPostgres opens a PostgreSQL database by URL.
func OpenPostgres(url string) (*DB, error) {
	sqldb, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(20)
	sqldb.SetMaxIdleConns(20)
	if err := sqldb.Ping(); err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	return &DB{DB: bun.NewDB(sqldb, pgdialect.New()), Postgres: true}, nil
}

var _ = stdlib.GetDefaultDriver // registers the "pgx" driver

// Open picks the database from a URL: postgres:// or a SQLite path.
func Open(url, sqlitePath string) (*DB, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return OpenPostgres(url)
	}
	return OpenSQLite(sqlitePath)
}

// Tx runs fn in a transaction: committed when fn returns nil, rolled back otherwise.
func (d *DB) Tx(ctx context.Context, fn func(tx bun.Tx) error) error {
	err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(tx) })
	if d.Writes != nil {
		d.Writes.Bump() // readers that counted before the commit must not keep their result
	}
	return err
}

// Dialect is the bun dialect name.
func (d *DB) Dialect() schema.Dialect { return d.DB.Dialect() }

// Placeholder-free LIKE escaping shared by both databases.
func EscapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// InsertRow inserts one row given as column → value, for the few places that
// write tables without a model (seeding, provisioning, link tables).
func InsertRow(ctx context.Context, idb bun.IDB, table string, cols map[string]any) error {
	names := make([]string, 0, len(cols))
	for k := range cols {
		names = append(names, k)
	}
	sort.Strings(names)
	idents := make([]any, len(names))
	vals := make([]any, len(names))
	marks := make([]string, len(names))
	for i, n := range names {
		idents[i], vals[i], marks[i] = bun.Ident(n), cols[n], "?"
	}
	q := "INSERT INTO ? (" + strings.Join(marks, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	args := append(append([]any{bun.Ident(table)}, idents...), vals...)
	_, err := idb.NewRaw(q, args...).Exec(ctx)
	return err
}
