// Package db opens the database (embedded SQLite or PostgreSQL) behind one
// bun handle, runs the migrations and gives transactions and ids. It also
// keeps the write discipline (writeguard.go): on SQLite one writer
// connection and a read-only pool, and no statement of a request beside its
// open write transaction.
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

// DB is the application's database handle: the bun API the code uses, over
// connections that follow one write discipline (writeguard.go, and "SQLite
// writes" in docs/security.md). On SQLite one connection writes (BEGIN
// IMMEDIATE) and a pool of query_only connections serves plain SELECTs, so a
// writer waits in the process's queue for the writer connection, never in
// SQLite's busy loop; on PostgreSQL one pool serves both.
type DB struct {
	// *bun.DB is the plain handle, guarded: a statement on it from a request
	// whose write transaction is open is refused.
	*bun.DB
	// txDB is the same connections unguarded: DB.Tx begins its transactions
	// there, whose statements are the ones allowed.
	txDB *bun.DB
	// readers serves plain SELECTs: SQLite's query_only pool, PostgreSQL's pool.
	readers  *sql.DB
	Postgres bool
	// Writes counts this process's writes; Counts caches page totals by it (SQLite only).
	Writes *Generation
	Counts *CountCache
	Memo   *Memo
}

// sqliteReaders is the size of SQLite's read pool. Reads in WAL mode never
// wait for the writer; eight is the read concurrency the single pool had.
const sqliteReaders = 8

// OpenSQLite opens (creating if needed) the SQLite file at path.
func OpenSQLite(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	// WAL for readers beside the writer, foreign keys off (the app owns
	// referential rules and soft deletes). A 1 MB page cache per connection
	// instead of SQLite's 2 MB: the hot pages of a page request are a few
	// dozen, and the driver's allocator keeps what a first start's seeding
	// filled resident afterwards (2.5 MB of idle RSS). The busy timeout only
	// matters against other processes (a backup, the bench seeder): in this
	// one, writers queue for the single writer connection.
	common := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(0)&_pragma=cache_size(-1000)"
	registerCachingDriver()
	writer, err := openPool(common+"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate", 1)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// opened after the writer, which made the file WAL (a query_only
	// connection cannot change the journal mode)
	readers, err := openPool(common+"&_pragma=query_only(1)", sqliteReaders)
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	base := bun.NewDB(writer, sqlitedialect.New(), bun.WithConnResolver(readRouter{readers}))
	d := &DB{Writes: &Generation{}, readers: readers}
	base.AddQueryHook(d.Writes)
	d.guard(base)
	d.Counts = NewCountCache(d.Writes)
	d.Memo = NewMemo(d.Writes)
	return d, nil
}

func openPool(dsn string, size int) (*sql.DB, error) {
	sqldb, err := sql.Open("sqlite-stmtcache", dsn)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(size)
	sqldb.SetMaxIdleConns(size)
	if err := sqldb.Ping(); err != nil {
		sqldb.Close()
		return nil, err
	}
	return sqldb, nil
}

// guard sets the handles from base: the guarded plain handle and the
// unguarded one of transactions (same connections, hooks and resolver).
func (d *DB) guard(base *bun.DB) {
	d.txDB = base
	d.DB = base.WithQueryHook(guard{})
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
		sqldb.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	d := &DB{Postgres: true, readers: sqldb}
	d.guard(bun.NewDB(sqldb, pgdialect.New()))
	return d, nil
}

var _ = stdlib.GetDefaultDriver // registers the "pgx" driver

// Open picks the database from a URL: postgres:// or a SQLite path.
func Open(url, sqlitePath string) (*DB, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return OpenPostgres(url)
	}
	return OpenSQLite(sqlitePath)
}

// Tx runs fn in a transaction: committed when fn returns nil, rolled back
// otherwise. Inside fn every statement of the request goes through tx (see
// ErrOutsideTx); a second Tx in the same request is ErrNestedTx.
func (d *DB) Tx(ctx context.Context, fn func(tx bun.Tx) error) error {
	if s := slotOf(ctx); s != nil {
		if !s.open.CompareAndSwap(false, true) {
			return ErrNestedTx
		}
		defer s.open.Store(false)
	}
	err := d.txDB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(tx) })
	if d.Writes != nil {
		d.Writes.Bump() // readers that counted before the commit must not keep their result
	}
	return err
}

// Dialect is the bun dialect name.
func (d *DB) Dialect() schema.Dialect { return d.DB.Dialect() }

// Placeholder-free LIKE escaping shared by both databases.
func EscapeLike(s string) string { return likeEscaper.Replace(s) }

// likeEscaper is built once: EscapeLike runs for every search filter.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

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
