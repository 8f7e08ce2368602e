package resource

import (
	"reflect"
	"slices"

	"github.com/bluebird/console/internal/platform/i18n"
)

// Meta is what the UI needs to draw a resource's table, search bar and form.
type Meta struct {
	Name     string `json:"name"`
	Service  string `json:"service"`
	Path     string `json:"path"`
	MenuCode string `json:"menuCode"`
	// Table is sent for resources with a workflow: their business key is <table>:<id>.
	Table       string            `json:"table,omitempty"`
	Label       i18n.Text         `json:"label"`
	Paged       bool              `json:"paged"`
	Fields      []*Field          `json:"fields"`
	Actions     []string          `json:"actions"`
	Permissions map[string]string `json:"permissions"`
	Commands    []CommandMeta     `json:"commands,omitempty"`
	Views       []ViewMeta        `json:"views,omitempty"`
	ListView    string            `json:"listView,omitempty"`
	Number      *NumberMeta       `json:"number,omitempty"`
	Lookup      *Lookup           `json:"lookup,omitempty"`
	Lines       *LinesMeta        `json:"lines,omitempty"`
	Tree        *TreeMeta         `json:"tree,omitempty"`
	// ExtraLines, Related and Print are document declarations (document.go).
	ExtraLines []*LinesMeta `json:"extraLines,omitempty"`
	Related    []Related    `json:"related,omitempty"`
	Print      *Print       `json:"print,omitempty"`
	// Fixed are a screen's fixed field values (Spec.Screens).
	Fixed map[string]string `json:"fixed,omitempty"`
	// States are the state rules (Spec.States), so the UI offers edit and
	// remove only on rows the server would let change.
	States *StatesMeta `json:"states,omitempty"`

	keyword     []*Field // searched by the keyword parameter: the Lookup's code and label
	byName      map[string]*Field
	byColumn    map[string]*Field
	hasFileLink bool // a field holds a file link (filelinks.go)
}

func newMeta(spec *Spec, t reflect.Type) (*Meta, error) {
	if err := spec.normalize(); err != nil {
		return nil, err
	}
	fields, err := parseFields(t)
	if err != nil {
		return nil, err
	}
	m := &Meta{
		Name: spec.Name, Service: spec.Service, Path: "/api" + spec.Path(), MenuCode: spec.MenuCode,
		Label: spec.Label, Paged: spec.has("page"), byName: map[string]*Field{}, byColumn: map[string]*Field{},
	}
	for _, f := range fields {
		if f.Name == "" {
			continue
		}
		if f.Ref == "self" { // a tree's parentId: the struct may serve several resources (dict, dict-biz)
			f.Ref = spec.Key()
		}
		m.hasFileLink = m.hasFileLink || f.FileLink()
		m.Fields = append(m.Fields, f)
		m.byName[f.Name] = f
		m.byColumn[f.Column] = f
	}
	// fields tagged last close the form and the table, in their own order
	slices.SortStableFunc(m.Fields, func(a, b *Field) int {
		switch {
		case a.last == b.last:
			return 0
		case a.last:
			return 1
		}
		return -1
	})
	if err := m.bindSecretRows(spec); err != nil {
		return nil, err
	}
	if m.Tree, err = spec.Tree.bind(spec, m); err != nil {
		return nil, err
	}
	for _, r := range []string{"list", "page", "detail", "submit", "remove", "export"} {
		if spec.has(r) {
			m.Actions = append(m.Actions, r)
		}
	}
	if spec.Import != nil {
		m.Actions = append(m.Actions, "import")
	}
	if spec.MenuCode != "" {
		m.Permissions = map[string]string{}
		for _, op := range []string{"add", "edit", "delete", "view", "export"} {
			m.Permissions[op] = spec.MenuCode + "_" + op
		}
		if spec.Import != nil {
			m.Permissions["import"] = spec.MenuCode + "_import"
		}
	}
	return m, nil
}

// Field returns the declared field by JSON name.
func (m *Meta) Field(name string) *Field { return m.byName[name] }
