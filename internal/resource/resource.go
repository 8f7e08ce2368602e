package resource

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/richtext"
	"github.com/bluebird/console/internal/platform/wire"
)

// DataScoper gives the data-scope predicate of a principal for a resource
// code: "" means unrestricted. It must fail closed ("1 = 0") on a rule it
// cannot apply.
type DataScoper interface {
	Where(ctx context.Context, p *authz.Principal, resourceCode, alias string, hasColumn func(string) bool) (string, []any, error)
}

// Env is what mounted resources need at run time.
type Env struct {
	DB    *db.DB
	Scope DataScoper
	// Refs resolves the targets of reference fields (ref.go); without it every
	// reference is refused.
	Refs Referencer
	// Files checks and signs the links of image fields (filelinks.go); without
	// it no link can be stored.
	Files FileLinks
	// TenantExists tells whether a live tenant has this id: the super user
	// names the tenant of a new TenantAdmin row (users, roles, posts) and
	// must not create rows in a tenant that does not exist.
	TenantExists func(ctx context.Context, idb bun.IDB, tenantID string) (bool, error)
	// Numbers issues document numbers (number.go); without it a numbered
	// field must be typed.
	Numbers Numberer
	// Buttons checks command permissions (command.go); without it only the
	// super user runs commands that name a button.
	Buttons ButtonHolder
	// Dicts names states in messages; without it the raw key is shown.
	Dicts DictLabeler
	// Downloads records every export (the goods-download monitor,
	// downloads.go); without it nothing is recorded.
	Downloads audit.Downloads
}

// tenantExists fails closed without a TenantExists.
func (env *Env) tenantExists(ctx context.Context, idb bun.IDB, tenantID string) (bool, error) {
	if env == nil || env.TenantExists == nil {
		return false, nil
	}
	return env.TenantExists(ctx, idb, tenantID)
}

// Hooks hold a resource's business logic; every one is optional.
type Hooks[T any] struct {
	// Validate runs after the declared rules, outside the transaction.
	Validate func(ctx context.Context, row *T, present map[string]bool, isNew bool) error
	// BeforeSave and AfterSave run inside the submit transaction.
	BeforeSave func(ctx context.Context, tx bun.Tx, row *T, isNew bool) error
	AfterSave  func(ctx context.Context, tx bun.Tx, row *T, isNew bool) error
	// BeforeRemove runs inside the remove transaction with the ids the caller may see.
	BeforeRemove func(ctx context.Context, tx bun.Tx, ids []wire.ID) error
	// Query adds request-specific conditions to list queries.
	Query func(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error)
	// Changed runs after a submit or remove has committed: the place to drop
	// caches derived from the table (running it inside the transaction would
	// let a concurrent reader cache the old rows again before the commit).
	Changed func(ctx context.Context)
	// Enrich fills computed fields of rows about to be sent.
	Enrich func(ctx context.Context, idb bun.IDB, rows []T) error
	// Total answers a list page's total from something kept beside the
	// table (a maintained count) when the request's filters let it; ok
	// false counts the rows as usual. The engine asks only when a full
	// page leaves the total unknown, and never for a resource with a data
	// scope (the kept count knows no scope).
	Total func(r *http.Request, q *Query) (total int64, ok bool, err error)
	// Commands are the resource's named POST actions over ids (command.go).
	Commands []Command[T]
	// AfterCommit runs after a submit has committed, with the saved row: the
	// place to tell others about that row once more (a changed user's
	// sessions), since a request between the save and the commit saw it as
	// it was. Its error is the answer; the row stays saved.
	AfterCommit func(ctx context.Context, row *T, isNew bool) error
	// Routes replace engine routes by name (override.go).
	Routes map[string]httpx.HandlerFunc
}

// Registered is the type-erased view of a resource, for the registry,
// the metadata endpoint, the OpenAPI document and the conformance tests.
type Registered interface {
	Spec() *Spec
	Meta() *Meta
	Mount(r chi.Router, env *Env)
}

// Resource is a declared resource of row type T.
type Resource[T any] struct {
	spec  Spec
	meta  *Meta
	hooks Hooks[T]
	env   *Env
	order string
	plans planCache  // how List and Get read rows (scan.go)
	views []viewSlot // the compiled views (view.go)
	// linesIndex is the struct index of the lines slice (Spec.Lines).
	linesIndex []int
	// parent is set on a line resource by the resource whose Lines it is:
	// the line's own read routes answer only lines of parents the caller
	// may read (lines.go).
	parent *parentLink
}

