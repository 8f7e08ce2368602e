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
