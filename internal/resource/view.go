package resource

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// Views are named read endpoints (selectMaterialVOListPage,
// selectWarehouseVOPage...): the resource's rows plus columns of the rows
// they reference (a brand's name beside the brand id). Each joined table is
// reached through its own resource, LEFT JOINed under its own alias with its
// own tenant, soft-delete and data-scope predicates in the ON clause, so a
// name the caller may not see reads as empty instead of leaking, and no
// predicate is ambiguous. The base table's predicates, filters and sorts are
// qualified by its alias too. Joined columns are filterable and sortable
// where declared, and are listed in the metadata, the OpenAPI document and
// the Excel export of the view.

// View declares one named read endpoint (Spec.Views).
type View struct {
	Name  string // URL segment: GET <path>/<Name>
	Paged bool   // answers a page; otherwise an array (at most MaxPageSize rows)
	Joins []Join
	// Query adds the view's own conditions (request parameters beyond the
	// declared filters), on the base table's alias ?TableAlias.
	Query func(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error)
}

// Join reads columns of the row a reference field points at.
type Join struct {
	Field   string // the row's reference field (declared ref=service/name)
	Columns []JoinColumn
}

// JoinColumn is one column read from the referenced row into a scanonly
// field of the row struct (`bun:"brand_name,scanonly" json:"brandName"`).
type JoinColumn struct {
	Name   string // JSON name of the row's scanonly field
	Column string // the referenced table's column
	Label  i18n.Text
	Filter string // like, equal or "" (not filterable)
	Sort   bool
}

// ViewMeta is a view as the metadata lists it.
type ViewMeta struct {
	Name   string   `json:"name"`
	Path   string   `json:"path"`
	Paged  bool     `json:"paged"`
	Fields []*Field `json:"fields"`
}

// joinable is a resource a view may join: its table and its scope under an alias.
type joinable interface {
	Registered
	predicates(ctx context.Context, alias string) ([]predicate, error)
}

// compiledView is a View bound to its resource at Mount.
type compiledView struct {
	View
	meta    *Meta // the resource's fields plus the joined ones
	joins   []compiledJoin
	columns string // the joined part of the select list
}

type compiledJoin struct {
	alias  string
	field  *Field
	target joinable
}

// initViews checks the declared views and adds them to the metadata. The
// targets are resolved at Mount, when the registry is known.
func (r *Resource[T]) initViews() {
	for _, v := range r.spec.Views {
		if v.Name == "" {
			panic(fmt.Sprintf("resource %s: a view needs a Name", r.spec.Key()))
		}
		vm := ViewMeta{Name: v.Name, Path: "/api" + r.spec.Path() + "/" + v.Name, Paged: v.Paged}
		for _, j := range v.Joins {
			f := r.meta.byName[j.Field]
			if f == nil || f.Ref == "" {
				panic(fmt.Sprintf("resource %s: view %s joins %q, which is not a ref field", r.spec.Key(), v.Name, j.Field))
			}
			for _, c := range j.Columns {
				vm.Fields = append(vm.Fields, r.joinedField(v.Name, j, c))
			}
		}
		r.meta.Views = append(r.meta.Views, vm)
	}
	if r.spec.ListView != "" && r.view(r.spec.ListView) == nil {
		panic(fmt.Sprintf("resource %s: ListView %q is not a declared view", r.spec.Key(), r.spec.ListView))
	}
	r.meta.ListView = r.spec.ListView
}