// New declares a resource. It panics on a bad declaration: that is a programming error found at start-up.
func New[T any](spec Spec, hooks Hooks[T]) *Resource[T] {
	var zero T
	t := reflect.TypeOf(zero)
	if _, ok := any(&zero).(hasBase); !ok {
		panic(fmt.Sprintf("resource %s: %s must embed resource.Base", spec.Key(), t))
	}
	meta, err := newMeta(&spec, t)
	if err != nil {
		panic(fmt.Sprintf("resource %s: %v", spec.Key(), err))
	}
	r := &Resource[T]{spec: spec, meta: meta, hooks: hooks, order: spec.DefaultOrder}
	if r.order == "" {
		r.order = "id DESC"
	}
	for _, group := range spec.Unique {
		for _, name := range group {
			if meta.byName[name] == nil {
				panic(fmt.Sprintf("resource %s: unique field %q is not declared", spec.Key(), name))
			}
		}
	}
	r.initCommands()
	r.initScreens()
	r.initTree()
	r.initLines(t)
	r.initDocument()
	r.initViews()
	r.initNumber()
	r.initStates()
	r.initLookup()
	r.initImport()
	r.initRoutes()
	r.initRouteNames()
	return r
}

func (r *Resource[T]) Spec() *Spec { return &r.spec }
func (r *Resource[T]) Meta() *Meta { return r.meta }

// Mount adds the generic routes the spec asks for.
func (r *Resource[T]) Mount(router chi.Router, env *Env) {
	r.env = env
	read, write := r.guard(r.spec.Read, ""), r.guard(r.spec.Write, "")
	if r.spec.has("list") {
		router.Get(r.spec.Path()+"/list", httpx.Handle(read(r.handler("list", r.handleList))))
	}
	if r.spec.has("page") {
		router.Get(r.spec.Path()+"/page", httpx.Handle(read(r.handler("page", r.handleList))))
	}
	if r.spec.has("detail") {
		router.Get(r.spec.Path()+"/detail", httpx.Handle(read(r.handler("detail", r.handleDetail))))
	}
	if r.spec.has("submit") {
		router.Post(r.spec.Path()+"/submit", httpx.Handle(write(r.handler("submit", r.handleSubmit))))
		for _, alias := range r.spec.SubmitAliases {
			router.Post(r.spec.Path()+"/"+alias, httpx.Handle(write(r.handler("submit", r.handleSubmit))))
		}
	}
	if r.spec.has("remove") {
		router.Post(r.spec.Path()+"/remove", httpx.Handle(r.guard(r.spec.Write, "delete")(r.handler("remove", r.handleRemove))))
	}
	if r.spec.has("export") {
		router.Get(r.spec.Path()+"/export", httpx.Handle(read(r.handler("export", r.handleExport))))
	}
	r.mountRouteNames(router, read, write)
	if r.spec.Lines != nil {
		r.spec.Lines.Child.adopt(env)
	}
	r.mountCommands(router)
	r.mountViews(router, env)
	r.mountTree(router, read)
	r.mountImport(router, write)
}

// Env returns the run-time environment given at Mount.
func (r *Resource[T]) Env() *Env { return r.env }

// Guard wraps a handler with an access check.
func Guard(a Access) func(httpx.HandlerFunc) httpx.HandlerFunc {
	return func(h httpx.HandlerFunc) httpx.HandlerFunc {
		return func(req *http.Request) (any, error) {
			p := authz.From(req.Context())
			if p == nil {
				return nil, httpx.ErrUnauthorized
			}
			switch a {
			case Super:
				if !p.IsSuper() {
					return nil, httpx.ErrForbidden
				}
			case Admin:
				if !p.IsTenantAdmin() {
					return nil, httpx.ErrForbidden
				}
			}
			return h(req)
		}
	}
}

// guard is Guard for the resource's routes: Granted checks the menu, or the
// menu's button when one is named (the submit's add or edit is checked once
// the body tells which, grantedWrite).
func (r *Resource[T]) guard(a Access, button string) func(httpx.HandlerFunc) httpx.HandlerFunc {
	if a != Granted {
		return Guard(a)
	}
	code := r.spec.MenuCode
	if button != "" {
		code += "_" + button
	}
	return func(h httpx.HandlerFunc) httpx.HandlerFunc {
		return Guard(AnyUser)(func(req *http.Request) (any, error) {
			if err := r.holds(req.Context(), code); err != nil {
				return nil, err
			}
			return h(req)
		})
	}
}

// holds refuses a caller without the menu or button code (the super user holds all).
func (r *Resource[T]) holds(ctx context.Context, code string) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	if p.IsSuper() {
		return nil
	}
	if r.env == nil || r.env.Buttons == nil {
		return httpx.ErrForbidden
	}
	ok, err := r.env.Buttons.HoldsButton(ctx, p, code)
	if err != nil {
		return err
	}
	if !ok {
		return httpx.ErrForbidden
	}
	return nil
}

// grantedWrite checks a Granted submit's button: add for a new row, edit for a change.
func (r *Resource[T]) grantedWrite(ctx context.Context, isNew bool) error {
	if r.spec.Write != Granted {
		return nil
	}
	if isNew {
		return r.holds(ctx, r.spec.MenuCode+"_add")
	}
	return r.holds(ctx, r.spec.MenuCode+"_edit")
}

// principal returns the caller or 401.
func principal(ctx context.Context) (*authz.Principal, error) {
	p := authz.From(ctx)
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	return p, nil
}

