// Package seed fills an empty database on first start (api-contract.md §8):
// the platform tenant, client, administrator, roles, posts, parameters,
// dictionaries, top menus, the menu tree and the regions. It runs once, in
// one transaction, and records the seed version; a database seeded by an
// older build gets the later additions (upgrade.go) at its next start.
package seed

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/seed/seeddata"
	"github.com/bluebird/console/internal/system/regiondata"
)

// upgrades bring a database seeded by an older version of this package up to
// date: upgrades[v-1] takes seed version v to v+1. A fresh database gets the
// whole seed and the latest version at once. Append only.
var upgrades = []func(*seeder, context.Context) error{
	(*seeder).upgrade2,
	(*seeder).upgrade3,
	(*seeder).upgrade4,
	(*seeder).upgrade5,
	(*seeder).upgrade6,
	(*seeder).upgrade7,
	(*seeder).upgrade8,
}

// Version is the seed version a database holds once Run has run.
var Version = strconv.Itoa(len(upgrades) + 1)

// The fixed identities of the seeded platform.
const (
	Tenant       = "000000"
	ClientID     = "saber"
	ClientSecret = "saber_secret"
	AdminAccount = "admin"
	AdminPass    = "admin"
)

type setting struct {
	bun.BaseModel `bun:"table:bb_setting"`
	Key           string `bun:"setting_key,pk"`
	Value         string `bun:"setting_value"`
}

// Get reads a setting; "" when absent.
func Get(ctx context.Context, idb bun.IDB, key string) (string, error) {
	var s setting
	err := idb.NewSelect().Model(&s).Where("setting_key = ?", key).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return s.Value, err
}

func put(ctx context.Context, idb bun.IDB, key, value string) error {
	_, err := idb.NewInsert().Model(&setting{Key: key, Value: value}).
		On("CONFLICT (setting_key) DO UPDATE").Set("setting_value = EXCLUDED.setting_value").Exec(ctx)
	return err
}

// SigningKey returns the token signing key, making one on first use.
func SigningKey(ctx context.Context, d *db.DB) ([]byte, error) {
	v, err := Get(ctx, d, "jwt.key")
	if err != nil {
		return nil, err
	}
	if v == "" {
		if _, err := d.NewInsert().Model(&setting{Key: "jwt.key", Value: hex.EncodeToString(authn.NewKey())}).
			On("CONFLICT (setting_key) DO NOTHING").Exec(ctx); err != nil {
			return nil, err
		}
		if v, err = Get(ctx, d, "jwt.key"); err != nil {
			return nil, err
		}
	}
	return hex.DecodeString(v)
}

// Run seeds an empty database; on a seeded one it does nothing.
func Run(ctx context.Context, d *db.DB) error {
	done, err := Get(ctx, d, "seed.version")
	if err != nil {
		return err
	}
	if current(done) {
		return nil
	}
	return d.Tx(ctx, func(tx bun.Tx) error {
		if d.Postgres {
			// instances starting together: the first seeds or upgrades, the rest wait and find it done
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(7261932)"); err != nil {
				return err
			}
			if done, err = Get(ctx, tx, "seed.version"); err != nil || current(done) {
				return err
			}
		}
		s := &seeder{tx: tx, now: wire.Now(), postgres: d.Postgres}
		steps := []func(context.Context) error{s.platform, s.dicts, s.menus, s.regions, s.codeRules}
		if done != "" {
			from, err := strconv.Atoi(done)
			if err != nil || from < 1 {
				return fmt.Errorf("seed version %q", done)
			}
			steps = nil
			for _, up := range upgrades[from-1:] {
				steps = append(steps, func(ctx context.Context) error { return up(s, ctx) })
			}
		}
		for _, step := range steps {
			if err := step(ctx); err != nil {
				return err
			}
		}
		return put(ctx, tx, "seed.version", Version)
	})
}

// current tells whether a stored seed version needs nothing: this one, or a
// newer one written by a later build (an older build leaves it alone).
func current(done string) bool {
	v, err := strconv.Atoi(done)
	return err == nil && v >= len(upgrades)+1
}

type seeder struct {
	postgres   bool
	tx         bun.Tx
	now        wire.Time
	adminID    wire.ID
	deptID     wire.ID
	roleIDs    map[string]wire.ID
	menuIDs    map[string]wire.ID
	allMenuIDs []wire.ID
}

