package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/numbering"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/seed/seeddata"
)

// Upgrades of a seeded database (see upgrades in seed.go). They add what a
// later seed brought and leave every row already there alone: a menu or a
// dictionary item that exists, live or removed by an administrator, is kept
// as it is.

// upgrade2 adds the button_func key 0 (none: what menus hold) and the social
// login menu under system management, granted to the platform admin role as
// every seeded menu is.
func (s *seeder) upgrade2(ctx context.Context) error {
	if err := s.addDictItem(ctx, "button_func", "0"); err != nil {
		return err
	}
	return s.addMenu(ctx, "social_provider")
}

// upgrade3 gives every live tenant the default code rules; tenants made
// later get them at creation (numbering.Service.Provision).
func (s *seeder) upgrade3(ctx context.Context) error { return s.codeRules(ctx) }

// The menus a new tenant's admin role is granted when the tenant has no
// package (parameter tenant.default.menuCode): the platform screens a
// tenant administers and every business area.
const (
	platformMenuCodes = "desk,flow,work,monitor,resource,role,user,dept,post,dictbiz,topmenu"
	defaultMenuCodes  = platformMenuCodes + ",basic,product,bom,quotation,warehouse,stock,production,cost,customer,supplier,purchase"
)

// upgrade4 adds the business areas to the default menus of new tenants,
// where the parameter still holds the platform-only value it was seeded
// with (a value an administrator changed is theirs).
func (s *seeder) upgrade4(ctx context.Context) error {
	_, err := s.tx.NewUpdate().Table("blade_param").Set("param_value = ?", defaultMenuCodes).
		Where("param_key = ? AND param_value = ? AND is_deleted = 0", "tenant.default.menuCode", platformMenuCodes).Exec(ctx)
	return err
}

// upgrade5 adds the Import button to the master data screens that have an
// Excel import, granted to every role that may add on that screen (the
// platform admin and each tenant's administrator among them): importing is
// adding many at once.
func (s *seeder) upgrade5(ctx context.Context) error {
	for _, code := range seeddata.ImportMenus {
		if err := s.addButton(ctx, code, code+"_import", code+"_add"); err != nil {
			return err
		}
	}
	return nil
}

// upgrade6 adds the registration approval button of the user screen,
// granted to every role that may enable users.
func (s *seeder) upgrade6(ctx context.Context) error {
	return s.addButton(ctx, "user", "user_audit", "user_enabled")
}

// upgrade7 adds the process manager's 绑定单据 button (which documents go
// through a process), granted to every role that may change a process's state.
func (s *seeder) upgrade7(ctx context.Context) error {
	return s.addButton(ctx, "flow_manager", "flow_manager_bind", "flow_manager_state")
}

// logRetentionParam is how many days the API, usual and error logs keep
// their rows (internal/logs purges older ones).
var logRetentionParam = [3]string{"日志保留天数", "log.retentionDays", "30"}

// upgrade8 adds the log retention parameter and the dictionary of usual-log
// kinds and of download kinds (issue #12: logs and the goods-download monitor).
func (s *seeder) upgrade8(ctx context.Context) error {
	n, err := s.tx.NewSelect().Table("blade_param").Where("param_key = ? AND is_deleted = 0", logRetentionParam[1]).Count(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		if _, err := s.insert(ctx, "blade_param", map[string]any{"param_name": logRetentionParam[0],
			"param_key": logRetentionParam[1], "param_value": logRetentionParam[2]}); err != nil {
			return err
		}
	}
	if err := s.addDict(ctx, "log_kind"); err != nil {
		return err
	}
	return s.addDict(ctx, "download_kind")
}

// addDict adds a seeded system dictionary with its items when no
// dictionary has that code.
func (s *seeder) addDict(ctx context.Context, code string) error {
	if n, err := s.tx.NewSelect().Table("blade_dict").Where("code = ? AND parent_id = 0", code).Count(ctx); err != nil || n > 0 {
		return err
	}
	for _, d := range seeddata.Dicts {
		if d.Code == code {
			return s.insertDict(ctx, d)
		}
	}
	return fmt.Errorf("seed: no dictionary %s", code)
}

