package app_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/httpx"
)

// FuzzAPI sends hostile input to every routed endpoint (the chi route tree,
// with the parameters and body properties the OpenAPI document names) as the
// super user and as a tenant administrator, on every test database, and
// fails on any 5xx or on a page with a negative total. In a plain `go test`
// it runs the seed corpus built below (and testdata/fuzz/FuzzAPI); with
// `go test -fuzz FuzzAPI ./internal/app/` the fuzzer mutates it.
//
// An input is a route ("GET /api/..."; one that is not routed picks a routed
// one by its hash, so mutations still land), a raw query string and a body.
// In the query and body, $USER, $ROLE, $DEPT and $TENANT stand for ids of
// another tenant's rows, filled in per database. A body starting with
// "form:" is sent form-encoded and one starting with "multipart:" as an
// upload whose first line is the file name.
func FuzzAPI(f *testing.F) {
	var targets []*fuzzTarget
	for _, kind := range apptest.Kinds() {
		targets = append(targets, newFuzzTarget(f, kind))
	}
	seeds := fuzzSeeds(targets[0].endpoints)
	// Under -fuzz the fuzzer measures every seed's coverage before it starts
	// mutating (some 20 a second here), so it gets a sample of them.
	step := 1
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		step = 16
	}
	for i := 0; i < len(seeds); i += step {
		f.Add(seeds[i].route, seeds[i].query, seeds[i].body)
	}
	f.Cleanup(func() {
		for _, tg := range targets {
			f.Logf("%s: %d endpoints, %d seeds, %d requests: %d answered 2xx, %d 5xx", tg.h.Kind, len(tg.endpoints), len(seeds), tg.requests, tg.succeeded, tg.failures)
		}
	})
	f.Fuzz(func(t *testing.T, route, query string, body []byte) {
		// the databases side by side: each target's requests stay in order
		var wg sync.WaitGroup
		for _, tg := range targets {
			wg.Go(func() { tg.send(t, route, query, body) })
		}
		wg.Wait()
	})
}

// fuzzEndpoint is one routed method and path with the names to attack.
type fuzzEndpoint struct {
	method, path string
	params       []string   // query parameters
	props        []fuzzProp // JSON body properties
	// described: the OpenAPI document names its parameters, all optional
	// filters but the ids; the others get plausible values for every name
	// but the one under attack, since the handler may require any of them.
	described bool
}

func (e fuzzEndpoint) route() string { return e.method + " " + e.path }

// fuzzProp is a body property and the JSON type the OpenAPI schema gives it
// ("" when there is no schema).
type fuzzProp struct{ name, kind string }

// fuzzParams are the query names the hand-written handlers read (and the
// paging ones), tried on every endpoint the OpenAPI document gives no
// parameters for.
var fuzzParams = []string{"id", "ids", "current", "size", "tenantId", "parentId", "roleId", "roleIds", "userIds",
	"deptId", "menuId", "code", "name", "account", "username", "password", "oldPassword", "newPassword", "newPassword1",
	"grant_type", "refresh_token", "type", "phone", "source", "state", "oauthId", "enabledStatus", "parentCode",
	"kind", "expires", "sig", "accountNumber", "expireTime", "descs", "ascs"}

// fuzzProps are the body properties of the hand-written POSTs.
var fuzzProps = []string{"id", "ids", "tenantId", "roleIds", "menuIds", "dataScopeIds", "apiScopeIds", "topMenuIds",
	"userIds", "deptId", "parentId", "name", "account", "password", "realName", "email", "phone", "code", "remark",
	"sort", "status", "message", "url", "stack", "type", "accountNumber", "expireTime", "oauthId", "userType"}

