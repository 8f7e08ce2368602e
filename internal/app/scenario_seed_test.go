package app_test

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/seed"
)

// menuRow is a node of menu/list, routes and buttons.
type menuRow struct {
	ID       string    `json:"id"`
	ParentID string    `json:"parentId"`
	Code     string    `json:"code"`
	Path     string    `json:"path"`
	Source   string    `json:"source"`
	Category int       `json:"category"`
	Action   int       `json:"action"`
	Children []menuRow `json:"children"`
}

// menuRows reads a menu tree endpoint into code -> row.
func menuRows(t *testing.T, c *apptest.Client, path string) map[string]menuRow {
	t.Helper()
	var tree []menuRow
	c.Get(path, nil).OK(t, &tree)
	out := map[string]menuRow{}
	var walk func([]menuRow)
	walk = func(ns []menuRow) {
		for _, n := range ns {
			out[n.Code] = n
			walk(n.Children)
		}
	}
	walk(tree)
	return out
}

func dictKeys(t *testing.T, c *apptest.Client, code string) map[string]bool {
	t.Helper()
	var items []struct {
		DictKey string `json:"dictKey"`
	}
	c.Get("/api/blade-system/dict/dictionary", apptest.Q("code", code)).OK(t, &items)
	out := map[string]bool{}
	for _, it := range items {
		out[it.DictKey] = true
	}
	return out
}

var socialButtons = []string{"social_provider_add", "social_provider_edit", "social_provider_delete", "social_provider_view"}

// TestButtonFuncCoversMenuActions: the menu form's action select (button_func)
// has a key for the action of every seeded menu and button, 0 included.
func TestButtonFuncCoversMenuActions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		keys := dictKeys(t, admin, "button_func")
		for _, k := range []string{"0", "1", "2", "3"} {
			if !keys[k] {
				t.Errorf("button_func lacks key %s: %v", k, keys)
			}
		}
		for code, m := range menuRows(t, admin, "/api/blade-system/menu/list") {
			if !keys[strconv.Itoa(m.Action)] {
				t.Errorf("menu %s: action %d is not a button_func key", code, m.Action)
			}
		}
	})
}

// TestSocialProviderMenu: the social-login screen is seeded under system
// management with its buttons, and a tenant package and a role grant can hold it.
func TestSocialProviderMenu(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		rows := menuRows(t, admin, "/api/blade-system/menu/list")
		sp, system := rows["social_provider"], rows["system"]
		if sp.ID == "" || sp.ParentID != system.ID || sp.Path != "/system/social-provider" || sp.Source == "" || sp.Category != 1 {
			t.Fatalf("social_provider menu: %+v (system %s)", sp, system.ID)
		}
		ids := []string{sp.ID}
		for _, b := range socialButtons {
			if rows[b].ParentID != sp.ID || rows[b].Category != 2 {
				t.Errorf("button %s: %+v", b, rows[b])
			}
			ids = append(ids, rows[b].ID)
		}

		// A package with only the social-login screen; its tenant's admin gets it.
		var pkg struct {
			ID string `json:"id"`
		}
		admin.PostJSON("/api/blade-system/tenant-package/submit", map[string]any{"packageName": "Social only",
			"menuId": strings.Join(ids, ",")}).OK(t, &pkg)
		var tenant struct {
			TenantID string `json:"tenantId"`
		}
		admin.PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": "Social Co", "linkman": "x",
			"packageId": pkg.ID}).OK(t, &tenant)
		ta := h.Login(tenant.TenantID, "admin", "admin")
		if got := sortedCodes(menuRows(t, ta, "/api/blade-system/menu/routes")); got != "social_provider,system" {
			t.Errorf("tenant admin routes: %s", got)
		}
		buttons := menuRows(t, ta, "/api/blade-system/menu/buttons")
		for _, b := range socialButtons {
			if _, ok := buttons[b]; !ok {
				t.Errorf("tenant admin lacks button %s", b)
			}
		}
		ta.Get("/api/blade-auth/social-provider/list", nil).OK(t, nil)

		// The tenant admin grants the screen, read-only, to a role of its own.
		var role struct {
			ID string `json:"id"`
		}
		ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "审计", "roleAlias": "auditor", "sort": 2}).OK(t, &role)
		ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role.ID},
			"menuIds": []string{sp.ID, rows["social_provider_view"].ID}}).OK(t, nil)
		var keys struct {
			Menu []string `json:"menu"`
		}
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", role.ID)).OK(t, &keys)
		sort.Strings(keys.Menu)
		want := []string{sp.ID, rows["social_provider_view"].ID}
		sort.Strings(want)
		if strings.Join(keys.Menu, ",") != strings.Join(want, ",") {
			t.Errorf("role grant keys: %v, want %v", keys.Menu, want)
		}
		_, deptID := adminIDs(t, ta)
		newUser(t, ta, "auditor1", "secret1", role.ID, deptID)
		auditor := h.Login(tenant.TenantID, "auditor1", "secret1")
		if got := sortedCodes(menuRows(t, auditor, "/api/blade-system/menu/routes")); got != "social_provider,system" {
			t.Errorf("auditor routes: %s", got)
		}
		if b := menuRows(t, auditor, "/api/blade-system/menu/buttons"); len(b) == 0 || b["social_provider_add"].ID != "" {
			t.Errorf("auditor buttons: %v", sortedCodes(b))
		}
	})
}

