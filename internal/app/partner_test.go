package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

const (
	customerPath     = "/api/bluebird-basic/customermain"
	supplierPath     = "/api/bluebird-basic/suppliermain"
	priceLinePath    = "/api/bluebird-basic/supplierdetail"
	partnerRulePath  = "/api/bluebird-basic/coderulenew"
	partnerSegPath   = "/api/bluebird-basic/coderuledetail"
	partnerProcesses = "/api/bluebird-basic/tgprocess"
)

func init() {
	// price lines have no submit of their own: one arises with its supplier
	readOnlyCreators["bluebird-basic/supplierdetail"] = func(t *testing.T, c *apptest.Client) string {
		s := partnerSupplier(t, c, "", map[string]any{"materialId": partnerMaterial(t, c, "")})
		return s.Details[0].ID
	}
}

type partnerCustomer struct {
	ID           string  `json:"id"`
	Version      int     `json:"version"`
	Status       int     `json:"status"`
	CustomerCode string  `json:"customerCode"`
	CustomerName string  `json:"customerName"`
	IsEffective  int     `json:"isEffective"`
	CreditLimit  *string `json:"creditLimit"`
	SalesmanID   string  `json:"salesmanId"`
	Email        string  `json:"email"`
}

type partnerPriceLine struct {
	ID                string  `json:"id"`
	SupplierID        string  `json:"supplierId"`
	MaterialID        string  `json:"materialId"`
	UnitPrice         *string `json:"unitPrice"`
	TaxRate           *string `json:"taxRate"`
	MinOrderQty       *string `json:"minOrderQty"`
	Currency          string  `json:"currency"`
	IsDefault         int     `json:"isDefault"`
	ValidFrom         *string `json:"validFrom"`
	ValidTo           *string `json:"validTo"`
	MaterialCode      string  `json:"materialCode"`
	MaterialName      string  `json:"materialName"`
	Spec              string  `json:"spec"`
	Unit              string  `json:"unit"`
	LastPurchasePrice *string `json:"lastPurchasePrice"`
	IsDerived         bool    `json:"isDerived"`
}

type partnerSupplierRow struct {
	ID           string             `json:"id"`
	Version      int                `json:"version"`
	Status       int                `json:"status"`
	SupplierCode string             `json:"supplierCode"`
	Rating       int                `json:"rating"`
	Details      []partnerPriceLine `json:"details"`
}

type partnerOutcome struct {
	ID          string `json:"id"`
	AuditStatus int    `json:"auditStatus"`
	ProcessID   string `json:"processId"`
}

// partnerMaterial creates a material of c's tenant (code random when "") and returns its id.
func partnerMaterial(t *testing.T, c *apptest.Client, code string) string {
	t.Helper()
	if code == "" {
		code = "M" + randomWord(8)
	}
	var m struct {
		ID string `json:"id"`
	}
	c.PostJSON("/api/bluebird-basic/material/submit", map[string]any{"materialCode": code, "materialName": "物料" + code,
		"spec": "spec-" + code, "unit": "pcs"}).OK(t, &m)
	return m.ID
}

// partnerSupplier creates a supplier with the given price lines (code random when "").
func partnerSupplier(t *testing.T, c *apptest.Client, code string, lines ...map[string]any) partnerSupplierRow {
	t.Helper()
	if code == "" {
		code = "S" + randomWord(8)
	}
	var s partnerSupplierRow
	c.PostJSON(supplierPath+"/submit", map[string]any{"supplierCode": code, "supplierName": "供应商" + code, "details": lines}).OK(t, &s)
	return s
}

func partnerNewCustomer(t *testing.T, c *apptest.Client, code string) partnerCustomer {
	t.Helper()
	var cu partnerCustomer
	c.PostJSON(customerPath+"/submit", map[string]any{"customerCode": code, "customerName": "客户" + code}).OK(t, &cu)
	return cu
}

// partnerFieldErrors decodes the field messages of a refusal.
func partnerFieldErrors(r *apptest.Resp) map[string]string {
	var fields map[string]string
	_ = json.Unmarshal(r.Env.Data, &fields)
	return fields
}

