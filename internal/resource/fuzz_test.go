package resource

import (
	"bytes"
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

type fuzzRow struct {
	Base
	Name  string    `bun:"name" json:"name" f:"label=名称|Name;req;max=20;search;sort"`
	Code  string    `bun:"code" json:"code" f:"label=编号|Code;pattern=^[A-Z]+$"`
	Count int       `bun:"count" json:"count" f:"label=数量|Count;min=0;sort"`
	Kind  int       `bun:"kind" json:"kind" f:"label=类型|Kind;dict=kind"`
	Owner wire.ID   `bun:"owner" json:"owner" f:"label=负责人|Owner"`
	Due   wire.Time `bun:"due" json:"due" f:"label=到期|Due;sort"`
}

var fuzzRes = New(Spec{Service: "fuzz", Name: "row", Table: "fuzz_row", Label: i18n.T("行", "Row")}, Hooks[fuzzRow]{})

// FuzzParseQuery: any query string either parses into whitelisted
// conditions or is refused with a 400; it never panics and never lets an
// undeclared name through.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"current=1&size=10", "name=abc&descs=name,count", "createTime_dategt=2024-01-01&createTime_datelt=2024-02-01 10:00:00",
		"count_gt=3&kind=2&owner=123", "descs=nope", "size=99999", "name_likeright=a%25_&code_null=", "due_dateequal=2024-13-45",
		"owner=abc", "current=-5", "ascs=name;drop table x", "name_ignore=zz&x=1",
		"current=4611686018427387904&size=10", "size=99999999999999999999", "current=1000001", "name=" + strings.Repeat("x", 256),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := fuzzRes.Meta().ParseQuery(v)
		if err != nil {
			if e, ok := httpx.As(err); !ok || e.Status != 400 {
				t.Fatalf("non-400 error %v", err)
			}
			return
		}
		if q.Size < 1 || q.Size > MaxPageSize || q.Current < 1 || q.Current > httpx.MaxPage {
			t.Fatalf("paging out of range: %+v", q)
		}
		for _, c := range q.Conds {
			if fuzzRes.Meta().Field(c.Field.Name) != c.Field || c.Field.Filter == "" {
				t.Fatalf("undeclared filter %s", c.Field.Name)
			}
			if s, ok := c.Value.(string); ok && utf8.RuneCountInString(s) > max(MaxFilterLen, c.Field.Max) {
				t.Fatalf("filter %s of %d characters", c.Field.Name, utf8.RuneCountInString(s))
			}
		}
		for _, o := range q.Order {
			if !o.Field.Sortable {
				t.Fatalf("unsortable order %s", o.Field.Name)
			}
		}
	})
}

// FuzzSubmitBody: any body is decoded and checked, or refused with a 4xx.
func FuzzSubmitBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","count":1}`, `{"name":""}`, `{"id":"12","name":"x","version":3}`, `{"id":12}`, `{"owner":"-1"}`,
		`{"due":"2024-01-01 10:00:00"}`, `{"due":"yesterday"}`, `{"name":123}`, `[1,2]`, `null`, ``, `{"code":"abc"}`,
		`{"name":"一二三四五六七八九十一二三四五六七八九十一"}`, `{"count":-1,"name":"n"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/fuzz/row/submit", bytes.NewReader(body))
		row, present, err := fuzzRes.Decode(req)
		if err != nil {
			if e, ok := httpx.As(err); !ok || e.Status >= 500 {
				t.Fatalf("decode error %v", err)
			}
			return
		}
		err = fuzzRes.Check(context.Background(), row, present, row.ID == 0)
		if err != nil {
			if e, ok := httpx.As(err); !ok || e.Status != 400 || e.Msg.Zh == "" {
				t.Fatalf("check error %v", err)
			}
			return
		}
		if row.ID == 0 && row.Name == "" {
			t.Fatalf("a new row without the required name passed the check")
		}
	})
}
