package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/resource"
)

// TestOptimisticLockCannotBeSkipped: for every registered resource with a
// submit route, an update that sends no version, or version 0, is refused
// and changes nothing; a stale version is refused; the current one works.
// (An update without a version used to skip the check and overwrite a newer row.)
func TestOptimisticLockCannotBeSkipped(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Versions")
		super := h.Admin()
		for _, res := range h.App.Registry.All() {
			spec, meta := res.Spec(), res.Meta()
			if !contains(meta.Actions, "submit") || !contains(meta.Actions, "detail") {
				continue
			}
			if _, isEngine := res.(resource.Referable); !isEngine {
				continue // hand-written resources keyed by something else (regions) have no version
			}
			t.Run(spec.Key(), func(t *testing.T) {
				c := a
				if spec.Scope == resource.Global {
					c = super
				}
				id := createRow(t, h, c, res)
				var row map[string]any
				c.Get(meta.Path+"/detail", apptest.Q("id", id)).OK(t, &row)
				v, _ := row["version"].(float64)
				if v < 1 {
					t.Fatalf("detail shows no version: %v", row)
				}
				// a field every form sends: the first required text, or remark
				field := ""
				for _, f := range meta.Fields {
					if f.Required && f.Form && !f.Readonly && f.Type == resource.TypeString && f.Ref == "" && f.Pattern == "" && len(f.Rules) == 0 {
						field = f.Name
						break
					}
				}
				if field == "" {
					t.Skipf("%s has no plain required text field to edit", spec.Key())
				}
				changed := "v" + randomWord(6)
				for _, body := range []map[string]any{
					{"id": id, field: changed},
					{"id": id, field: changed, "version": 0},
					{"id": id, field: changed, "version": nil},
					{"id": id, field: changed, "version": v + 1},
				} {
					c.PostJSON(meta.Path+"/submit", body).Fail(t, 400)
				}
				var after map[string]any
				c.Get(meta.Path+"/detail", apptest.Q("id", id)).OK(t, &after)
				if after[field] == changed || after["version"] != row["version"] {
					t.Fatalf("a refused update changed the row: %v", after)
				}
				c.PostJSON(meta.Path+"/submit", map[string]any{"id": id, field: changed, "version": v}).OK(t, nil)
				c.Get(meta.Path+"/detail", apptest.Q("id", id)).OK(t, &after)
				if after[field] != changed {
					t.Fatalf("the update with the current version was not saved: %v", after)
				}
			})
		}
	})
}
