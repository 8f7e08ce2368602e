package resource

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

type aggShelf struct {
	Base
	ShelfName string `bun:"shelf_name" json:"shelfName" f:"label=货架|Shelf;req;max=20"`
}

type aggItem struct {
	Base
	Name    string       `bun:"name" json:"name" f:"label=名称|Name;max=20;search"`
	Note    string       `bun:"note" json:"note" f:"label=说明|Note;type=text"`
	Secret  string       `bun:"pin" json:"pin" f:"label=口令|PIN;type=password;max=20"`
	ShelfID wire.ID      `bun:"shelf_id" json:"shelfId" f:"label=货架|Shelf;ref=blade-test/shelf"`
	Qty     int          `bun:"qty" json:"qty" f:"label=数量|Quantity"`
	Amount  wire.Decimal `bun:"amount" json:"amount" f:"label=金额|Amount;scale=2;precision=18"`
}

// TestAggregate: grouped counts and exact sums over exactly the rows the
// list answers (tenant, data scope, filters), on whitelisted fields only.
func TestAggregate(t *testing.T) {
	ddl := map[string]string{
		"shelf": `CREATE TABLE %s (id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT,
			create_time TIMESTAMP, update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT, shelf_name VARCHAR(20))`,
		"item": `CREATE TABLE %s (id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT,
			create_time TIMESTAMP, update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT,
			name VARCHAR(20), note TEXT, pin VARCHAR(20), shelf_id BIGINT, qty INT, amount {{decimal 18 2}})`,
	}
	var items *Resource[aggItem]
	declare := func(tables map[string]string) []Registered {
		shelves := New(Spec{Service: "blade-test", Name: "shelf", Table: tables["shelf"], Label: i18n.T("货架", "Shelf"),
			Title: "shelfName"}, Hooks[aggShelf]{})
		items = New(Spec{Service: "blade-test", Name: "item", Table: tables["item"], Label: i18n.T("物品", "Item"),
			DataScope: true}, Hooks[aggItem]{})
		return []Registered{shelves, items}
	}
	eachDB(t, ddl, declare, func(env *Env) { env.Scope = createdRows{} }, func(t *testing.T, e *apiEnv) {
		e.handler.(chi.Router).Post("/agg", httpx.Handle(func(req *http.Request) (any, error) {
			var a Aggregation
			if err := json.NewDecoder(req.Body).Decode(&a); err != nil {
				return nil, httpx.BadRequest(i18n.T("坏", "bad"))
			}
			a.Filters = req.URL.Query()
			return items.Aggregate(req, a)
		}))
		shelf := func(who, name string) string {
			var row map[string]any
			e.ok(who, "POST", "/blade-test/shelf/submit", map[string]any{"shelfName": name}, &row)
			return row["id"].(string)
		}
		north, south, other := shelf("a", "North"), shelf("a", "South"), shelf("b", "Other")
		add := func(who, name, shelfID string, qty int, amount string) {
			e.ok(who, "POST", "/blade-test/item/submit", map[string]any{"name": name, "shelfId": shelfID, "qty": qty, "amount": amount}, nil)
		}
		add("a", "bolt", north, 3, "0.10")
		add("a", "nut", north, 5, "0.20")
		add("clerk", "screw", south, 7, "99999999999999.99")
		add("clerk", "washer", south, 1, "0.01")
		add("b", "bolt", other, 100, "1000.00")

		run := func(who, query string, body any) AggregateResult {
			t.Helper()
			var res AggregateResult
			e.ok(who, "POST", "/agg"+query, body, &res)
			return res
		}
		byShelf := map[string]any{"groupBy": []GroupBy{{Field: "shelfId"}},
			"measures": []Measure{{Func: "count"}, {Func: "sum", Field: "amount"}, {Func: "avg", Field: "amount"}, {Func: "max", Field: "qty"}}}
		res := run("a", "", byShelf)
		if len(res.Rows) != 2 || len(res.Columns) != 5 {
			t.Fatalf("tenant a has two shelves in use, another tenant's rows stay out: %+v", res.Rows)
		}
		got := map[string]map[string]any{}
		for _, r := range res.Rows {
			got[r["shelfIdLabel"].(string)] = r
		}
		// 0.10 + 0.20 is exactly 0.30; the big sum keeps every digit
		if n := got["North"]; n["count"] != float64(2) || n["sum_amount"] != "0.30" || n["avg_amount"] != "0.15" || n["max_qty"] != float64(5) {
			t.Fatalf("North: %v", n)
		}
		if s := got["South"]; s["sum_amount"] != "100000000000000.00" || s["avg_amount"] != "50000000000000.00" {
			t.Fatalf("South: %v", s)
		}
		// the clerk's data scope: only the rows it created are aggregated
		res = run("clerk", "", byShelf)
		if len(res.Rows) != 1 || res.Rows[0]["count"] != float64(2) || res.Rows[0]["shelfIdLabel"] != "South" {
			t.Fatalf("clerk sees its own rows only: %v", res.Rows)
		}
		// the list's filters narrow the rows
		res = run("a", "?name=bolt", map[string]any{"measures": []Measure{{Func: "count"}, {Func: "sum", Field: "qty"}}})
		if len(res.Rows) != 1 || res.Rows[0]["count"] != float64(1) || res.Rows[0]["sum_qty"] != float64(3) {
			t.Fatalf("filtered: %v", res.Rows)
		}
		// a datetime groups by its day
		res = run("a", "", map[string]any{"groupBy": []GroupBy{{Field: "createTime"}}, "measures": []Measure{{Func: "count"}, {Func: "min", Field: "amount"}}})
		if len(res.Rows) != 1 || res.Rows[0]["count"] != float64(4) || len(res.Rows[0]["createTime"].(string)) != 10 || res.Rows[0]["min_amount"] != "0.01" {
			t.Fatalf("by day: %v", res.Rows)
		}
		// only declared, groupable fields; only numeric measures
		for _, body := range []map[string]any{
			{"groupBy": []GroupBy{{Field: "tenant_id"}}, "measures": []Measure{{Func: "count"}}},
			{"groupBy": []GroupBy{{Field: "pin"}}, "measures": []Measure{{Func: "count"}}},
			{"groupBy": []GroupBy{{Field: "id"}}, "measures": []Measure{{Func: "count"}}}, // a group per row
			{"groupBy": []GroupBy{{Field: "note"}}, "measures": []Measure{{Func: "count"}}},
			{"groupBy": []GroupBy{{Field: "name", Bucket: "day"}}, "measures": []Measure{{Func: "count"}}},
			{"measures": []Measure{{Func: "sum", Field: "name"}}},
			{"measures": []Measure{{Func: "sum", Field: "amount); DROP TABLE x; --"}}},
			{"measures": []Measure{{Func: "median", Field: "qty"}}},
			{"measures": []Measure{}},
		} {
			msg, _ := e.refused(400, "a", "POST", "/agg", body)
			if msg == "" {
				t.Fatalf("%v: no message", body)
			}
		}
		if msg, _ := e.refused(400, "en:a", "POST", "/agg", map[string]any{"groupBy": []GroupBy{{Field: "pin"}}, "measures": []Measure{{Func: "count"}}}); msg != "Cannot group by field pin" {
			t.Fatalf("english message: %q", msg)
		}
	})
}
