package resource

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Commands are a resource's named POST actions over `ids` (startProcess,
// cancellation, doEffective, enable...). The engine does what every one of
// them needs: the button permission checked on the server, the rows loaded
// through the resource's scoped select (tenant, data scope, soft delete) in
// one transaction, all-or-nothing when an id is not the caller's, the
// states each may start from, and the metadata that lets the web app draw
// the button. Run holds only the business part.

// Command is one declared action of a resource of row type T.
type Command[T any] struct {
	Name string // URL segment: POST <path>/<Name>
	// Key tells apart commands that share a Name with different fixed
	// Params in the metadata (doEffective as "effective" and "ineffective").
	Key   string
	Label i18n.Text
	// Button is the button code's suffix: the caller must hold the menu
	// button <MenuCode>_<Button> (the super user holds every button).
	Button  string
	Confirm i18n.Text
	// From lists the states a row may be in; a row in another refuses the
	// whole request, naming the row and its state.
	From *States
	// Aliases are further names of the command's route (BladeX's
	// submitInStockMaterialOthers beside submitInStockMaterial).
	Aliases []string
	// Params are fixed request parameters the web app sends with the ids.
	Params map[string]string
	// Row and Toolbar say where the web app draws the button (default both).
	Row, Toolbar bool
	// Run does the work inside the transaction on the visible rows, in id
	// order. Its result is the response data (nil: true), with Done as the message.
	// res is the command's own resource (SetFields, Get, lines...).
	Run func(ctx context.Context, tx bun.Tx, res *Resource[T], rows []*T, req *CommandRequest) (any, error)
	// Done is the success message (default 操作成功).
	Done i18n.Text
	// Mounted, when set, is called once the resource is mounted, with the
	// resource: what the command needs to register beyond its route (the
	// workflow's callback of a resource's startProcess).
	Mounted func(res *Resource[T])
}

// States names the field holding a row's state and the values allowed.
type States struct {
	Field  string `json:"field"`
	Values []int  `json:"values"`
}

// StartProcess is the name of the command that submits rows for approval
// (internal/approval): the rows of a resource declaring it have a workflow.
const StartProcess = "startProcess"

// CommandRequest is what Run gets besides the rows.
type CommandRequest struct {
	Values url.Values // query and form parameters
}

// Int reads a required integer parameter that must be one of allowed.
func (c *CommandRequest) Int(name string, allowed ...int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(c.Values.Get(name)))
	if err != nil || (len(allowed) > 0 && !slices.Contains(allowed, n)) {
		return 0, httpx.InvalidParam(name)
	}
	return n, nil
}

// CommandMeta is a command as the metadata lists it (docs/resource-meta.md).
type CommandMeta struct {
	Name       string            `json:"name"`
	Key        string            `json:"key"`
	Path       string            `json:"path"`
	Label      i18n.Text         `json:"label"`
	Permission string            `json:"permission,omitempty"`
	Params     map[string]string `json:"params,omitempty"`
	Confirm    *i18n.Text        `json:"confirm,omitempty"`
	From       *States           `json:"from,omitempty"`
	Row        bool              `json:"row"`
	Toolbar    bool              `json:"toolbar"`
}

// ButtonHolder tells whether the caller holds a menu button; without one in
// Env no command can be run by anyone but the super user.
type ButtonHolder interface {
	HoldsButton(ctx context.Context, p *authz.Principal, code string) (bool, error)
}

// maxCommandIDs bounds the rows one command touches.
const maxCommandIDs = httpx.MaxPageSize

var (
	msgDone         = i18n.T("操作成功", "Done")
	msgTooManyIDs   = httpx.Badf("一次最多处理%d条数据", "At most %d rows at a time", maxCommandIDs)
	msgCommandState = func(row, state string, cmd i18n.Text) i18n.Text {
		return i18n.T(fmt.Sprintf("%s 当前状态为「%s」,不能%s", row, state, cmd.Zh), fmt.Sprintf("%s is %s: %s is not allowed", row, state, cmd.En))
	}
)