// crossTenant tells whether the caller sees every tenant's rows of this resource.
func (r *Resource[T]) crossTenant(p *authz.Principal) bool {
	return r.spec.Scope == Global || (r.spec.Scope == TenantAdmin && p.IsSuper())
}

// scope adds the tenant, soft-delete and data-scope predicates to q; every
// read and write of the engine goes through it.
func (r *Resource[T]) scope(ctx context.Context, q bun.QueryBuilder, alias string) (bun.QueryBuilder, error) {
	preds, err := r.predicates(ctx, alias)
	if err != nil {
		return nil, err
	}
	for _, p := range preds {
		q = q.Where(p.sql, p.args...)
	}
	return q, nil
}

// predicate is one SQL condition with its arguments.
type predicate struct {
	sql  string
	args []any
}

// predicates are scope's conditions on the table under alias ("" for none):
// a view applies them to every table it joins.
func (r *Resource[T]) predicates(ctx context.Context, alias string) ([]predicate, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	col := func(c string) bun.Ident {
		if alias != "" {
			return bun.Ident(alias + "." + c)
		}
		return bun.Ident(c)
	}
	out := []predicate{{"? = 0", []any{col("is_deleted")}}}
	if !r.crossTenant(p) {
		out = append(out, predicate{"? = ?", []any{col("tenant_id"), p.TenantID}})
	}
	if r.spec.DataScope && r.env.Scope != nil && !p.IsTenantAdmin() {
		where, args, err := r.env.Scope.Where(ctx, p, r.spec.MenuCode, alias, r.hasColumn)
		if err != nil {
			return nil, err
		}
		if where != "" {
			out = append(out, predicate{where, args})
		}
	}
	return out, nil
}

func (r *Resource[T]) hasColumn(c string) bool { return r.meta.byColumn[c] != nil }

// Select starts a scoped select of this resource's table into model.
func (r *Resource[T]) Select(ctx context.Context, idb bun.IDB, model any) (*bun.SelectQuery, error) {
	q := idb.NewSelect().Model(model).ModelTableExpr("? AS ?TableAlias", bun.Ident(r.spec.Table))
	qb, err := r.scope(ctx, q.QueryBuilder(), "")
	if err != nil {
		return nil, err
	}
	return qb.Unwrap().(*bun.SelectQuery), nil
}

// Get loads one row the caller may see, or ErrNotFound.
func (r *Resource[T]) Get(ctx context.Context, idb bun.IDB, id wire.ID) (*T, error) {
	row := new(T)
	q, err := r.Select(ctx, idb, row)
	if err != nil {
		return nil, err
	}
	q = q.Where("id = ?", id).Limit(1)
	if p, conn := r.plans.get(idb, reflect.TypeFor[T](), row), rawConn(idb); p != nil && conn != nil {
		rows, err := scanInto(ctx, p, conn, p.prepare(q).String(), make([]T, 0, 1))
		if err == nil && checkScan {
			err = r.checkGet(ctx, idb, id, rows)
		}
		switch {
		case err == nil && len(rows) == 0:
			return nil, httpx.ErrNotFound
		case err == nil:
			*row = rows[0]
			r.prepareToSend(ctx, row)
			return row, nil
		case !errors.Is(err, errNoFastPath):
			return nil, err
		}
		q, err = r.Select(ctx, idb, row) // a hook added columns: let bun scan
		if err != nil {
			return nil, err
		}
		q = q.Where("id = ?", id).Limit(1)
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.ErrNotFound
		}
		return nil, err
	}
	r.prepareToSend(ctx, row)
	return row, nil
}

// checkGet compares Get's fast read with bun's (BLUEBIRD_CHECK_SCAN).
func (r *Resource[T]) checkGet(ctx context.Context, idb bun.IDB, id wire.ID, rows []T) error {
	var ref []T
	q, err := r.Select(ctx, idb, &ref)
	if err != nil {
		return err
	}
	if err := q.Where("id = ?", id).Limit(1).Scan(ctx); err != nil {
		return err
	}
	return sameRows(r.spec.Key(), rows, ref)
}

// List runs a parsed query and returns one page and the total.
func (r *Resource[T]) List(ctx context.Context, idb bun.IDB, q *Query, extra func(*bun.SelectQuery) (*bun.SelectQuery, error)) ([]T, int64, error) {
	return r.list(ctx, idb, q, extra, nil, nil)
}

// keptTotal is the Total hook bound to a request, or nil where the rows
// are narrowed beyond what the hook sees (a data scope, a line's readable
// parents).
func (r *Resource[T]) keptTotal(req *http.Request, q *Query) func() (int64, bool, error) {
	if r.hooks.Total == nil || r.spec.DataScope || r.parent != nil {
		return nil
	}
	return func() (int64, bool, error) { return r.hooks.Total(req, q) }
}

