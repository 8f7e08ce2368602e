package resource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Lines are child rows saved with their parent: a document's details, a
// code rule's segments. The parent's submit body carries them as
// `{...main, details: [...]}`, and in the same transaction the engine
// validates them line by line (the line number in every message), removes
// the parent's lines the body left out, updates those it kept (by id) and
// inserts the new ones. `detail` answers the same shape, and removing the
// parent removes its lines. Lines live in the parent's tenant, and a line id
// of another parent is refused: lines are reached only through a parent the
// caller may see.

// Lines declares the child rows of a resource (Spec.Lines).
type Lines struct {
	// Field is the JSON name of the parent struct's slice field
	// (`bun:"-" json:"details"`) holding the lines.
	Field string
	// Child is the line resource, declared like any other (it may also
	// have routes of its own, or none).
	Child LineStore
	// Parent is the child's field holding the parent's id ("mainId").
	Parent string
	// Totals are decimal line fields the web app sums under the grid.
	Totals []string
	// Max bounds the lines of one parent (default 1,000).
	Max int
	// Picker fills a line from another list (document.go).
	Picker *LinePicker
}

// LineStore is the line resource as the parent's engine needs it; every
// *Resource[L] is one.
type LineStore interface {
	Registered
	lineType() reflect.Type
	checkLine(ctx context.Context, line reflect.Value, present map[string]bool) error
	syncLines(ctx context.Context, tx bun.Tx, parent *Base, isNew bool, lines *Lines, slice reflect.Value, present []map[string]bool) error
	loadLines(ctx context.Context, idb bun.IDB, lines *Lines, parentIDs []wire.ID) (map[wire.ID]reflect.Value, error)
	removeLines(ctx context.Context, tx bun.Tx, lines *Lines, parentIDs []wire.ID) error
	adopt(env *Env)
	linkParent(p *parentLink)
}

// adopt gives a line resource that is not mounted on its own (it has no
// routes) the parent's environment.
func (r *Resource[T]) adopt(env *Env) {
	if r.env == nil {
		r.env = env
	}
}

// LinesMeta is the lines as the metadata lists them.
type LinesMeta struct {
	Field  string      `json:"field"`
	Label  i18n.Text   `json:"label"`
	Meta   *Meta       `json:"meta"`
	Totals []string    `json:"totals,omitempty"`
	Picker *LinePicker `json:"picker,omitempty"`
}

const defaultMaxLines = 1000

var (
	msgLineNotOwned = i18n.T("明细不属于本单据", "The line does not belong to this record")
	msgTooManyLines = func(n int) error {
		return httpx.Badf("明细最多%d行", "At most %d lines", n)
	}
)

// initLines finds the parent's slice field and checks the declaration.
func (r *Resource[T]) initLines(t reflect.Type) {
	l := r.spec.Lines
	if l == nil {
		return
	}
	if l.Child == nil || l.Field == "" || l.Parent == "" {
		panic(fmt.Sprintf("resource %s: Lines needs Field, Child and Parent", r.spec.Key()))
	}
	if l.Max == 0 {
		l.Max = defaultMaxLines
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if strings.Split(sf.Tag.Get("json"), ",")[0] == l.Field {
			if sf.Type.Kind() != reflect.Slice || sf.Type.Elem() != l.Child.lineType() {
				panic(fmt.Sprintf("resource %s: field %s must be a []%s", r.spec.Key(), l.Field, l.Child.lineType()))
			}
			r.linesIndex = sf.Index
		}
	}
	if r.linesIndex == nil {
		panic(fmt.Sprintf("resource %s: no field with json name %q", r.spec.Key(), l.Field))
	}
	if l.Child.Meta().byName[l.Parent] == nil {
		panic(fmt.Sprintf("resource %s: line resource has no field %q", r.spec.Key(), l.Parent))
	}
	r.meta.Lines = &LinesMeta{Field: l.Field, Label: l.Child.Spec().Label, Meta: l.Child.Meta(), Totals: l.Totals}
	l.Child.linkParent(&parentLink{column: l.Child.Meta().byName[l.Parent].Column, index: l.Child.Meta().byName[l.Parent].index,
		ids: func(ctx context.Context, idb bun.IDB) (*bun.SelectQuery, error) {
			q, err := r.Select(ctx, idb, (*T)(nil))
			if err != nil {
				return nil, err
			}
			return q.Column("id"), nil
		}})
}

