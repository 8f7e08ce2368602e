package resource

import (
	"fmt"
	"testing"

	"github.com/bluebird/console/internal/platform/i18n"
)

// Route names: a resource declared with BladeX's names (the website
// client's select and delete) answers under them as under the engine's
// own, behind the same guards, on both databases.

var gadgetDDL = map[string]string{
	"gadget": `CREATE TABLE %s (` + bizBase + `, parent_id BIGINT NOT NULL DEFAULT 0, name VARCHAR(64))`,
}

func TestRouteNames(t *testing.T) {
	declare := func(tables map[string]string) []Registered {
		return []Registered{New(Spec{Service: "blade-test", Name: "gadget", Table: tables["gadget"], Label: i18n.T("小部件", "Gadget"),
			Write: Admin, RouteNames: map[string]string{"list": "select", "remove": "delete", "detail": "info"},
		}, Hooks[widget]{})}
	}
	eachDB(t, gadgetDDL, declare, nil, func(t *testing.T, e *apiEnv) {
		var w widget
		e.ok("a", "POST", "/blade-test/gadget/submit", map[string]any{"name": "gear"}, &w)
		for _, list := range []string{"select", "list"} {
			var page struct{ Records []widget }
			e.ok("clerk", "GET", "/blade-test/gadget/"+list, nil, &page)
			if len(page.Records) != 1 || page.Records[0].Name != "gear" {
				t.Errorf("%s answered %+v", list, page.Records)
			}
		}
		var got widget
		e.ok("a", "GET", fmt.Sprintf("/blade-test/gadget/info?id=%d", w.ID), nil, &got)
		if got.Name != "gear" {
			t.Errorf("info answered %+v", got)
		}
		e.refused(401, "nobody", "GET", "/blade-test/gadget/select", nil)
		e.refused(403, "clerk", "POST", fmt.Sprintf("/blade-test/gadget/delete?ids=%d", w.ID), nil) // the write guard
		e.refused(400, "a", "POST", "/blade-test/gadget/delete", nil)
		e.refused(404, "b", "POST", fmt.Sprintf("/blade-test/gadget/delete?ids=%d", w.ID), nil) // another tenant's row
		e.ok("a", "POST", fmt.Sprintf("/blade-test/gadget/delete?ids=%d", w.ID), nil, nil)
		e.refused(404, "a", "GET", fmt.Sprintf("/blade-test/gadget/detail?id=%d", w.ID), nil)
	})
}

func TestRouteNamesRefused(t *testing.T) {
	for _, names := range []map[string]string{
		{"page": "select"},       // a route the resource does not mount
		{"tree": "select"},       // not a renamable route
		{"list": "submit"},       // one of the engine's names
		{"list": ""},             // no name
		{"submit": "saveGadget"}, // also a submit alias
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RouteNames %v accepted", names)
				}
			}()
			New(Spec{Service: "blade-test", Name: "gadget", Table: "gadget", Label: i18n.T("小部件", "Gadget"),
				RouteNames: names, SubmitAliases: []string{"saveGadget"}}, Hooks[widget]{})
		}()
	}
}
