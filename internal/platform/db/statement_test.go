package db_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

type stmtRow struct {
	bun.BaseModel `bun:"table:stmt_row"`
	ID            wire.ID   `bun:"id,pk"`
	Name          string    `bun:"name"`
	At            wire.Time `bun:"at"`
	Done          wire.Time `bun:"done,nullzero"`
}

var (
	stmtByID   = db.NewStatement("SELECT * FROM stmt_row WHERE id = ?")
	stmtRename = db.NewStatement("UPDATE stmt_row SET name = ? WHERE id = ? AND name = ?")
)

// TestStatements: statements with bound arguments, prepared once, give the
// same answers as fresh ones on both databases: rows read back as written
// (a zero nullzero time as NULL), a second run of the same text sees the
// first one's write, a conditional update reports its rows, and a missing
// row is sql.ErrNoRows. Inserting a duplicate key fails and leaves the row.
func TestStatements(t *testing.T) {
	ctx := context.Background()
	for _, kind := range apptest.Kinds() {
		t.Run(kind, func(t *testing.T) {
			var d *db.DB
			var err error
			if kind == "sqlite" {
				d, err = db.OpenSQLite(filepath.Join(t.TempDir(), "s.db"))
			} else {
				d, err = db.OpenPostgres(apptest.EmptyPostgres(t))
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.ExecContext(ctx, "CREATE TABLE stmt_row (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, at TIMESTAMP NOT NULL, done TIMESTAMP)"); err != nil {
				t.Fatal(err)
			}
			insert := db.NewInserter[stmtRow](d, "")
			at := wire.Time{Time: time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC)}
			err = d.Tx(ctx, func(tx bun.Tx) error {
				for i := 1; i <= 3; i++ {
					if err := insert.Insert(ctx, d, tx, &stmtRow{ID: wire.ID(i), Name: "名称'; --", At: at}); err != nil {
						return err
					}
				}
				var got stmtRow
				if err := stmtByID.Get(ctx, d, tx, &got, wire.ID(2)); err != nil {
					return err
				}
				if got.ID != 2 || got.Name != "名称'; --" || !got.At.Equal(at.Time) || !got.Done.IsZero() {
					t.Errorf("read back %+v", got)
				}
				res, err := stmtRename.Exec(ctx, d, tx, "新", wire.ID(2), "名称'; --")
				if err != nil {
					return err
				}
				if n, _ := res.RowsAffected(); n != 1 {
					t.Errorf("rename affected %d rows", n)
				}
				if res, _ := stmtRename.Exec(ctx, d, tx, "又", wire.ID(2), "名称'; --"); res != nil {
					if n, _ := res.RowsAffected(); n != 0 {
						t.Errorf("a rename whose condition no longer holds affected %d rows", n)
					}
				}
				if err := stmtByID.Get(ctx, d, tx, &got, wire.ID(2)); err != nil || got.Name != "新" {
					t.Errorf("after the rename: %+v %v", got, err)
				}
				if err := stmtByID.Get(ctx, d, tx, &got, wire.ID(9)); !errors.Is(err, sql.ErrNoRows) {
					t.Errorf("a missing row: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Tx(ctx, func(tx bun.Tx) error { return insert.Insert(ctx, d, tx, &stmtRow{ID: 1, Name: "dup", At: at}) }); err == nil {
				t.Fatal("a duplicate key was inserted")
			}
			var names []string
			if err := d.NewSelect().Table("stmt_row").Column("name").OrderExpr("id").Scan(ctx, &names); err != nil {
				t.Fatal(err)
			}
			if len(names) != 3 || names[0] != "名称'; --" || names[1] != "新" {
				t.Fatalf("rows after the refused insert: %q", names)
			}
		})
	}
}