// parentLink ties a line resource to its parent: lines are read through
// their own routes (list, views, export, detail) only where the caller may
// read the parent, under the parent's tenant, soft-delete and data-scope
// rules. A line has no data scope of its own: a rule on who created a line
// would hide lines of a document its reader edits.
type parentLink struct {
	column string // the line's column holding the parent's id
	index  []int  // its struct index
	// ids selects the ids of the parents the caller may read.
	ids func(ctx context.Context, idb bun.IDB) (*bun.SelectQuery, error)
}

func (r *Resource[T]) linkParent(p *parentLink) { r.parent = p }

// ofReadableParents adds the parent condition to a list's extra conditions.
func (r *Resource[T]) ofReadableParents(ctx context.Context, extra func(*bun.SelectQuery) (*bun.SelectQuery, error)) func(*bun.SelectQuery) (*bun.SelectQuery, error) {
	if r.parent == nil {
		return extra
	}
	return func(q *bun.SelectQuery) (*bun.SelectQuery, error) {
		if extra != nil {
			var err error
			if q, err = extra(q); err != nil {
				return nil, err
			}
		}
		parents, err := r.parent.ids(ctx, q.DB())
		if err != nil {
			return nil, err
		}
		// the line table's alias is spelled out: bun resolves ?TableAlias to
		// the subquery's table when the subquery is an argument of the same condition
		return q.Where("? IN (?)", bun.Ident(r.tableAlias(q.DB())+"."+r.parent.column), parents), nil
	}
}

// parentReadable answers a line's detail only when the caller may read its
// parent (else the same 404 as an unknown line).
func (r *Resource[T]) parentReadable(ctx context.Context, row *T) error {
	if r.parent == nil {
		return nil
	}
	id := reflect.ValueOf(row).Elem().FieldByIndex(r.parent.index).Interface().(wire.ID)
	parents, err := r.parent.ids(ctx, r.env.DB)
	if err != nil {
		return err
	}
	n, err := r.env.DB.NewSelect().TableExpr("(?) AS p", parents).Where("p.id = ?", id).Count(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return httpx.ErrNotFound
	}
	return nil
}

func (r *Resource[T]) lineType() reflect.Type { return reflect.TypeFor[T]() }

// decodeLines reads which keys each line of the body carried.
func (r *Resource[T]) decodeLines(body []byte) ([]map[string]bool, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	var lines []map[string]json.RawMessage
	if v, ok := raw[r.spec.Lines.Field]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &lines); err != nil {
			return nil, httpx.InvalidParam(r.spec.Lines.Field)
		}
	}
	out := make([]map[string]bool, len(lines))
	for i, l := range lines {
		out[i] = make(map[string]bool, len(l))
		for k, v := range l {
			out[i][k] = string(v) != "null"
		}
	}
	return out, nil
}

// checkLines validates every line the body sent, before the transaction.
func (r *Resource[T]) checkLines(ctx context.Context, row *T, present map[string]bool, linePresent []map[string]bool) error {
	if r.spec.Lines == nil || !present[r.spec.Lines.Field] {
		return nil
	}
	slice := reflect.ValueOf(row).Elem().FieldByIndex(r.linesIndex)
	if slice.Len() > r.spec.Lines.Max {
		return msgTooManyLines(r.spec.Lines.Max)
	}
	ctx = context.WithValue(ctx, lineParentKey{}, r.spec.Lines.Parent) // set by the engine, not sent
	for i := 0; i < slice.Len(); i++ {
		if err := r.spec.Lines.Child.checkLine(ctx, slice.Index(i).Addr(), linePresent[i]); err != nil {
			return lineError(ctx, r.spec.Lines.Field, i, err)
		}
	}
	return nil
}

