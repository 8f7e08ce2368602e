// Package apptest runs the real console in tests: a fresh database per test
// (SQLite always, PostgreSQL too when BLUEBIRD_TEST_PG is set), the real
// handler behind httptest, and a small client speaking the wire contract.
package apptest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/files"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/config"
	"github.com/bluebird/console/internal/platform/db"
)

// PGEnv names the PostgreSQL URL; tests on PostgreSQL run only when it is set.
const PGEnv = "BLUEBIRD_TEST_PG"

// LoopbackAllowed lets tenants' S3 and SMS configurations reach the test
// fakes, which listen on the loopback (config.Config.OutboundAllow).
const LoopbackAllowed = "127.0.0.0/8,::1"

// Basic is the seeded client's Authorization header.
var Basic = "Basic " + base64.StdEncoding.EncodeToString([]byte("saber:saber_secret"))

// H is one running console with its own database.
type H struct {
	T      testing.TB
	App    *app.App
	Server *httptest.Server
	Kind   string // "sqlite" or "postgres"
}

// Main wraps testing.M so that template databases are dropped after the package's tests.
func Main(m *testing.M) {
	code := m.Run()
	cleanupTemplates()
	os.Exit(code)
}

// Kinds lists the databases to test on.
func Kinds() []string {
	if os.Getenv(PGEnv) != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// Each runs fn as a subtest on every database kind, each with a fresh
// console. The kinds run side by side (t.Parallel): SQLite works in this
// process while PostgreSQL works in its server, so the package's tests take
// both cores; go test's -parallel (GOMAXPROCS) bounds them. Code after Each
// in a test function runs before the subtests do, so Each ends its test.
func Each(t *testing.T, fn func(t *testing.T, h *H)) {
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			fn(t, New(t, kind))
		})
	}
}

// New starts a console on a fresh, seeded database of the given kind.
func New(t testing.TB, kind string) *H {
	t.Helper()
	ctx := context.Background()
	var d *db.DB
	var err error
	switch kind {
	case "sqlite":
		path := filepath.Join(t.TempDir(), "bluebird.db")
		if err := copyFile(sqliteTemplate(t), path); err != nil {
			t.Fatal(err)
		}
		d, err = db.OpenSQLite(path)
	case "postgres":
		d, err = db.OpenPostgres(pgDatabase(t))
	default:
		t.Fatalf("unknown kind %s", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.NewWithDB(ctx, config.Config{FilesDir: t.TempDir(), OutboundAllow: LoopbackAllowed}, d, logger)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() { srv.Close(); a.Close() })
	return &H{T: t, App: a, Server: srv, Kind: kind}
}

// --- scale-out pairs (docs/scale-out.md) ---

// TestRedisAddr is the Redis server of the scale-out tests (here and in CI).
const TestRedisAddr = "127.0.0.1:6379"

// NewPair starts two consoles as two instances of one deployment: the same
// fresh PostgreSQL database and the same Redis database, each instance with
// its own connections, caches and HTTP server. It skips the test unless
// BLUEBIRD_TEST_PG is set and Redis answers at TestRedisAddr. Each pair takes
// a Redis database of its own (1-15, locked through a key in database 0) and
// removes its keys afterwards.
func NewPair(t testing.TB) (*H, *H) {
	t.Helper()
	if os.Getenv(PGEnv) == "" {
		t.Skip("scale-out test: " + PGEnv + " is not set")
	}
	ctl := redis.NewClient(&redis.Options{Addr: TestRedisAddr, MaxRetries: -1})
	t.Cleanup(func() { ctl.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := ctl.Ping(ctx).Err(); err != nil {
		t.Skipf("scale-out test: no Redis at %s: %v", TestRedisAddr, err)
	}
	n := lockRedisDB(t, ctl)
	url := fmt.Sprintf("redis://%s/%d", TestRedisAddr, n)
	pg := pgDatabase(t)
	files := t.TempDir() // one file store for both, as a shared volume or bucket would be
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	pair := make([]*H, 2)
	for i := range pair {
		d, err := db.OpenPostgres(pg)
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.NewWithDB(context.Background(), config.Config{RedisURL: url, FilesDir: files, OutboundAllow: LoopbackAllowed}, d, logger)
		if err != nil {
			d.Close()
			t.Fatal(err)
		}
		srv := httptest.NewServer(a.Handler)
		t.Cleanup(func() { srv.Close(); a.Close() })
		pair[i] = &H{T: t, App: a, Server: srv, Kind: "postgres"}
	}
	return pair[0], pair[1]
}

// lockRedisDB takes a free Redis database for one pair and empties its
// bluebird keys, before and after the test.
func lockRedisDB(t testing.TB, ctl *redis.Client) int {
	ctx := context.Background()
	owner := fmt.Sprintf("%d-%d", os.Getpid(), randSuffix())
	for n := 1; n <= 15; n++ {
		lock := fmt.Sprintf("bluebird:test:lock:%d", n)
		if ok, err := ctl.SetNX(ctx, lock, owner, 10*time.Minute).Result(); err != nil || !ok {
			continue
		}
		dbc := redis.NewClient(&redis.Options{Addr: TestRedisAddr, DB: n})
		clearKeys := func() {
			iter := dbc.Scan(ctx, 0, "bluebird:*", 200).Iterator()
			for iter.Next(ctx) {
				dbc.Del(ctx, iter.Val())
			}
		}
		clearKeys()
		t.Cleanup(func() {
			clearKeys()
			dbc.Close()
			if v, _ := ctl.Get(ctx, lock).Result(); v == owner {
				ctl.Del(ctx, lock)
			}
		})
		return n
	}
	t.Fatal("no free Redis database (1-15) for a scale-out pair")
	return 0
}

// --- end scale-out pairs ---

var (
	tmplOnce sync.Once
	tmplPath string
	tmplErr  error
)

// sqliteTemplate migrates and seeds one database per test binary; tests copy it.
func sqliteTemplate(t testing.TB) string {
	tmplOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bluebird-tmpl-")
		if err != nil {
			tmplErr = err
			return
		}
		tmplPath = filepath.Join(dir, "template.db")
		d, err := db.OpenSQLite(tmplPath)
		if err != nil {
			tmplErr = err
			return
		}
		a, err := app.NewWithDB(context.Background(), config.Config{}, d, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			tmplErr = err
			return
		}
		if _, err := d.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			tmplErr = err
		}
		a.Close()
	})
	if tmplErr != nil {
		t.Fatal(tmplErr)
	}
	return tmplPath
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

var (
	pgOnce     sync.Once
	pgTemplate string
	pgErr      error
	pgMu       sync.Mutex
	pgCreated  []string
)

// pgDatabase creates a database from a seeded template and returns its URL.
func pgDatabase(t testing.TB) string {
	base := os.Getenv(PGEnv)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	pgOnce.Do(func() {
		pgTemplate = fmt.Sprintf("bbt_tmpl_%d_%d", os.Getpid(), randSuffix())
		if _, pgErr = admin.Exec("CREATE DATABASE " + pgTemplate); pgErr != nil {
			return
		}
		track(pgTemplate)
		d, err := db.OpenPostgres(withDB(base, pgTemplate))
		if err != nil {
			pgErr = err
			return
		}
		a, err := app.NewWithDB(context.Background(), config.Config{}, d, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			pgErr = err
			d.Close()
			return
		}
		a.Close()
	})
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	name := fmt.Sprintf("bbt_%d_%d", os.Getpid(), randSuffix())
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + pgTemplate); err != nil {
		t.Fatal(err)
	}
	track(name)
	t.Cleanup(func() { dropDatabase(name) })
	return withDB(base, name)
}