// list is List of the base resource (v nil) or of one of its views.
// kept, when set, may answer the total without counting.
func (r *Resource[T]) list(ctx context.Context, idb bun.IDB, q *Query, extra func(*bun.SelectQuery) (*bun.SelectQuery, error), v *compiledView,
	kept func() (int64, bool, error)) ([]T, int64, error) {
	rows := make([]T, 0, q.Size)
	p, conn := r.plans.get(idb, reflect.TypeFor[T](), (*T)(nil)), rawConn(idb)
	sq, err := r.listQuery(ctx, idb, q, extra, &rows, v, p)
	if err != nil {
		return nil, 0, err
	}
	offset := (q.Current - 1) * q.Size
	key := ""
	if p != nil && conn != nil {
		if v == nil {
			sq = p.prepare(sq)
		}
		key = sq.String()
		rows, err = scanInto(ctx, p, conn, key, rows)
		if errors.Is(err, errNoFastPath) {
			key, rows = "", rows[:0] // a hook added columns: let bun scan
			err = sq.Scan(ctx)
		} else if err == nil && checkScan {
			err = r.checkList(ctx, idb, q, extra, rows, v, p)
		}
	} else {
		err = sq.Scan(ctx)
	}
	if err != nil {
		return nil, 0, err
	}
	var total int64
	if len(rows) < q.Size && (len(rows) > 0 || offset == 0) {
		total = int64(offset + len(rows)) // a short page tells the total without counting
	} else {
		known := false
		if kept != nil {
			if total, known, err = kept(); err != nil {
				return nil, 0, err
			}
		}
		if !known {
			if total, err = r.count(ctx, sq, key); err != nil {
				return nil, 0, err
			}
		}
	}
	if r.hooks.Enrich != nil && len(rows) > 0 {
		if err := r.hooks.Enrich(ctx, idb, rows); err != nil {
			return nil, 0, err
		}
	}
	for i := range rows {
		r.prepareToSend(ctx, &rows[i])
	}
	return rows, int64(total), nil
}

// listQuery is the scoped, filtered, ordered page query of List into dest.
func (r *Resource[T]) listQuery(ctx context.Context, idb bun.IDB, q *Query, extra func(*bun.SelectQuery) (*bun.SelectQuery, error), dest *[]T, v *compiledView, p *rowPlan) (*bun.SelectQuery, error) {
	var sq *bun.SelectQuery
	var err error
	order := r.order
	if v == nil {
		if sq, err = r.Select(ctx, idb, dest); err != nil {
			return nil, err
		}
		sq = q.Apply(sq, "")
	} else {
		// joined tables share column names: qualify everything by the base alias
		alias := r.tableAlias(idb)
		if sq, err = r.viewSelect(ctx, idb, dest, v, r.baseColumns(idb, p)); err != nil {
			return nil, err
		}
		sq = q.Apply(sq, alias)
		order = qualifiedOrder(order, alias)
	}
	if extra != nil {
		if sq, err = extra(sq); err != nil {
			return nil, err
		}
	}
	if len(q.Order) == 0 {
		sq = sq.OrderExpr(order)
	}
	return sq.Limit(int64(q.Size)).Offset(int64((q.Current - 1) * q.Size)), nil
}

// checkList compares rows read by the fast path with bun's scan of the same
// page (BLUEBIRD_CHECK_SCAN, for test runs).
func (r *Resource[T]) checkList(ctx context.Context, idb bun.IDB, q *Query, extra func(*bun.SelectQuery) (*bun.SelectQuery, error), rows []T, v *compiledView, p *rowPlan) error {
	var ref []T
	sq, err := r.listQuery(ctx, idb, q, extra, &ref, v, p)
	if err != nil {
		return err
	}
	if err := sq.Scan(ctx); err != nil {
		return err
	}
	return sameRows(r.spec.Key(), rows, ref)
}

// count runs the count of a list query, through the page-total cache when
// the database has one; key is the query's text when the caller has it.
func (r *Resource[T]) count(ctx context.Context, sq *bun.SelectQuery, key string) (int64, error) {
	run := func() (int64, error) {
		n, err := sq.Count(ctx)
		return int64(n), err
	}
	if r.env == nil || r.env.DB == nil || r.env.DB.Counts == nil {
		return run()
	}
	if key == "" {
		key = sq.String()
	}
	return r.env.DB.Counts.Count(key, run)
}

func (r *Resource[T]) handleList(req *http.Request) (any, error) {
	return r.listPage(req)
}

func (r *Resource[T]) listPage(req *http.Request) (any, error) {
	q, err := r.meta.ParseQuery(req.URL.Query())
	if err != nil {
		return nil, err
	}
	rows, total, err := r.list(req.Context(), r.env.DB, q, r.extra(req), nil, r.keptTotal(req, q))
	if err != nil {
		return nil, err
	}
	return httpx.NewPage(rows, total, q.Current, q.Size), nil
}

func (r *Resource[T]) handleDetail(req *http.Request) (any, error) {
	id, err := httpx.QueryID(req, "id")
	if err != nil {
		return nil, err
	}
	row, err := r.Detail(req.Context(), r.env.DB, id)
	if err != nil {
		return nil, err
	}
	if err := r.parentReadable(req.Context(), row); err != nil {
		return nil, err
	}
	return row, nil
}