// checkLine applies the line resource's declared rules: a line with an id
// is an update of the fields it carries, one without an insert.
func (r *Resource[T]) checkLine(ctx context.Context, line reflect.Value, present map[string]bool) error {
	row := line.Interface().(*T)
	isNew := any(row).(hasBase).base().ID == 0
	if isNew {
		r.dropReadonly(row)
	}
	return r.Check(ctx, row, present, isNew)
}

// lineError puts the line number into a line's validation error: the
// message starts with it and each field key becomes details[i].field.
func lineError(ctx context.Context, field string, i int, err error) error {
	var he *httpx.Error
	if !errors.As(err, &he) || he.Status != 400 {
		return err
	}
	msg := i18n.T(fmt.Sprintf("第%d行: %s", i+1, he.Msg.Zh), fmt.Sprintf("Line %d: %s", i+1, he.Msg.En))
	data := FieldError{}
	if fe, ok := he.Data.(FieldError); ok {
		for k, v := range fe {
			data[fmt.Sprintf("%s[%d].%s", field, i, k)] = v
		}
	}
	if len(data) == 0 {
		data[fmt.Sprintf("%s[%d]", field, i)] = msg.In(i18n.From(ctx))
	}
	return &httpx.Error{Status: 400, Msg: msg, Data: data}
}