// joinedField is the metadata of a joined column; the row struct must have
// a scanonly field of that JSON name for the value to reach the client.
func (r *Resource[T]) joinedField(view string, j Join, c JoinColumn) *Field {
	var sf reflect.StructField
	found := false
	t := reflect.TypeFor[T]()
	for i := 0; i < t.NumField() && !found; i++ {
		sf = t.Field(i)
		found = strings.Split(sf.Tag.Get("json"), ",")[0] == c.Name && strings.Contains(sf.Tag.Get("bun"), "scanonly")
	}
	if !found || sf.Type.Kind() != reflect.String || c.Column == "" || c.Label.Zh == "" {
		panic(fmt.Sprintf("resource %s: view %s: joined column %q needs a Column, a Label and a string field with bun:\"...,scanonly\"", r.spec.Key(), view, c.Name))
	}
	label := c.Label
	if label.En == "" {
		label.En = label.Zh
	}
	return &Field{Name: c.Name, Column: strings.Split(sf.Tag.Get("bun"), ",")[0], Type: TypeString, ValueType: ValueString,
		Label: label, Filter: c.Filter, Sortable: c.Sort, List: true, Readonly: true, Joined: true, index: sf.Index,
		joinSource: j.Field, joinColumn: c.Column}
}

func (r *Resource[T]) view(name string) *View {
	for i := range r.spec.Views {
		if r.spec.Views[i].Name == name {
			return &r.spec.Views[i]
		}
	}
	return nil
}

// mountViews routes the views. Their joins are resolved against the
// registry once every resource is registered: CheckRefs compiles them at
// start-up (a join that cannot be made stops the start), and a request
// before that compiles its view itself.
func (r *Resource[T]) mountViews(router interface {
	Get(pattern string, h http.HandlerFunc)
}, env *Env) {
	read := r.guard(r.spec.Read, "")
	r.views = make([]viewSlot, len(r.spec.Views))
	for i, v := range r.spec.Views {
		router.Get(r.spec.Path()+"/"+v.Name, httpx.Handle(read(func(req *http.Request) (any, error) {
			cv, err := r.compiledView(i, env.Refs)
			if err != nil {
				return nil, err
			}
			return r.handleView(req, cv)
		})))
	}
}

// viewSlot holds a view once compiled.
type viewSlot struct {
	once sync.Once
	cv   *compiledView
	err  error
}

func (r *Resource[T]) compiledView(i int, refs Referencer) (*compiledView, error) {
	s := &r.views[i]
	s.once.Do(func() { s.cv, s.err = r.compileView(r.spec.Views[i], refs, r.meta.Views[i].Fields) })
	return s.cv, s.err
}

// compileViews resolves every view's joins (CheckRefs, at start-up).
func (r *Resource[T]) compileViews(refs Referencer) error {
	for i := range r.views {
		if _, err := r.compiledView(i, refs); err != nil {
			return err
		}
	}
	return nil
}

func (r *Resource[T]) compileView(v View, refs Referencer, joined []*Field) (*compiledView, error) {
	cv := &compiledView{View: v, meta: r.meta.withFields(joined)}
	var cols []string
	k := 0
	for n, j := range v.Joins {
		f := r.meta.byName[j.Field]
		var target joinable
		if refs != nil {
			target, _ = refs.Get(f.Ref).(joinable)
		}
		if target == nil {
			return nil, fmt.Errorf("resource %s: view %s: %s references %s, which cannot be joined", r.spec.Key(), v.Name, j.Field, f.Ref)
		}
		alias := fmt.Sprintf("j%d", n)
		cv.joins = append(cv.joins, compiledJoin{alias: alias, field: f, target: target})
		for range j.Columns {
			jf := joined[k]
			k++
			jf.joinAlias = alias
			cols = append(cols, fmt.Sprintf("%s.%s AS %s", alias, jf.joinColumn, jf.Column))
		}
	}
	cv.columns = strings.Join(cols, ", ")
	return cv, nil
}

