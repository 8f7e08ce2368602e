package app_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/resource"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// sampleOverrides gives values the generic filler cannot guess (ids of real rows, formats).
var sampleOverrides = map[string]func(h *apptest.H, c *apptest.Client) map[string]any{}

// readOnlyCreators make a row of a resource that has no submit route, the way
// its rows really arise, as the given client's tenant; they return its id.
var readOnlyCreators = map[string]func(t *testing.T, c *apptest.Client) string{
	// an approval record is made by submitting a row for approval
	"bluebird-basic/tgprocess": func(t *testing.T, c *apptest.Client) string {
		var brand struct{ ID string }
		c.PostJSON("/api/bluebird-basic/brand/submit", map[string]any{"brandCode": randomWord(8), "brandName": "sample"}).OK(t, &brand)
		var out []struct {
			ProcessID string `json:"processId"`
		}
		c.Post("/api/bluebird-basic/brand/startProcess", url.Values{"ids": {brand.ID}}).OK(t, &out)
		return out[0].ProcessID
	},
	"blade-log/error": func(t *testing.T, c *apptest.Client) string {
		marker := randomWord(12)
		c.PostJSON("/api/blade-log/error/client-logs", []map[string]any{{"type": "error", "message": marker}}).OK(t, nil)
		var page apptest.Page[map[string]any]
		c.Get("/api/blade-log/error/list", url.Values{"message": {marker}}).OK(t, &page)
		if len(page.Records) != 1 {
			t.Fatalf("uploaded log %s listed %d times", marker, len(page.Records))
		}
		id, _ := page.Records[0]["id"].(string)
		return id
	},
}

// sample builds a valid submit body from a resource's metadata.
func sample(m *resource.Meta) map[string]any {
	body := map[string]any{}
	for _, f := range m.Fields {
		if f.Readonly || !f.Form || (!f.Required && f.Type != resource.TypePassword) {
			continue
		}
		switch f.Type {
		case resource.TypeInt:
			body[f.Name] = 1
			if f.Min != nil && *f.Min > 1 {
				body[f.Name] = *f.Min
			}
		case resource.TypeDict:
			if f.ValueType == resource.ValueString {
				body[f.Name] = "1"
			} else {
				body[f.Name] = 1
			}
		case resource.TypeDecimal:
			body[f.Name] = "1"
		case resource.TypeID, resource.TypeTree:
			body[f.Name] = "0"
		case resource.TypeDateTime, resource.TypeDate:
			body[f.Name] = "2030-01-01 00:00:00"
		default:
			n := 8
			if f.Max > 0 && f.Max < n {
				n = f.Max
			}
			body[f.Name] = formatted(f, randomWord(n))
		}
	}
	return body
}

// formatted is a value of a text field with format rules (a URL, an
// e-mail address, a phone, a path) that passes them, else word.
func formatted(f *resource.Field, word string) string {
	if len(f.Rules) == 0 {
		return word
	}
	// the word itself first (a code with a pattern), each candidate unique like the word
	phone := fmt.Sprintf("1%010d", rand.Int64N(1e10))
	for _, v := range []string{word, "https://" + word + ".example.com", word + "@example.com", phone, "/" + word} {
		ok := true
		for _, r := range f.Rules {
			ok = ok && regexp.MustCompile(r.Pattern).MatchString(v)
		}
		if ok {
			return v
		}
	}
	return word
}

func randomWord(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}

// TestTenantIsolation is the conformance test of architecture.md §8: for
// every registered resource, another tenant can neither see nor change a
// tenant's rows, and a tenant admin cannot write global resources.
func TestTenantIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Tenant A")
		_, b := h.NewTenant("Tenant B")
		for _, res := range h.App.Registry.All() {
			spec, meta := res.Spec(), res.Meta()
			t.Run(spec.Key(), func(t *testing.T) {
				base := meta.Path
				body := sample(meta)
				if o := sampleOverrides[spec.Key()]; o != nil {
					for k, v := range o(h, a) {
						body[k] = v
					}
				}
				if spec.Scope == resource.Global {
					if spec.Write != resource.AnyUser {
						b.PostJSON(base+"/submit", body).Fail(t, 403)
					}
					return
				}
				var id string
				readOnly := !contains(meta.Actions, "submit")
				if readOnly {
					create := readOnlyCreators[spec.Key()]
					if create == nil {
						t.Fatalf("%s has no submit route: add a creator to readOnlyCreators", spec.Key())
					}
					id = create(t, a)
				} else {
					var created map[string]any
					a.PostJSON(base+"/submit", body).OK(t, &created)
					id, _ = created["id"].(string)
				}
				if id == "" {
					t.Fatalf("no id for the created row of %s", spec.Key())
				}
				list := "list"
				if !contains(meta.Actions, "list") {
					list = "page"
				}
				// A sees it; B does not, by list, detail, update or remove.
				if !pageHas(t, a, base+"/"+list, id) {
					t.Fatalf("tenant A does not see its own row %s", id)
				}
				if pageHas(t, b, base+"/"+list, id) {
					t.Fatalf("tenant B sees tenant A's row %s", id)
				}
				if r := b.Get(base+"/detail", url.Values{"id": {id}}); r.Status != 404 {
					t.Fatalf("tenant B detail of A's row: %d %s", r.Status, r.Body)
				}
				if readOnly {
					a.Get(base+"/detail", url.Values{"id": {id}}).OK(t, nil)
					return
				}
				upd := map[string]any{"id": id}
				for k, v := range body {
					upd[k] = v
				}
				if r := b.PostJSON(base+"/submit", upd); r.Status != 404 {
					t.Fatalf("tenant B update of A's row: %d %s", r.Status, r.Body)
				}
				if r := b.Post(base+"/remove", url.Values{"ids": {id}}); r.Status != 404 {
					t.Fatalf("tenant B remove of A's row: %d %s", r.Status, r.Body)
				}
				a.Get(base+"/detail", url.Values{"id": {id}}).OK(t, nil)
			})
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// pageHas looks for id in a list answer: a page, or a tree (list endpoints of tree resources).
func pageHas(t *testing.T, c *apptest.Client, path, id string) bool {
	t.Helper()
	var data any
	c.Get(path, url.Values{"size": {"1000"}}).OK(t, &data)
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			if fmt.Sprint(x["id"]) == id {
				return true
			}
			return walk(x["records"]) || walk(x["children"])
		}
		return false
	}
	return walk(data)
}
