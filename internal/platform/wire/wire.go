// Package wire holds the value types whose JSON form is fixed by the BladeX
// wire contract: ids travel as strings, datetimes as "yyyy-MM-dd HH:mm:ss",
// decimals as strings.
package wire

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ID is an app-generated int64 key. JSON carries it as a string because
// JavaScript cannot hold an int64; it is accepted as string or number.
type ID int64

func (id ID) String() string { return strconv.FormatInt(int64(id), 10) }

func (id ID) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 22)
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, '"'), nil
}

func (id *ID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*id = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("invalid id %q", s)
	}
	*id = ID(n)
	return nil
}

// ParseID parses a decimal id; empty gives 0.
func ParseID(s string) (ID, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid id %q", s)
	}
	return ID(n), nil
}

// ParseIDs parses a comma-separated id list such as "1,2,3".
func ParseIDs(s string) ([]ID, error) {
	var ids []ID
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		id, err := ParseID(part)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// JoinIDs is the inverse of ParseIDs.
func JoinIDs(ids []ID) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(id.String())
	}
	return b.String()
}

// Layout is the datetime layout of the wire and of the database text form.
const Layout = "2006-01-02 15:04:05"

// Time is a datetime stored in UTC with second precision and sent as
// "yyyy-MM-dd HH:mm:ss". The zero value is NULL in the database and null in JSON.
type Time struct{ time.Time }

// Now is the current time truncated to seconds, in UTC.
func Now() Time { return Time{time.Now().UTC().Truncate(time.Second)} }

func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(Layout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, Layout)
	return append(b, '"'), nil
}

func (t *Time) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		t.Time = time.Time{}
		return nil
	}
	v, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTime accepts "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd" and RFC 3339.
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{Layout, "2006-01-02", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04"} {
		if v, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return Time{v.UTC().Truncate(time.Second)}, nil
		}
	}
	return Time{}, fmt.Errorf("invalid datetime %q", s)
}

// Value stores the time as "yyyy-MM-dd HH:mm:ss" in UTC: the same text in
// SQLite (which compares it as a string) and in PostgreSQL (a TIMESTAMP literal).
func (t Time) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.UTC().Format(Layout), nil
}

func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		t.Time = time.Time{}
	case time.Time:
		t.Time = v.UTC()
	case string:
		return t.scanText(v)
	case []byte:
		return t.scanText(string(v))
	default:
		return errors.New("wire.Time: unsupported source")
	}
	return nil
}

func (t *Time) scanText(s string) error {
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	for _, layout := range []string{Layout, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05-07:00", time.RFC3339Nano, "2006-01-02"} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v.UTC()
			return nil
		}
	}
	return fmt.Errorf("wire.Time: cannot parse %q", s)
}

// String is the wire form, or "" for the zero time.
func (t Time) String() string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(Layout)
}
