// Package numbering is the code-rule area (docs/domain.md §4): the tenant's
// numbering rules and their segments as plain engine resources, the counter
// that hands out serials, and the preview endpoint. Documents get their
// numbers through Service.Next, which the resource engine calls (its
// Env.Numbers) when a row with a number field is inserted.
package numbering

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/bluebird/console/internal/approval"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Service hands out document numbers and serves the code-rule resources.
type Service struct {
	DB *db.DB
	// Now is the tenant's clock for DATE segments: the server's local time.
	// Tests set it to cross a day.
	Now func() time.Time

	// counters is PostgreSQL's own small pool for taking numbers (see
	// increment); nil on SQLite, where numbers are taken in the caller's
	// transaction.
	counters *bun.DB
	res      *Resources
	// Approval keeps the approval records of rules (startProcess, cancellation).
	Approval *approval.Service
}

// counterPoolSize bounds the connections that take numbers on PostgreSQL.
// Each holds its connection for one statement, so a few serve many writers.
const counterPoolSize = 4

// New builds the service on d. On PostgreSQL it opens the counter pool: a
// failure there is logged and numbers are then taken in the caller's
// transaction, which is correct but holds the counter row until it commits.
func New(ctx context.Context, d *db.DB) *Service {
	s := &Service{DB: d, Now: time.Now}
	if d.Postgres {
		pool, err := openCounterPool(ctx, d)
		if err != nil {
			slog.WarnContext(ctx, "numbering: no counter pool; numbers are taken in the document's transaction", "err", err)
		}
		s.counters = pool
	}
	return s
}

// Close releases the counter pool.
func (s *Service) Close() error {
	if s.counters == nil {
		return nil
	}
	return s.counters.Close()
}

// openCounterPool opens a second pool on the same PostgreSQL database, with
// the connection string of the main pool's connections.
func openCounterPool(ctx context.Context, d *db.DB) (*bun.DB, error) {
	conn, err := d.DB.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var dsn string
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("driver connection %T is not pgx's", dc)
		}
		dsn = c.Conn().Config().ConnString()
		return nil
	}); err != nil {
		return nil, err
	}
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(counterPoolSize)
	sqldb.SetMaxIdleConns(counterPoolSize)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return bun.NewDB(sqldb, pgdialect.New()), nil
}

var errNoRule = i18n.T("未配置编码规则: 业务类型%s没有生效的编码规则,请在 基础资料 > 编码规则 中配置", "No code rule: business type %s has no effective code rule; set one up under Master Data > Code Rules")

// Next takes the next number of the tenant's effective rule for bizType.
// idb is the caller's transaction (a document insert's), or the plain
// handle outside one; fields gives the document's values for FIELD segments.
// Numbers are never given twice; a rolled-back document leaves a gap.
func (s *Service) Next(ctx context.Context, idb bun.IDB, tenantID, bizType string, fields func(name string) string) (string, error) {
	rule, segs, err := s.effectiveRule(ctx, idb, tenantID, bizType)
	if err != nil {
		return "", err
	}
	return s.take(ctx, idb, rule, segs, fields)
}

// ManualAllowed tells whether the tenant's effective rule for bizType lets
// users type the number (allowManual yes). With no rule, typing is the only
// way, so it is allowed.
func (s *Service) ManualAllowed(ctx context.Context, idb bun.IDB, tenantID, bizType string) (bool, error) {
	var allow []int
	err := idb.NewSelect().Table("bb_code_rule").Column("allow_manual").
		Where("tenant_id = ? AND biz_type = ? AND is_effective = ? AND status <> ? AND is_deleted = 0", tenantID, bizType, Effective, approval.Voided).
		OrderExpr("create_time DESC, id DESC").Limit(1).Scan(ctx, &allow)
	if err != nil {
		return false, err
	}
	return len(allow) == 0 || allow[0] == Yes, nil
}

// Preview is the number Next would give now, without taking it.
func (s *Service) Preview(ctx context.Context, tenantID, bizType string, fields func(name string) string) (string, error) {
	rule, segs, err := s.effectiveRule(ctx, s.DB, tenantID, bizType)
	if err != nil {
		return "", err
	}
	return s.peek(ctx, s.DB, rule, segs, fields)
}

