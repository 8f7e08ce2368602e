package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
)

// The engine's capabilities are tested through HTTP, the way a client meets
// them, on SQLite and (BLUEBIRD_TEST_PG) PostgreSQL, with callers named by
// the X-Test-Caller header.

// testCallers: two tenant admins, a plain user of tenant a (its data scope
// shows the rows it created) and the super user.
var testCallers = map[string]*authz.Principal{
	"a":     {UserID: 1, TenantID: "100001", RoleAliases: []string{authz.RoleAdmin}},
	"b":     {UserID: 2, TenantID: "100002", RoleAliases: []string{authz.RoleAdmin}},
	"clerk": {UserID: 3, TenantID: "100001", RoleAliases: []string{"clerk"}},
	"super": {UserID: 4, TenantID: authz.SuperTenant, RoleAliases: []string{authz.RoleSuper}},
}

// createdRows is a data scope that shows a plain user the rows it created.
type createdRows struct{}

func (createdRows) Where(_ context.Context, p *authz.Principal, _, alias string, _ func(string) bool) (string, []any, error) {
	if alias != "" {
		alias += "."
	}
	return alias + "create_user = ?", []any{p.UserID}, nil
}

// testButtons grants menu buttons per caller name.
type testButtons map[string]map[string]bool

func (b testButtons) HoldsButton(_ context.Context, p *authz.Principal, code string) (bool, error) {
	return b[p.Account][code], nil
}

// testRefs is a registry of the test's resources.
type testRefs map[string]Registered

func (m testRefs) Get(key string) Registered { return m[key] }

// apiEnv is one database with the test's tables and resources mounted.
type apiEnv struct {
	t       testing.TB
	db      *db.DB
	handler http.Handler
	tables  map[string]string // logical name → this run's table name
}

// eachDB creates the tables of ddl (logical name → CREATE TABLE with one %s
// for the table name, and {{decimal p s}} for a decimal column's type) in
// every database at hand, lets declare build the resources on them, mounts
// them and runs fn.
func eachDB(t *testing.T, ddl map[string]string, declare func(tables map[string]string) []Registered, env func(*Env), fn func(t *testing.T, e *apiEnv)) {
	kinds := map[string]func() (*db.DB, error){
		"sqlite": func() (*db.DB, error) { return db.OpenSQLite(filepath.Join(t.TempDir(), "engine.db")) },
	}
	if url := os.Getenv("BLUEBIRD_TEST_PG"); url != "" {
		kinds["postgres"] = func() (*db.DB, error) { return db.OpenPostgres(url) }
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, kind := range names {
		t.Run(kind, func(t *testing.T) {
			d, err := kinds[kind]()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
			fn(t, mountAPI(t, d, ddl, declare, env))
		})
	}
}

var decimalPlaceholder = regexp.MustCompile(`\{\{decimal (\d+) (\d+)\}\}`)

// mountAPI is eachDB's work on one database (benchmarks call it with theirs).
func mountAPI(t testing.TB, d *db.DB, ddl map[string]string, declare func(tables map[string]string) []Registered, env func(*Env)) *apiEnv {
	ctx := context.Background()
	suffix := fmt.Sprintf("%d_%d", os.Getpid(), db.NewID())
	tables := map[string]string{}
	for name, stmt := range ddl {
		table := name + "_" + suffix
		tables[name] = table
		stmt = decimalPlaceholder.ReplaceAllStringFunc(stmt, func(m string) string {
			ps := decimalPlaceholder.FindStringSubmatch(m)
			p, _ := strconv.Atoi(ps[1])
			s, _ := strconv.Atoi(ps[2])
			return db.DecimalColumnType(d.Postgres, p, s)
		})
		if _, err := d.ExecContext(ctx, fmt.Sprintf(stmt, table)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.ExecContext(context.Background(), "DROP TABLE "+table) })
	}
	refs := testRefs{}
	res := declare(tables)
	for _, r := range res {
		refs[r.Spec().Key()] = r
	}
	e := &apiEnv{t: t, db: d, tables: tables}
	ev := &Env{DB: d, Refs: refs}
	if env != nil {
		env(ev)
	}
	r := chi.NewRouter()
	r.Use(db.TrackRequests, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if p := testCallers[req.Header.Get("X-Test-Caller")]; p != nil {
				cp := *p
				cp.Account = req.Header.Get("X-Test-Caller")
				req = req.WithContext(authz.With(req.Context(), &cp))
			}
			next.ServeHTTP(w, req)
		})
	})
	for _, x := range res {
		x.Mount(r, ev)
	}
	e.handler = r
	return e
}

type apiAnswer struct {
	Status int
	Code   int             `json:"code"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// call sends a request as who ("en:who" asks for English); a string body is
// sent as is, anything else as JSON.
func (e *apiEnv) call(who, method, path string, body any) apiAnswer {
	e.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		raw, _ = json.Marshal(b)
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if lang, name, ok := strings.Cut(who, ":"); ok {
		req.Header.Set("Accept-Language", lang)
		who = name
	}
	req.Header.Set("X-Test-Caller", who)
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, req)
	a := apiAnswer{Status: w.Code}
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		a.Msg = w.Body.String()
	}
	return a
}

// ok calls, wants a 200 and decodes the data into v.
func (e *apiEnv) ok(who, method, path string, body, v any) {
	e.t.Helper()
	a := e.call(who, method, path, body)
	if a.Status != 200 {
		e.t.Fatalf("%s %s as %s: %d %s", method, path, who, a.Status, a.Msg)
	}
	if v != nil {
		if err := json.Unmarshal(a.Data, v); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, a.Data)
		}
	}
}

// refused calls, wants status, and returns the message and field errors.
func (e *apiEnv) refused(status int, who, method, path string, body any) (string, map[string]string) {
	e.t.Helper()
	a := e.call(who, method, path, body)
	if a.Status != status {
		e.t.Fatalf("%s %s as %s: %d %s, want %d", method, path, who, a.Status, a.Msg, status)
	}
	var fields map[string]string
	_ = json.Unmarshal(a.Data, &fields)
	return a.Msg, fields
}

// count counts rows of a logical table matching a condition, bypassing the engine.
func (e *apiEnv) count(table, where string, args ...any) int {
	e.t.Helper()
	n, err := e.db.NewSelect().Table(e.tables[table]).Where(where, args...).Count(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return int(n)
}