// addButton adds a seeded button to each live menu with menuCode that has
// no button with its code, and grants it to the roles holding that menu's
// button like.
func (s *seeder) addButton(ctx context.Context, menuCode, code, like string) error {
	m, _, ok := findMenu(seeddata.Menus, "", menuCode)
	if !ok {
		return fmt.Errorf("seed: no menu %s", menuCode)
	}
	var b *seeddata.Button
	for i := range m.Buttons {
		if m.Buttons[i].Code == code {
			b = &m.Buttons[i]
		}
	}
	if b == nil {
		return fmt.Errorf("seed: no button %s", code)
	}
	var menus []wire.ID
	if err := s.tx.NewSelect().Table("blade_menu").Column("id").Where("code = ? AND category = 1 AND is_deleted = 0", menuCode).
		Where("NOT EXISTS (SELECT 1 FROM blade_menu b WHERE b.parent_id = blade_menu.id AND b.code = ?)", code).Scan(ctx, &menus); err != nil {
		return err
	}
	for _, menu := range menus {
		id, err := s.insert(ctx, "blade_menu", map[string]any{"parent_id": menu, "code": b.Code, "name": b.Name.Zh,
			"name_en": b.Name.En, "alias": b.Code, "path": "", "source": b.Icon, "sort": b.Sort, "category": 2,
			"action": b.Action, "is_open": 1})
		if err != nil {
			return err
		}
		var roles []wire.ID
		if err := s.tx.NewSelect().Table("blade_role_menu").ColumnExpr("DISTINCT role_id").
			Where("menu_id IN (SELECT id FROM blade_menu WHERE parent_id = ? AND code = ? AND is_deleted = 0)", menu, like).Scan(ctx, &roles); err != nil {
			return err
		}
		for _, role := range roles {
			if err := s.grant(ctx, role, []wire.ID{id}); err != nil {
				return err
			}
		}
	}
	return nil
}

// codeRules seeds the default code rules of every live tenant that lacks them.
func (s *seeder) codeRules(ctx context.Context) error { return numbering.SeedAllTenants(ctx, s.tx) }

// firstID reads the id of the first row of q, or 0.
func firstID(ctx context.Context, q *bun.SelectQuery) (wire.ID, error) {
	var id int64
	err := q.Column("id").OrderExpr("id").Limit(1).Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return wire.ID(id), err
}

// addDictItem adds a seeded item to its system dictionary when the
// dictionary is there and has no item with that key.
func (s *seeder) addDictItem(ctx context.Context, code, key string) error {
	for _, d := range seeddata.Dicts {
		for i, item := range d.Items {
			if d.Code != code || item.Key != key {
				continue
			}
			root, err := firstID(ctx, s.tx.NewSelect().Table("blade_dict").Where("code = ? AND parent_id = 0 AND is_deleted = 0", code))
			if err != nil || root == 0 {
				return err
			}
			if n, err := s.tx.NewSelect().Table("blade_dict").Where("parent_id = ? AND dict_key = ?", root, key).Count(ctx); err != nil || n > 0 {
				return err
			}
			_, err = s.insert(ctx, "blade_dict", map[string]any{"parent_id": root, "code": code, "dict_key": key,
				"dict_value": item.Value.Zh, "dict_value_en": item.Value.En, "sort": i, "remark": item.Remark, "is_sealed": 0})
			return err
		}
	}
	return fmt.Errorf("seed: no dictionary item %s/%s", code, key)
}

// addMenu adds a seeded menu with its buttons under its seeded parent, when
// the parent is there and no menu has that code, and grants it to the
// platform admin role.
func (s *seeder) addMenu(ctx context.Context, code string) error {
	m, parent, ok := findMenu(seeddata.Menus, "", code)
	if !ok {
		return fmt.Errorf("seed: no menu %s", code)
	}
	if n, err := s.tx.NewSelect().Table("blade_menu").Where("code = ?", code).Count(ctx); err != nil || n > 0 {
		return err
	}
	var parentID wire.ID
	if parent != "" {
		id, err := firstID(ctx, s.tx.NewSelect().Table("blade_menu").Where("code = ? AND category = 1 AND is_deleted = 0", parent))
		if err != nil || id == 0 {
			return err
		}
		parentID = id
	}
	s.menuIDs = map[string]wire.ID{}
	if err := s.insertMenu(ctx, parentID, m); err != nil {
		return err
	}
	admin, err := firstID(ctx, s.tx.NewSelect().Table("blade_role").Where("tenant_id = ? AND role_alias = 'admin' AND is_deleted = 0", Tenant))
	if err != nil || admin == 0 {
		return err
	}
	return s.grant(ctx, admin, s.allMenuIDs)
}

// findMenu finds a seeded menu by code, with its parent's code ("" at the top).
func findMenu(ms []seeddata.Menu, parent, code string) (seeddata.Menu, string, bool) {
	for _, m := range ms {
		if m.Code == code {
			return m, parent, true
		}
		if found, p, ok := findMenu(m.Children, m.Code, code); ok {
			return found, p, true
		}
	}
	return seeddata.Menu{}, "", false
}
