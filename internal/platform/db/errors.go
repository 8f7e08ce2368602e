package db

import "strings"

// IsUniqueViolation tells whether err is a unique-key violation, on either
// database (SQLite's "UNIQUE constraint failed", PostgreSQL's SQLSTATE 23505).
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") ||
		strings.Contains(msg, "duplicate key value")
}