// syncLines makes the parent's live lines those of slice, in the parent's
// transaction: left-out lines are removed first (so a replacement may reuse
// a unique key), kept ones updated with the fields they carry, new ones
// inserted.
func (r *Resource[T]) syncLines(ctx context.Context, tx bun.Tx, parent *Base, isNew bool, lines *Lines, slice reflect.Value, present []map[string]bool) error {
	parentField := r.meta.byName[lines.Parent]
	var current []wire.ID
	if !isNew {
		if err := tx.NewSelect().Table(r.spec.Table).Column("id").
			Where("? = ? AND tenant_id = ? AND is_deleted = 0", bun.Ident(parentField.Column), parent.ID, parent.TenantID).
			Scan(ctx, &current); err != nil {
			return err
		}
	}
	owned := make(map[wire.ID]bool, len(current))
	for _, id := range current {
		owned[id] = true
	}
	kept := map[wire.ID]bool{}
	for i := 0; i < slice.Len(); i++ {
		line := slice.Index(i).Addr().Interface().(*T)
		b := any(line).(hasBase).base()
		if b.ID == 0 {
			continue
		}
		if !owned[b.ID] || kept[b.ID] {
			return lineError(ctx, lines.Field, i, &httpx.Error{Status: 400, Msg: msgLineNotOwned})
		}
		kept[b.ID] = true
	}
	var gone []wire.ID
	for _, id := range current {
		if !kept[id] {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		if err := r.RemoveWhere(ctx, tx, parent.TenantID, "id IN (?)", bun.In(gone)); err != nil {
			return err
		}
	}
	for i := 0; i < slice.Len(); i++ {
		row := slice.Index(i).Addr().Interface().(*T)
		if err := r.saveLine(ctx, tx, parent, parentField, row, present[i]); err != nil {
			return lineError(ctx, lines.Field, i, err)
		}
	}
	return nil
}

// saveLine inserts or updates one line of parent.
func (r *Resource[T]) saveLine(ctx context.Context, tx bun.Tx, parent *Base, parentField *Field, row *T, present map[string]bool) error {
	b := any(row).(hasBase).base()
	isNew := b.ID == 0
	b.TenantID = parent.TenantID
	reflect.ValueOf(row).Elem().FieldByIndex(parentField.index).Set(reflect.ValueOf(parent.ID))
	if err := r.checkRefs(ctx, tx, row, present, isNew); err != nil {
		return err
	}
	if err := r.checkUnique(ctx, tx, row, present, isNew); err != nil {
		return err
	}
	ctx = context.WithValue(withSent(ctx, present), asLineKey{}, true)
	if r.hooks.BeforeSave != nil {
		if err := r.hooks.BeforeSave(ctx, tx, row, isNew); err != nil {
			return err
		}
	}
	if isNew {
		if err := r.Insert(ctx, tx, row); err != nil {
			return err
		}
	} else {
		cols := make([]string, 0, len(present))
		for _, f := range r.meta.Fields {
			if present[f.Name] && !f.Readonly && !f.Once && f.Form && f != parentField {
				cols = append(cols, f.Name)
			}
		}
		if err := r.Update(ctx, tx, row, cols, false); err != nil {
			return err
		}
	}
	if r.hooks.AfterSave != nil {
		return r.hooks.AfterSave(ctx, tx, row, isNew)
	}
	return nil
}

type (
	asLineKey     struct{}
	lineParentKey struct{}
)

// AsLine tells a line resource's save hooks that the row is being saved as
// one of its parent's lines: checks of the parent as a whole belong in the
// parent's AfterSave, which runs once every line is saved.
func AsLine(ctx context.Context) bool {
	v, _ := ctx.Value(asLineKey{}).(bool)
	return v
}

// loadLines reads the live lines of the parents, in the line resource's
// default order, grouped by parent id.
func (r *Resource[T]) loadLines(ctx context.Context, idb bun.IDB, lines *Lines, parentIDs []wire.ID) (map[wire.ID]reflect.Value, error) {
	parentField := r.meta.byName[lines.Parent]
	var rows []T
	q, err := r.Select(ctx, idb, &rows)
	if err != nil {
		return nil, err
	}
	if err := q.Where("? IN (?)", bun.Ident(parentField.Column), bun.In(parentIDs)).OrderExpr(r.order).
		Limit(int64(lines.Max * len(parentIDs))).Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[wire.ID]reflect.Value, len(parentIDs))
	for i := range rows {
		pid := reflect.ValueOf(&rows[i]).Elem().FieldByIndex(parentField.index).Interface().(wire.ID)
		s, ok := out[pid]
		if !ok {
			s = reflect.MakeSlice(reflect.SliceOf(reflect.TypeFor[T]()), 0, 4)
		}
		out[pid] = reflect.Append(s, reflect.ValueOf(rows[i]))
	}
	if r.hooks.Enrich != nil && len(rows) > 0 {
		for pid, s := range out {
			part := s.Interface().([]T)
			if err := r.hooks.Enrich(ctx, idb, part); err != nil {
				return nil, err
			}
			out[pid] = reflect.ValueOf(part)
		}
	}
	return out, nil
}

// removeLines removes the lines of removed parents.
// The parents are the caller's, so their lines are removed in whatever
// tenant they are (the super user removes rows of other tenants).
func (r *Resource[T]) removeLines(ctx context.Context, tx bun.Tx, lines *Lines, parentIDs []wire.ID) error {
	return r.RemoveWhere(ctx, tx, "", "? IN (?)", bun.Ident(r.meta.byName[lines.Parent].Column), bun.In(parentIDs))
}

// withLines fills the lines of rows (detail, and anything else that
// answers a whole record).
func (r *Resource[T]) withLines(ctx context.Context, idb bun.IDB, rows []T) error {
	if r.spec.Lines == nil || len(rows) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = any(&rows[i]).(hasBase).base().ID
	}
	byParent, err := r.spec.Lines.Child.loadLines(ctx, idb, r.spec.Lines, ids)
	if err != nil {
		return err
	}
	for i := range rows {
		dst := reflect.ValueOf(&rows[i]).Elem().FieldByIndex(r.linesIndex)
		if s, ok := byParent[ids[i]]; ok {
			dst.Set(s)
		} else {
			dst.Set(reflect.MakeSlice(dst.Type(), 0, 0))
		}
	}
	return nil
}