// row is the base columns of a seeded row.
func (s *seeder) base(cols map[string]any) map[string]any {
	if _, ok := cols["id"]; !ok {
		cols["id"] = db.NewID()
	}
	if _, ok := cols["tenant_id"]; !ok {
		cols["tenant_id"] = Tenant
	}
	cols["create_user"], cols["update_user"] = s.adminID, s.adminID
	cols["create_dept"] = s.deptID
	cols["create_time"], cols["update_time"] = s.now, s.now
	return cols
}

func (s *seeder) insert(ctx context.Context, table string, cols map[string]any) (wire.ID, error) {
	cols = s.base(cols)
	if err := db.InsertRow(ctx, s.tx, table, cols); err != nil {
		return 0, fmt.Errorf("seed %s: %w", table, err)
	}
	return cols["id"].(wire.ID), nil
}

func (s *seeder) platform(ctx context.Context) error {
	s.adminID = db.NewID()
	s.deptID = db.NewID()
	var err error
	if _, err = s.insert(ctx, "blade_tenant", map[string]any{"tenant_name": "管理组", "linkman": "admin", "account_number": -1}); err != nil {
		return err
	}
	if _, err = s.insert(ctx, "blade_client", map[string]any{"client_id": ClientID, "client_secret": ClientSecret,
		"scope": "all", "authorized_grant_types": "password,captcha,refresh_token,social", "access_token_validity": 3600,
		"refresh_token_validity": 604800}); err != nil {
		return err
	}
	if _, err = s.insert(ctx, "blade_dept", map[string]any{"id": s.deptID, "parent_id": 0, "ancestors": "0", "dept_category": 1,
		"dept_name": "总部", "full_name": "Bluebird 总部", "sort": 1}); err != nil {
		return err
	}
	s.roleIDs = map[string]wire.ID{}
	for _, r := range seeddata.Roles {
		id, err := s.insert(ctx, "blade_role", map[string]any{"parent_id": 0, "role_name": r.Name.Zh, "sort": r.Sort, "role_alias": r.Alias})
		if err != nil {
			return err
		}
		s.roleIDs[r.Alias] = id
	}
	for _, p := range seeddata.Posts {
		if _, err := s.insert(ctx, "blade_post", map[string]any{"category": p.Category, "post_code": p.Code, "post_name": p.Name.Zh, "sort": p.Sort}); err != nil {
			return err
		}
	}
	if _, err = s.insert(ctx, "blade_user", map[string]any{"id": s.adminID, "code": "admin", "user_type": 1, "account": AdminAccount,
		"password": authn.HashPassword(authn.MD5Hex(AdminPass)), "name": "管理员", "real_name": "管理员", "email": "admin@bluebird.local",
		"sex": 1, "role_id": s.roleIDs["administrator"].String(), "dept_id": s.deptID.String()}); err != nil {
		return err
	}
	params := [][3]string{
		{"账号错误锁定次数", "account.failCount", "5"},
		{"账号初始密码", "account.initPassword", "123456"},
		{"是否开启注册功能", "account.registerUser", "true"},
		{"租户默认管理密码", "tenant.default.password", "admin"},
		{"租户默认账号额度", "tenant.default.accountNumber", "100"},
		{"租户默认菜单集合", "tenant.default.menuCode", defaultMenuCodes},
		logRetentionParam,
	}
	for _, p := range params {
		if _, err := s.insert(ctx, "blade_param", map[string]any{"param_name": p[0], "param_key": p[1], "param_value": p[2]}); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) dicts(ctx context.Context) error {
	for _, d := range seeddata.Dicts {
		if err := s.insertDict(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// insertDict inserts a system dictionary: its root and its items.
func (s *seeder) insertDict(ctx context.Context, d seeddata.Dict) error {
	root, err := s.insert(ctx, "blade_dict", map[string]any{"parent_id": 0, "code": d.Code, "dict_key": "-1",
		"dict_value": d.Name.Zh, "dict_value_en": d.Name.En, "sort": 0, "is_sealed": 0})
	if err != nil {
		return err
	}
	for i, item := range d.Items {
		if _, err := s.insert(ctx, "blade_dict", map[string]any{"parent_id": root, "code": d.Code, "dict_key": item.Key,
			"dict_value": item.Value.Zh, "dict_value_en": item.Value.En, "sort": i + 1, "remark": item.Remark, "is_sealed": 0}); err != nil {
			return err
		}
	}
	return nil
}

func (s *seeder) menus(ctx context.Context) error {
	s.menuIDs = map[string]wire.ID{}
	for _, m := range seeddata.Menus {
		if err := s.insertMenu(ctx, 0, m); err != nil {
			return err
		}
	}
	for _, t := range seeddata.TopMenus {
		tid, err := s.insert(ctx, "blade_top_menu", map[string]any{"code": t.Code, "name": t.Name.Zh, "name_en": t.Name.En,
			"source": t.Icon, "path": t.Path, "sort": t.Sort})
		if err != nil {
			return err
		}
		for _, code := range t.Menus {
			mid, ok := s.menuIDs[code]
			if !ok {
				return fmt.Errorf("top menu %s binds unknown menu %s", t.Code, code)
			}
			if err := db.InsertRow(ctx, s.tx, "blade_top_menu_setting", map[string]any{"id": db.NewID(), "top_menu_id": tid, "menu_id": mid}); err != nil {
				return err
			}
		}
	}
	// The platform tenant's admin role holds every menu; the user role the desk and my-tasks.
	if err := s.grant(ctx, s.roleIDs["admin"], s.allMenuIDs); err != nil {
		return err
	}
	var userMenus []wire.ID
	for _, m := range seeddata.Menus {
		if m.Code == "desk" || m.Code == "work" {
			userMenus = append(userMenus, subtreeIDs(m, s.menuIDs)...)
		}
	}
	return s.grant(ctx, s.roleIDs["user"], userMenus)
}

// grant gives a role menus.
func (s *seeder) grant(ctx context.Context, roleID wire.ID, menuIDs []wire.ID) error {
	for _, mid := range menuIDs {
		if err := db.InsertRow(ctx, s.tx, "blade_role_menu", map[string]any{"id": db.NewID(), "menu_id": mid, "role_id": roleID}); err != nil {
			return err
		}
	}
	return nil
}

// insertMenu inserts a seeded menu under parent with its buttons and children.
func (s *seeder) insertMenu(ctx context.Context, parent wire.ID, m seeddata.Menu) error {
	id, err := s.insert(ctx, "blade_menu", map[string]any{"parent_id": parent, "code": m.Code, "name": m.Name.Zh,
		"name_en": m.Name.En, "alias": m.Code, "path": m.Path, "source": m.Icon, "sort": m.Sort, "category": 1,
		"action": 0, "is_open": 1, "status": statusOf(m.Hidden)})
	if err != nil {
		return err
	}
	s.menuIDs[m.Code] = id
	s.allMenuIDs = append(s.allMenuIDs, id)
	for _, b := range m.Buttons {
		bid, err := s.insert(ctx, "blade_menu", map[string]any{"parent_id": id, "code": b.Code, "name": b.Name.Zh,
			"name_en": b.Name.En, "alias": b.Code, "path": "", "source": b.Icon, "sort": b.Sort, "category": 2,
			"action": b.Action, "is_open": 1})
		if err != nil {
			return err
		}
		s.menuIDs[b.Code] = bid
		s.allMenuIDs = append(s.allMenuIDs, bid)
	}
	for _, c := range m.Children {
		if err := s.insertMenu(ctx, id, c); err != nil {
			return err
		}
	}
	return nil
}

func subtreeIDs(m seeddata.Menu, ids map[string]wire.ID) []wire.ID {
	out := []wire.ID{ids[m.Code]}
	for _, b := range m.Buttons {
		out = append(out, ids[b.Code])
	}
	for _, c := range m.Children {
		out = append(out, subtreeIDs(c, ids)...)
	}
	return out
}

func statusOf(hidden bool) int {
	if hidden {
		return 0
	}
	return 1
}

func (s *seeder) regions(ctx context.Context) error {
	all, err := regiondata.All()
	if err != nil {
		return err
	}
	// One prepared statement for ~45,000 rows: parsing the SQL once is what
	// keeps the first start well under a second.
	q := "INSERT INTO blade_region (code, parent_code, ancestors, name, region_level, sort, remark) VALUES (?, ?, ?, ?, ?, ?, '')"
	if s.postgres {
		q = "INSERT INTO blade_region (code, parent_code, ancestors, name, region_level, sort, remark) VALUES ($1, $2, $3, $4, $5, $6, '')"
	}
	stmt, err := s.tx.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	defer stmt.Close()
	ancestors := map[string]string{"00": "00"}
	sortInParent := map[string]int{}
	for _, r := range all {
		anc := ancestors[r.ParentCode]
		ancestors[r.Code] = anc + "," + r.Code
		sortInParent[r.ParentCode]++
		if _, err := stmt.ExecContext(ctx, r.Code, r.ParentCode, anc, r.Name, r.Level, sortInParent[r.ParentCode]); err != nil {
			return fmt.Errorf("region %s: %w", r.Code, err)
		}
	}
	return nil
}
