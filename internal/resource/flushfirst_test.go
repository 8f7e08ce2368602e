package resource

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/uptrace/bun"
)

// FlushFirst writes the queue before the list with a bounded wait, and a
// failed flush still lets the list answer the same query.
func TestFlushFirst(t *testing.T) {
	var q bun.SelectQuery
	for _, failure := range []error{nil, context.DeadlineExceeded, errors.New("disk full")} {
		calls := 0
		hook := FlushFirst("t", func(ctx context.Context) error {
			calls++
			if d, ok := ctx.Deadline(); !ok || time.Until(d) > flushWait {
				t.Errorf("flush without its bounded wait (deadline %v, %v)", d, ok)
			}
			return failure
		})
		got, err := hook(httptest.NewRequest("GET", "/api/x/list", nil), &q)
		if err != nil || got != &q || calls != 1 {
			t.Errorf("flush failing with %v: query %p (want %p), err %v, %d flushes", failure, got, &q, err, calls)
		}
	}
}