// partnerRefused asserts a 400 whose data names field and returns the message.
func partnerRefused(t *testing.T, r *apptest.Resp, field string) string {
	t.Helper()
	msg := r.Fail(t, 400)
	if partnerFieldErrors(r)[field] == "" {
		t.Fatalf("the refusal does not name %s: %s", field, r.Body)
	}
	return msg
}

// TestPartnerEndpoints: every partner endpoint of spec.md §7 is routed, and
// an empty or malformed request answers a 4xx (an empty list is a page).
func TestPartnerEndpoints(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, admin := h.NewTenant("Endpoints Co")
		var eps [][2]string
		for _, line := range strings.Split(partnerEndpointLines(t), "\n") {
			method, path, ok := strings.Cut(strings.TrimSpace(line), " ")
			if ok && (strings.HasPrefix(path, customerPath+"/") || strings.HasPrefix(path, supplierPath+"/") || strings.HasPrefix(path, priceLinePath+"/")) {
				eps = append(eps, [2]string{method, path})
			}
		}
		if len(eps) != 11 {
			t.Fatalf("%d partner endpoints in endpoints.txt, want 11", len(eps))
		}
		for _, c := range []*apptest.Client{admin, h.Admin()} {
			for _, ep := range eps {
				method, path := ep[0], ep[1]
				r, ok := routed(c, method, path)
				if !ok {
					t.Errorf("%s %s is not routed", method, path)
					continue
				}
				if strings.HasSuffix(path, "/list") {
					r.OK(t, nil)
				} else if r.Status < 400 || r.Status >= 500 {
					t.Errorf("%s %s empty: %d %s", method, path, r.Status, r.Body)
				}
				mal := path + "?id=x&ids=1,,zz&current=-1&size=abc&supplierId=%27"
				if method == "POST" {
					r = c.Do(method, mal, strings.NewReader(`{"id": [1, 2}`), nil)
				} else {
					r = c.Do(method, mal, nil, nil)
				}
				if r.Status < 400 || r.Status >= 500 {
					t.Errorf("%s %s malformed: %d %s", method, path, r.Status, r.Body)
				}
			}
			// a submit with a wrongly typed field or line
			c.PostJSON(customerPath+"/submit", `{"customerCode":"X","customerName":"X","creditLimit":"abc"}`).Fail(t, 400)
			c.PostJSON(supplierPath+"/submit", `{"supplierCode":"X","supplierName":"X","details":{"materialId":"1"}}`).Fail(t, 400)
			c.PostJSON(supplierPath+"/submit", `{"supplierCode":"X","supplierName":"X","details":[{"materialId":"zz"}]}`).Fail(t, 400)
		}
	})
}