// fuzzEndpointsOf lists every route of the running console (outside and
// under /api) and names its parameters from the OpenAPI document.
func fuzzEndpointsOf(t testing.TB, h *apptest.H) []fuzzEndpoint {
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string `json:"name"`
			} `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Type    any    `json:"type"` // "integer", or ["string", "null"]
					Pattern string `json:"pattern"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	r := h.Anon().Do("GET", "/api/openapi.json", nil, nil)
	if r.Status != 200 || json.Unmarshal(r.Body, &doc) != nil {
		t.Fatalf("openapi.json: %d", r.Status)
	}
	routes, ok := h.App.Handler.(chi.Routes)
	if !ok {
		t.Fatalf("the handler %T is not a chi router", h.App.Handler)
	}
	var eps []fuzzEndpoint
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		path := strings.ReplaceAll(route, "/*/", "/")
		e := fuzzEndpoint{method: method, path: path}
		if op, ok := doc.Paths[strings.TrimSuffix(path, "/*")][strings.ToLower(method)]; ok {
			for _, p := range op.Parameters {
				e.params = appendNew(e.params, p.Name)
			}
			for _, c := range op.RequestBody.Content {
				name := strings.TrimPrefix(c.Schema.Ref, "#/components/schemas/")
				for prop, schema := range doc.Components.Schemas[name].Properties {
					kind := fmt.Sprint(schema.Type)
					if schema.Pattern == "^[0-9]*$" {
						kind = "id"
					}
					e.props = append(e.props, fuzzProp{prop, kind})
				}
			}
		}
		if e.described = e.params != nil; e.described {
			e.params = appendNew(appendNew(e.params, "id"), "ids")
		} else {
			e.params = fuzzParams
		}
		if method == "POST" && e.props == nil {
			for _, p := range fuzzProps {
				e.props = append(e.props, fuzzProp{name: p})
			}
		}
		sort.Slice(e.props, func(i, j int) bool { return e.props[i].name < e.props[j].name })
		eps = append(eps, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(eps, func(i, j int) bool { return eps[i].route() < eps[j].route() })
	return eps
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list[:len(list):len(list)], s)
}

// --- the seed corpus ---

type fuzzInput struct {
	route, query string
	body         []byte
}

var (
	long300 = strings.Repeat("长", 300) // past every filter's bound
	long5k  = strings.Repeat("长", 5000)
	long50k = strings.Repeat("x", 50000)
)

// hostileAll go into every parameter of an endpoint at once.
var hostileAll = []string{
	"\x00", "del\x7f", "line\nbreak", "\xff\xfe", long300, "", " ", "null", "%_\\'\"", "😀", "-1", "0",
	"9223372036854775808", "-9223372036854775809", "1e309", "2024-13-45 25:61:61", "1,,2,x", "$USER", "$ROLE,$DEPT", "$TENANT",
}

// hostileOne go into one parameter at a time, the others holding plausible
// values, so that a handler gets past its first checks. A parameter of the
// OpenAPI document gets the first (the probe's NUL) and one of the others in
// turn; the long list of names tried on the other endpoints one in turn.
var hostileOne = []string{"x\x00y", "\xff", "c1\u0085", long5k, long50k, "4611686018427387904", "-1", "$USER"}

// hostilePaging overflow an offset computed without bounds.
var hostilePaging = []string{"current=4611686018427387904", "current=9223372036854775807&size=1000",
	"current=2&size=99999999999999999999", "current=-1&size=0"}

// hostileBodies are whole documents for every POST.
var hostileBodies = []string{
	"", " ", "null", "0", "-1", "true", `"text"`, "[]", "[null]", "[1,2]", "{", "}", `{"a":}`, "{}", `{"":1}`,
	`{"id":"x\u0000y"}`, "{\"id\":\"\x00\"}", `{"na\u0000me":"x"}`, "{\"name\":\"\xff\xfe\"}", `{"name":"\ud800"}`,
	`{"name":"\u001b[31m"}`, `{"id":1e400}`, `{"id":-1}`, `{"id":"9223372036854775808"}`, `{"ids":"$USER"}`,
	`{"id":"$USER","version":-1}`, "form:id=%00&name=%FF", "form:%zz=1&ids=$USER",
	"multipart:a\x00b.png\n\x89PNG\r\n\x1a\n", "multipart:\xff.txt\nhello",
	strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
}

