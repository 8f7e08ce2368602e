package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"

	"modernc.org/sqlite"
)

// bun writes its arguments into the SQL text, so the driver would parse every
// query afresh; for SQLite (pure Go here) parsing is a fifth of a simple page
// request. This driver keeps, per connection, the prepared statements of the
// last SELECTs by their text — what pgx's statement cache does for
// PostgreSQL — and reuses one when the same query comes again and it is idle.
const stmtCacheSize = 128

type cachingDriver struct{ inner *sqlite.Driver }

var registerOnce sync.Once

func registerCachingDriver() {
	registerOnce.Do(func() {
		inner := &sqlite.Driver{}
		if err := registerDecimalSQL(inner); err != nil { // decimal.go
			panic(err)
		}
		sql.Register("sqlite-stmtcache", &cachingDriver{inner: inner})
	})
}

func (d *cachingDriver) Open(name string) (driver.Conn, error) {
	c, err := d.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return &cachingConn{Conn: c, stmts: map[string]*cachedStmt{}}, nil
}

type cachedStmt struct {
	stmt driver.Stmt
	busy bool   // a Rows of it is open
	used uint64 // the connection's tick when last used
}

type cachingConn struct {
	driver.Conn
	stmts map[string]*cachedStmt
	tick  uint64
}

type fullConn interface {
	driver.ConnPrepareContext
	driver.QueryerContext
	driver.ExecerContext
	driver.ConnBeginTx
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

func (c *cachingConn) inner() fullConn { return c.Conn.(fullConn) }

func (c *cachingConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.inner().PrepareContext(ctx, q)
}

// ExecContext serves statements with arguments from the statement cache:
// bun writes its arguments into the text, so those come from db.Statement,
// whose texts are fixed.
func (c *cachingConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if len(args) == 0 {
		return c.inner().ExecContext(ctx, q, args)
	}
	cs, err := c.cached(ctx, q)
	if err != nil {
		return nil, err
	}
	if cs.busy {
		return c.inner().ExecContext(ctx, q, args)
	}
	return cs.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}
func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner().BeginTx(ctx, opts)
}
func (c *cachingConn) Ping(ctx context.Context) error         { return c.inner().Ping(ctx) }
func (c *cachingConn) ResetSession(ctx context.Context) error { return c.inner().ResetSession(ctx) }
func (c *cachingConn) IsValid() bool                          { return c.inner().IsValid() }

// QueryContext serves SELECTs from the statement cache: bun's, which have
// no arguments (a text met again is the same query), and db.Statement's.
func (c *cachingConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if !isSelect(q) {
		return c.inner().QueryContext(ctx, q, args)
	}
	cs, err := c.cached(ctx, q)
	if err != nil {
		return nil, err
	}
	if cs.busy {
		// the cached statement is still being read (nested query on this
		// connection): use a one-off statement
		return c.inner().QueryContext(ctx, q, args)
	}
	rows, err := cs.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	cs.busy = true
	return &cachedRows{Rows: rows, cs: cs}, nil
}

// cached is the prepared statement of q, prepared now when it is not kept.
func (c *cachingConn) cached(ctx context.Context, q string) (*cachedStmt, error) {
	c.tick++
	if cs := c.stmts[q]; cs != nil {
		cs.used = c.tick
		return cs, nil
	}
	st, err := c.inner().PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(c.stmts) >= stmtCacheSize {
		c.evict()
	}
	cs := &cachedStmt{stmt: st, used: c.tick}
	c.stmts[q] = cs
	return cs, nil
}

// evict drops the least recently used idle statement: bun's queries carry
// their arguments in the text, so most are met once, and they must not push
// out the statements used all the time (db.Statement's, the menus' reads).
func (c *cachingConn) evict() {
	var oldest string
	var at uint64
	for q, cs := range c.stmts {
		if !cs.busy && (oldest == "" || cs.used < at) {
			oldest, at = q, cs.used
		}
	}
	if oldest != "" {
		c.stmts[oldest].stmt.Close()
		delete(c.stmts, oldest)
	}
}

func (c *cachingConn) Close() error {
	for _, cs := range c.stmts {
		cs.stmt.Close()
	}
	c.stmts = nil
	return c.Conn.Close()
}

type cachedRows struct {
	driver.Rows
	cs *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.cs.busy = false
	return err
}

// ColumnTypeDatabaseTypeName and friends are what database/sql asks of rows;
// pass them through when the inner rows have them.
func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func isSelect(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	return len(q) > 6 && strings.EqualFold(q[:6], "SELECT")
}
