package app_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/config"
)

// Several instances starting at once on an empty PostgreSQL database: one
// migrates and seeds, the others wait for it, and all come up.
func TestConcurrentFirstStartPostgres(t *testing.T) {
	url := apptest.EmptyPostgres(t)
	const n = 3
	var wg sync.WaitGroup
	errs := make([]error, n)
	apps := make([]*app.App, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			apps[i], errs[i] = app.New(context.Background(), config.Config{DB: url}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
			continue
		}
		defer apps[i].Close()
	}
	if errs[0] == nil {
		var n int
		if err := apps[0].DB.NewSelect().Table("blade_tenant").ColumnExpr("count(*)").Scan(context.Background(), &n); err != nil || n != 1 {
			t.Fatalf("tenants after concurrent start: %d (%v)", n, err)
		}
	}
}