func partnerEndpointLines(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/endpoints.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCustomerLifecycle: a customer is created, edited, submitted for
// approval (approved at once, with its record and log), then kept from
// removal; refusals name the row; the customer screen has no void action.
func TestCustomerLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Customer A")
		_, b := h.NewTenant("Customer B")
		userID, _ := a.Login["user_id"].(string)
		var c partnerCustomer
		a.PostJSON(customerPath+"/submit", map[string]any{"customerCode": "C001", "customerName": "Acme", "customerType": 1,
			"contactPhone": "+86 (21) 5555-0100", "email": "buyer@acme.example", "creditLimit": "12345678901234.5678",
			"salesmanId": userID, "status": 3}).OK(t, &c)
		if c.Status != 1 || c.IsEffective != 2 || c.CreditLimit == nil || *c.CreditLimit != "12345678901234.5678" || c.SalesmanID != userID {
			t.Fatalf("created %+v", c)
		}
		var got partnerCustomer
		a.Get(customerPath+"/detail", apptest.Q("id", c.ID)).OK(t, &got)
		if *got.CreditLimit != "12345678901234.5678" || got.Email != "buyer@acme.example" {
			t.Fatalf("detail %+v", got)
		}
		// field rules, each a 400 naming the field
		for field, v := range map[string]any{"email": "not an email", "contactPhone": "call Bob", "creditLimit": "-1", "isEffective": 3} {
			body := map[string]any{"customerCode": "C9", "customerName": "x", field: v}
			partnerRefused(t, a.PostJSON(customerPath+"/submit", body), field)
		}
		partnerRefused(t, a.PostJSON(customerPath+"/submit", map[string]any{"customerCode": "C9", "customerName": "x", "creditLimit": "1.23456"}), "creditLimit")
		partnerRefused(t, a.PostJSON(customerPath+"/submit", map[string]any{"customerCode": "C9"}), "customerName")
		a.Lang = "en"
		if msg := partnerRefused(t, a.PostJSON(customerPath+"/submit", map[string]any{"customerCode": "C9", "customerName": "x", "email": "x@"}), "email"); msg != "Email is not a valid e-mail address" {
			t.Errorf("English email message %q", msg)
		}
		a.Lang = ""
		if msg := a.PostJSON(customerPath+"/submit", map[string]any{"customerCode": "C001", "customerName": "again"}).Fail(t, 400); !strings.Contains(msg, "已存在") {
			t.Errorf("duplicate code: %q", msg)
		}
		// another tenant may use the same code, and neither reads, edits, approves nor removes A's
		partnerNewCustomer(t, b, "C001")
		if pageHas(t, b, customerPath+"/list", c.ID) {
			t.Fatal("tenant B lists A's customer")
		}
		b.Get(customerPath+"/detail", apptest.Q("id", c.ID)).Fail(t, 404)
		b.PostJSON(customerPath+"/submit", map[string]any{"id": c.ID, "version": 1, "customerName": "taken"}).Fail(t, 404)
		b.Post(customerPath+"/startProcess", apptest.Q("ids", c.ID)).Fail(t, 404)
		b.Post(customerPath+"/remove", apptest.Q("ids", c.ID)).Fail(t, 404)
		// a salesperson of another tenant cannot be named
		bUser, _ := b.Login["user_id"].(string)
		partnerRefused(t, a.Edit(customerPath+"/submit", map[string]any{"id": c.ID, "salesmanId": bUser}), "salesmanId")

		a.Edit(customerPath+"/submit", map[string]any{"id": c.ID, "customerName": "Acme Ltd", "creditLimit": "0.5"}).OK(t, &got)
		if got.CustomerName != "Acme Ltd" || *got.CreditLimit != "0.5000" || got.Status != 1 {
			t.Fatalf("edited %+v", got)
		}

		// submit for approval: approved at once, with a record and its log
		var out []partnerOutcome
		a.Post(customerPath+"/startProcess", apptest.Q("ids", c.ID)).OK(t, &out)
		if len(out) != 1 || out[0].ID != c.ID || out[0].AuditStatus != 3 || out[0].ProcessID == "" {
			t.Fatalf("startProcess answered %+v", out)
		}
		a.Get(customerPath+"/detail", apptest.Q("id", c.ID)).OK(t, &got)
		if got.Status != 3 {
			t.Fatalf("status after approval %d", got.Status)
		}
		var procs apptest.Page[struct {
			ID      string `json:"id"`
			BizType string `json:"bizType"`
			BizID   string `json:"bizId"`
			BizNo   string `json:"bizNo"`
			Title   string `json:"title"`
		}]
		a.Get(partnerProcesses+"/page", apptest.Q("bizType", "CUSTOMER")).OK(t, &procs)
		if len(procs.Records) != 1 || procs.Records[0].ID != out[0].ProcessID || procs.Records[0].BizID != c.ID ||
			procs.Records[0].BizNo != "C001" || !strings.Contains(procs.Records[0].Title, "Acme Ltd") {
			t.Fatalf("approval records %+v", procs.Records)
		}
		var proc struct {
			Details []struct {
				Action int `json:"action"`
			} `json:"details"`
		}
		a.Get(partnerProcesses+"/detail", apptest.Q("id", out[0].ProcessID)).OK(t, &proc)
		if len(proc.Details) != 2 || proc.Details[0].Action != 1 || proc.Details[1].Action != 2 {
			t.Fatalf("approval log %+v", proc.Details)
		}
		b.Get(partnerProcesses+"/detail", apptest.Q("id", out[0].ProcessID)).Fail(t, 404)

		// state refusals name the row
		if msg := a.Post(customerPath+"/startProcess", apptest.Q("ids", c.ID)).Fail(t, 400); msg != "C001 当前状态为「已审批」,不能提交审批" {
			t.Errorf("second submission: %q", msg)
		}
		if msg := a.Post(customerPath+"/remove", apptest.Q("ids", c.ID)).Fail(t, 400); msg != "C001 当前状态为「已审批」,不能删除" {
			t.Errorf("removal of an approved customer: %q", msg)
		}
		// approved master data is corrected by editing; the screen has no
		// void button (menus.go), so no cancellation is declared or routed
		a.Edit(customerPath+"/submit", map[string]any{"id": c.ID, "contactName": "Ms Li"}).OK(t, nil)
		if r, ok := routed(a, "POST", customerPath+"/cancellation?ids="+c.ID); ok {
			t.Errorf("cancellation is routed: %d %s", r.Status, r.Body)
		}
		var meta struct {
			Commands []struct {
				Name       string `json:"name"`
				Permission string `json:"permission"`
			} `json:"commands"`
			Number struct {
				BizType string `json:"bizType"`
				Manual  bool   `json:"manual"`
			} `json:"number"`
			Lookup struct {
				URL string `json:"url"`
			} `json:"lookup"`
		}
		a.Get("/api/meta/resource", apptest.Q("name", "bluebird-basic/customermain")).OK(t, &meta)
		if len(meta.Commands) != 1 || meta.Commands[0].Name != "startProcess" || meta.Commands[0].Permission != "customer_main_start_process" ||
			meta.Number.BizType != "CUS" || !meta.Number.Manual || meta.Lookup.URL != customerPath+"/list" {
			t.Errorf("metadata %+v", meta)
		}
		// a draft is removed
		draft := partnerNewCustomer(t, a, "C002")
		a.Post(customerPath+"/remove", apptest.Q("ids", draft.ID)).OK(t, nil)
		a.Get(customerPath+"/detail", apptest.Q("id", draft.ID)).Fail(t, 404)
		// the lookup's keyword searches code and name
		var found apptest.Page[partnerCustomer]
		a.Get(customerPath+"/list", apptest.Q("keyword", "acme")).OK(t, &found)
		if len(found.Records) != 1 || found.Records[0].ID != c.ID {
			t.Errorf("keyword search %+v", found.Records)
		}
	})
}

