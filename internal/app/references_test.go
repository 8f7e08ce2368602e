package app_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/resource"
)

func init() {
	// an API-scope rule's path must start with a slash
	sampleOverrides["blade-system/api-scope"] = func(*apptest.H, *apptest.Client) map[string]any {
		return map[string]any{"scopePath": "/api/blade-system/post/list"}
	}
	sampleOverrides["blade-develop/datasource"] = func(*apptest.H, *apptest.Client) map[string]any {
		return map[string]any{"url": "postgres://db.example.com/erp"}
	}
	// a user needs a role and a department of its tenant
	sampleOverrides["blade-user/user"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		var roles, depts []map[string]any
		c.Get("/api/blade-system/role/list", nil).OK(h.T, &roles)
		c.Get("/api/blade-system/dept/list", nil).OK(h.T, &depts)
		role := ""
		for _, r := range roles {
			if r["roleAlias"] != "administrator" {
				role, _ = r["id"].(string)
			}
		}
		if role == "" || len(depts) == 0 {
			h.T.Fatalf("the tenant has no role or department to give a user")
		}
		return map[string]any{"roleId": role, "deptId": depts[0]["id"]}
	}
}

// boundReferences are reference fields another field must agree with, so
// that a fresh row of the target alone cannot be accepted; the refusals are
// still checked.
var boundReferences = map[string]string{
	"bluebird-basic/materialinrecordmain.warehouseId": "the lines' positions lie in the document's warehouse",
}

// TestReferenceConformance loops over every declared reference field of every
// registered resource (resource/ref.go): a submit may not point a row at a
// row of another tenant, at a removed row, or at an id that names nothing,
// and it may point at a live row of its own tenant. Ids are time-ordered and
// guessable, so this is the only thing between tenant B and tenant A's
// roles, departments or dictionary codes.
func TestReferenceConformance(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Ref A")
		_, b := h.NewTenant("Ref B")
		super := h.Admin()
		checked := 0
		for _, res := range h.App.Registry.All() {
			spec, meta := res.Spec(), res.Meta()
			if !contains(meta.Actions, "submit") {
				continue
			}
			for _, f := range meta.Fields {
				if f.Ref == "" || f.Readonly || !f.Form {
					continue
				}
				target := h.App.Registry.Get(f.Ref)
				if target == nil {
					t.Fatalf("%s.%s references %s, which is not registered", spec.Key(), f.Name, f.Ref)
				}
				checked++
				t.Run(spec.Key()+"."+f.Name, func(t *testing.T) {
					// who writes the referencing resource, and in which tenant the target rows live
					writer, owner, other := b, b, a
					if spec.Scope == resource.Global {
						writer, owner, other = super, super, nil
					}
					submit := func(c *apptest.Client, refID string) *apptest.Resp {
						body := sample(meta)
						if o := sampleOverrides[spec.Key()]; o != nil {
							for k, v := range o(h, c) {
								body[k] = v
							}
						}
						body[f.Name] = refID
						return c.PostJSON(meta.Path+"/submit", body)
					}
					refused := func(r *apptest.Resp, why string) {
						t.Helper()
						r.Fail(t, 400)
						var fields map[string]string
						_ = json.Unmarshal(r.Env.Data, &fields)
						if fields[f.Name] == "" {
							t.Fatalf("%s: the refusal does not name %s: %s", why, f.Name, r.Body)
						}
					}
					// An id that names no row.
					refused(submit(writer, "1"), "unknown id")
					// A row of another tenant (tenant-scoped targets only: global rows are everybody's).
					if other != nil && target.Spec().Scope != resource.Global {
						refused(submit(writer, createRow(t, h, other, target)), "another tenant's row")
					}
					// A removed row of one's own.
					own := createRow(t, h, owner, target)
					owner.Post(target.Meta().Path+"/remove", url.Values{"ids": {own}}).OK(t, nil)
					refused(submit(writer, own), "a removed row")
					// A live row of one's own is accepted, unless the row's other
					// fields must agree with it (boundReferences).
					if reason := boundReferences[spec.Key()+"."+f.Name]; reason == "" {
						submit(writer, createRow(t, h, owner, target)).OK(t, nil)
					}
				})
			}
		}
		if checked < 10 {
			t.Fatalf("only %d reference fields declared: the user, tree and scope references are missing", checked)
		}
	})
}

