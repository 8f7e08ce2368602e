package resource

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/bluebird/console/internal/platform/i18n"
)

// What a document's editor shows besides its fields and lines, declared
// once on the document and sent in its metadata (docs/resource-meta.md):
// a picker that fills a line from another list (the stock buckets an
// outbound line takes from), the rows other resources keep about the
// document (its stock ledger rows), its printout, and further line sets
// the document's own hooks save (a production plan's required materials).
// None of these adds a route or changes what the engine checks or saves:
// the server refuses what is wrong on its own (over-issue at startProcess).

// LinePicker fills lines from rows of another list. Kind names how the web
// app draws it:
//   - "stock": a per-line button listing the stock buckets of the line's
//     material (Match) in FEFO order; picking one fills the line, which
//     then shows its bucket's available quantity, a larger Qty refused inline;
//   - "lines": a button above the lines listing the rows the document may
//     take (a return's returnable issue lines); each row ticked becomes a
//     line, a row already taken (Key) is not offered twice, and the line
//     keeps the row's Available, a larger Qty refused inline.
type LinePicker struct {
	Kind string `json:"kind"`
	// URL lists the rows (GET; a page for current/size, or a plain list).
	URL string `json:"url"`
	// Header: list parameter -> header field ({"warehouseId": "fromWarehouseId"}),
	// each required before the picker opens; Optional ones are sent when set.
	Header   map[string]string `json:"header"`
	Optional map[string]string `json:"optional,omitempty"`
	// Match: list parameters read from the line ({materialId, materialId});
	// the first must have a value before a "stock" picker opens, the others
	// narrow the list when the line has one (a batch typed in).
	Match []PickerParam `json:"match,omitempty"`
	// Fill: line field <- picked row's field ({"positionId": "positionId"}).
	Fill map[string]string `json:"fill"`
	// Key is the row field that identifies what a "lines" pick takes (the
	// issue line returned); its line field is the one Fill gives it.
	Key string `json:"key,omitempty"`
	// Shown: a line field only the picker fills, drawn as the text of
	// another line field instead of a control (the issue line as its issue's
	// number); the row's field of that name is copied with the pick.
	Shown map[string]string `json:"shown,omitempty"`
	// Qty is the line's quantity field and Available the row's field it
	// may not exceed (in the row's Unit, when the line's unit is another
	// the web app does not compare).
	Qty       string `json:"qtyField,omitempty"`
	Available string `json:"availableField,omitempty"`
	Unit      string `json:"unitField,omitempty"`
	// Search is the list parameter a typed keyword goes in (none: no box).
	Search string `json:"search,omitempty"`
	// Columns of the picker's list, in order.
	Columns []PickerColumn `json:"columns"`
	// When: the picker applies only to documents whose header field has
	// one of the values (a borrow, not the return kept in the same table).
	When *States `json:"when,omitempty"`
}

// PickerParam is a list parameter and the line field giving its value.
type PickerParam struct {
	Param string `json:"param"`
	Field string `json:"field"`
}

// PickerColumn is a column of a picker's list: the row's Fields joined by
// a space (a position's key and name), a decimal shown with Scale, or a
// dictionary's label.
type PickerColumn struct {
	Fields []string  `json:"fields"`
	Label  i18n.Text `json:"label"`
	Scale  int       `json:"scale,omitempty"`
	Dict   string    `json:"dict,omitempty"`
	// Unit names the row field whose unit follows the value.
	Unit  string `json:"unit,omitempty"`
	Width int    `json:"width,omitempty"`
}

// Related are rows another resource keeps about each document, listed
// read-only on its detail view: GET Path with Params and Key=<the
// document's id>, drawn with the fields of Resource's metadata (and the
// view's joined columns).
type Related struct {
	Label    i18n.Text         `json:"label"`
	Resource string            `json:"resource"`
	Path     string            `json:"path"`
	Params   map[string]string `json:"params,omitempty"`
	Key      string            `json:"key"`
	// When: only documents whose field has one of the values have rows
	// (posted documents have ledger rows).
	When *States `json:"when,omitempty"`
}

// Print declares a printable document: the web app's print view shows the
// header fields, the lines with their totals and one signature box per
// entry of Signatures.
type Print struct {
	Signatures []i18n.Text `json:"signatures"`
}

// ExtraLines is a further line set of a resource whose own hooks validate,
// save and load it under Field (the body and the detail carry it like the
// engine's Lines): declared for the metadata, so the editor draws its grid.
type ExtraLines struct {
	Field  string
	Child  Registered
	Totals []string
}

