package db

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Migrate applies every pending migration of fsys, its templates expanded
// for this database (migrate_template.go).
func (d *DB) Migrate(ctx context.Context, fsys fs.FS) error {
	dialect := goose.DialectSQLite3
	if d.Postgres {
		dialect = goose.DialectPostgres
	}
	var opts []goose.ProviderOption
	if d.Postgres {
		// several instances may start at once on one database: one migrates, the others wait
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	rendered, err := renderMigrations(fsys, d.Postgres)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, d.DB.DB, rendered, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
