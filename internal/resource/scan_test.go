package resource

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

type scanKindsRow struct {
	bun.BaseModel `bun:"table:scan_kinds"`
	Base
	Name    string            `bun:"name" json:"name"`
	Small   int16             `bun:"small" json:"small"`
	Mid     int32             `bun:"mid" json:"mid"`
	Big     int64             `bun:"big" json:"big"`
	Ref     wire.ID           `bun:"ref" json:"ref"`
	Flag    bool              `bun:"flag" json:"flag"`
	Ratio   float64           `bun:"ratio" json:"ratio"`
	Count   uint32            `bun:"count" json:"count"`
	When    wire.Time         `bun:"when_at" json:"whenAt"`
	Note    *string           `bun:"note" json:"note"`
	Tags    []string          `bun:"tags" json:"tags"`
	Props   map[string]string `bun:"props" json:"props"`
	Derived string            `bun:"-" json:"derived"`
}

const scanKindsDDL = `CREATE TABLE scan_kinds (
	id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT, create_time TIMESTAMP,
	update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT,
	name VARCHAR(64), small SMALLINT, mid INT, big BIGINT, ref BIGINT, flag BOOLEAN, ratio DOUBLE PRECISION,
	count BIGINT, when_at TIMESTAMP, note TEXT, tags TEXT, props TEXT)`

// TestFastScanMatchesBun reads the same rows through the plan and through
// bun's scanner, on SQLite and (BLUEBIRD_TEST_PG) PostgreSQL.
func TestFastScanMatchesBun(t *testing.T) {
	ctx := context.Background()
	kinds := map[string]func() (*db.DB, error){
		"sqlite": func() (*db.DB, error) { return db.OpenSQLite(filepath.Join(t.TempDir(), "scan.db")) },
	}
	if url := os.Getenv("BLUEBIRD_TEST_PG"); url != "" {
		kinds["postgres"] = func() (*db.DB, error) { return db.OpenPostgres(url) }
	}
	for kind, open := range kinds {
		t.Run(kind, func(t *testing.T) {
			d, err := open()
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			_, _ = d.ExecContext(ctx, "DROP TABLE IF EXISTS scan_kinds")
			if _, err := d.ExecContext(ctx, scanKindsDDL); err != nil {
				t.Fatal(err)
			}
			defer d.ExecContext(ctx, "DROP TABLE scan_kinds")
			note := "a note"
			rows := []scanKindsRow{
				{Base: Base{ID: 1, TenantID: "000000", CreateTime: wire.Now(), Status: 1, Version: 3},
					Name: "名字 \"q\"", Small: -7, Mid: 1 << 30, Big: -1 << 62, Ref: 382672835913437214, Flag: true, Ratio: 0.25,
					Count: 4000000000, When: wire.Time{Time: time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC)}, Note: &note,
					Tags: []string{"a", "b"}, Props: map[string]string{"k": "v"}, Derived: "not stored"},
				{Base: Base{ID: 2}},
			}
			if _, err := d.NewInsert().Model(&rows).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if kind == "sqlite" {
				// time text in another layout, and NULLs
				if _, err := d.ExecContext(ctx, `INSERT INTO scan_kinds (id, when_at, update_time, name) VALUES (3, '2024-03-01T10:00:00Z', '2024-03-01 10:00:00.5+08:00', NULL)`); err != nil {
					t.Fatal(err)
				}
			}
			p := buildPlan(d.Dialect(), reflect.TypeFor[scanKindsRow](), (*scanKindsRow)(nil))
			if p == nil {
				t.Fatal("no plan")
			}
			if _, ok := p.byName["derived"]; ok {
				t.Fatal("bun:\"-\" field in the plan")
			}
			for _, f := range p.fields {
				want := map[string]fieldKind{"name": kindString, "small": kindInt, "ref": kindInt, "flag": kindBool, "ratio": kindFloat64,
					"when_at": kindWireTime, "count": kindGeneric, "note": kindGeneric, "tags": kindGeneric}
				if k, ok := want[f.column]; ok && f.kind != k {
					t.Errorf("%s: kind %d, want %d", f.column, f.kind, k)
				}
			}
			var ref []scanKindsRow
			if err := d.NewSelect().Model(&ref).Order("id").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			var model []scanKindsRow
			sq := d.NewSelect().Model(&model).Order("id")
			query := p.prepare(sq).String()
			if kind == "sqlite" && !strings.Contains(query, `+"scan_kinds_row"."when_at" AS "when_at"`) {
				t.Errorf("time columns not selected as text: %s", query)
			}
			got, err := scanInto(ctx, p, rawConn(d), query, []scanKindsRow(nil))
			if err != nil {
				t.Fatal(err)
			}
			if err := sameRows("scan_kinds", got, ref); err != nil {
				t.Fatal(err)
			}
			// inside a transaction, and with a column the plan does not know
			err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				got, err := scanInto(ctx, p, rawConn(tx), query, []scanKindsRow(nil))
				if err == nil {
					err = sameRows("scan_kinds", got, ref)
				}
				if err != nil {
					return err
				}
				_, err = scanInto(ctx, p, rawConn(tx), tx.NewSelect().Model((*scanKindsRow)(nil)).ColumnExpr("1 AS extra").Column("id").String(), []scanKindsRow(nil))
				if err != errNoFastPath {
					t.Errorf("unknown column: %v, want errNoFastPath", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestParseDateTime(t *testing.T) {
	for s, ok := range map[string]bool{
		"2024-02-29 23:59:59": true, "0001-01-01 00:00:00": true, "2023-02-29 00:00:00": false, "2024-13-01 00:00:00": false,
		"2024-01-01T00:00:00": false, "2024-01-01 24:00:00": false, "2024-01-01 00:00:0x": false, "2024-1-01 00:00:00": false, "": false,
	} {
		got, gotOK := parseDateTime(s)
		if gotOK != ok {
			t.Errorf("%q: ok %v", s, gotOK)
			continue
		}
		if ok {
			want, err := time.Parse(wire.Layout, s)
			if err != nil || !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("%q: %v, want %v", s, got, want)
			}
		}
	}
}
