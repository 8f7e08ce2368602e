// Package config reads the server settings from flags and their BLUEBIRD_* twins.
package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
)

// Config is everything the server needs to start.
type Config struct {
	Addr     string // listen address
	DataDir  string // SQLite database and files
	FilesDir string // uploaded files; "" means <DataDir>/files (see FilesRoot)
	DB       string // "" or "sqlite" for the embedded default, or a postgres:// URL
	RedisURL string // optional shared cache, revocation and captcha store
	LogLevel string
	Dev      bool // verbose logs, permissive CORS for the Vite dev server
	// OutboundAllow lists the internal address ranges (CIDR, comma
	// separated) that tenants' S3, SMS and social-login endpoints may reach; every other
	// internal address is refused to them (internal/platform/outbound).
	OutboundAllow string
}

// Bind registers the flags with env defaults on fs.
func (c *Config) Bind(fs *flag.FlagSet) {
	fs.StringVar(&c.Addr, "addr", env("BLUEBIRD_ADDR", "127.0.0.1:8080"), "listen address (BLUEBIRD_ADDR)")
	fs.StringVar(&c.DataDir, "data", env("BLUEBIRD_DATA", "./data"), "data directory (BLUEBIRD_DATA)")
	fs.StringVar(&c.FilesDir, "files", env("BLUEBIRD_FILES", ""), "uploaded files directory, default <data>/files (BLUEBIRD_FILES)")
	fs.StringVar(&c.DB, "db", env("BLUEBIRD_DB", ""), "database: empty for SQLite under --data, or postgres://... (BLUEBIRD_DB)")
	fs.StringVar(&c.RedisURL, "redis", env("BLUEBIRD_REDIS", ""), "optional redis:// URL (BLUEBIRD_REDIS)")
	fs.StringVar(&c.OutboundAllow, "outbound-allow", env("BLUEBIRD_OUTBOUND_ALLOW", ""),
		"internal ranges tenants' S3, SMS and social-login endpoints may reach, e.g. 10.0.0.5/32 (BLUEBIRD_OUTBOUND_ALLOW)")
	fs.StringVar(&c.LogLevel, "log-level", env("BLUEBIRD_LOG_LEVEL", "info"), "log level: debug, info, warn, error (BLUEBIRD_LOG_LEVEL)")
}

// IsPostgres tells whether the database URL names PostgreSQL.
func (c *Config) IsPostgres() bool {
	return strings.HasPrefix(c.DB, "postgres://") || strings.HasPrefix(c.DB, "postgresql://")
}

// SQLitePath is the database file used when DB is not PostgreSQL.
func (c *Config) SQLitePath() string {
	if strings.HasPrefix(c.DB, "sqlite://") {
		return strings.TrimPrefix(c.DB, "sqlite://")
	}
	if c.DB != "" && c.DB != "sqlite" {
		return c.DB
	}
	return filepath.Join(c.DataDir, "bluebird.db")
}

// FilesRoot is the directory of the local file store: FilesDir, else
// <DataDir>/files, else (an empty config, as in embedding code) a directory
// under the system temp dir.
func (c *Config) FilesRoot() string {
	switch {
	case c.FilesDir != "":
		return c.FilesDir
	case c.DataDir != "":
		return filepath.Join(c.DataDir, "files")
	default:
		return filepath.Join(os.TempDir(), "bluebird-files")
	}
}

func env(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}