// propValues replace one body property at a time (JSON texts), in turn;
// each property also gets the extremes of its type (extremes).
var propValues = []string{`"x\u0000y"`, "\"\xff\"", `"` + long5k + `"`, `"multi\nline\ttext"`, "-1", "1e400",
	"[1,2]", `{"a":1}`, "true", "null", `"$USER"`, `["$ROLE","$DEPT"]`, `"9999-12-31 23:59:59"`}

// extremes are the values at or past the limits of a JSON type: a number
// past 32 bits (Go int, SQL INTEGER), a string longer than any column.
func extremes(kind string) []string {
	huge, long := "4611686018427387904", `"`+long50k+`"`
	switch kind {
	case "integer":
		return []string{huge, "-" + huge}
	case "string", "[string null]":
		return []string{long}
	case "id":
		return []string{`"9223372036854775807"`}
	case "boolean":
		return []string{"2"}
	}
	return []string{huge, long}
}

// plausible is a value a parameter or property of that name could hold.
func plausible(name string) string {
	lower := strings.ToLower(name)
	switch {
	case name == "tenantId":
		return "$TENANT"
	case strings.HasPrefix(lower, "role"):
		return "$ROLE"
	case strings.HasPrefix(lower, "dept") || lower == "parentid":
		return "$DEPT"
	case strings.HasSuffix(lower, "id") || strings.HasSuffix(lower, "ids"):
		return "$USER"
	case name == "current" || name == "size" || name == "sort" || name == "status":
		return "1"
	case name == "descs" || name == "ascs":
		return ""
	}
	return "fz"
}

// serverKept are the base columns a client does not send for a new row.
var serverKept = map[string]bool{"id": true, "version": true, "createUser": true, "createDept": true,
	"createTime": true, "updateUser": true, "updateTime": true, "isDeleted": true}

// plausibleJSON is a property value of the right JSON type; strings are
// unique to the seed n, so that a unique key does not stop the insert.
func plausibleJSON(p fuzzProp, n int) json.RawMessage {
	var v any
	switch p.kind {
	case "integer":
		v = 1
	case "boolean":
		v = false
	case "[string null]":
		v = "2024-01-01 00:00:00"
	case "id":
		if v = plausible(p.name); v == "fz" {
			v = "$USER"
		}
	default:
		if v = plausible(p.name); v == "fz" {
			v = fmt.Sprintf("fz%d", n)
		}
	}
	b, _ := json.Marshal(v)
	return b
}

func fuzzSeeds(eps []fuzzEndpoint) []fuzzInput {
	var seeds []fuzzInput
	for _, e := range eps {
		add := func(q url.Values, body string) {
			seeds = append(seeds, fuzzInput{e.route(), q.Encode(), []byte(body)})
		}
		for _, v := range hostileAll {
			q := url.Values{}
			for _, p := range e.params {
				q.Set(p, v)
			}
			add(q, "")
		}
		if slices.Contains(e.params, "current") {
			for _, paging := range hostilePaging {
				q, _ := url.ParseQuery(paging)
				add(q, "")
			}
		}
		// Each parameter gets two hostile values, and each value is used,
		// without the cross product of both (which -fuzz is for). Outside
		// /api (health, metrics, the web app) nothing reads parameters.
		oneByOne := 0
		if strings.HasPrefix(e.path, "/api/") {
			oneByOne = max(len(e.params), len(hostileOne))
		}
		for i := range oneByOne {
			values := []string{hostileOne[i%len(hostileOne)]}
			if e.described {
				values = []string{hostileOne[0], hostileOne[1+i%(len(hostileOne)-1)]}
			}
			for _, v := range values {
				q := url.Values{}
				for _, p := range e.params {
					if !e.described {
						q.Set(p, plausible(p))
					}
				}
				q.Set(e.params[i%len(e.params)], v)
				add(q, "")
			}
		}
		if e.method != "POST" {
			continue
		}
		for _, b := range hostileBodies {
			add(nil, b)
		}
		// A new row of plausible values but for one property.
		row := func(name, value string) string {
			doc := map[string]json.RawMessage{}
			for _, p := range e.props {
				if !serverKept[p.name] {
					doc[p.name] = plausibleJSON(p, len(seeds))
				}
			}
			doc[name] = json.RawMessage(value)
			return string(rawJSON(doc))
		}
		for i, p := range e.props {
			for _, v := range append(extremes(p.kind), propValues[i%len(propValues)]) {
				add(nil, row(p.name, v))
			}
		}
		for _, v := range propValues { // in an array, where a list of rows is expected
			add(nil, "["+row(e.props[0].name, v)+"]")
		}
	}
	return seeds
}

