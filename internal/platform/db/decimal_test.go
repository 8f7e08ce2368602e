package db_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

func TestDecimalColumnType(t *testing.T) {
	if got := db.DecimalColumnType(true, 20, 6); got != "NUMERIC(20,6)" {
		t.Errorf("postgres: %s", got)
	}
	if got := db.DecimalColumnType(false, 20, 6); got != "TEXT COLLATE DECIMAL" {
		t.Errorf("sqlite: %s", got)
	}
}

// openDecimalDB opens a fresh database of kind with a table of decimals.
func openDecimalDB(t *testing.T, kind string) *db.DB {
	var d *db.DB
	var err error
	if kind == "sqlite" {
		d, err = db.OpenSQLite(filepath.Join(t.TempDir(), "dec.db"))
	} else {
		d, err = db.OpenPostgres(apptest.EmptyPostgres(t))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ddl := "CREATE TABLE dec (id INTEGER PRIMARY KEY, qty " + db.DecimalColumnType(d.Postgres, 20, 6) + ")"
	if _, err := d.ExecContext(context.Background(), ddl); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(context.Background(), "CREATE INDEX dec_qty ON dec (qty)"); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecimalColumnsCompareNumerically: on both databases a decimal column
// compares, sorts and sums by value, exactly, with the filter value bound
// as text (what the engine does).
func TestDecimalColumnsCompareNumerically(t *testing.T) {
	ctx := context.Background()
	values := map[int]string{1: "9", 2: "10", 3: "-5", 4: "-10.5", 5: "0.000001", 6: "99999999999999.999999", 7: "1.5", 8: ""}
	for _, kind := range apptest.Kinds() {
		t.Run(kind, func(t *testing.T) {
			d := openDecimalDB(t, kind)
			for id, v := range values {
				var dec wire.Decimal
				if v != "" {
					dec = wire.MustParseDecimal(v)
				}
				if _, err := d.NewRaw("INSERT INTO dec (id, qty) VALUES (?, ?)", id, dec).Exec(ctx); err != nil {
					t.Fatal(err)
				}
			}
			ids := func(query string, args ...any) string {
				t.Helper()
				var got []string
				if err := d.NewRaw(query, args...).Scan(ctx, &got); err != nil {
					t.Fatalf("%s: %v", query, err)
				}
				return strings.Join(got, ",")
			}
			for _, c := range []struct {
				query string
				arg   any
				want  string
			}{
				{"SELECT id FROM dec WHERE qty > ? ORDER BY id", "9", "2,6"},
				{"SELECT id FROM dec WHERE qty > ? ORDER BY id", "9.000000", "2,6"},
				{"SELECT id FROM dec WHERE qty < ? ORDER BY id", "-5", "4"},
				{"SELECT id FROM dec WHERE qty <= ? ORDER BY id", "-5.0", "3,4"},
				{"SELECT id FROM dec WHERE qty = ? ORDER BY id", "1.50", "7"},
				{"SELECT id FROM dec WHERE qty >= ? ORDER BY id", "99999999999999.999999", "6"},
				{"SELECT id FROM dec WHERE qty < ? ORDER BY id", "99999999999999.999999", "1,2,3,4,5,7"},
				{"SELECT id FROM dec WHERE qty > ? ORDER BY id", "0", "1,2,5,6,7"},
			} {
				if got := ids(c.query, c.arg); got != c.want {
					t.Errorf("%s [%v]: %s, want %s", c.query, c.arg, got, c.want)
				}
			}
			if got := ids("SELECT id FROM dec WHERE qty IS NOT NULL ORDER BY qty, id"); got != "4,3,5,7,1,2,6" {
				t.Errorf("order by qty: %s", got)
			}
			if got := ids("SELECT id FROM dec WHERE qty IS NOT NULL ORDER BY qty DESC"); got != "6,2,1,7,5,3,4" {
				t.Errorf("order by qty desc: %s", got)
			}
			// a bound parameter (not inlined by bun) is text too
			var n int
			if err := d.DB.DB.QueryRowContext(ctx, "SELECT count(*) FROM dec WHERE qty > "+placeholder(d), "9").Scan(&n); err != nil || n != 2 {
				t.Errorf("bound text parameter: %d %v", n, err)
			}
			var sum wire.Decimal
			if err := d.NewRaw("SELECT "+db.DecimalSumFunc(d.Postgres)+"(qty) FROM dec").Scan(ctx, &sum); err != nil {
				t.Fatal(err)
			}
			if want := "100000000000005"; sum.Cmp(wire.MustParseDecimal(want)) != 0 {
				t.Errorf("sum %s, want %s", sum, want)
			}
			var back wire.Decimal
			if err := d.NewRaw("SELECT qty FROM dec WHERE id = 6").Scan(ctx, &back); err != nil || back.String() != "99999999999999.999999" {
				t.Errorf("read back %s %v", back, err)
			}
		})
	}
}

func placeholder(d *db.DB) string {
	if d.Postgres {
		return "$1"
	}
	return "?"
}

// TestSQLiteDecimalFunctions: decimal_sum (aggregate and window),
// decimal_add, decimal_sub; REAL inputs are refused; the collation makes a
// unique key numeric. And why all this: a NUMERIC column loses digits.
func TestSQLiteDecimalFunctions(t *testing.T) {
	ctx := context.Background()
	d := openDecimalDB(t, "sqlite")
	text := func(query string) sql.NullString {
		t.Helper()
		var s sql.NullString
		if err := d.DB.DB.QueryRowContext(ctx, query).Scan(&s); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return s
	}
	if s := text("SELECT decimal_sum(qty) FROM dec"); s.Valid {
		t.Errorf("sum over no rows: %q, want NULL", s.String)
	}
	for i, v := range []string{"0.1", "0.2", "99999999999999.999999", "-0.300000", "7"} {
		if _, err := d.ExecContext(ctx, "INSERT INTO dec (id, qty) VALUES (?, ?)", i+1, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO dec (id, qty) VALUES (6, NULL)"); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"SELECT decimal_sum(qty) FROM dec":                        "100000000000006.999999",
		"SELECT decimal_sum(qty) FROM dec WHERE id <= 2":          "0.3",
		"SELECT decimal_sum(qty) FROM dec WHERE id IN (1, 2, 4)":  "0.000000",
		"SELECT decimal_sum(id) FROM dec":                         "21",
		"SELECT decimal_add('1.5', '2.25')":                       "3.75",
		"SELECT decimal_add('99999999999999.999999', '0.000001')": "100000000000000.000000",
		"SELECT decimal_sub('1', 2)":                              "-1",
		"SELECT group_concat(s, ' ') FROM (SELECT decimal_sum(qty) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM dec ORDER BY id)": "0.1 0.3 100000000000000.199999 99999999999999.699999 6.700000 7.000000",
	} {
		if got := text(query); got.String != want {
			t.Errorf("%s: %q, want %s", query, got.String, want)
		}
	}
	if s := text("SELECT decimal_add(NULL, '1')"); s.Valid {
		t.Errorf("decimal_add with NULL: %q", s.String)
	}
	for _, bad := range []string{"SELECT decimal_sum(1.5)", "SELECT decimal_add('1', 0.1)", "SELECT decimal_add('abc', '1')"} {
		var s sql.NullString
		if err := d.DB.DB.QueryRowContext(ctx, bad).Scan(&s); err == nil {
			t.Errorf("%s: accepted (%q)", bad, s.String)
		}
	}
	// the index is usable for a range on the collated column
	var plan strings.Builder
	rows, err := d.DB.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN SELECT id FROM dec WHERE qty > '5'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail)
	}
	rows.Close()
	if !strings.Contains(plan.String(), "dec_qty") {
		t.Errorf("range on qty does not use its index: %s", plan.String())
	}
	if _, err := d.ExecContext(ctx, "CREATE TABLE u (x TEXT COLLATE DECIMAL UNIQUE)"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO u VALUES ('1.5')"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO u VALUES ('1.500000')"); err == nil {
		t.Error("1.500000 beside 1.5 in a unique decimal column")
	}
	if _, err := d.ExecContext(ctx, "CREATE TABLE n (x NUMERIC)"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO n VALUES ('99999999999999.999999')"); err != nil {
		t.Fatal(err)
	}
	if got := text("SELECT CAST(x AS TEXT) FROM n"); got.String == "99999999999999.999999" {
		t.Errorf("NUMERIC affinity kept %s: the TEXT column would not be needed", got.String)
	}
}