// Detail is one whole row as `detail` answers it: enriched, with its lines.
func (r *Resource[T]) Detail(ctx context.Context, idb bun.IDB, id wire.ID) (*T, error) {
	row, err := r.Get(ctx, idb, id)
	if err != nil {
		return nil, err
	}
	rows := []T{*row}
	if r.hooks.Enrich != nil {
		if err := r.hooks.Enrich(ctx, idb, rows); err != nil {
			return nil, err
		}
	}
	if err := r.withLines(ctx, idb, rows); err != nil {
		return nil, err
	}
	return &rows[0], nil
}

// Decode reads a submit body: the row, and which JSON keys were present.
func (r *Resource[T]) Decode(req *http.Request) (*T, map[string]bool, error) {
	row, present, _, err := r.decode(req)
	return row, present, err
}

// decode is Decode plus, for a resource with lines, the keys each line carried.
func (r *Resource[T]) decode(req *http.Request) (*T, map[string]bool, []map[string]bool, error) {
	row, present, body, err := r.decodeRow(req)
	if err != nil || r.spec.Lines == nil {
		return row, present, nil, err
	}
	linePresent, err := r.decodeLines(body)
	return row, present, linePresent, err
}

func (r *Resource[T]) decodeRow(req *http.Request) (*T, map[string]bool, []byte, error) {
	body, err := httpx.ReadBody(req)
	if err != nil {
		return nil, nil, nil, err
	}
	var keys map[string]json.RawMessage
	if err := httpx.DecodeBytes(body, &keys); err != nil {
		return nil, nil, nil, err
	}
	row := new(T)
	if err := httpx.DecodeBytes(body, row); err != nil {
		return nil, nil, nil, err
	}
	present := make(map[string]bool, len(keys))
	for k, v := range keys {
		// an explicit null counts as absent: it neither satisfies "required" nor updates the column
		present[k] = string(v) != "null"
	}
	if err := r.checkConfirm(req, keys); err != nil {
		return nil, nil, nil, err
	}
	r.keepSecrets(req, row, present)
	return row, present, body, nil
}

// dropReadonly clears what a client sent for read-only fields of a new
// row: they are the server's to write (a snapshot, a posted quantity, a
// state), on insert as on update. Hooks fill them after this. The tenant
// is the engine's own rule (the super user names the tenant of a new
// TenantAdmin row, checked there).
func (r *Resource[T]) dropReadonly(row *T) {
	v := reflect.ValueOf(row).Elem()
	for _, f := range r.meta.Fields {
		if f.Readonly && !f.Joined && f.Name != "tenantId" {
			fv := v.FieldByIndex(f.index)
			fv.Set(reflect.Zero(fv.Type()))
		}
	}
}

// FieldError is the data of a validation failure: field name to message.
type FieldError map[string]string

// Check applies the declared rules to a decoded row.
func (r *Resource[T]) Check(ctx context.Context, row *T, present map[string]bool, isNew bool) error {
	lang := i18n.From(ctx)
	v := reflect.ValueOf(row).Elem()
	errs := FieldError{}
	var first i18n.Text
	fail := func(f *Field, msg i18n.Text) {
		if _, ok := errs[f.Name]; ok {
			return
		}
		errs[f.Name] = msg.In(lang)
		if first.Zh == "" {
			first = msg
		}
	}
	for _, f := range r.meta.Fields {
		if f.Readonly || (!isNew && (!present[f.Name] || f.Once || f.Type == TypePassword)) {
			continue
		}
		fv := v.FieldByIndex(f.index)
		if isNew && !present[f.Name] && f.Default != "" && fv.IsZero() {
			setDefault(f, fv)
		}
		if f.Type == TypeHTML {
			fv.SetString(richtext.Sanitize(fv.String()))
			if f.Required && !r.skipsRequired(ctx, f, isNew) && !richtext.Shows(fv.String()) {
				fail(f, f.Messages["required"])
				continue
			}
		}
		// Required text must be non-empty; a required number or choice must be
		// sent (0 is a real choice: isSealed 0 is "no").
		if f.Required && !r.skipsRequired(ctx, f, isNew) && ((fv.Kind() == reflect.String && strings.TrimSpace(fv.String()) == "") || (fv.Kind() != reflect.String && !present[f.Name] && fv.IsZero())) {
			fail(f, f.Messages["required"])
			continue
		}
		checkDecimal(f, fv, fail) // decimal.go: scale, precision, bounds; stores the value at the field's scale
		// dictcheck.go: a key of its dictionary
		if err := r.checkDict(ctx, f, fv, fail); err != nil {
			return err
		}
		if fv.Kind() == reflect.String {
			s := fv.String()
			if f.Max > 0 && utf8.RuneCountInString(s) > f.Max {
				fail(f, i18n.T(f.Label.Zh+"长度不能超过%d个字符", f.Label.En+" must be at most %d characters").Format(f.Max))
			}
			if msg, bad := f.failedRule(s); bad { // rules.go
				fail(f, msg)
			}
		}
		if f.Min != nil && (fv.Kind() == reflect.Int || fv.Kind() == reflect.Int64) && fv.Int() < int64(*f.Min) {
			fail(f, i18n.T(f.Label.Zh+"不能小于%d", f.Label.En+" must be at least %d").Format(*f.Min))
		}
		if f.Max > 0 && (fv.Kind() == reflect.Int || fv.Kind() == reflect.Int64) && fv.Int() > int64(f.Max) {
			fail(f, i18n.T(f.Label.Zh+"不能大于%d", f.Label.En+" must be at most %d").Format(f.Max))
		}
		// A Go int is an INTEGER column (int64 is BIGINT), which PostgreSQL
		// bounds to 32 bits.
		if fv.Kind() == reflect.Int && fv.Int() != int64(int32(fv.Int())) {
			fail(f, i18n.T(f.Label.Zh+"超出范围", f.Label.En+" is out of range"))
		}
	}
	if len(errs) > 0 {
		return &httpx.Error{Status: 400, Msg: first, Data: errs}
	}
	if r.hooks.Validate != nil {
		return r.hooks.Validate(ctx, row, present, isNew)
	}
	return nil
}

