package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"
)

// The write discipline (docs/security.md, "SQLite writes"): while a request
// holds a write transaction, every statement of that request must go through
// the transaction. A statement on the plain handle would take another
// connection: on SQLite it reads what the transaction has not yet written, or,
// being a write, waits for the one writer connection that the transaction
// itself holds, for ever; on PostgreSQL it also sees the state before the
// transaction, and a few such requests at once empty the pool.
//
// The rule is enforced here, not left to habit: TrackRequests gives each
// request a slot, DB.Tx marks it while the transaction is open, and the
// guard on the plain handle refuses any statement whose context carries an
// open mark.

// ErrOutsideTx is the error of a statement refused by the guard.
var ErrOutsideTx = errors.New("db: statement outside the open write transaction of its request (use the transaction, or run it before)")

// ErrNestedTx is the error of DB.Tx called inside another DB.Tx of the same request.
var ErrNestedTx = errors.New("db: write transaction inside another one of the same request")

type txSlotKey struct{}

// txSlot records whether the request's write transaction is open.
type txSlot struct{ open atomic.Bool }

// Track gives ctx a slot for DB.Tx to mark; contexts derived from it share it.
func Track(ctx context.Context) context.Context {
	if slotOf(ctx) != nil {
		return ctx
	}
	return context.WithValue(ctx, txSlotKey{}, &txSlot{})
}

// TrackRequests is the middleware that tracks every request.
func TrackRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(Track(r.Context())))
	})
}

func slotOf(ctx context.Context) *txSlot {
	s, _ := ctx.Value(txSlotKey{}).(*txSlot)
	return s
}

// checkOutside is the guard: an error when ctx holds an open write transaction.
// Tests panic instead, so that a caller that swallows the error (a cache
// lookup falling back to a default) still fails loudly, with the stack of
// the offending call in the log.
func checkOutside(ctx context.Context, query string) error {
	if s := slotOf(ctx); s == nil || !s.open.Load() {
		return nil
	}
	if len(query) > 200 {
		query = query[:200] + "…"
	}
	err := fmt.Errorf("%w: %s", ErrOutsideTx, query)
	if panicOutside {
		panic(err)
	}
	return err
}

// panicOutside: tests panic on a refused statement (see checkOutside).
var panicOutside = testing.Testing()

// guard is the query hook of the plain handle.
type guard struct{}

func (guard) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if err := checkOutside(ctx, e.Query); err != nil {
		return refusedContext{ctx, err}
	}
	return ctx
}

func (guard) AfterQuery(context.Context, *bun.QueryEvent) {}

// refusedContext makes database/sql fail a statement with err before it takes
// a connection (a hook cannot return an error; database/sql answers a done
// context with its Err): no wait for the connection the transaction holds.
type refusedContext struct {
	context.Context
	err error
}

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c refusedContext) Done() <-chan struct{} { return closedDone }
func (c refusedContext) Err() error            { return c.err }

// Reader runs query texts that bun already built (resource's fast row
// scanner) on the read connections, under the same guard.
type Reader struct{ d *DB }

// Reader is the guarded database/sql side of plain reads.
func (d *DB) Reader() Reader { return Reader{d} }

// QueryContext runs a query on the read connections.
func (r Reader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := checkOutside(ctx, query); err != nil {
		return nil, err
	}
	return r.d.readers.QueryContext(ctx, query, args...)
}

// readRouter sends plain SELECTs to the read connections; everything else,
// and every statement of a transaction, stays on the writer.
type readRouter struct{ readers *sql.DB }

func (r readRouter) ResolveConn(_ context.Context, q bun.Query) bun.IConn {
	if bun.IsReadOnlyQuery(q) {
		return r.readers
	}
	return nil
}

func (r readRouter) Close() error { return r.readers.Close() }