// initCommands checks the declarations and lists them in the metadata.
func (r *Resource[T]) initCommands() {
	for i := range r.hooks.Commands {
		c := &r.hooks.Commands[i]
		if c.Name == "" || c.Run == nil || c.Label.Zh == "" {
			panic(fmt.Sprintf("resource %s: a command needs a Name, a Label and Run", r.spec.Key()))
		}
		if c.Key == "" {
			c.Key = c.Name
		}
		if !c.Row && !c.Toolbar {
			c.Row, c.Toolbar = true, true
		}
		if c.From != nil && r.meta.byName[c.From.Field] == nil {
			panic(fmt.Sprintf("resource %s: command %s: no field %q", r.spec.Key(), c.Name, c.From.Field))
		}
		if c.Name == StartProcess {
			// the web app asks a row's approval progress by its workflow business key <table>:<id>
			r.meta.Table = r.spec.Table
		}
		m := CommandMeta{Name: c.Name, Key: c.Key, Path: "/api" + r.spec.Path() + "/" + c.Name, Label: c.Label,
			Params: c.Params, From: c.From, Row: c.Row, Toolbar: c.Toolbar}
		if c.Button != "" && r.spec.MenuCode != "" {
			m.Permission = r.spec.MenuCode + "_" + c.Button
		}
		if c.Confirm.Zh != "" {
			confirm := c.Confirm
			m.Confirm = &confirm
		}
		r.meta.Commands = append(r.meta.Commands, m)
	}
}

// mountCommands routes each command name once; commands sharing a name are
// told apart by their fixed params.
func (r *Resource[T]) mountCommands(router chi.Router) {
	mounted := map[string]bool{}
	for i := range r.hooks.Commands {
		if m := r.hooks.Commands[i].Mounted; m != nil {
			m(r)
		}
		name := r.hooks.Commands[i].Name
		if mounted[name] {
			continue
		}
		mounted[name] = true
		handler := httpx.Handle(r.guard(r.spec.Write, "")(func(req *http.Request) (any, error) {
			return r.runCommand(req, name)
		}))
		router.Post(r.spec.Path()+"/"+name, handler)
		for _, alias := range r.hooks.Commands[i].Aliases {
			router.Post(r.spec.Path()+"/"+alias, handler)
		}
	}
}

// pickCommand finds the declaration a request means: the one whose fixed
// params all match the request's (the most specific first).
func (r *Resource[T]) pickCommand(name string, v url.Values) *Command[T] {
	var best *Command[T]
	for i := range r.hooks.Commands {
		c := &r.hooks.Commands[i]
		if c.Name != name {
			continue
		}
		match := true
		for k, want := range c.Params {
			if v.Get(k) != want {
				match = false
			}
		}
		if match && (best == nil || len(c.Params) > len(best.Params)) {
			best = c
		}
	}
	return best
}

func (r *Resource[T]) runCommand(req *http.Request, name string) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := commandIDs(req)
	if err != nil {
		return nil, err
	}
	if len(ids) > maxCommandIDs {
		return nil, msgTooManyIDs
	}
	values := req.URL.Query()
	if req.PostForm != nil {
		for k, vs := range req.PostForm {
			if !values.Has(k) {
				values[k] = vs
			}
		}
	}
	c := r.pickCommand(name, values)
	if c == nil {
		return nil, httpx.InvalidParam(name)
	}
	// the buttons are read before the transaction (the menu cache reads
	// beside it); with screens, each row is then held to its screen's
	allowed, err := r.buttonMenus(ctx, p, c)
	if err != nil {
		return nil, err
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	var out any
	err = r.env.DB.Tx(ctx, func(tx bun.Tx) error {
		rows, err := r.visibleRows(ctx, tx, ids)
		if err != nil {
			return err
		}
		if err := r.rowsAllowed(c, rows, allowed); err != nil {
			return err
		}
		if err := r.checkStates(ctx, tx, c, rows); err != nil {
			return err
		}
		out, err = c.Run(ctx, tx, r, rows, &CommandRequest{Values: values})
		return err
	})
	if err != nil {
		return nil, err
	}
	if r.hooks.Changed != nil {
		r.hooks.Changed(ctx)
	}
	if m, ok := out.(httpx.Message); ok { // Run chose its own message
		return m, nil
	}
	done := c.Done
	if done.Zh == "" {
		done = msgDone
	}
	return httpx.Message{Text: done, Data: out}, nil
}

// commandIDs are the rows a command names: `ids`, or, when the request has
// none, one `id` (BladeX's single-row actions, materialbackstock/
// saveMaterialInRecord?id=). A refusal names ids.
func commandIDs(req *http.Request) ([]wire.ID, error) {
	ids, err := httpx.FormIDs(req, "ids")
	if err == nil || req.URL.Query().Has("ids") || (req.PostForm != nil && req.PostForm.Has("ids")) {
		return ids, err
	}
	one, oneErr := httpx.FormIDs(req, "id")
	if oneErr != nil || len(one) != 1 {
		return nil, err
	}
	return one, nil
}

