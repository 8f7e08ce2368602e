package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Route overrides, the commit hook and the tenant check of a TenantAdmin
// resource, on a small tree of widgets whose list and tree are answered by
// hand, as BladeX's menus and roles are.

type widget struct {
	Base
	ParentID wire.ID `bun:"parent_id" json:"parentId" f:"label=上级部件|Parent widget"`
	Name     string  `bun:"name" json:"name" f:"label=名称|Name;req;max=64"`
}

var widgetDDL = map[string]string{
	"widget": `CREATE TABLE %s (` + bizBase + `, parent_id BIGINT NOT NULL DEFAULT 0, name VARCHAR(64))`,
}

// widgetCommits records what AfterCommit saw; failCommit makes it fail.
type widgetCommits struct {
	seen       []string
	failCommit bool
}

func widgetEnv(t *testing.T, commits *widgetCommits, fn func(t *testing.T, e *apiEnv)) {
	declare := func(tables map[string]string) []Registered {
		var res *Resource[widget]
		res = New(Spec{Service: "blade-test", Name: "widget", Table: tables["widget"], Label: i18n.T("部件", "Widget"),
			Scope: TenantAdmin, Write: Admin, Routes: []string{"list", "detail", "submit", "remove"},
			Tree: &Tree{Parent: "parentId", Label: "name"},
		}, Hooks[widget]{
			AfterCommit: func(ctx context.Context, row *widget, isNew bool) error {
				// the row is committed: a read outside the transaction finds it
				stored, err := res.Get(ctx, res.Env().DB, row.ID)
				if err != nil {
					return err
				}
				commits.seen = append(commits.seen, fmt.Sprintf("%s new=%v", stored.Name, isNew))
				if commits.failCommit {
					return httpx.Badf("通知失败", "Could not tell the others")
				}
				return nil
			},
			Routes: map[string]httpx.HandlerFunc{
				"list": func(req *http.Request) (any, error) {
					rows, err := res.TreeRows(req, nil)
					if err != nil {
						return nil, err
					}
					names := []string{}
					for _, w := range rows {
						names = append(names, w.Name)
					}
					return "custom list: " + strings.Join(names, ","), nil
				},
				"tree": func(*http.Request) (any, error) { return "custom tree", nil },
			},
		})
		return []Registered{res}
	}
	eachDB(t, widgetDDL, declare, func(env *Env) {
		env.TenantExists = func(_ context.Context, _ bun.IDB, tenantID string) (bool, error) {
			return tenantID == "100001" || tenantID == "100002", nil
		}
	}, fn)
}

// TestRouteOverrides: a declared handler answers in place of the engine's,
// at the same URL and behind the same guard; the other routes stay the
// engine's and the metadata lists the route as before.
func TestRouteOverrides(t *testing.T) {
	widgetEnv(t, &widgetCommits{}, func(t *testing.T, e *apiEnv) {
		var w widget
		e.ok("a", "POST", "/blade-test/widget/submit", map[string]any{"name": "gear"}, &w)
		var list, tree string
		e.ok("clerk", "GET", "/blade-test/widget/list", nil, &list)
		if list != "custom list: gear" {
			t.Errorf("list answered %q", list)
		}
		e.ok("a", "GET", "/blade-test/widget/tree", nil, &tree)
		if tree != "custom tree" {
			t.Errorf("tree answered %q", tree)
		}
		e.refused(401, "nobody", "GET", "/blade-test/widget/list", nil)
		var got widget
		e.ok("a", "GET", fmt.Sprintf("/blade-test/widget/detail?id=%d", w.ID), nil, &got)
		if got.Name != "gear" {
			t.Errorf("detail %+v", got)
		}
		e.refused(403, "clerk", "POST", "/blade-test/widget/submit", map[string]any{"name": "x"})
	})
}

func TestRouteOverridesMeta(t *testing.T) {
	res := New(Spec{Service: "blade-test", Name: "widget", Table: "widget", Label: i18n.T("部件", "Widget"),
		Routes: []string{"list", "submit"}, Tree: &Tree{Parent: "parentId", Label: "name"},
	}, Hooks[widget]{Routes: map[string]httpx.HandlerFunc{
		"list": func(*http.Request) (any, error) { return nil, nil },
	}})
	if a := res.Meta().Actions; !slices.Equal(a, []string{"list", "submit"}) {
		t.Errorf("actions %v", a)
	}
	for _, name := range []string{"page", "lazy-tree", "grant", "tree "} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Routes[%q] on a resource without that route was accepted", name)
				}
			}()
			New(Spec{Service: "blade-test", Name: "widget", Table: "widget", Label: i18n.T("部件", "Widget"),
				Routes: []string{"list", "submit"}, Tree: &Tree{Parent: "parentId", Label: "name"},
			}, Hooks[widget]{Routes: map[string]httpx.HandlerFunc{name: func(*http.Request) (any, error) { return nil, nil }}})
		}()
	}
}

// TestAfterCommit: the hook sees the committed row after a submit; its
// error is the answer, and the row stays saved.
func TestAfterCommit(t *testing.T) {
	commits := &widgetCommits{}
	widgetEnv(t, commits, func(t *testing.T, e *apiEnv) {
		commits.seen, commits.failCommit = nil, false
		var w widget
		e.ok("a", "POST", "/blade-test/widget/submit", map[string]any{"name": "gear"}, &w)
		e.ok("a", "POST", "/blade-test/widget/submit", map[string]any{"id": w.ID, "version": w.Version, "name": "cog"}, nil)
		e.refused(400, "a", "POST", "/blade-test/widget/submit", map[string]any{"name": ""}) // nothing committed, nothing told
		if want := []string{"gear new=true", "cog new=false"}; !slices.Equal(commits.seen, want) {
			t.Errorf("AfterCommit saw %v, want %v", commits.seen, want)
		}
		commits.failCommit = true
		if msg, _ := e.refused(400, "a", "POST", "/blade-test/widget/submit", map[string]any{"name": "bolt"}); msg != "通知失败" {
			t.Errorf("AfterCommit's error answered %q", msg)
		}
		if n := e.count("widget", "name = ? AND is_deleted = 0", "bolt"); n != 1 {
			t.Errorf("%d rows saved before the failed AfterCommit, want 1", n)
		}
	})
}

// TestNoTenantInCallersLanguage: the super user naming a tenant that does
// not exist gets the field error in the language asked for.
func TestNoTenantInCallersLanguage(t *testing.T) {
	widgetEnv(t, &widgetCommits{}, func(t *testing.T, e *apiEnv) {
		for who, want := range map[string]string{"en:super": "No such tenant", "super": "租户不存在"} {
			msg, fields := e.refused(400, who, "POST", "/blade-test/widget/submit", map[string]any{"name": "x", "tenantId": "999999"})
			if msg != want || fields["tenantId"] != want {
				raw, _ := json.Marshal(fields)
				t.Errorf("%s: %q %s, want %q on tenantId", who, msg, raw, want)
			}
		}
		var w widget
		e.ok("super", "POST", "/blade-test/widget/submit", map[string]any{"name": "x", "tenantId": "100002"}, &w)
		if w.TenantID != "100002" {
			t.Errorf("created in %q", w.TenantID)
		}
	})
}
