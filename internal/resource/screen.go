package resource

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"strconv"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Screen is a further menu entry showing some of a resource's rows: the
// receipts screen and the other-receipts screen are one table, told apart
// by the receipt type (Spec.Screens). Each screen has its own metadata
// entry (its menu code, label, list endpoint and fixed values) and guards
// its rows' commands with its own menu's buttons.
type Screen struct {
	MenuCode string
	Label    i18n.Text
	// ListView is the view the screen's table reads (it selects the rows).
	ListView string
	// Fixed are the field values (as text) that make a row the screen's: a
	// new row on the screen starts with them, and a command on a row whose
	// values match is checked against this screen's buttons.
	Fixed map[string]string
}

func (r *Resource[T]) initScreens() {
	for _, s := range r.spec.Screens {
		if s.MenuCode == "" || s.Label.Zh == "" || len(s.Fixed) == 0 {
			panic(fmt.Sprintf("resource %s: a screen needs a MenuCode, a Label and Fixed values", r.spec.Key()))
		}
		for name := range s.Fixed {
			if r.meta.byName[name] == nil {
				panic(fmt.Sprintf("resource %s: screen %s: no field %q", r.spec.Key(), s.MenuCode, name))
			}
		}
	}
}

// ScreenMetas are the metadata of the resource's further screens: copies of
// its own with the screen's menu code, label, list view, fixed values and
// button codes.
func (r *Resource[T]) ScreenMetas() []*Meta {
	out := make([]*Meta, 0, len(r.spec.Screens))
	for _, s := range r.spec.Screens {
		m := *r.meta
		m.MenuCode, m.Label, m.Fixed = s.MenuCode, s.Label, maps.Clone(s.Fixed)
		if s.ListView != "" {
			m.ListView = s.ListView
		}
		m.Permissions = map[string]string{}
		for op, code := range r.meta.Permissions {
			m.Permissions[op] = s.MenuCode + code[len(r.spec.MenuCode):]
		}
		m.Commands = make([]CommandMeta, len(r.meta.Commands))
		for i, c := range r.meta.Commands {
			if c.Permission != "" {
				c.Permission = s.MenuCode + c.Permission[len(r.spec.MenuCode):]
			}
			m.Commands[i] = c
		}
		out = append(out, &m)
	}
	return out
}

// menuOf is the menu whose buttons guard a row: the first screen whose
// fixed values the row has, else the resource's own.
func (r *Resource[T]) menuOf(row *T) string {
	v := reflect.ValueOf(row).Elem()
	for _, s := range r.spec.Screens {
		match := true
		for name, want := range s.Fixed {
			if fieldText(v.FieldByIndex(r.meta.byName[name].index)) != want {
				match = false
				break
			}
		}
		if match {
			return s.MenuCode
		}
	}
	return r.spec.MenuCode
}

func fieldText(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case string:
		return x
	case wire.ID:
		return x.String()
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v.Interface())
}

// buttonMenus are the menus (the resource's and its screens') under which
// the caller holds the command's button; nil means every menu (no button,
// or the super user). Without screens, not holding it is refused at once.
func (r *Resource[T]) buttonMenus(ctx context.Context, p *authz.Principal, c *Command[T]) (map[string]bool, error) {
	if c.Button == "" || p.IsSuper() {
		return nil, nil
	}
	if len(r.spec.Screens) == 0 {
		return nil, r.holdsButton(ctx, p, c, r.spec.MenuCode)
	}
	allowed := map[string]bool{}
	for _, menu := range append([]string{r.spec.MenuCode}, screenMenus(r.spec.Screens)...) {
		err := r.holdsButton(ctx, p, c, menu)
		if err == nil {
			allowed[menu] = true
		} else if err != httpx.ErrForbidden {
			return nil, err
		}
	}
	if len(allowed) == 0 {
		return nil, httpx.ErrForbidden
	}
	return allowed, nil
}

func screenMenus(screens []Screen) []string {
	out := make([]string, len(screens))
	for i, s := range screens {
		out[i] = s.MenuCode
	}
	return out
}

// rowsAllowed holds each row to the button of its screen's menu.
func (r *Resource[T]) rowsAllowed(c *Command[T], rows []*T, allowed map[string]bool) error {
	if allowed == nil {
		return nil
	}
	for _, row := range rows {
		if !allowed[r.menuOf(row)] {
			return httpx.ErrForbidden
		}
	}
	return nil
}