// createRow makes a row of res as c (or the super user for global resources) and returns its id.
func createRow(t *testing.T, h *apptest.H, c *apptest.Client, res resource.Registered) string {
	t.Helper()
	if res.Spec().Scope == resource.Global {
		c = h.Admin()
	}
	body := sample(res.Meta())
	if o := sampleOverrides[res.Spec().Key()]; o != nil {
		for k, v := range o(h, c) {
			body[k] = v
		}
	}
	var row map[string]any
	c.PostJSON(res.Meta().Path+"/submit", body).OK(t, &row)
	id, _ := row["id"].(string)
	if id == "" {
		t.Fatalf("no id for the created %s row: %v", res.Spec().Key(), row)
	}
	return id
}

// TestUserReferencesStayInTenant is the probe's case: tenant B submits a user
// with tenant A's role, department and post; then detail must not show A's names.
func TestUserReferencesStayInTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Names A")
		_, b := h.NewTenant("Names B")
		var roles, depts []map[string]any
		a.Get("/api/blade-system/role/list", nil).OK(t, &roles)
		a.Get("/api/blade-system/dept/list", nil).OK(t, &depts)
		if len(roles) == 0 || len(depts) == 0 {
			t.Fatal("a new tenant has no role or department")
		}
		var post map[string]any
		a.PostJSON("/api/blade-system/post/submit", map[string]any{"category": 1, "postCode": "P1", "postName": "Secret post", "sort": 1}).OK(t, &post)
		var bRoles, bDepts []map[string]any
		b.Get("/api/blade-system/role/list", nil).OK(t, &bRoles)
		b.Get("/api/blade-system/dept/list", nil).OK(t, &bDepts)
		user := func(role, dept, post any) map[string]any {
			return map[string]any{"account": "u" + randomWord(8), "name": "x", "realName": "x", "password": "secret1",
				"roleId": role, "deptId": dept, "postId": post}
		}
		for name, body := range map[string]map[string]any{
			"roleId": user(roles[0]["id"], bDepts[0]["id"], ""),
			"deptId": user(bRoles[0]["id"], depts[0]["id"], ""),
			"postId": user(bRoles[0]["id"], bDepts[0]["id"], post["id"]),
		} {
			r := b.PostJSON("/api/blade-user/submit", body)
			r.Fail(t, 400)
			var fields map[string]string
			_ = json.Unmarshal(r.Env.Data, &fields)
			if fields[name] == "" {
				t.Fatalf("%s of another tenant: refusal does not name the field: %s", name, r.Body)
			}
		}
		// a list mixing an own id with a foreign one is refused as a whole
		mixed := user(bRoles[0]["id"].(string)+","+roles[0]["id"].(string), bDepts[0]["id"], "")
		b.PostJSON("/api/blade-user/submit", mixed).Fail(t, 400)
		// the super user cannot give a tenant's user another tenant's role either
		body := user(roles[0]["id"], bDepts[0]["id"], "")
		body["tenantId"] = b.Login["tenant_id"]
		h.Admin().PostJSON("/api/blade-user/submit", body).Fail(t, 400)
	})
}

// TestDictBizParentStaysInTenant: a business-dictionary entry cannot hang
// under another tenant's root (its code was copied from the foreign root).
func TestDictBizParentStaysInTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Dict A")
		_, b := h.NewTenant("Dict B")
		var root map[string]any
		a.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"code": "secret_code", "dictKey": "-1", "dictValue": "A's", "sort": 1, "isSealed": 0}).OK(t, &root)
		r := b.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"parentId": root["id"], "code": "x", "dictKey": "1", "dictValue": "B's", "sort": 1, "isSealed": 0})
		r.Fail(t, 400)
		var page apptest.Page[map[string]any]
		b.Get("/api/blade-system/dict-biz/list", apptest.Q("code", "secret_code", "size", "100")).OK(t, &page)
		if len(page.Records) != 0 {
			t.Fatalf("tenant B sees rows under A's code: %v", page.Records)
		}
	})
}

// TestSuperUserNamesLiveTenants: the super user may create users, roles,
// departments and posts in another tenant, but only in one that exists.
func TestSuperUserNamesLiveTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, _ := h.NewTenant("Live")
		super := h.Admin()
		for _, res := range h.App.Registry.All() {
			spec, meta := res.Spec(), res.Meta()
			if spec.Scope != resource.TenantAdmin || !contains(meta.Actions, "submit") || spec.Key() == "blade-user/user" {
				continue // a user needs roles of its tenant: the user scenarios cover it
			}
			body := sample(meta)
			body["tenantId"] = "nosuch"
			r := super.PostJSON(meta.Path+"/submit", body)
			r.Fail(t, 400)
			body["tenantId"] = tenantID
			var row map[string]any
			super.PostJSON(meta.Path+"/submit", body).OK(t, &row)
			if row["tenantId"] != tenantID {
				t.Fatalf("%s: the super user's row went to %v, not %s", spec.Key(), row["tenantId"], tenantID)
			}
		}
	})
}