func (r *Resource[T]) handleSubmit(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	row, present, linePresent, err := r.decode(req)
	if err != nil {
		return nil, err
	}
	isNew := any(row).(hasBase).base().ID == 0
	if err := r.grantedWrite(ctx, isNew); err != nil {
		return nil, err
	}
	if isNew {
		r.dropReadonly(row)
	}
	ctx = withDictMemo(ctx) // the row and its lines read each dictionary once
	if err := r.Check(ctx, row, present, isNew); err != nil {
		return nil, err
	}
	if err := r.checkLines(ctx, row, present, linePresent); err != nil {
		return nil, err
	}
	ctx = withLinePresent(ctx, linePresent)
	err = r.env.DB.Tx(ctx, func(tx bun.Tx) error { return r.Save(ctx, tx, row, present) })
	if err != nil {
		return nil, err
	}
	if r.hooks.Changed != nil {
		r.hooks.Changed(ctx)
	}
	if r.hooks.AfterCommit != nil {
		if err := r.hooks.AfterCommit(ctx, row, isNew); err != nil {
			return nil, err
		}
	}
	if isNew && r.spec.Lines == nil {
		r.prepareToSend(ctx, row)
		return row, nil
	}
	// Answer with the stored row (and lines), not the partial body.
	return r.Detail(ctx, r.env.DB, any(row).(hasBase).base().ID)
}

// Save inserts (no id) or updates (id; only the present fields) inside tx,
// running the unique checks and save hooks.
func (r *Resource[T]) Save(ctx context.Context, tx bun.Tx, row *T, present map[string]bool) error {
	b := any(row).(hasBase).base()
	isNew := b.ID == 0
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	if !isNew {
		ctx = withSent(ctx, present)
	}
	var cur *T
	if !isNew {
		// The row must exist and be visible to the caller before anything else.
		if cur, err = r.Get(ctx, tx, b.ID); err != nil {
			return err
		}
		// The optimistic lock cannot be skipped: an edit must say which
		// version it was made on, or it would silently overwrite a newer one.
		if !present["version"] || b.Version <= 0 {
			return errVersionMissing
		}
		if any(cur).(hasBase).base().Version != b.Version {
			return httpx.ErrStale
		}
		b.TenantID = any(cur).(hasBase).base().TenantID
		if r.spec.States != nil {
			if err := r.checkState(ctx, tx, cur, r.spec.States.Edit, msgEditState); err != nil {
				return err
			}
		}
	} else {
		r.startState(row)
		switch {
		case r.spec.Scope == Global:
			b.TenantID = authz.SuperTenant
		case r.spec.Scope == TenantAdmin && p.IsSuper() && b.TenantID != "":
			// the super user may create rows in another tenant
			if len(b.TenantID) > maxTenantID {
				return errTenantID
			}
			if ok, err := r.env.tenantExists(ctx, tx, b.TenantID); err != nil || !ok {
				return cmp.Or(err, errNoTenant(ctx))
			}
		default:
			b.TenantID = p.TenantID
		}
	}
	if err := r.checkRefs(ctx, tx, row, present, isNew); err != nil {
		return err
	}
	if err := r.saveTree(ctx, tx, row, cur, present, isNew); err != nil {
		return err
	}
	if err := r.checkFileLinks(ctx, tx, row, cur, func(f *Field) bool { return isNew || present[f.Name] }); err != nil {
		return err
	}
	if isNew {
		if err := r.fillNumber(ctx, tx, row); err != nil {
			return err
		}
	}
	if err := r.checkUnique(ctx, tx, row, present, isNew); err != nil {
		return err
	}
	if r.hooks.BeforeSave != nil {
		if err := r.hooks.BeforeSave(ctx, tx, row, isNew); err != nil {
			return err
		}
	}
	now := wire.Now()
	if isNew {
		if err := r.Insert(ctx, tx, row); err != nil {
			return err
		}
	} else {
		cols := make([]string, 0, len(present))
		for _, f := range r.meta.Fields {
			if !present[f.Name] || f.Readonly || f.Once || !f.Form {
				continue
			}
			if f.Type == TypePassword && reflect.ValueOf(row).Elem().FieldByIndex(f.index).IsZero() {
				continue // an empty password in an edit form means "unchanged"
			}
			cols = append(cols, f.Name)
		}
		if present["status"] && r.stateField() == nil {
			cols = append(cols, "status")
		}
		if err := r.Update(ctx, tx, row, cols, true); err != nil {
			return err
		}
		b.UpdateTime, b.UpdateUser = now, p.UserID
	}
	// the lines first: AfterSave sees the whole record as saved
	if l := r.spec.Lines; l != nil && (isNew || present[l.Field]) {
		slice := reflect.ValueOf(row).Elem().FieldByIndex(r.linesIndex)
		linePresent := linePresentOf(ctx, slice.Len())
		if err := l.Child.syncLines(ctx, tx, b, isNew, l, slice, linePresent); err != nil {
			return err
		}
	}
	if r.hooks.AfterSave != nil {
		return r.hooks.AfterSave(ctx, tx, row, isNew)
	}
	return nil
}

