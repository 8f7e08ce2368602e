package system

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

var _ resource.DictChoices = (*Service)(nil)

// DictChoices lists a dictionary's live entries in their order, for the
// engine's Excel import: a cell may hold an entry's label (zh or en) instead
// of its key, and the import template lists the choices. A business
// dictionary is the caller's tenant's. It reads through idb.
func (s *Service) DictChoices(ctx context.Context, idb bun.IDB, code string, biz bool) ([]resource.DictChoice, error) {
	var rows []struct {
		Key     string `bun:"dict_key"`
		Value   string `bun:"dict_value"`
		ValueEn string `bun:"dict_value_en"`
	}
	q := idb.NewSelect().Column("dict_key", "dict_value", "dict_value_en").
		Where("code = ? AND parent_id <> 0 AND is_deleted = 0", code).OrderExpr("sort ASC, id ASC")
	if biz {
		p := authz.From(ctx)
		if p == nil {
			return nil, nil
		}
		q = q.Table("blade_dict_biz").Where("tenant_id = ?", p.TenantID)
	} else {
		q = q.Table("blade_dict")
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]resource.DictChoice, len(rows))
	for i, r := range rows {
		en := r.ValueEn
		if en == "" {
			en = r.Value
		}
		out[i] = resource.DictChoice{Key: r.Key, Label: i18n.T(r.Value, en)}
	}
	return out, nil
}
