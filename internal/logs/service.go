package logs

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/batch"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// ServiceAPI is the service_id of the rows this console writes itself.
const ServiceAPI = "bluebird"

// Params reads platform parameters (blade_param; system.Service).
type Params interface {
	Param(ctx context.Context, key, def string) string
}

// RetentionParam is the parameter holding how many days log rows are kept.
const RetentionParam = "log.retentionDays"

// DefaultRetentionDays applies when the parameter is missing or not a positive number.
const DefaultRetentionDays = 30

// PurgeEvery is how often the retention purge runs.
const PurgeEvery = time.Hour

// Service is blade-log: the error-log upload, the API and usual log writers
// and the retention purge.
type Service struct {
	DB     *db.DB
	Params Params
	// SkipPath tells paths whose requests stay out of the API log (the
	// console's heartbeat, once a minute per open tab); nil logs all.
	SkipPath func(path string) bool

	host     string
	api      *batch.Writer[LogAPI]
	usual    *batch.Writer[LogUsual]
	stop     chan struct{}
	stopOnce sync.Once
	purged   sync.WaitGroup
}

// New starts the log writers and the periodic purge; Close stops them.
func New(d *db.DB, params Params, o batch.Options) *Service {
	s := &Service{DB: d, Params: params, SkipPath: func(string) bool { return false }, stop: make(chan struct{})}
	s.host, _ = os.Hostname()
	s.host = clip(s.host, 255)
	s.api = batch.New("blade_log_api", o, func(ctx context.Context, rows []*LogAPI) error {
		now := wire.Now()
		for _, r := range rows {
			r.ID, r.CreateTime, r.UpdateTime, r.UpdateUser, r.Status, r.Version = db.NewID(), now, now, r.CreateUser, 1, 1
		}
		_, err := d.NewInsert().Model(&rows).Exec(ctx)
		return err
	})
	s.usual = batch.New("blade_log_usual", o, func(ctx context.Context, rows []*LogUsual) error {
		now := wire.Now()
		for _, r := range rows {
			r.ID, r.CreateTime, r.UpdateTime, r.UpdateUser, r.Status, r.Version = db.NewID(), now, now, r.CreateUser, 1, 1
		}
		_, err := d.NewInsert().Model(&rows).Exec(ctx)
		return err
	})
	s.purged.Add(1)
	go s.purgeLoop()
	return s
}

// Flush writes every log row queued so far; its error is ctx's when the
// writers did not finish in time (rows that fail to insert are counted in
// Dropped and logged by the writer).
func (s *Service) Flush(ctx context.Context) error {
	return errors.Join(s.api.Flush(ctx), s.usual.Flush(ctx))
}

// Close writes what is queued and stops the writers and the purge.
func (s *Service) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	s.purged.Wait()
	s.api.Close()
	s.usual.Close()
}

// Dropped is the number of log rows lost to a full queue or a failed insert.
func (s *Service) Dropped() int64 { return s.api.Dropped.Load() + s.usual.Dropped.Load() }

func (s *Service) purgeLoop() {
	defer s.purged.Done()
	t := time.NewTicker(PurgeEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			if n, err := s.Purge(ctx, time.Now()); err != nil {
				slog.Error("log purge failed", "err", err)
			} else if n > 0 {
				slog.Info("log purge", "rows", n)
			}
			cancel()
		}
	}
}

// RetentionDays is the parameter's value, DefaultRetentionDays when it is unusable.
func (s *Service) RetentionDays(ctx context.Context) int {
	if s.Params == nil {
		return DefaultRetentionDays
	}
	n, err := strconv.Atoi(strings.TrimSpace(s.Params.Param(ctx, RetentionParam, "")))
	if err != nil || n <= 0 {
		return DefaultRetentionDays
	}
	return n
}

// purged are the log tables and the column telling a row's age.
var purgedTables = [][2]string{{"blade_log_api", "log_time"}, {"blade_log_usual", "log_time"}, {"blade_log_error", "create_time"}}

// Purge deletes the API, usual and error log rows older than the retention
// (days before now), for good: an expired log row is of no use to anyone.
// It answers how many rows went.
func (s *Service) Purge(ctx context.Context, now time.Time) (int64, error) {
	before := wire.Time{Time: now.UTC().AddDate(0, 0, -s.RetentionDays(ctx)).Truncate(time.Second)}
	var total int64
	for _, t := range purgedTables {
		res, err := s.DB.NewDelete().TableExpr(t[0]).Where("? < ?", bun.Ident(t[1]), before).Exec(ctx)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}