// TestCustomerStartProcessButton: a user of the tenant runs startProcess
// only with the menu's button.
func TestCustomerStartProcessButton(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, admin := h.NewTenant("Buttons Co")
		var roles, depts []map[string]any
		admin.Get("/api/blade-system/role/list", nil).OK(t, &roles)
		admin.Get("/api/blade-system/dept/list", nil).OK(t, &depts)
		role := newRole(t, admin, "业务员", "sales")
		newUser(t, admin, "sales1", castPassword, role, depts[0]["id"].(string))
		clerk := h.Login(admin.Login["tenant_id"].(string), "sales1", castPassword)
		c := partnerNewCustomer(t, clerk, "C100")
		clerk.Post(customerPath+"/startProcess", apptest.Q("ids", c.ID)).Fail(t, 403)
		menus := soMenuIDs(t, admin)
		admin.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role},
			"menuIds": []string{menus["customer"], menus["customer_main"], menus["customer_main_start_process"]}}).OK(t, nil)
		clerk.Post(customerPath+"/startProcess", apptest.Q("ids", c.ID)).OK(t, nil)
	})
}

// partnerCodeRule makes an effective rule "<prefix>-0001" for bizType in c's tenant and returns its id.
func partnerCodeRule(t *testing.T, c *apptest.Client, bizType, prefix string, allowManual int) string {
	t.Helper()
	var rule map[string]any
	c.PostJSON(partnerRulePath+"/submit", map[string]any{"ruleCode": bizType + "_RULE", "ruleName": bizType, "bizType": bizType,
		"isEffective": 1, "allowManual": allowManual}).OK(t, &rule)
	id := rule["id"].(string)
	c.PostJSON(partnerSegPath+"/submit", map[string]any{"ruleId": id, "seq": 1, "segmentType": 1, "fixedValue": prefix, "separator": "-"}).OK(t, nil)
	c.PostJSON(partnerSegPath+"/submit", map[string]any{"ruleId": id, "seq": 2, "segmentType": 3, "serialLength": 4}).OK(t, nil)
	c.Edit(partnerRulePath+"/submit", map[string]any{"id": id, "isEffective": 2}).OK(t, nil)
	return id
}

