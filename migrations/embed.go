// Package migrations embeds the goose SQL files. One portable set serves
// SQLite and PostgreSQL: BIGINT ids made by the app, VARCHAR/TEXT, TIMESTAMP
// stored as "yyyy-MM-dd HH:mm:ss" UTC, NUMERIC for quantities and money, and
// partial unique indexes that ignore soft-deleted rows.
package migrations

import "embed"

//go:embed *.sql
var FS embed.FS
