package seeddata

import (
	"strconv"
	"strings"
	"testing"
)

// walk calls fn for every menu of the tree, depth first, with its parent (nil at the top).
func walk(menus []Menu, parent *Menu, fn func(m, parent *Menu)) {
	for i := range menus {
		m := &menus[i]
		fn(m, parent)
		walk(m.Children, m, fn)
	}
}

func checkI18n(t *testing.T, what string, v I18n) {
	t.Helper()
	if strings.TrimSpace(v.Zh) == "" || strings.TrimSpace(v.En) == "" {
		t.Errorf("%s: i18n text incomplete: %+v", what, v)
	}
}

func checkIcon(t *testing.T, what, icon string) {
	t.Helper()
	if !(strings.HasSuffix(icon, "Outlined") || strings.HasSuffix(icon, "Filled") || strings.HasSuffix(icon, "TwoTone")) {
		t.Errorf("%s: icon %q is not an antd icon component name", what, icon)
	}
}

// menusMD is the menus.md "Tree" table: code -> path. Paths are stable once shipped.
// social_provider (/system/social-provider) is here ahead of its menus.md row.
var menusMD = map[string]string{
	"desk": "/desk", "notice": "/desk/notice",
	"work": "/work", "work_start": "/work/start", "work_claim": "/work/claim", "work_todo": "/work/todo",
	"work_send": "/work/send", "work_done": "/work/done",
	"flow": "/flow", "flow_model": "/flow/model", "flow_deploy": "/flow/deploy", "flow_manager": "/flow/manager",
	"flow_follow": "/flow/follow",
	"system":      "/system", "user": "/system/user", "dept": "/system/dept", "post": "/system/post",
	"dict": "/system/dict", "dictbiz": "/system/dictbiz", "menu": "/system/menu", "topmenu": "/system/topmenu",
	"param": "/system/param", "tenant": "/system/tenant", "tenant_package": "/system/tenantpackage",
	"client": "/system/client", "social_provider": "/system/social-provider",
	"user_monitor": "/system/user/monitor/index", "user_log": "/system/user/log/index",
	"authority": "/authority", "role": "/authority/role", "data_scope": "/authority/datascope",
	"api_scope": "/authority/apiscope",
	"monitor":   "/monitor", "log_usual": "/monitor/log/usual", "log_api": "/monitor/log/api",
	"log_error": "/monitor/log/error", "goods_download": "/monitor/goods-download",
	"resource": "/resource", "oss": "/resource/oss", "sms": "/resource/sms", "attach": "/resource/attach",
	"tool": "/tool", "code": "/tool/code", "datasource": "/tool/datasource",
	"report": "/report/reportlist",
	"base":   "/base", "region": "/base/region",
	"office": "/office-manage", "team_member": "/office-manage/team-member", "news": "/office-manage/news",
	"cases": "/office-manage/cases", "training_videos": "/office-manage/training-videos",
	"offers": "/office-manage/offers", "message": "/office-manage/message",
	"website": "/website", "website_customer": "/website/customer", "website_user": "/website/user",
	"website_job": "/website/job",
	"basic":       "/basic", "material": "/basic/material", "unit_comparison": "/basic/unit-comparison",
	"brand": "/basic/brand", "code_rule": "/basic/code-rule",
	"product": "/product", "product_main": "/product/product", "product_section": "/product/section",
	"product_barcode": "/product/barcode", "print_tag": "/product/print-tag",
	"bom": "/bom", "product_bom": "/bom/product-bom", "project_bom": "/bom/project-bom",
	"quotation": "/quotation", "quotation_template": "/quotation/template", "quotation_bom": "/quotation/bom",
	"warehouse": "/warehouse", "warehouse_main": "/warehouse/warehouse", "warehouse_position": "/warehouse/position",
	"stock": "/stock", "material_stock": "/stock/material-stock", "material_in": "/stock/material-in",
	"material_in_other": "/stock/material-in-other", "material_out": "/stock/material-out",
	"material_out_other": "/stock/material-out-other", "production_picking": "/stock/production-picking",
	"back_stock": "/stock/back-stock", "material_transfer": "/stock/material-transfer",
	"borrow_repay": "/stock/borrow-repay", "material_check": "/stock/material-check",
	"product_stock": "/stock/product-stock", "product_in": "/stock/product-in", "product_out": "/stock/product-out",
	"product_transfer": "/stock/product-transfer",
	"production":       "/production", "produce_plan": "/production/plan", "tgprocess": "/production/tgprocess",
	"cost":     "/cost/account",
	"customer": "/customer", "customer_main": "/customer/customer",
	"customer_product_cabinet": "/customer/product-cabinet",
	"supplier":                 "/supplier/supplier",
	"purchase":                 "/purchase/order",
}