// TestPartnerCodesFromRules: without a CUS or SUP rule the code is typed;
// with one a blank code is issued, and a typed one is kept only where the
// rule allows it.
func TestPartnerCodesFromRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Codes Co")
		if msg := partnerRefused(t, a.PostJSON(customerPath+"/submit", map[string]any{"customerName": "no code"}), "customerCode"); msg != "请输入客户编号" {
			t.Errorf("no rule, no code: %q", msg)
		}
		partnerNewCustomer(t, a, "TYPED-1")
		rule := partnerCodeRule(t, a, "CUS", "CUS", 2)
		var c partnerCustomer
		a.PostJSON(customerPath+"/submit", map[string]any{"customerName": "issued"}).OK(t, &c)
		if c.CustomerCode != "CUS-0001" {
			t.Errorf("issued %q", c.CustomerCode)
		}
		a.PostJSON(customerPath+"/submit", map[string]any{"customerName": "typed", "customerCode": "HAND-1"}).OK(t, &c)
		if c.CustomerCode != "HAND-1" {
			t.Errorf("typed %q", c.CustomerCode)
		}
		a.Edit(partnerRulePath+"/submit", map[string]any{"id": rule, "allowManual": 1}).OK(t, nil)
		if msg := partnerRefused(t, a.PostJSON(customerPath+"/submit", map[string]any{"customerName": "typed", "customerCode": "HAND-2"}), "customerCode"); msg != "客户编号由编码规则生成,不能手工填写" {
			t.Errorf("typed where the rule forbids: %q", msg)
		}
		a.PostJSON(customerPath+"/submit", map[string]any{"customerName": "issued"}).OK(t, &c)
		if c.CustomerCode != "CUS-0002" {
			t.Errorf("second issued %q", c.CustomerCode)
		}
		partnerCodeRule(t, a, "SUP", "SUP", 1)
		var s partnerSupplierRow
		a.PostJSON(supplierPath+"/submit", map[string]any{"supplierName": "issued"}).OK(t, &s)
		if s.SupplierCode != "SUP-0001" {
			t.Errorf("issued supplier code %q", s.SupplierCode)
		}
	})
}