func (r *Resource[T]) handleView(req *http.Request, v *compiledView) (any, error) {
	q, err := v.meta.ParseQuery(req.URL.Query())
	if err != nil {
		return nil, err
	}
	if !v.Paged {
		q.Current, q.Size = 1, MaxPageSize
	}
	var extra func(*bun.SelectQuery) (*bun.SelectQuery, error)
	if v.Query != nil || r.hooks.Query != nil {
		extra = func(sq *bun.SelectQuery) (*bun.SelectQuery, error) {
			var err error
			if r.hooks.Query != nil {
				if sq, err = r.hooks.Query(req, sq); err != nil {
					return nil, err
				}
			}
			if v.Query != nil {
				return v.Query(req, sq)
			}
			return sq, nil
		}
	}
	var kept func() (int64, bool, error)
	if v.Paged && v.Query == nil { // a view's own query may narrow what a kept total counts
		kept = r.keptTotal(req, q)
	}
	rows, total, err := r.list(req.Context(), r.env.DB, q, r.ofReadableParents(req.Context(), extra), v, kept)
	if err != nil {
		return nil, err
	}
	if !v.Paged {
		return rows, nil
	}
	return httpx.NewPage(rows, total, q.Current, q.Size), nil
}

// viewSelect is the scoped select of a view: the base table under bun's
// alias for the row type, each referenced table LEFT JOINed under its own.
func (r *Resource[T]) viewSelect(ctx context.Context, idb bun.IDB, dest any, v *compiledView, baseColumns string) (*bun.SelectQuery, error) {
	alias := r.tableAlias(idb)
	q := idb.NewSelect().Model(dest).ModelTableExpr("? AS ?TableAlias", bun.Ident(r.spec.Table)).
		ColumnExpr(baseColumns).ColumnExpr(v.columns)
	for _, j := range v.joins {
		preds, err := j.target.predicates(ctx, j.alias)
		if err != nil {
			return nil, err
		}
		on := []string{"? = ?"}
		args := []any{bun.Ident(j.alias + ".id"), bun.Ident(alias + "." + j.field.Column)}
		for _, p := range preds {
			on = append(on, "("+p.sql+")")
			args = append(args, p.args...)
		}
		q = q.Join(fmt.Sprintf("LEFT JOIN %s AS %s ON %s", j.target.Spec().Table, j.alias, strings.Join(on, " AND ")), args...)
	}
	qb, err := r.scope(ctx, q.QueryBuilder(), alias)
	if err != nil {
		return nil, err
	}
	return qb.Unwrap().(*bun.SelectQuery), nil
}

// tableAlias is bun's alias of the row type's table, which ?TableAlias names.
func (r *Resource[T]) tableAlias(idb bun.IDB) string {
	return idb.Dialect().Tables().Get(reflect.TypeFor[T]()).Alias
}

// baseColumns is the base table's select list, qualified: the plan's when
// it has one (SQLite times as text), else every column of the row type.
func (r *Resource[T]) baseColumns(idb bun.IDB, p *rowPlan) string {
	if p != nil && p.columns != "" {
		return p.columns
	}
	table := idb.Dialect().Tables().Get(reflect.TypeFor[T]())
	cols := make([]string, len(table.Fields))
	for i, f := range table.Fields {
		cols[i] = string(table.SQLAlias) + "." + string(f.SQLName)
	}
	return strings.Join(cols, ", ")
}

// qualifiedOrder qualifies the bare column names of an ORDER BY list
// ("sort ASC, id DESC") with alias, for queries that join other tables.
func qualifiedOrder(order, alias string) string {
	parts := strings.Split(order, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" && !strings.Contains(p, ".") && !strings.Contains(p, "(") {
			p = alias + "." + p
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

// withFields is a copy of the metadata's lookup maps with extra fields, for
// parsing a view's filters and sorts.
func (m *Meta) withFields(extra []*Field) *Meta {
	out := &Meta{Fields: append(append([]*Field{}, m.Fields...), extra...), keyword: m.keyword, byName: map[string]*Field{}, byColumn: map[string]*Field{}}
	for _, f := range out.Fields {
		out.byName[f.Name] = f
		if f.joinAlias == "" && f.joinSource == "" {
			out.byColumn[f.Column] = f
		}
	}
	return out
}