// Insert stamps the base columns and inserts the row (tenant already set, or the caller's).
func (r *Resource[T]) Insert(ctx context.Context, idb bun.IDB, row *T) error {
	b := any(row).(hasBase).base()
	if b.ID == 0 {
		b.ID = db.NewID()
	}
	if p := authz.From(ctx); p != nil {
		if b.TenantID == "" {
			b.TenantID = p.TenantID
		}
		b.CreateUser, b.UpdateUser, b.CreateDept = p.UserID, p.UserID, p.DeptID
	}
	if b.TenantID == "" {
		b.TenantID = authz.SuperTenant
	}
	now := wire.Now()
	b.CreateTime, b.UpdateTime = now, now
	if b.Status == 0 {
		b.Status = 1
	}
	b.IsDeleted, b.Version = 0, 1
	_, err := idb.NewInsert().Model(row).ModelTableExpr(r.spec.Table).Exec(ctx)
	return err
}

// UpdateUnscoped is the named way around the data scope (never the tenant):
// it updates a row of the caller's tenant that their data scope may hide,
// e.g. a user's own profile. Every use is logged with its reason.
func (r *Resource[T]) UpdateUnscoped(ctx context.Context, idb bun.IDB, row *T, fields []string, reason string) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	b := any(row).(hasBase).base()
	slog.InfoContext(ctx, "unscoped update", "resource", r.spec.Key(), "id", b.ID, "user", p.UserID, "reason", reason)
	if r.meta.hasFileLink {
		cur := new(T)
		if err := idb.NewSelect().Model(cur).ModelTableExpr("? AS ?TableAlias", bun.Ident(r.spec.Table)).
			Where("id = ? AND tenant_id = ? AND is_deleted = 0", b.ID, p.TenantID).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return httpx.ErrNotFound
			}
			return err
		}
		b.TenantID = p.TenantID
		if err := r.checkFileLinks(ctx, idb, row, cur, func(f *Field) bool { return slices.Contains(fields, f.Name) }); err != nil {
			return err
		}
	}
	v := reflect.ValueOf(row).Elem()
	q := idb.NewUpdate().Table(r.spec.Table)
	for _, name := range fields {
		if f := r.meta.byName[name]; f != nil && !f.Readonly {
			q = q.Set("? = ?", bun.Ident(f.Column), v.FieldByIndex(f.index).Interface())
		}
	}
	res, err := q.Set("update_user = ?", p.UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").
		Where("id = ? AND tenant_id = ? AND is_deleted = 0", b.ID, p.TenantID).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return httpx.ErrNotFound
	}
	return nil
}

// Update writes the named fields of row (JSON names), bumps the version and
// stamps the update columns. With checkVersion the row's version must match.
func (r *Resource[T]) Update(ctx context.Context, idb bun.IDB, row *T, fields []string, checkVersion bool) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	b := any(row).(hasBase).base()
	v := reflect.ValueOf(row).Elem()
	q := idb.NewUpdate().Table(r.spec.Table)
	for _, name := range fields {
		f := r.meta.byName[name]
		if f == nil {
			continue
		}
		q = q.Set("? = ?", bun.Ident(f.Column), v.FieldByIndex(f.index).Interface())
	}
	q = q.Set("update_user = ?", p.UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").Where("id = ?", b.ID)
	if checkVersion {
		q = q.Where("version = ?", b.Version)
	}
	qb, err := r.scope(ctx, q.QueryBuilder(), "")
	if err != nil {
		return err
	}
	res, err := qb.Unwrap().(*bun.UpdateQuery).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if checkVersion {
			return httpx.ErrStale
		}
		return httpx.ErrNotFound
	}
	b.Version++
	return nil
}