// TestSupplierPriceLines: a supplier's submit carries its price lines
// (exact decimals, defaults, diff on edit, line-numbered refusals), mixList
// joins the material master, and another tenant can neither read nor
// change them nor use a material of another tenant.
func TestSupplierPriceLines(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Supplier A")
		_, b := h.NewTenant("Supplier B")
		m1, m2, m3 := partnerMaterial(t, a, "M001"), partnerMaterial(t, a, "M002"), partnerMaterial(t, a, "M003")
		s := partnerSupplier(t, a, "S001",
			map[string]any{"materialId": m1, "unitPrice": "12345678901234.5678", "taxRate": "13", "minOrderQty": "0.000001",
				"leadTimeDays": 7, "validFrom": "2026-01-01", "validTo": "2026-12-31"},
			map[string]any{"materialId": m2, "unitPrice": "0.5", "currency": "USD", "isDefault": 2})
		if s.Status != 1 || len(s.Details) != 2 {
			t.Fatalf("created %+v", s)
		}
		l1, l2 := s.Details[0], s.Details[1]
		if *l1.UnitPrice != "12345678901234.5678" || *l1.TaxRate != "13.0000" || *l1.MinOrderQty != "0.000001" || l1.Currency != "CNY" ||
			l1.IsDefault != 1 || l1.SupplierID != s.ID || *l1.ValidFrom != "2026-01-01 00:00:00" {
			t.Errorf("line 1 %+v", l1)
		}
		if *l2.UnitPrice != "0.5000" || l2.TaxRate != nil || l2.Currency != "USD" || l2.IsDefault != 2 {
			t.Errorf("line 2 %+v", l2)
		}
		// keep line 1 with a new price, drop line 2, add a line for M003
		var got partnerSupplierRow
		a.Edit(supplierPath+"/submit", map[string]any{"id": s.ID, "rating": 5, "details": []map[string]any{
			{"id": l1.ID, "unitPrice": "99999999999999.9999"}, {"materialId": m3, "unitPrice": "1"},
		}}).OK(t, &got)
		if len(got.Details) != 2 || got.Details[0].ID != l1.ID || *got.Details[0].UnitPrice != "99999999999999.9999" ||
			*got.Details[0].TaxRate != "13.0000" || got.Details[1].MaterialID != m3 || got.Rating != 5 {
			t.Fatalf("after the edit %+v", got)
		}
		// the supplier's own and its lines' rules, each naming the line
		for _, tc := range []struct {
			lines []map[string]any
			key   string
		}{
			{[]map[string]any{{"materialId": m1}, {"materialId": m1}}, "details[1]"},
			{[]map[string]any{{"unitPrice": "1"}}, "details[0].materialId"},
			{[]map[string]any{{"materialId": m1, "unitPrice": "-0.0001"}}, "details[0].unitPrice"},
			{[]map[string]any{{"materialId": m1, "unitPrice": "1.00001"}}, "details[0].unitPrice"},
			{[]map[string]any{{"materialId": m1, "taxRate": "100.5"}}, "details[0].taxRate"},
			{[]map[string]any{{"materialId": m1, "isDefault": 3}}, "details[0].isDefault"},
			{[]map[string]any{{"materialId": m1, "validFrom": "2026-02-01", "validTo": "2026-01-31"}}, "details[0].validTo"},
			{[]map[string]any{{"materialId": m1}, {"materialId": "1"}}, "details[1].materialId"},
		} {
			r := a.PostJSON(supplierPath+"/submit", map[string]any{"supplierCode": "S9", "supplierName": "x", "details": tc.lines})
			msg := partnerRefused(t, r, tc.key)
			if want := fmt.Sprintf("第%c行", tc.key[8]+1); !strings.HasPrefix(msg, want) {
				t.Errorf("%s: %q does not start with %s", tc.key, msg, want)
			}
		}
		partnerRefused(t, a.PostJSON(supplierPath+"/submit", map[string]any{"supplierCode": "S9", "supplierName": "x", "rating": 6}), "rating")
		// an edit sending one end of the validity checks it against the stored other end
		partnerRefused(t, a.Edit(supplierPath+"/submit", map[string]any{"id": s.ID, "details": []map[string]any{
			{"id": l1.ID, "validTo": "2025-12-31"}, {"id": got.Details[1].ID},
		}}), "details[0].validTo")
		if n, err := h.App.DB.NewSelect().Table("bb_supplier").Where("supplier_code = 'S9'").Count(context.Background()); err != nil || n != 0 {
			t.Fatalf("%d refused suppliers saved (%v)", n, err)
		}

		// mixList: the supplier's lines with the material master
		var mix []partnerPriceLine
		a.Get(priceLinePath+"/mixList", apptest.Q("supplierId", s.ID)).OK(t, &mix)
		if len(mix) != 2 || mix[0].MaterialCode != "M001" || mix[0].MaterialName != "物料M001" || mix[0].Spec != "spec-M001" ||
			mix[0].Unit != "pcs" || mix[1].MaterialCode != "M003" || mix[0].LastPurchasePrice != nil || mix[0].IsDerived {
			t.Fatalf("mixList %+v", mix)
		}
		a.Get(priceLinePath+"/mixList", apptest.Q("supplierId", s.ID, "materialCode", "M003")).OK(t, &mix)
		if len(mix) != 1 || mix[0].MaterialID != m3 {
			t.Errorf("mixList filtered by material code %+v", mix)
		}
		a.Get(priceLinePath+"/mixList", nil).Fail(t, 400)
		other := partnerSupplier(t, a, "S002", map[string]any{"materialId": m1})
		a.Get(priceLinePath+"/mixList", apptest.Q("supplierId", other.ID)).OK(t, &mix)
		if len(mix) != 1 || mix[0].SupplierID != other.ID {
			t.Errorf("mixList of the second supplier %+v", mix)
		}
		var lines apptest.Page[partnerPriceLine]
		a.Get(priceLinePath+"/list", apptest.Q("supplierId", s.ID)).OK(t, &lines)
		if len(lines.Records) != 2 {
			t.Errorf("list of the lines %+v", lines.Records)
		}
		a.Get(priceLinePath+"/detail", apptest.Q("id", l1.ID)).OK(t, nil)

		// another tenant: not its supplier, lines or materials
		b.Get(priceLinePath+"/mixList", apptest.Q("supplierId", s.ID)).Fail(t, 404)
		b.Get(priceLinePath+"/detail", apptest.Q("id", l1.ID)).Fail(t, 404)
		if pageHas(t, b, priceLinePath+"/list", l1.ID) || pageHas(t, b, supplierPath+"/list", s.ID) {
			t.Fatal("tenant B lists A's supplier or its lines")
		}
		b.Get(supplierPath+"/detail", apptest.Q("id", s.ID)).Fail(t, 404)
		b.PostJSON(supplierPath+"/submit", map[string]any{"id": s.ID, "version": got.Version, "details": []map[string]any{{"materialId": m1}}}).Fail(t, 404)
		b.Post(supplierPath+"/startProcess", apptest.Q("ids", s.ID)).Fail(t, 404)
		b.Post(supplierPath+"/remove", apptest.Q("ids", s.ID)).Fail(t, 404)
		bMaterial := partnerMaterial(t, b, "M001")
		partnerRefused(t, b.PostJSON(supplierPath+"/submit", map[string]any{"supplierCode": "S001", "supplierName": "B's",
			"details": []map[string]any{{"materialId": bMaterial}, {"materialId": m1}}}), "details[1].materialId")
		theirs := partnerSupplier(t, b, "S001", map[string]any{"materialId": bMaterial})
		// A cannot move B's line into its supplier
		if msg := a.Edit(supplierPath+"/submit", map[string]any{"id": s.ID, "details": []map[string]any{{"id": theirs.Details[0].ID, "unitPrice": "1"}}}).Fail(t, 400); msg != "第1行: 明细不属于本单据" {
			t.Errorf("another tenant's line: %q", msg)
		}

		// approval, then the state rules
		var out []partnerOutcome
		a.Post(supplierPath+"/startProcess", apptest.Q("ids", s.ID)).OK(t, &out)
		if len(out) != 1 || out[0].AuditStatus != 3 {
			t.Fatalf("startProcess %+v", out)
		}
		var procs apptest.Page[struct {
			BizNo string `json:"bizNo"`
		}]
		a.Get(partnerProcesses+"/page", apptest.Q("bizType", "SUPPLIER")).OK(t, &procs)
		if len(procs.Records) != 1 || procs.Records[0].BizNo != "S001" {
			t.Errorf("approval records %+v", procs.Records)
		}
		if msg := a.Post(supplierPath+"/remove", apptest.Q("ids", s.ID)).Fail(t, 400); msg != "S001 当前状态为「已审批」,不能删除" {
			t.Errorf("removal of an approved supplier: %q", msg)
		}
		// prices of an approved supplier are kept up to date
		a.Edit(supplierPath+"/submit", map[string]any{"id": s.ID, "details": []map[string]any{{"id": l1.ID, "unitPrice": "2"}}}).OK(t, &got)
		if len(got.Details) != 1 || *got.Details[0].UnitPrice != "2.0000" {
			t.Errorf("lines of the approved supplier %+v", got.Details)
		}
		// removing a draft supplier removes its lines
		a.Post(supplierPath+"/remove", apptest.Q("ids", other.ID)).OK(t, nil)
		if pageHas(t, a, priceLinePath+"/list", other.Details[0].ID) {
			t.Error("a removed supplier's line is listed")
		}
		a.Get(priceLinePath+"/mixList", apptest.Q("supplierId", other.ID)).Fail(t, 404)
		// the same material may have a line again once its old one is gone
		partnerSupplier(t, a, "S003", map[string]any{"materialId": m1})

		type metaField struct {
			Name   string `json:"name"`
			Remote *struct {
				URL string `json:"url"`
			} `json:"remote"`
		}
		var meta struct {
			Commands []struct{ Name string } `json:"commands"`
			Lines    struct {
				Field string `json:"field"`
				Meta  struct {
					Fields []metaField `json:"fields"`
				} `json:"meta"`
			} `json:"lines"`
		}
		a.Get("/api/meta/resource", apptest.Q("name", "bluebird-basic/suppliermain")).OK(t, &meta)
		if len(meta.Commands) != 1 || meta.Commands[0].Name != "startProcess" || meta.Lines.Field != "details" {
			t.Errorf("supplier metadata %+v", meta)
		}
		i := slices.IndexFunc(meta.Lines.Meta.Fields, func(f metaField) bool { return f.Name == "materialId" })
		if i < 0 || meta.Lines.Meta.Fields[i].Remote == nil || !strings.Contains(meta.Lines.Meta.Fields[i].Remote.URL, "/material/") {
			t.Errorf("the line's material picker: %+v", meta.Lines.Meta.Fields)
		}
	})
}