// effectiveRule finds the tenant's effective rule of bizType (the newest if
// several; a voided rule gives no numbers) and its segments in order.
func (s *Service) effectiveRule(ctx context.Context, idb bun.IDB, tenantID, bizType string) (*CodeRule, []CodeRuleDetail, error) {
	rule := new(CodeRule)
	err := idb.NewSelect().Model(rule).
		Where("tenant_id = ? AND biz_type = ? AND is_effective = ? AND status <> ? AND is_deleted = 0", tenantID, bizType, Effective, approval.Voided).
		OrderExpr("create_time DESC, id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, noRule(bizType)
	}
	if err != nil {
		return nil, nil, err
	}
	segs, err := segments(ctx, idb, rule)
	return rule, segs, err
}

// segments reads a rule's live segments in seq order.
func segments(ctx context.Context, idb bun.IDB, rule *CodeRule) ([]CodeRuleDetail, error) {
	var segs []CodeRuleDetail
	err := idb.NewSelect().Model(&segs).Where("rule_id = ? AND tenant_id = ? AND is_deleted = 0", rule.ID, rule.TenantID).
		OrderExpr("seq ASC, id ASC").Scan(ctx)
	return segs, err
}

// take resolves the rule now and increments its counter.
func (s *Service) take(ctx context.Context, idb bun.IDB, rule *CodeRule, segs []CodeRuleDetail, fields func(string) string) (string, error) {
	l, err := resolve(rule.RuleCode, segs, s.Now(), fields)
	if err != nil {
		return "", err
	}
	value, err := s.increment(ctx, idb, rule, l)
	if err != nil {
		return "", err
	}
	return l.format(value)
}

// peek resolves the rule now and reads, without moving, its counter.
func (s *Service) peek(ctx context.Context, idb bun.IDB, rule *CodeRule, segs []CodeRuleDetail, fields func(string) string) (string, error) {
	l, err := resolve(rule.RuleCode, segs, s.Now(), fields)
	if err != nil {
		return "", err
	}
	var current int64
	err = idb.NewSelect().Table("bb_code_rule_counter").Column("current_value").
		Where("tenant_id = ? AND rule_id = ? AND period_key = ?", rule.TenantID, rule.ID, l.periodKey).Scan(ctx, &current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return l.format(int64(l.serial.SerialStart))
	case err != nil:
		return "", err
	}
	return l.format(current + int64(l.serial.SerialStep))
}

// increment moves the counter of (rule, period) by the serial step, or
// creates it at the serial start, and returns the value taken. One
// statement does it (an upsert), and it refuses to move past the serial's
// last value, so a full period stays full instead of creeping upwards.
//
// Where it runs is the point:
//   - PostgreSQL: on the counter pool, as its own transaction (the statement
//     autocommits). The counter row is locked for that one statement, not
//     for the whole document transaction: concurrent documents of one rule
//     do not queue behind each other's commits. The pool is separate from
//     the main one because the caller already holds a main-pool connection
//     for its transaction: twenty documents at once would otherwise hold all
//     twenty and each wait for a twenty-first (and the request's write guard
//     refuses a statement beside its open transaction on the main handle).
//     A document that then rolls back leaves a gap, which is allowed; a
//     number is never given twice.
//   - SQLite: in the caller's transaction idb. SQLite has one writer, and
//     the caller's transaction is it: a second transaction would wait for the
//     first to finish, for ever. Holding the counter until the commit costs
//     nothing there, since writers are serialised anyway.
func (s *Service) increment(ctx context.Context, idb bun.IDB, rule *CodeRule, l *layout) (int64, error) {
	if s.counters != nil {
		idb = s.counters
	}
	var user wire.ID
	if p := authz.From(ctx); p != nil {
		user = p.UserID
	}
	now := wire.Now()
	step, limit := int64(l.serial.SerialStep), maxValue(l.serial.SerialLength)
	var value int64
	err := idb.NewRaw(`INSERT INTO bb_code_rule_counter
		(id, tenant_id, rule_id, period_key, current_value, create_user, update_user, create_time, update_time)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, rule_id, period_key) DO UPDATE
		SET current_value = bb_code_rule_counter.current_value + ?, update_user = EXCLUDED.update_user,
			update_time = EXCLUDED.update_time, version = bb_code_rule_counter.version + 1
		WHERE bb_code_rule_counter.current_value + ? <= ?
		RETURNING current_value`,
		db.NewID(), rule.TenantID, rule.ID, l.periodKey, l.serial.SerialStart, user, user, now, now,
		step, step, limit).Scan(ctx, &value)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, l.overflow() // the update's WHERE held the counter at its last value
	}
	return value, err
}
