package develop

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Column is a table column as the database describes it.
type Column struct {
	Name      string `json:"name"`
	Type      string `json:"type"` // the database's type name, lower case: varchar, bigint, numeric...
	Length    int    `json:"length,omitempty"`
	Precision int    `json:"precision,omitempty"`
	Scale     int    `json:"scale,omitempty"`
	NotNull   bool   `json:"notNull"`
	Comment   string `json:"comment,omitempty"`
}

var (
	tableName       = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	sqliteSized     = regexp.MustCompile(`^([a-z ]+?)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)`)
	msgDatasource   = i18n.T("数据源%s不存在", "Data source %s does not exist")
	msgDatasourceDB = i18n.T("无法连接数据源: %s", "Cannot connect to the data source: %s")
)

// conn is a data source's database: the console's own (id 0), or a
// PostgreSQL data source opened for the call.
type conn struct {
	db       *sql.DB
	postgres bool
	close    func()
}

func (g *Generator) open(ctx context.Context, id wire.ID) (*conn, error) {
	if id == 0 {
		return &conn{db: g.DB.DB.DB, postgres: g.DB.Postgres, close: func() {}}, nil
	}
	var ds Datasource
	err := g.DB.NewSelect().Model(&ds).Where("id = ? AND is_deleted = 0", id).Limit(1).Scan(ctx)
	if err != nil {
		return nil, httpx.Badf(msgDatasource.Zh, msgDatasource.En, id)
	}
	d, err := sql.Open("pgx", postgresDSN(ds))
	if err != nil {
		return nil, httpx.Badf(msgDatasourceDB.Zh, msgDatasourceDB.En, err)
	}
	d.SetMaxOpenConns(1)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := d.PingContext(pctx); err != nil {
		d.Close()
		return nil, httpx.Badf(msgDatasourceDB.Zh, msgDatasourceDB.En, ds.Name)
	}
	return &conn{db: d, postgres: true, close: func() { d.Close() }}, nil
}

// postgresDSN makes a pgx URL of a data source: a jdbc:postgresql:// URL
// loses its prefix, the user name and password go in the URL.
func postgresDSN(ds Datasource) string {
	raw := strings.TrimPrefix(ds.URL, "jdbc:")
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Scheme = "postgres"
	if ds.Username != "" {
		u.User = url.UserPassword(ds.Username, ds.Password)
	}
	return u.String()
}

// tables lists the data source's tables.
func (g *Generator) tables(ctx context.Context, id wire.ID) ([]string, error) {
	c, err := g.open(ctx, id)
	if err != nil {
		return nil, err
	}
	defer c.close()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
	if c.postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	rows, err := c.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}

// tableColumns reads a table's columns: SQLite's table_info pragma, or
// PostgreSQL's information_schema (with the columns' comments).
func (g *Generator) tableColumns(ctx context.Context, id wire.ID, table string) ([]Column, error) {
	if !tableName.MatchString(table) {
		return nil, httpx.Badf(msgNoTable.Zh, msgNoTable.En, table)
	}
	c, err := g.open(ctx, id)
	if err != nil {
		return nil, err
	}
	defer c.close()
	var cols []Column
	if c.postgres {
		cols, err = postgresColumns(ctx, c.db, table)
	} else {
		cols, err = sqliteColumns(ctx, c.db, table)
	}
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, httpx.Badf(msgNoTable.Zh, msgNoTable.En, table)
	}
	return cols, nil
}

func sqliteColumns(ctx context.Context, d *sql.DB, table string) ([]Column, error) {
	rows, err := d.QueryContext(ctx, `SELECT name, type, "notnull" FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Column
	for rows.Next() {
		var c Column
		var notNull int
		if err := rows.Scan(&c.Name, &c.Type, &notNull); err != nil {
			return nil, err
		}
		c.NotNull = notNull != 0
		c.Type = strings.ToLower(strings.TrimSpace(c.Type))
		if m := sqliteSized.FindStringSubmatch(c.Type); m != nil {
			c.Type = strings.TrimSpace(m[1])
			fmt.Sscan(m[2], &c.Length)
			if m[3] != "" {
				c.Precision, c.Length = c.Length, 0
				fmt.Sscan(m[3], &c.Scale)
			} else if c.Type == "numeric" || c.Type == "decimal" {
				c.Precision, c.Length = c.Length, 0
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func postgresColumns(ctx context.Context, d *sql.DB, table string) ([]Column, error) {
	rows, err := d.QueryContext(ctx, `SELECT c.column_name, c.data_type, COALESCE(c.character_maximum_length, 0),
		COALESCE(c.numeric_precision, 0), COALESCE(c.numeric_scale, 0), c.is_nullable = 'NO',
		COALESCE(col_description(format('%I.%I', c.table_schema, c.table_name)::regclass::oid, c.ordinal_position), '')
		FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = $1
		ORDER BY c.ordinal_position`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Column
	for rows.Next() {
		var c Column
		if err := rows.Scan(&c.Name, &c.Type, &c.Length, &c.Precision, &c.Scale, &c.NotNull, &c.Comment); err != nil {
			return nil, err
		}
		c.Type = strings.ToLower(c.Type)
		if c.Type != "numeric" {
			c.Precision, c.Scale = 0, 0 // integers report a binary precision
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
