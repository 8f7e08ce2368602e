package system

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/i18n"
)

// HoldsButton tells whether the caller holds the menu button of that code:
// the super user holds every one; anyone else through their roles' grants,
// within their tenant's package (the same grants menu/buttons answers with).
// The engine checks it before running a command (resource.ButtonHolder).
func (s *Service) HoldsButton(ctx context.Context, p *authz.Principal, code string) (bool, error) {
	if p.IsSuper() {
		return true, nil
	}
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return false, err
	}
	held, err := s.granted(ctx, p, sn)
	if err != nil {
		return false, err
	}
	for id := range held {
		if m := sn.byID[id]; m != nil && m.Code == code {
			return true, nil
		}
	}
	return false, nil
}

// DictLabel is a dictionary entry's label in the caller's language, for
// messages that name a state ("已审批"); "" when there is no such entry.
// It reads through idb, the caller's transaction when there is one.
func (s *Service) DictLabel(ctx context.Context, idb bun.IDB, code string, biz bool, key string) string {
	var row struct {
		Value   string `bun:"dict_value"`
		ValueEn string `bun:"dict_value_en"`
	}
	q := idb.NewSelect().Column("dict_value", "dict_value_en").Where("code = ? AND dict_key = ? AND parent_id <> 0 AND is_deleted = 0", code, key).Limit(1)
	if biz {
		p := authz.From(ctx)
		if p == nil {
			return ""
		}
		q = q.Table("blade_dict_biz").Where("tenant_id = ?", p.TenantID)
	} else {
		q = q.Table("blade_dict")
	}
	if err := q.Scan(ctx, &row); err != nil {
		if !errors.Is(err, sql.ErrNoRows) {
			// the message falls back to the key; the failure is the operator's to see
			slog.WarnContext(ctx, "dictionary label", "code", code, "key", key, "err", err)
		}
		return ""
	}
	if i18n.From(ctx) == i18n.En && row.ValueEn != "" {
		return row.ValueEn
	}
	return row.Value
}