// Remove soft-deletes the rows among ids that the caller may see; it returns how many.
func (r *Resource[T]) Remove(ctx context.Context, idb bun.IDB, ids []wire.ID) (int64, error) {
	p, err := principal(ctx)
	if err != nil {
		return 0, err
	}
	q := idb.NewUpdate().Table(r.spec.Table).Set("is_deleted = 1").Set("update_user = ?", p.UserID).
		Set("update_time = ?", wire.Now()).Set("version = version + 1").Where("id IN (?)", bun.In(ids))
	qb, err := r.scope(ctx, q.QueryBuilder(), "")
	if err != nil {
		return 0, err
	}
	res, err := qb.Unwrap().(*bun.UpdateQuery).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RemoveWhere soft-deletes the live rows matching where (of tenantID; ""
// for rows whose tenant the caller has settled already), stamped as the
// caller's: rows that go with another row (a document's lines, a
// warehouse's positions), which the caller's data scope must not keep alive.
func (r *Resource[T]) RemoveWhere(ctx context.Context, idb bun.IDB, tenantID, where string, args ...any) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	q := idb.NewUpdate().Table(r.spec.Table).Set("is_deleted = 1").Set("update_user = ?", p.UserID).
		Set("update_time = ?", wire.Now()).Set("version = version + 1").Where("is_deleted = 0").Where(where, args...)
	if tenantID != "" {
		q = q.Where("tenant_id = ?", tenantID)
	}
	_, err = q.Exec(ctx)
	return err
}

var msgRemoved = i18n.T("删除成功", "Deleted")

// maxTenantID is the width of every tenant_id column.
const maxTenantID = 12

var errTenantID = httpx.Badf("租户ID长度不能超过%d个字符", "The tenant ID must be at most %d characters", maxTenantID)

// errNoTenant names the field in the caller's language, so it is made per request.
func errNoTenant(ctx context.Context) error {
	return FieldErrorOf(ctx, "tenantId", i18n.T("租户不存在", "No such tenant"))
}

var errVersionMissing = &httpx.Error{Status: 400, Msg: i18n.T("缺少数据版本号(version),请刷新后重试", "The record's version is missing; reload it and try again")}

func (r *Resource[T]) handleRemove(req *http.Request) (any, error) {
	ids, err := httpx.FormIDs(req, "ids")
	if err != nil {
		return nil, err
	}
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	err = r.env.DB.Tx(ctx, func(tx bun.Tx) error {
		if err := r.removeTree(ctx, tx, ids); err != nil {
			return err
		}
		if err := r.checkRemoveStates(ctx, tx, ids); err != nil {
			return err
		}
		if r.hooks.BeforeRemove != nil || r.spec.Lines != nil {
			// pass only the ids the caller can see
			var visible []wire.ID
			q, err := r.Select(ctx, tx, (*T)(nil))
			if err != nil {
				return err
			}
			if err := q.Column("id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &visible); err != nil {
				return err
			}
			if len(visible) == 0 {
				return httpx.ErrNotFound
			}
			if r.hooks.BeforeRemove != nil {
				if err := r.hooks.BeforeRemove(ctx, tx, visible); err != nil {
					return err
				}
			}
			if r.spec.Lines != nil {
				if err := r.spec.Lines.Child.removeLines(ctx, tx, r.spec.Lines, visible); err != nil {
					return err
				}
			}
		}
		n, err := r.Remove(ctx, tx, ids)
		if err != nil {
			return err
		}
		if n == 0 {
			return httpx.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if r.hooks.Changed != nil {
		r.hooks.Changed(ctx)
	}
	return httpx.Message{Text: msgRemoved}, nil
}

// checkUnique enforces the declared unique groups among live rows of the tenant.
func (r *Resource[T]) checkUnique(ctx context.Context, idb bun.IDB, row *T, present map[string]bool, isNew bool) error {
	b := any(row).(hasBase).base()
	v := reflect.ValueOf(row).Elem()
	for _, group := range r.spec.Unique {
		touched := isNew
		for _, name := range group {
			touched = touched || present[name]
		}
		if !touched {
			continue
		}
		q := idb.NewSelect().Table(r.spec.Table).Where("is_deleted = 0")
		if r.spec.Scope != Global {
			q = q.Where("tenant_id = ?", b.TenantID)
		}
		labels := make([]string, 0, len(group))
		labelsEn := make([]string, 0, len(group))
		for _, name := range group {
			f := r.meta.byName[name]
			q = q.Where("? = ?", bun.Ident(f.Column), v.FieldByIndex(f.index).Interface())
			labels = append(labels, f.Label.Zh)
			labelsEn = append(labelsEn, f.Label.En)
		}
		if !isNew {
			q = q.Where("id <> ?", b.ID)
		}
		exists, err := q.Exists(ctx)
		if err != nil {
			return err
		}
		if exists {
			return httpx.BadRequest(i18n.T(strings.Join(labels, "、")+"已存在", strings.Join(labelsEn, ", ")+" already exists"))
		}
	}
	return nil
}