func sortedCodes(m map[string]menuRow) string {
	out := make([]string, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// TestSeedUpgradeAddsSocialProvider: a database seeded before the social
// login menu and the button_func key 0 gets both at the next start, once;
// what an administrator removed stays removed.
func TestSeedUpgradeAddsSocialProvider(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		d := h.App.DB
		// back to seed version 1: no social login menu, no button_func 0
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.NewRaw(q, args...).Exec(ctx); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		exec("DELETE FROM blade_role_menu WHERE menu_id IN (SELECT id FROM blade_menu WHERE code LIKE 'social_provider%')")
		exec("DELETE FROM blade_menu WHERE code LIKE 'social_provider%'")
		exec("DELETE FROM blade_dict WHERE code = 'button_func' AND dict_key = '0'")
		exec("UPDATE bb_setting SET setting_value = '1' WHERE setting_key = 'seed.version'")
		admin := h.Admin()
		admin.Get("/api/blade-auth/oauth/clear-cache", nil).OK(t, nil)
		if _, ok := menuRows(t, admin, "/api/blade-system/menu/list")["social_provider"]; ok {
			t.Fatal("the menu is still there")
		}

		for range 2 { // a second start finds the version current and adds nothing
			if err := seed.Run(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		admin.Get("/api/blade-auth/oauth/clear-cache", nil).OK(t, nil)
		rows := menuRows(t, admin, "/api/blade-system/menu/list")
		if sp := rows["social_provider"]; sp.ParentID != rows["system"].ID || sp.Path != "/system/social-provider" {
			t.Fatalf("upgraded social_provider menu: %+v", sp)
		}
		n, err := d.NewSelect().Table("blade_menu").Where("code LIKE 'social_provider%'").Count(ctx)
		if err != nil || int(n) != 1+len(socialButtons) {
			t.Fatalf("social_provider rows after two starts: %d %v", n, err)
		}
		if !dictKeys(t, admin, "button_func")["0"] {
			t.Error("button_func 0 not added")
		}
		// the platform admin role holds it, as every seeded menu
		var held int
		if err := d.NewRaw(`SELECT COUNT(*) FROM blade_role_menu rm JOIN blade_role r ON r.id = rm.role_id
			JOIN blade_menu m ON m.id = rm.menu_id WHERE r.tenant_id = '000000' AND r.role_alias = 'admin'
			AND m.code LIKE 'social_provider%'`).Scan(ctx, &held); err != nil || held != 1+len(socialButtons) {
			t.Errorf("admin role holds %d social_provider menus (%v)", held, err)
		}

		// removed by an administrator: an upgrade does not bring it back
		removed := []string{rows["social_provider"].ID}
		for _, b := range socialButtons {
			removed = append(removed, rows[b].ID)
		}
		admin.Post("/api/blade-system/menu/remove", apptest.Q("ids", strings.Join(removed, ","))).OK(t, nil)
		exec("UPDATE bb_setting SET setting_value = '1' WHERE setting_key = 'seed.version'")
		if err := seed.Run(ctx, d); err != nil {
			t.Fatal(err)
		}
		admin.Get("/api/blade-auth/oauth/clear-cache", nil).OK(t, nil)
		if _, ok := menuRows(t, admin, "/api/blade-system/menu/list")["social_provider"]; ok {
			t.Error("an upgrade brought back a removed menu")
		}
	})
}

// TestSeedUpgradeAddsImportButtons: a database seeded before the Import
// buttons gets them at the next start, once, held by the roles that may add
// on the screen (a tenant's administrator among them) and by no other.
func TestSeedUpgradeAddsImportButtons(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		d := h.App.DB
		_, ta := h.NewTenant("Import Co")
		var clerk struct {
			ID string `json:"id"`
		}
		ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "查看", "roleAlias": "viewer", "sort": 2}).OK(t, &clerk)
		rows := menuRows(t, h.Admin(), "/api/blade-system/menu/list")
		ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{clerk.ID},
			"menuIds": []string{rows["basic"].ID, rows["material"].ID, rows["material_view"].ID}}).OK(t, nil)

		// back to seed version 4: no import buttons
		for _, q := range []string{
			"DELETE FROM blade_role_menu WHERE menu_id IN (SELECT id FROM blade_menu WHERE code LIKE '%\\_import' ESCAPE '\\')",
			"DELETE FROM blade_menu WHERE code LIKE '%\\_import' ESCAPE '\\'",
			"UPDATE bb_setting SET setting_value = '4' WHERE setting_key = 'seed.version'",
		} {
			if _, err := d.NewRaw(q).Exec(ctx); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		for range 2 { // the second start adds nothing
			if err := seed.Run(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		h.Admin().Get("/api/blade-auth/oauth/clear-cache", nil).OK(t, nil)
		rows = menuRows(t, h.Admin(), "/api/blade-system/menu/list")
		for _, code := range []string{"material", "brand", "warehouse_main", "customer_main", "supplier"} {
			n, err := d.NewSelect().Table("blade_menu").Where("code = ? AND parent_id = ?", code+"_import", rows[code].ID).Count(ctx)
			if err != nil || n != 1 {
				t.Errorf("%s_import rows under %s: %d %v", code, code, n, err)
			}
		}
		buttons := menuRows(t, ta, "/api/blade-system/menu/buttons")
		if _, ok := buttons["material_import"]; !ok {
			t.Error("the tenant's administrator lacks material_import")
		}
		var held int
		if err := d.NewRaw(`SELECT COUNT(*) FROM blade_role_menu rm JOIN blade_menu m ON m.id = rm.menu_id
			WHERE rm.role_id = ? AND m.code = 'material_import'`, clerk.ID).Scan(ctx, &held); err != nil || held != 0 {
			t.Errorf("a role that may not add holds material_import: %d %v", held, err)
		}
	})
}
