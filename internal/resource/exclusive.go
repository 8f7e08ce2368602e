package resource

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// EnableOnly sets the integer flag field (JSON name) to 1 on row and to 0 on
// every other live row of the row's tenant, in the caller's transaction: the
// body of an "enable" command where one configuration of a kind is in use
// per tenant (object storage, SMS). On PostgreSQL the tenant's rows are
// locked first, so two enables at once run one after the other; a partial
// unique index on (tenant_id) WHERE <flag> = 1 is the last guard.
func (r *Resource[T]) EnableOnly(ctx context.Context, tx bun.Tx, row *T, field string) error {
	f := r.meta.byName[field]
	if f == nil || f.ValueType != ValueInt {
		return fmt.Errorf("resource %s: EnableOnly: no integer field %q", r.spec.Key(), field)
	}
	b := any(row).(hasBase).base()
	if tx.Dialect().Name() == dialect.PG {
		if _, err := tx.NewSelect().Table(r.spec.Table).Column("id").Where("tenant_id = ? AND is_deleted = 0", b.TenantID).
			For("UPDATE").Exec(ctx); err != nil {
			return err
		}
	}
	if _, err := tx.NewUpdate().Table(r.spec.Table).Set("? = 0", bun.Ident(f.Column)).Set("version = version + 1").
		Set("update_time = ?", wire.Now()).
		Where("tenant_id = ? AND ? = 1 AND is_deleted = 0 AND id <> ?", b.TenantID, bun.Ident(f.Column), b.ID).Exec(ctx); err != nil {
		return err
	}
	return r.SetFields(ctx, tx, []*T{row}, map[string]any{field: 1})
}

var (
	msgEnable    = i18n.T("启用", "Enable")
	msgEnabled   = i18n.T("启用成功", "Enabled")
	errEnableOne = httpx.BadRequest(i18n.T("一次只能启用一个配置", "Enable one configuration at a time"))
)

// EnableCommand is the row command "enable" (button <MenuCode>_enable) of
// such a resource: one row at a time, checked by check when given, then
// EnableOnly on field.
func EnableCommand[T any](field string, confirm i18n.Text, check func(row *T) error) Command[T] {
	return Command[T]{
		Name: "enable", Label: msgEnable, Button: "enable", Row: true, Done: msgEnabled, Confirm: confirm,
		Run: func(ctx context.Context, tx bun.Tx, res *Resource[T], rows []*T, _ *CommandRequest) (any, error) {
			if len(rows) != 1 {
				return nil, errEnableOne
			}
			if check != nil {
				if err := check(rows[0]); err != nil {
					return nil, err
				}
			}
			return nil, res.EnableOnly(ctx, tx, rows[0], field)
		},
	}
}
