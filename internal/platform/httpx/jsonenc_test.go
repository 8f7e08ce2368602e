package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

func stdJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// sameAsStd checks appendJSON against encoding/json: the same bytes, or an
// error where encoding/json fails, or errUseStd.
func sameAsStd(t *testing.T, v any) (fast bool) {
	t.Helper()
	want, wantErr := stdJSON(v)
	got, err := appendJSON(nil, v)
	switch {
	case errors.Is(err, errUseStd):
		return false
	case err != nil || wantErr != nil:
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%T: error %v, encoding/json %v", v, err, wantErr)
		}
	case !bytes.Equal(got, want):
		t.Fatalf("%T:\n got %s\nwant %s", v, got, want)
	}
	return true
}

type inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
}

type base struct {
	ID    wire.ID   `json:"id"`
	When  wire.Time `json:"when"`
	Code  string
	inner // unexported embedded struct: its fields are promoted
}

type row struct {
	base
	Name     string            `json:"name"`
	Skip     string            `json:"-"`
	Dash     string            `json:"-,"`
	Bad      string            `json:"b\"ad"`
	Opt      string            `json:"opt,omitempty"`
	OptInt   int               `json:"optInt,omitempty"`
	OptF     float64           `json:"optF,omitempty"`
	OptP     *int              `json:"optP,omitempty"`
	OptS     []int             `json:"optS,omitempty"`
	OptM     map[string]int    `json:"optM,omitempty"`
	OptI     any               `json:"optI,omitempty"`
	U8       uint8             `json:"u8"`
	I16      int16             `json:"i16"`
	U        uint64            `json:"u"`
	F32      float32           `json:"f32"`
	F64      float64           `json:"f64"`
	Flag     bool              `json:"flag"`
	Ptr      *inner            `json:"ptr"`
	IDs      []wire.ID         `json:"ids"`
	Times    [2]wire.Time      `json:"times"`
	Labels   map[string]string `json:"labels"`
	Any      any               `json:"any"`
	Text     i18n.Text         `json:"text"`
	Std      time.Time         `json:"std"`
	Raw      json.RawMessage   `json:"raw"`
	Children []row             `json:"children,omitempty"`
	private  int
}

type withBytes struct {
	B []byte `json:"b"`
}

type ptrRecv struct{ n int }

func (p *ptrRecv) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type withPtrRecv struct {
	P ptrRecv `json:"p"`
}

type clash struct {
	inner
	A string `json:"a"` // hides inner.A
}

type withString struct {
	N int `json:"n,string"`
}