func TestMenusMatchBlueprint(t *testing.T) {
	seen := map[string]bool{}
	walk(Menus, nil, func(m, _ *Menu) {
		want, ok := menusMD[m.Code]
		if !ok {
			t.Errorf("menu %q is not in menus.md", m.Code)
			return
		}
		if m.Path != want {
			t.Errorf("menu %q: path %q, menus.md says %q", m.Code, m.Path, want)
		}
		seen[m.Code] = true
	})
	for code := range menusMD {
		if !seen[code] {
			t.Errorf("menus.md row %q is missing from Menus", code)
		}
	}
}

func TestCodesUnique(t *testing.T) {
	seen := map[string]string{}
	add := func(code, what string) {
		if code == "" {
			t.Errorf("%s: empty code", what)
			return
		}
		if prev, dup := seen[code]; dup {
			t.Errorf("code %q used by %s and %s", code, prev, what)
		}
		seen[code] = what
	}
	walk(Menus, nil, func(m, _ *Menu) {
		add(m.Code, "menu "+m.Code)
		for _, b := range m.Buttons {
			add(b.Code, "button of "+m.Code)
		}
	})
}

func TestMenuShape(t *testing.T) {
	walk(Menus, nil, func(m, parent *Menu) {
		what := "menu " + m.Code
		checkI18n(t, what, m.Name)
		checkIcon(t, what, m.Icon)
		if !strings.HasPrefix(m.Path, "/") {
			t.Errorf("%s: path %q does not start with /", what, m.Path)
		}
		if parent != nil && !strings.HasPrefix(m.Path, parent.Path+"/") {
			t.Errorf("%s: path %q is not under its parent %q", what, m.Path, parent.Path)
		}
		if m.Sort <= 0 {
			t.Errorf("%s: sort %d", what, m.Sort)
		}
		if len(m.Children) > 0 {
			if len(m.Buttons) > 0 {
				t.Errorf("%s: a group menu has buttons", what)
			}
			for i := 1; i < len(m.Children); i++ {
				if m.Children[i].Sort <= m.Children[i-1].Sort {
					t.Errorf("%s: children not sorted in table order at %q", what, m.Children[i].Code)
				}
			}
			return
		}
		// Leaf screen.
		hasView := false
		for i, b := range m.Buttons {
			bw := "button " + b.Code
			if !strings.HasPrefix(b.Code, m.Code+"_") {
				t.Errorf("%s: code does not start with %q", bw, m.Code+"_")
			}
			if b.Code == m.Code+"_view" {
				hasView = true
			}
			checkI18n(t, bw, b.Name)
			checkIcon(t, bw, b.Icon)
			if b.Action < actionNone || b.Action > actionBoth {
				t.Errorf("%s: action %d out of range", bw, b.Action)
			}
			if b.Sort <= 0 || (i > 0 && b.Sort <= m.Buttons[i-1].Sort) {
				t.Errorf("%s: sort %d not increasing", bw, b.Sort)
			}
		}
		if !hasView {
			t.Errorf("%s: leaf menu has no %s_view button", what, m.Code)
		}
	})
	for i := 1; i < len(Menus); i++ {
		if Menus[i].Sort <= Menus[i-1].Sort {
			t.Errorf("top-level menus not sorted at %q", Menus[i].Code)
		}
	}
}

func TestTopMenus(t *testing.T) {
	top := map[string]bool{}
	for _, m := range Menus {
		top[m.Code] = true
	}
	bound := map[string]string{}
	codes := map[string]bool{}
	for _, tm := range TopMenus {
		what := "top menu " + tm.Code
		if codes[tm.Code] {
			t.Errorf("%s: duplicate code", what)
		}
		codes[tm.Code] = true
		checkI18n(t, what, tm.Name)
		checkIcon(t, what, tm.Icon)
		switch tm.Code {
		case "000", "001":
			if tm.Path != "" {
				t.Errorf("%s: in-app top menu has path %q", what, tm.Path)
			}
		default:
			if !strings.HasSuffix(tm.Path, "/") || strings.HasPrefix(tm.Path, "/") {
				t.Errorf("%s: sibling app path %q should look like \"pdm/\"", what, tm.Path)
			}
		}
		for _, code := range tm.Menus {
			if !top[code] {
				t.Errorf("%s: bound menu %q is not a top-level menu", what, code)
			}
			if prev, dup := bound[code]; dup {
				t.Errorf("menu %q bound to top menus %s and %s", code, prev, tm.Code)
			}
			bound[code] = tm.Code
		}
	}
	for _, want := range []string{"000", "001", "002", "003", "004"} {
		if !codes[want] {
			t.Errorf("top menu %s missing", want)
		}
	}
	for code := range top {
		if _, ok := bound[code]; !ok {
			t.Errorf("top-level menu %q is bound to no top menu", code)
		}
	}
}