// TestPriceLinesFollowSupplierScope: a user whose data scope hides a
// supplier reads neither its lines nor its mixList.
func TestPriceLinesFollowSupplierScope(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, admin := h.NewTenant("Scope Co")
		var depts []map[string]any
		admin.Get("/api/blade-system/dept/list", nil).OK(t, &depts)
		menus := soMenuIDs(t, admin)
		role := newRole(t, admin, "采购员", "buyer")
		var scope map[string]any
		h.Admin().PostJSON("/api/blade-system/data-scope/submit", map[string]any{"menuId": menus["supplier"], "resourceCode": "supplier",
			"scopeName": "own", "scopeType": 2, "scopeColumn": "create_user"}).OK(t, &scope)
		admin.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role},
			"menuIds": []string{menus["supplier"]}, "dataScopeIds": []string{scope["id"].(string)}}).OK(t, nil)
		newUser(t, admin, "buyer1", castPassword, role, depts[0]["id"].(string))
		buyer := h.Login(admin.Login["tenant_id"].(string), "buyer1", castPassword)
		hidden := partnerSupplier(t, admin, "S-ADMIN", map[string]any{"materialId": partnerMaterial(t, admin, "")})
		own := partnerSupplier(t, buyer, "S-BUYER", map[string]any{"materialId": partnerMaterial(t, admin, "")})
		buyer.Get(priceLinePath+"/mixList", apptest.Q("supplierId", hidden.ID)).Fail(t, 404)
		buyer.Get(priceLinePath+"/detail", apptest.Q("id", hidden.Details[0].ID)).Fail(t, 404)
		if pageHas(t, buyer, priceLinePath+"/list", hidden.Details[0].ID) || !pageHas(t, buyer, priceLinePath+"/list", own.Details[0].ID) {
			t.Error("the buyer's list of price lines does not follow the suppliers it may read")
		}
		var mix []partnerPriceLine
		buyer.Get(priceLinePath+"/mixList", apptest.Q("supplierId", own.ID)).OK(t, &mix)
		if len(mix) != 1 {
			t.Errorf("the buyer's own mixList: %+v", mix)
		}
		// the administrator sees and keeps every line of the buyer's supplier
		admin.Edit(supplierPath+"/submit", map[string]any{"id": own.ID, "details": []map[string]any{{"id": own.Details[0].ID}, {"materialId": partnerMaterial(t, admin, "")}}}).OK(t, nil)
		var got partnerSupplierRow
		buyer.Get(supplierPath+"/detail", apptest.Q("id", own.ID)).OK(t, &got)
		if len(got.Details) != 2 {
			t.Errorf("the buyer sees %d of its supplier's 2 lines", len(got.Details))
		}
	})
}