// initDocument checks the document declarations against the fields and
// puts them into the metadata.
func (r *Resource[T]) initDocument() {
	key := r.spec.Key()
	if p := r.spec.Lines.picker(); p != nil {
		child := r.spec.Lines.Child.Meta()
		switch {
		case p.URL == "" || len(p.Columns) == 0:
			panic(fmt.Sprintf("resource %s: a line picker needs a URL and Columns", key))
		case p.Kind == "stock" && len(p.Match) == 0:
			panic(fmt.Sprintf("resource %s: a stock picker needs Match", key))
		case p.Kind == "lines" && (p.Key == "" || p.Fill[p.lineKey()] == ""):
			panic(fmt.Sprintf("resource %s: a lines picker needs a Key that Fill copies", key))
		case p.Kind != "stock" && p.Kind != "lines":
			panic(fmt.Sprintf("resource %s: unknown line picker kind %q", key, p.Kind))
		}
		for _, c := range p.Columns {
			if len(c.Fields) == 0 || c.Label.Zh == "" || c.Label.En == "" {
				panic(fmt.Sprintf("resource %s: a picker column needs Fields and a zh/en Label", key))
			}
		}
		for _, f := range p.Header {
			r.mustHave(r.meta, f, "picker header")
		}
		for _, f := range p.Optional {
			r.mustHave(r.meta, f, "picker header")
		}
		for f, text := range p.Shown {
			r.mustHave(child, f, "picker shown")
			if !hasJSONField(r.spec.Lines.Child.lineType(), text) {
				panic(fmt.Sprintf("resource %s: picker shown field %q is not on the line", key, text))
			}
		}
		if p.Kind == "lines" && p.Available != "" && !hasJSONField(r.spec.Lines.Child.lineType(), p.Available) {
			panic(fmt.Sprintf("resource %s: a lines picker's Available %q must be a field of the line", key, p.Available))
		}
		for _, m := range p.Match {
			r.mustHave(child, m.Field, "picker match")
		}
		for f := range p.Fill {
			r.mustHave(child, f, "picker fill")
		}
		for _, f := range []string{p.Qty, p.Unit} {
			if f != "" {
				r.mustHave(child, f, "picker quantity")
			}
		}
		if p.When != nil {
			r.mustHave(r.meta, p.When.Field, "picker condition")
		}
		r.meta.Lines.Picker = p
	}
	for i := range r.spec.Related {
		rel := r.spec.Related[i]
		if rel.Resource == "" || rel.Path == "" || rel.Key == "" || rel.Label.Zh == "" || rel.Label.En == "" {
			panic(fmt.Sprintf("resource %s: related rows need a Resource, Path, Key and zh/en Label", key))
		}
		if rel.When != nil {
			r.mustHave(r.meta, rel.When.Field, "related condition")
		}
		r.meta.Related = append(r.meta.Related, rel)
	}
	if r.spec.Print != nil {
		for _, s := range r.spec.Print.Signatures {
			if s.Zh == "" || s.En == "" {
				panic(fmt.Sprintf("resource %s: a signature box needs a zh/en label", key))
			}
		}
		r.meta.Print = r.spec.Print
	}
	for _, x := range r.spec.ExtraLines {
		if x.Field == "" || x.Child == nil {
			panic(fmt.Sprintf("resource %s: extra lines need Field and Child", key))
		}
		if !hasJSONField(reflect.TypeFor[T](), x.Field) {
			panic(fmt.Sprintf("resource %s: no field with json name %q", key, x.Field))
		}
		r.meta.ExtraLines = append(r.meta.ExtraLines, &LinesMeta{Field: x.Field, Label: x.Child.Spec().Label, Meta: x.Child.Meta(), Totals: x.Totals})
	}
}

// lineKey is the line field a "lines" pick's Key fills.
func (p *LinePicker) lineKey() string {
	for line, row := range p.Fill {
		if row == p.Key {
			return line
		}
	}
	return ""
}

func (l *Lines) picker() *LinePicker {
	if l == nil {
		return nil
	}
	return l.Picker
}

func (r *Resource[T]) mustHave(m *Meta, field, what string) {
	if m.byName[field] == nil {
		panic(fmt.Sprintf("resource %s: %s field %q is not declared on %s", r.spec.Key(), what, field, m.Name))
	}
}

func hasJSONField(t reflect.Type, name string) bool {
	for i := 0; i < t.NumField(); i++ {
		if strings.Split(t.Field(i).Tag.Get("json"), ",")[0] == name {
			return true
		}
	}
	return false
}
