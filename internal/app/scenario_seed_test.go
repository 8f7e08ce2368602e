package app_test

import (
	"strconv"
	"testing"

	"github.com/bluebird/console/internal/apptest"
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