// holdsButton checks the command's button permission on the server.
func (r *Resource[T]) holdsButton(ctx context.Context, p *authz.Principal, c *Command[T], menu string) error {
	if c.Button == "" || p.IsSuper() {
		return nil
	}
	if menu == "" || r.env.Buttons == nil {
		return httpx.ErrForbidden
	}
	ok, err := r.env.Buttons.HoldsButton(ctx, p, menu+"_"+c.Button)
	if err != nil {
		return err
	}
	if !ok {
		return httpx.ErrForbidden
	}
	return nil
}

// visibleRows loads the rows among ids the caller may see, in id order. One
// id that is not the caller's (unknown, removed, another tenant's, outside
// the data scope) refuses the whole request with the same 404 as an
// unknown one, so a command neither half-runs nor tells what exists.
func (r *Resource[T]) visibleRows(ctx context.Context, tx bun.Tx, ids []wire.ID) ([]*T, error) {
	var rows []*T
	q, err := r.Select(ctx, tx, &rows)
	if err != nil {
		return nil, err
	}
	q = q.Where("?TableAlias.id IN (?)", bun.In(ids)).OrderExpr("?TableAlias.id ASC")
	if tx.Dialect().Name() == dialect.PG {
		// two commands on one row run one after the other (SQLite has one writer anyway)
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) != len(ids) {
		return nil, httpx.ErrNotFound
	}
	return rows, nil
}

// checkStates refuses the request when a row is not in a state the command
// may start from, naming the first such row and its state.
func (r *Resource[T]) checkStates(ctx context.Context, idb bun.IDB, c *Command[T], rows []*T) error {
	if c.From == nil {
		return nil
	}
	f := r.meta.byName[c.From.Field]
	for _, row := range rows {
		if !slices.Contains(c.From.Values, int(reflect.ValueOf(row).Elem().FieldByIndex(f.index).Int())) {
			return httpx.BadRequest(msgCommandState(r.RowTitle(row), r.stateName(ctx, idb, f, row), c.Label))
		}
	}
	return nil
}

// DictLabeler turns a dictionary key into its label in the caller's language.
type DictLabeler interface {
	DictLabel(ctx context.Context, idb bun.IDB, code string, biz bool, key string) string
}

// RowTitle names a row in messages: its Title field (by default the first
// unique field), else its id.
func (r *Resource[T]) RowTitle(row *T) string {
	v := reflect.ValueOf(row).Elem()
	if f := r.meta.byName[r.titleField()]; f != nil {
		if s := fmt.Sprint(v.FieldByIndex(f.index).Interface()); s != "" {
			return s
		}
	}
	return any(row).(hasBase).base().ID.String()
}

func (r *Resource[T]) titleField() string {
	if r.spec.Title != "" {
		return r.spec.Title
	}
	if len(r.spec.Unique) > 0 && len(r.spec.Unique[0]) > 0 {
		return r.spec.Unique[0][0]
	}
	return ""
}

// SetFields writes values (JSON field name → value) on rows and stamps them
// as updated, through the scoped update: the usual body of a command that
// moves rows to another state. The rows in memory get the new values too.
func (r *Resource[T]) SetFields(ctx context.Context, idb bun.IDB, rows []*T, values map[string]any) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(rows))
	for i, row := range rows {
		ids[i] = any(row).(hasBase).base().ID
	}
	names := slices.Sorted(maps.Keys(values)) // one SQL text per field set: the statement cache reuses it
	q := idb.NewUpdate().Table(r.spec.Table)
	for _, name := range names {
		f := r.meta.byName[name]
		if f == nil {
			return fmt.Errorf("resource %s: SetFields: no field %q", r.spec.Key(), name)
		}
		q = q.Set("? = ?", bun.Ident(f.Column), values[name])
	}
	now := wire.Now()
	q = q.Set("update_user = ?", p.UserID).Set("update_time = ?", now).Set("version = version + 1").Where("id IN (?)", bun.In(ids))
	qb, err := r.scope(ctx, q.QueryBuilder(), "")
	if err != nil {
		return err
	}
	res, err := qb.Unwrap().(*bun.UpdateQuery).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); int(n) != len(ids) {
		return httpx.ErrNotFound
	}
	for _, row := range rows {
		v := reflect.ValueOf(row).Elem()
		for _, name := range names {
			v.FieldByIndex(r.meta.byName[name].index).Set(reflect.ValueOf(values[name]).Convert(v.FieldByIndex(r.meta.byName[name].index).Type()))
		}
		b := any(row).(hasBase).base()
		b.UpdateUser, b.UpdateTime = p.UserID, now
		b.Version++
	}
	return nil
}
