package db

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// Migrate applies every pending migration of fsys.
func (d *DB) Migrate(ctx context.Context, fsys fs.FS) error {
	dialect := goose.DialectSQLite3
	if d.Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, d.DB.DB, fsys)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
