package db

import (
	"context"
	"database/sql"
	"reflect"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// Statement is a hot statement written with ? placeholders and run with its
// arguments bound, so that its text is the same on every call and the driver
// prepares it once per connection (stmtcache.go on SQLite, pgx's statement
// cache on PostgreSQL). bun's builder writes the arguments into the text,
// which SQLite then parses on every call: a quarter of a workflow step's
// time. Keep it for the few paths that run many times a second (the flow
// engine), inside DB.Tx, whose commit marks the write for the caches.
type Statement struct{ sqlite, postgres string }

// NewStatement makes a statement of query; its ? placeholders become $1,
// $2, ... for PostgreSQL. query holds no ? of its own (no string literal
// with one).
func NewStatement(query string) Statement {
	var pg strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			pg.WriteString("$" + strconv.Itoa(n))
			continue
		}
		pg.WriteRune(r)
	}
	return Statement{sqlite: query, postgres: pg.String()}
}

func (s Statement) text(d *DB) string {
	if d.Postgres {
		return s.postgres
	}
	return s.sqlite
}

// Exec runs s in tx.
func (s Statement) Exec(ctx context.Context, d *DB, tx bun.Tx, args ...any) (sql.Result, error) {
	return tx.Tx.ExecContext(ctx, s.text(d), args...)
}

// Get reads the first row of s in tx into dest, a model (a struct pointer);
// sql.ErrNoRows when there is none.
func (s Statement) Get(ctx context.Context, d *DB, tx bun.Tx, dest any, args ...any) error {
	rows, err := tx.Tx.QueryContext(ctx, s.text(d), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := d.DB.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// Inserter inserts rows of one model as a Statement: every column the model
// declares, a zero nullzero field as NULL, as bun's insert writes them.
type Inserter[T any] struct {
	stmt   Statement
	fields []*schema.Field
}

// NewInserter builds the insert of model T; conflict, when given, follows
// the VALUES (an ON CONFLICT clause, the same on both databases).
func NewInserter[T any](d *DB, conflict string) *Inserter[T] {
	table := d.DB.Table(reflect.TypeFor[T]())
	names := make([]string, len(table.Fields))
	marks := make([]string, len(table.Fields))
	for i, f := range table.Fields {
		names[i], marks[i] = string(f.SQLName), "?"
	}
	q := "INSERT INTO " + string(table.SQLName) + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	if conflict != "" {
		q += " " + conflict
	}
	return &Inserter[T]{stmt: NewStatement(q), fields: table.Fields}
}

// Insert inserts row in tx.
func (in *Inserter[T]) Insert(ctx context.Context, d *DB, tx bun.Tx, row *T) error {
	v := reflect.ValueOf(row).Elem()
	args := make([]any, len(in.fields))
	for i, f := range in.fields {
		fv := f.Value(v)
		if f.NullZero && fv.IsZero() {
			continue // nil: NULL
		}
		args[i] = fv.Interface()
	}
	_, err := in.stmt.Exec(ctx, d, tx, args...)
	return err
}
