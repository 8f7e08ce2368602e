package resource

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/uptrace/bun"
)

// flushWait bounds how long a list waits for queued rows to be written.
const flushWait = 5 * time.Second

// FlushFirst is a Query hook for a table written off the request path in
// batches (internal/platform/batch): before a list reads, flush writes what
// is queued, so the list shows the request or export just made. A flush
// that fails or outlasts flushWait is logged and the list answers what is
// written: a log screen that waits on its own log would be worse than one
// a second behind.
func FlushFirst(table string, flush func(context.Context) error) func(*http.Request, *bun.SelectQuery) (*bun.SelectQuery, error) {
	return func(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
		ctx, cancel := context.WithTimeout(r.Context(), flushWait)
		defer cancel()
		if err := flush(ctx); err != nil {
			slog.WarnContext(r.Context(), "list read before its queued rows were written", "table", table, "err", err)
		}
		return q, nil
	}
}