func TestAppendJSONMatchesStd(t *testing.T) {
	seven := 7
	full := row{
		base: base{ID: 382672835913437214, When: wire.Time{Time: time.Date(2026, 11, 21, 23, 25, 12, 0, time.UTC)}, Code: "c", inner: inner{A: 1, B: "x"}},
		Name: "用户9999 \"quoted\" \\ <a&b> \n\t\r\b\f \x01 \u2028\u2029 \xff end",
		Skip: "never", Dash: "dash", Bad: "bad tag", Opt: "o", OptInt: -3, OptF: math.Copysign(0, -1), OptP: &seven,
		OptS: []int{}, OptM: map[string]int{"z": 1, "a": 2}, OptI: 0,
		U8: 255, I16: -32768, U: math.MaxUint64, F32: 1.5e-7, F64: 1e21, Flag: true,
		Ptr: &inner{A: 2}, IDs: []wire.ID{1, 2}, Labels: map[string]string{"b": "2", "a": "1", "": "empty"},
		Any:  map[string]any{"n": 1.25, "s": []any{"x", nil, true}, "id": wire.ID(9)},
		Text: i18n.T("中文", "English"), Std: time.Date(2024, 2, 29, 1, 2, 3, 4, time.FixedZone("X", 3600)),
		Raw:      json.RawMessage(` { "a" : [ 1 , 2 ] } `),
		Children: []row{{Name: "child"}},
	}
	values := []any{
		nil, true, 0, -1, "s", 3.0, 1e-7, 123456789.0, float32(0.1), math.MaxInt64,
		wire.ID(0), wire.ID(42), wire.Time{}, wire.Time{Time: time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)},
		wire.Time{Time: time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("CST", 8*3600))},
		&wire.Time{}, (*wire.ID)(nil), []wire.ID(nil), []string{}, map[string]any(nil),
		row{}, &row{}, full, &full, []row{full, {}}, []*row{&full, nil},
		Envelope{Code: 200, Success: true, Msg: "操作成功", Data: NewPage([]row{full}, 10001, 1, 10)},
		Envelope{Code: 400, Msg: "bad", Data: map[string]string{"account": "必填"}},
		NewPage([]row(nil), 0, 1, 10),
		struct {
			A any `json:"a"`
		}{A: &full},
	}
	for _, v := range values {
		if !sameAsStd(t, v) {
			t.Errorf("%T went to encoding/json", v)
		}
	}
	// Left to encoding/json, and still correct through writeJSON.
	for _, v := range []any{withBytes{B: []byte("hi")}, withPtrRecv{}, []withPtrRecv{{}}, clash{A: "outer"}, withString{N: 1},
		map[int]string{1: "a"}, Envelope{Data: withBytes{}}, math.NaN(), []float64{math.Inf(1)}} {
		if sameAsStd(t, v) {
			if _, err := appendJSON(nil, v); err == nil {
				t.Errorf("%T: expected encoding/json to take it", v)
			}
		}
		rec := newRecorder()
		writeJSON(rec, 200, v)
		want, err := stdJSON(v)
		if err == nil && rec.body.String() != string(want)+"\n" {
			t.Errorf("%T via writeJSON: %s, want %s", v, rec.body.String(), want)
		}
		if err != nil && rec.status != 500 {
			t.Errorf("%T via writeJSON: status %d on an encoding error", v, rec.status)
		}
	}
}

// TestAppendJSONRandom fills the test row with random values.
func TestAppendJSONRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		var r row
		fill(rng, reflect.ValueOf(&r).Elem(), 0)
		if !sameAsStd(t, r) {
			t.Fatal("row went to encoding/json")
		}
	}
}

var runes = []rune("aZ09 \"\\/<>&\n\t\r\b\f\x00\x1f\u007f\u00e9\u4e2d\u2028\u2029\U0001F600\uFFFD")

func fill(rng *rand.Rand, v reflect.Value, depth int) {
	if !v.CanSet() {
		return
	}
	switch v.Interface().(type) {
	case wire.Time:
		if rng.IntN(3) > 0 {
			v.Set(reflect.ValueOf(wire.Time{Time: time.Unix(rng.Int64N(1<<36)-1<<35, 0)}))
		}
		return
	case time.Time:
		v.Set(reflect.ValueOf(time.Unix(rng.Int64N(1<<32), rng.Int64N(1e9)).UTC()))
		return
	case json.RawMessage:
		v.SetBytes([]byte(`[1, "x" ,{"k" :null}]`))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int64() >> rng.IntN(64))
		if rng.IntN(2) == 0 {
			v.SetInt(-v.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rng.Uint64() >> rng.IntN(64))
	case reflect.Float32, reflect.Float64:
		f := []float64{0, 1e-7, 1e21, 123.456, 1.0 / 3}[rng.IntN(5)] * math.Pow(10, float64(rng.IntN(20)-10))
		if rng.IntN(2) == 0 {
			f = -f
		}
		v.SetFloat(f)
	case reflect.String:
		var sb strings.Builder
		for n := rng.IntN(12); n > 0; n-- {
			sb.WriteRune(runes[rng.IntN(len(runes))])
		}
		if rng.IntN(10) == 0 {
			sb.WriteString("\xff\xfe")
		}
		v.SetString(sb.String())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(rng, v.Field(i), depth)
		}
	case reflect.Pointer:
		if depth < 2 && rng.IntN(2) == 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(rng, v.Elem(), depth+1)
		}
	case reflect.Slice:
		if depth < 2 && rng.IntN(3) > 0 {
			n := rng.IntN(3)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := 0; i < n; i++ {
				fill(rng, v.Index(i), depth+1)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(rng, v.Index(i), depth+1)
		}
	case reflect.Map:
		if rng.IntN(3) > 0 {
			v.Set(reflect.MakeMap(v.Type()))
			for n := rng.IntN(4); n > 0; n-- {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(rng, k, depth+1)
				fill(rng, e, depth+1)
				v.SetMapIndex(k, e)
			}
		}
	case reflect.Interface:
		switch rng.IntN(4) {
		case 1:
			v.Set(reflect.ValueOf(rng.Float64()))
		case 2:
			v.Set(reflect.ValueOf(wire.ID(rng.Int64())))
		case 3:
			v.Set(reflect.ValueOf([]any{"x", int64(rng.Int64()), nil}))
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\x00", "中文\u2028", "\xff\xc0\x80", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := stdJSON(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s want %s", s, got, want)
		}
	})
}

func TestWireTimeLikeMarshalJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		v := wire.Time{Time: time.Unix(rng.Int64N(1<<38)-1<<37, rng.Int64N(1e9)).In(time.FixedZone("", rng.IntN(50000)-25000))}
		if i%100 == 0 {
			v = wire.Time{}
		}
		want, _ := v.MarshalJSON()
		got, _ := encodeWireTime(nil, unsafe.Pointer(&v), 0)
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: got %s want %s", v.Time, got, want)
		}
	}
}

type recorder struct {
	header http.Header
	body   bytes.Buffer
	status int
}

func newRecorder() *recorder                    { return &recorder{header: http.Header{}} }
func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(s int)           { r.status = s }

// userRow has the field types of a user page row.
type userRow struct {
	ID         wire.ID   `json:"id"`
	TenantID   string    `json:"tenantId"`
	CreateUser wire.ID   `json:"createUser"`
	CreateDept wire.ID   `json:"createDept"`
	CreateTime wire.Time `json:"createTime"`
	UpdateUser wire.ID   `json:"updateUser"`
	UpdateTime wire.Time `json:"updateTime"`
	Status     int       `json:"status"`
	IsDeleted  int       `json:"isDeleted"`
	Version    int       `json:"version"`
	Code       string    `json:"code"`
	UserType   int       `json:"userType"`
	Account    string    `json:"account"`
	Password   string    `json:"password,omitempty"`
	Name       string    `json:"name"`
	RealName   string    `json:"realName"`
	Avatar     string    `json:"avatar"`
	Email      string    `json:"email"`
	Phone      string    `json:"phone"`
	Birthday   wire.Time `json:"birthday"`
	Sex        int       `json:"sex"`
	RoleID     string    `json:"roleId"`
	DeptID     string    `json:"deptId"`
	PostID     string    `json:"postId"`
	UserExt    string    `json:"userExt"`
	RoleName   string    `json:"roleName"`
	DeptName   string    `json:"deptName"`
	PostName   string    `json:"postName"`
	TenantName string    `json:"tenantName,omitempty"`
}

func BenchmarkAppendJSON(b *testing.B) {
	rows := make([]userRow, 10)
	now := wire.Now()
	for i := range rows {
		rows[i] = userRow{ID: wire.ID(382672835913437214 + i), TenantID: "000000", CreateTime: now, UpdateTime: now, Status: 1, Version: 1,
			UserType: 1, Account: "user09999", Name: "用户9999", RealName: "用户9999", Email: "u9999@example.com", Phone: "13800009999",
			Sex: 2, RoleID: "382672820773003268", DeptID: "382672820773003265", RoleName: "超级管理员", DeptName: "总部", TenantName: "管理组"}
	}
	env := Envelope{Code: 200, Success: true, Msg: "操作成功", Data: NewPage(rows, 10000, 1, 10)}
	if !sameAsStd(&testing.T{}, env) {
		b.Fatal("not compiled")
	}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = appendJSON(buf[:0], env)
		}
	})
	b.Run("std", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(env)
		}
	})
}