func track(name string) {
	pgMu.Lock()
	pgCreated = append(pgCreated, name)
	pgMu.Unlock()
}

func dropDatabase(name string) {
	admin, err := sql.Open("pgx", os.Getenv(PGEnv))
	if err != nil {
		return
	}
	defer admin.Close()
	_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
}

func cleanupTemplates() {
	if os.Getenv(PGEnv) != "" {
		pgMu.Lock()
		names := append([]string(nil), pgCreated...)
		pgMu.Unlock()
		for _, n := range names {
			dropDatabase(n)
		}
	}
	if tmplPath != "" {
		os.RemoveAll(filepath.Dir(tmplPath))
	}
}

func withDB(base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + name
	// A test database outlives no crash: its commits need not wait for the
	// disk (pgx passes unknown URL parameters to the server as settings).
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

var seq struct {
	sync.Mutex
	n int
}

func randSuffix() int {
	seq.Lock()
	defer seq.Unlock()
	seq.n++
	return seq.n
}

// Resp is a decoded response.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
	Env    struct {
		Code    int             `json:"code"`
		Success bool            `json:"success"`
		Msg     string          `json:"msg"`
		Data    json.RawMessage `json:"data"`
	}
}

// Client calls the API as one session.
type Client struct {
	H            *H
	Token        string
	Refresh      string
	Lang         string
	TenantHeader string
	Login        map[string]any
}

// Anon is a client without a token.
func (h *H) Anon() *Client { return &Client{H: h} }

// Login signs in with a plain password and fails the test if it does not work.
func (h *H) Login(tenant, account, password string) *Client {
	h.T.Helper()
	c := &Client{H: h}
	r := c.Token_(tenant, account, password)
	if r.Status != 200 {
		h.T.Fatalf("login %s/%s: %d %s", tenant, account, r.Status, r.Body)
	}
	return c
}

// Admin is the seeded super user.
func (h *H) Admin() *Client { return h.Login("000000", "admin", "admin") }

// Token_ performs a password login; on success the client keeps the tokens.
func (c *Client) Token_(tenant, account, password string) *Resp {
	q := url.Values{"tenantId": {tenant}, "username": {account}, "password": {authn.MD5Hex(password)},
		"grant_type": {"password"}, "scope": {"all"}, "type": {"account"}}
	r := c.Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Tenant-Id": tenant})
	if r.Status == 200 {
		var m map[string]any
		_ = json.Unmarshal(r.Body, &m)
		c.Login = m
		c.Token, _ = m["access_token"].(string)
		c.Refresh, _ = m["refresh_token"].(string)
	}
	return r
}