func TestDicts(t *testing.T) {
	codes := map[string]bool{}
	for _, d := range Dicts {
		what := "dict " + d.Code
		if d.Code == "" || codes[d.Code] {
			t.Errorf("%s: empty or duplicate code", what)
		}
		codes[d.Code] = true
		checkI18n(t, what, d.Name)
		if len(d.Items) == 0 {
			t.Errorf("%s: no items", what)
		}
		keys := map[string]bool{}
		for _, it := range d.Items {
			iw := what + " item " + it.Key
			if it.Key == "" || it.Key == "-1" {
				t.Errorf("%s: invalid key", iw)
			}
			if keys[it.Key] {
				t.Errorf("%s: duplicate key", iw)
			}
			keys[it.Key] = true
			checkI18n(t, iw, it.Value)
		}
	}
	for _, want := range []string{
		"menu_category", "button_func", "yes_no", "data_scope_type", "api_scope_type", "notice", "sex",
		"post_category", "org_category", "user_type", "oss", "sms", "flow", "flow_route", "taxRateType",
		"audit_status", "business_yes_no", "effective_status", "ready_state", "product_stock_state",
		"quotation_status", "produce_plan_status", "test_type", "unit", "warehouse_type", "check_status",
		"borrow_status", "document_type",
	} {
		if !codes[want] {
			t.Errorf("dictionary %q missing", want)
		}
	}
}

func TestFlowRouteCoversStartProcess(t *testing.T) {
	route := map[string]bool{}
	for _, d := range Dicts {
		if d.Code == "flow_route" {
			for _, it := range d.Items {
				route[it.Key] = true
				if it.Remark != "" {
					t.Errorf("flow_route %q: remark should start empty", it.Key)
				}
			}
		}
	}
	for _, key := range []string{
		"material", "unit_comparison", "borrow_repay", "customer", "supplier", "product", "brand",
		"bom_version", "product_bom_version", "quotation_bom_version", "code_rule", "tgprocess",
		"warehouse", "back_stock", "purchase_order", "material_out",
	} {
		if !route[key] {
			t.Errorf("flow_route has no entry for %q", key)
		}
	}
}

func TestRolesAndPosts(t *testing.T) {
	aliases := map[string]bool{}
	for _, r := range Roles {
		checkI18n(t, "role "+r.Alias, r.Name)
		aliases[r.Alias] = true
	}
	for _, want := range []string{"administrator", "admin", "user"} {
		if !aliases[want] {
			t.Errorf("role %q missing", want)
		}
	}
	postCategory := dictKeys("post_category")
	codes := map[string]bool{}
	for _, p := range Posts {
		checkI18n(t, "post "+p.Code, p.Name)
		if p.Code == "" || codes[p.Code] {
			t.Errorf("post %q: empty or duplicate code", p.Code)
		}
		codes[p.Code] = true
		if !postCategory[strconv.Itoa(p.Category)] {
			t.Errorf("post %q: category %d is not a post_category key", p.Code, p.Category)
		}
	}
}

// dictKeys is the set of item keys of a system dictionary.
func dictKeys(code string) map[string]bool {
	keys := map[string]bool{}
	for _, d := range Dicts {
		if d.Code == code {
			for _, it := range d.Items {
				keys[it.Key] = true
			}
		}
	}
	return keys
}

// TestButtonFuncCoversActions: the menu form shows action through button_func,
// so every action of api-contract.md §4 (0 none, 1 toolbar, 2 row, 3 both) is a
// key, 0 included: the seeded menus (category 1) have action 0.
func TestButtonFuncCoversActions(t *testing.T) {
	keys := dictKeys("button_func")
	for a := actionNone; a <= actionBoth; a++ {
		if !keys[strconv.Itoa(a)] {
			t.Errorf("button_func has no key %d", a)
		}
	}
	walk(Menus, nil, func(m, _ *Menu) {
		for _, b := range m.Buttons {
			if !keys[strconv.Itoa(b.Action)] {
				t.Errorf("button %s: action %d is not a button_func key", b.Code, b.Action)
			}
		}
	})
}