// rawJSON writes an object of raw values (json.Marshal would refuse the
// invalid ones the corpus wants to send).
func rawJSON(doc map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", k, doc[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// --- sending ---

// fuzzTarget is one console with its callers and another tenant's ids.
type fuzzTarget struct {
	h         *apptest.H
	endpoints []fuzzEndpoint
	byRoute   map[string]fuzzEndpoint
	callers   []*fuzzCaller
	ids       *strings.Replacer

	requests, succeeded, failures int
}

// fuzzCaller is one session; it speaks HTTP itself, since the apptest client
// reports through the *testing.F that must not be used inside the fuzz target.
type fuzzCaller struct {
	name, base, token string
	tenant, password  string
}

func newFuzzTarget(tb testing.TB, kind string) *fuzzTarget {
	h := apptest.New(tb, kind)
	victimTenant, victim := h.NewTenant("Fuzz victim")
	fuzzTenant, _ := h.NewTenant("Fuzz tenant")
	str := func(k string) string { s, _ := victim.Login[k].(string); return s }
	tg := &fuzzTarget{h: h, endpoints: fuzzEndpointsOf(tb, h), byRoute: map[string]fuzzEndpoint{},
		ids: placeholders("$USER", str("user_id"), "$ROLE", firstID(str("role_id")),
			"$DEPT", firstID(str("dept_id")), "$TENANT", victimTenant)}
	for _, c := range []*fuzzCaller{{name: "super user", tenant: "000000"}, {name: "tenant admin", tenant: fuzzTenant}} {
		c.base, c.password = h.Server.URL, "admin"
		if err := c.login(); err != nil {
			tb.Fatal(err)
		}
		tg.callers = append(tg.callers, c)
	}
	for _, e := range tg.endpoints {
		tg.byRoute[e.route()] = e
	}
	return tg
}

// placeholders replaces each name, and its percent-encoded form, by its value.
func placeholders(pairs ...string) *strings.Replacer {
	var all []string
	for i := 0; i < len(pairs); i += 2 {
		all = append(all, pairs[i], pairs[i+1], "%24"+pairs[i][1:], pairs[i+1])
	}
	return strings.NewReplacer(all...)
}

func firstID(s string) string { id, _, _ := strings.Cut(s, ","); return id }

// endpoint maps a route to a routed endpoint: itself, or one picked by hash.
func (tg *fuzzTarget) endpoint(route string) fuzzEndpoint {
	if e, ok := tg.byRoute[route]; ok {
		return e
	}
	h := fnv.New32a()
	h.Write([]byte(route))
	return tg.endpoints[h.Sum32()%uint32(len(tg.endpoints))]
}

func (tg *fuzzTarget) send(t *testing.T, route, query string, body []byte) {
	e := tg.endpoint(route)
	query = tg.ids.Replace(escapeRaw(query))
	body = []byte(tg.ids.Replace(string(body)))
	vals, _ := url.ParseQuery(query)
	path := e.path
	for strings.Contains(path, "{") { // path parameters take the query value of their name
		i, j := strings.Index(path, "{"), strings.Index(path, "}")
		path = path[:i] + url.PathEscape(vals.Get(path[i+1:j])+"x") + path[j+1:]
	}
	path = strings.Replace(path, "*", url.PathEscape(vals.Get("path")+"x"), 1)
	for _, c := range tg.callers {
		tg.call(t, c, e.method, path, query, body)
	}
}

// call sends one input as one caller and checks the answer.
func (tg *fuzzTarget) call(t *testing.T, c *fuzzCaller, method, path, query string, body []byte) {
	where := fmt.Sprintf("%s %s?%s as %s on %s\n  body %s", method, path, clip(query), c.name, tg.h.Kind, clip(string(body)))
	status, resp, err := c.do(method, path+"?"+query, body)
	if err != nil {
		t.Errorf("%s\n  %v", where, err)
		return
	}
	tg.requests++
	if status < 300 {
		tg.succeeded++
	}
	if status >= 500 {
		tg.failures++
		t.Errorf("%s\n  answered %d: %s", where, status, clip(string(resp)))
	}
	var page struct {
		Data struct{ Total, Pages, Current, Size int64 } `json:"data"`
	}
	if json.Unmarshal(resp, &page) == nil && (page.Data.Total < 0 || page.Data.Pages < 0 || page.Data.Size < 0) {
		t.Errorf("%s\n  answered a negative page: %s", where, clip(string(resp)))
	}
	if logout := strings.HasPrefix(path, "/api/blade-auth/oauth/logout"); logout || status == 401 && !strings.HasPrefix(path, "/api/blade-auth/") {
		c.keepSession(t, where, logout)
	}
}

// do sends one request; the body's prefix chooses its encoding.
func (c *fuzzCaller) do(method, target string, body []byte) (int, []byte, error) {
	var rd io.Reader
	ctype := "application/json"
	switch {
	case method != "POST" && method != "PUT":
	case bytes.HasPrefix(body, []byte("form:")):
		rd, ctype = bytes.NewReader(body[5:]), "application/x-www-form-urlencoded"
	case bytes.HasPrefix(body, []byte("multipart:")):
		name, content, _ := bytes.Cut(body[10:], []byte("\n"))
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", string(name))
		fw.Write(content)
		mw.Close()
		rd, ctype = &b, mw.FormDataContentType()
	default:
		rd = bytes.NewReader(body)
	}
	return c.request(method, target, rd, ctype)
}

func (c *fuzzCaller) request(method, target string, body io.Reader, ctype string) (int, []byte, error) {
	req, err := http.NewRequest(method, c.base+target, body)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", apptest.Basic)
	req.Header.Set("Blade-Auth", "bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

func (c *fuzzCaller) login() error {
	q := url.Values{"tenantId": {c.tenant}, "username": {"admin"}, "password": {authn.MD5Hex(c.password)},
		"grant_type": {"password"}, "scope": {"all"}, "type": {"account"}}
	c.token = ""
	status, body, err := c.request("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, "")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err == nil && (status != 200 || json.Unmarshal(body, &tok) != nil || tok.AccessToken == "") {
		err = fmt.Errorf("login %s/admin: %d %s", c.tenant, status, body)
	}
	c.token = tok.AccessToken
	return err
}

// keepSession signs in again when an input ended the caller's session, so
// that the inputs after it are not all answered 401. Only a logout should.
func (c *fuzzCaller) keepSession(t *testing.T, where string, expected bool) {
	if status, _, err := c.request("GET", "/api/blade-user/info", nil, ""); err == nil && status != 401 {
		return
	}
	if !expected {
		t.Logf("the session ended after %s", where)
	}
	if err := c.login(); err != nil {
		t.Error(err)
	}
}

// escapeRaw percent-encodes the bytes a request line cannot carry, so that
// the server decodes them back into the parameters.
func escapeRaw(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '#' {
			b.Write([]byte{'%', hex[c>>4], hex[c&15]})
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 300 {
		return fmt.Sprintf("%q... (%d bytes)", s[:300], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// TestHostileInputRefused pins what the fuzz found and the rule it keeps:
// control characters, invalid UTF-8 and over-long values are a 400 naming
// where they were, paging never overflows, and multi-line body text is fine.
func TestHostileInputRefused(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		refused := func(r *apptest.Resp, want ...string) {
			t.Helper()
			msg := r.Fail(t, 400)
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
		}
		list := "/api/blade-system/post/list?"
		refused(admin.Do("GET", list+"postName=x%00y", nil, nil), "postName", "控制字符")
		refused(admin.Do("GET", list+"postName=%FF", nil, nil), "postName", "UTF-8")
		refused(admin.Do("GET", list+"post%01Name=1", nil, nil), `"post\x01Name"`)
		refused(admin.Do("GET", list+"postName="+strings.Repeat("x", 50000), nil, nil), "postName", "过长")
		refused(admin.Do("GET", list+"postName="+strings.Repeat("名", 256), nil, nil), "postName", "255")
		refused(admin.Do("GET", "/api/blade-system/dict/tree?code=%00", nil, nil), "code")
		refused(admin.Do("GET", "/api/blade-auth/oauth/social/render/a%00b", nil, nil), "请求路径")
		en := &apptest.Client{H: h, Token: admin.Token, Lang: "en"}
		if msg := en.Do("GET", list+"postName=x%0Ay", nil, nil).Fail(t, 400); msg != "Parameter postName contains a control character" {
			t.Errorf("en message %q", msg)
		}

		// The longest value a hand-written LIKE filter can get stays under
		// SQLite's pattern limit even when escaping doubles it.
		admin.Get("/api/blade-system/region/list", apptest.Q("name", strings.Repeat("%", httpx.MaxParamLen))).OK(t, nil)
		refused(admin.Get("/api/blade-system/region/list", apptest.Q("name", strings.Repeat("%", httpx.MaxParamLen+1))), "name", "过长")

		// Paging: an absurd current is refused, an absurd size clamped.
		for _, path := range []string{list, "/api/blade-system/region/list?", "/api/blade-user/page?"} {
			refused(admin.Do("GET", path+"current=4611686018427387904", nil, nil), "current")
			refused(admin.Do("GET", path+"current=0", nil, nil), "current")
			refused(admin.Do("GET", path+"size=-1", nil, nil), "size")
			var page apptest.Page[map[string]any]
			admin.Do("GET", path+"current=2&size=99999999999999999999", nil, nil).OK(t, &page)
			if page.Size != 1000 || page.Current != 2 || page.Total < 0 || page.Pages < 0 {
				t.Errorf("%s clamped page: size %d current %d total %d pages %d", path, page.Size, page.Current, page.Total, page.Pages)
			}
		}

		// Bodies: any string at any depth, keys too; tab, CR and LF are text.
		submit := "/api/blade-system/post/submit"
		refused(admin.PostJSON(submit, `{"category":1,"postCode":"P1","postName":"a\u0000b","sort":1}`), "postName", "控制字符")
		refused(admin.PostJSON(submit, "{\"category\":1,\"postName\":\"\xff\"}"), "postName", "UTF-8")
		refused(admin.PostJSON(submit, `{"postName":"a","x":{"y":[0,"\u0007"]}}`), "x.y[1]")
		refused(admin.PostJSON("/api/blade-log/error/client-logs", `[{"message":"ok"},{"message":"\ud800"}]`), "[1].message")
		refused(admin.PostJSON(submit, `{"post\u0000Name":"a"}`), `post\x00Name`)
		admin.PostJSON(submit, map[string]any{"category": 1, "postCode": "P1", "postName": "多行", "sort": 1,
			"remark": "first line\r\n\tsecond line"}).OK(t, nil)
		// Values the columns cannot hold (PostgreSQL refused them with a 500).
		refused(admin.PostJSON(submit, `{"category":1,"postCode":"P2","postName":"n","sort":2147483648}`), "岗位排序超出范围")
		admin.PostJSON(submit, `{"category":1,"postCode":"P3","postName":"n","sort":-2147483648}`).OK(t, nil)
		refused(admin.PostJSON(submit, `{"category":1,"postCode":"P4","postName":"n","sort":1,"tenantId":"1234567890123"}`), "租户ID")
		form := admin.Do("POST", "/api/blade-user/register-guest", strings.NewReader("name=a%00b"),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		refused(form, "name")

		// The headers the API reads as data.
		anon := h.Anon()
		refused(anon.Do("POST", "/api/blade-auth/oauth/token?grant_type=password&username=a&password=b", nil,
			map[string]string{"Tenant-Id": "\xff"}), "Tenant-Id")
		refused(anon.Do("POST", "/api/blade-auth/oauth/token?grant_type=password&username=a&password=b", nil,
			map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("sa\x00ber:saber_secret"))}), "Authorization")
	})
}