// Do sends a request with the client header, the token and the language.
func (c *Client) Do(method, path string, body io.Reader, headers map[string]string) *Resp {
	c.H.T.Helper()
	req, err := http.NewRequest(method, c.H.Server.URL+path, body)
	if err != nil {
		c.H.T.Fatal(err)
	}
	req.Header.Set("Authorization", Basic)
	if c.Token != "" {
		req.Header.Set("Blade-Auth", "bearer "+c.Token)
	}
	if c.Lang != "" {
		req.Header.Set("Accept-Language", c.Lang)
	}
	if c.TenantHeader != "" {
		req.Header.Set("Tenant-Id", c.TenantHeader)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.H.T.Fatal(err)
	}
	defer res.Body.Close()
	out := &Resp{Status: res.StatusCode, Header: res.Header}
	out.Body, _ = io.ReadAll(res.Body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(out.Body, &out.Env)
	}
	return out
}

// Get sends a GET with query values.
func (c *Client) Get(path string, q url.Values) *Resp {
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return c.Do("GET", path, nil, nil)
}

// Post sends a POST with query values and no body.
func (c *Client) Post(path string, q url.Values) *Resp {
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return c.Do("POST", path, nil, nil)
}

// PutFile uploads content through oss put-file as the multipart field
// "file", after a form field put-file must skip; query is "" or
// "?kind=avatar", "?kind=video".
func (c *Client) PutFile(query, name string, content []byte) *Resp {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("note", "ignored")
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	return c.Do("POST", files.PutFilePath+query, &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
}

// PostJSON sends a JSON body.
func (c *Client) PostJSON(path string, body any) *Resp {
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		var err error
		if b, err = json.Marshal(body); err != nil {
			c.H.T.Fatal(err)
		}
	}
	return c.Do("POST", path, bytes.NewReader(b), nil)
}

// OK asserts a successful envelope and decodes data into v (when v is not nil).
func (r *Resp) OK(t testing.TB, v any) *Resp {
	t.Helper()
	if r.Status != 200 || !r.Env.Success || r.Env.Code != 200 {
		t.Fatalf("want success, got HTTP %d: %s", r.Status, r.Body)
	}
	if v != nil {
		if err := json.Unmarshal(r.Env.Data, v); err != nil {
			t.Fatalf("decode data: %v: %s", err, r.Env.Data)
		}
	}
	return r
}

// Fail asserts an error envelope with the given HTTP status (and code) and returns its msg.
func (r *Resp) Fail(t testing.TB, status int) string {
	t.Helper()
	if r.Status != status || r.Env.Success || r.Env.Code != status {
		t.Fatalf("want failure %d, got HTTP %d: %s", status, r.Status, r.Body)
	}
	return r.Env.Msg
}

// Page is a decoded page.
type Page[T any] struct {
	Records []T   `json:"records"`
	Total   int64 `json:"total"`
	Size    int   `json:"size"`
	Current int   `json:"current"`
	Pages   int64 `json:"pages"`
}

// Q builds url.Values from pairs.
func Q(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// NewTenant creates a tenant as the super user and signs in as its admin.
func (h *H) NewTenant(name string) (tenantID string, admin *Client) {
	h.T.Helper()
	var t struct {
		TenantID string `json:"tenantId"`
	}
	h.Admin().PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": name, "linkman": "tester"}).OK(h.T, &t)
	if t.TenantID == "" {
		h.T.Fatalf("tenant %s created without an id", name)
	}
	return t.TenantID, h.Login(t.TenantID, "admin", "admin")
}

// EmptyPostgres creates an empty PostgreSQL database (dropped after the test)
// and returns its URL; it skips the test when BLUEBIRD_TEST_PG is not set.
func EmptyPostgres(t testing.TB) string {
	base := os.Getenv(PGEnv)
	if base == "" {
		t.Skip(PGEnv + " not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("bbt_empty_%d_%d", os.Getpid(), randSuffix())
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	track(name)
	t.Cleanup(func() { dropDatabase(name) })
	return withDB(base, name)
}

// Edit updates a row through a submit (or update) path the way the console's form does:
// with the version the row has now, read through the resource's detail
// (the optimistic lock refuses an update without it). When the caller cannot
// read the row, the body goes as it is and the server answers for it.
func (c *Client) Edit(submitPath string, body map[string]any) *Resp {
	c.H.T.Helper()
	if _, has := body["version"]; !has && body["id"] != nil {
		var cur struct {
			Version int `json:"version"`
		}
		detail := submitPath[:strings.LastIndex(submitPath, "/")+1] + "detail"
		if r := c.Get(detail, url.Values{"id": {fmt.Sprint(body["id"])}}); r.Status == 200 && json.Unmarshal(r.Env.Data, &cur) == nil && cur.Version > 0 {
			with := make(map[string]any, len(body)+1)
			for k, v := range body {
				with[k] = v
			}
			with["version"] = cur.Version
			body = with
		}
	}
	return c.PostJSON(submitPath, body)
}
