package resource

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/schema"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// The engine's List and Get read rows through a plan made once per row type
// instead of bun's generic scanner: the query is still built by bun, but it
// runs on the underlying database/sql handle, each column is scanned into an
// `any` (database/sql's cheapest destination) and stored into its struct
// field by byte offset. Strings, integers, booleans, float64, wire.Time and
// wire.Decimal have direct setters; every other field goes through bun's own
// scanner for that field, so the result is what bun would have produced.
//
// On SQLite the wire.Time columns are selected as `+"alias"."col" AS "col"`:
// unary plus is a no-op that drops the column's declared type, so the driver
// hands over the stored text instead of trying several time layouts on it
// for every row (a twentieth of a user page's CPU); the text is parsed here.

type fieldKind uint8

const (
	kindGeneric fieldKind = iota // bun's scanner for the field
	kindString
	kindInt // any signed integer kind without its own Scan method (wire.ID too)
	kindBool
	kindFloat64
	kindWireTime
	kindWireDecimal
)

type planField struct {
	column string
	off    uintptr
	size   uintptr // of an integer field
	kind   fieldKind
	bun    *schema.Field
}

// rowPlan is how rows of one type are read on one dialect.
type rowPlan struct {
	defaults int // fields[:defaults] are the default select list, in order; scanonly ones follow
	fields   []planField
	byName   map[string]int
	columns  string // select list for ColumnExpr; "" keeps bun's default list
}

// planCache holds a resource's plans, per dialect.
type planCache struct {
	mu sync.Mutex
	m  map[dialect.Name]*rowPlan // a nil entry: the type needs bun's scanner
}

var (
	scannerType  = reflect.TypeFor[sql.Scanner]()
	wireTimeType = reflect.TypeFor[wire.Time]()
	wireDecType  = reflect.TypeFor[wire.Decimal]()
)

func (c *planCache) get(idb bun.IDB, t reflect.Type, sample any) *rowPlan {
	d := idb.Dialect()
	name := d.Name()
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.m[name]; ok {
		return p
	}
	p := buildPlan(d, t, sample)
	if c.m == nil {
		c.m = map[dialect.Name]*rowPlan{}
	}
	c.m[name] = p
	return p
}

// buildPlan returns nil when the type needs bun: model hooks, relations,
// fields behind embedded pointers.
func buildPlan(d schema.Dialect, t reflect.Type, sample any) *rowPlan {
	switch sample.(type) {
	case schema.BeforeScanRowHook, schema.AfterScanRowHook, schema.BeforeAppendModelHook,
		bun.BeforeSelectHook, bun.AfterSelectHook:
		return nil
	}
	table := d.Tables().Get(t)
	if table == nil || len(table.Relations) > 0 || len(table.Fields) == 0 {
		return nil
	}
	p := &rowPlan{byName: make(map[string]int, len(table.Fields))}
	var cols []byte
	retext := false
	for i, f := range table.Fields {
		off, ok := fieldOffset(t, f.Index)
		if !ok || f.Scan == nil {
			return nil
		}
		pf := planField{column: f.Name, off: off, bun: f}
		ft := f.StructField.Type
		plain := !f.Tag.HasOption("msgpack") && !f.Tag.HasOption("json_use_number") &&
			!ft.Implements(scannerType) && !reflect.PointerTo(ft).Implements(scannerType)
		switch {
		case ft == wireTimeType:
			pf.kind = kindWireTime
		case ft == wireDecType:
			pf.kind = kindWireDecimal
		case !plain:
		case ft.Kind() == reflect.String:
			pf.kind = kindString
		case ft.Kind() >= reflect.Int && ft.Kind() <= reflect.Int64:
			pf.kind, pf.size = kindInt, ft.Size()
		case ft.Kind() == reflect.Bool:
			pf.kind = kindBool
		case ft.Kind() == reflect.Float64:
			pf.kind = kindFloat64
		}
		p.fields = append(p.fields, pf)
		p.byName[f.Name] = i
		if i > 0 {
			cols = append(cols, ", "...)
		}
		col := append(append(append([]byte{}, table.SQLAlias...), '.'), f.SQLName...)
		if pf.kind == kindWireTime && d.Name() == dialect.SQLite {
			cols = append(append(append(append(cols, '+'), col...), " AS "...), f.SQLName...)
			retext = true
		} else {
			cols = append(cols, col...)
		}
	}
	if retext {
		p.columns = string(cols)
	}
	p.defaults = len(p.fields)
	// scanonly fields (a view's joined columns) are not in the default select
	// list, but a query that selects them is read on the fast path too.
	for _, f := range table.FieldMap {
		if _, known := p.byName[f.Name]; known || !f.Tag.HasOption("scanonly") {
			continue
		}
		off, ok := fieldOffset(t, f.Index)
		if !ok || f.Scan == nil || f.StructField.Type.Kind() != reflect.String {
			return nil
		}
		p.byName[f.Name] = len(p.fields)
		p.fields = append(p.fields, planField{column: f.Name, off: off, bun: f, kind: kindString})
	}
	return p
}

// fieldOffset sums the offsets along an index path of embedded structs held by value.
func fieldOffset(t reflect.Type, index []int) (uintptr, bool) {
	var off uintptr
	for i, x := range index {
		if t.Kind() != reflect.Struct {
			return 0, false
		}
		sf := t.Field(x)
		off += sf.Offset
		t = sf.Type
		if i < len(index)-1 && t.Kind() != reflect.Struct {
			return 0, false
		}
	}
	return off, true
}

// errNoFastPath sends a query back to bun's scanner.
var errNoFastPath = errors.New("resource: no fast scan path")

// sqlQuerier is the database/sql side of a bun handle.
type sqlQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rawConn unwraps a bun handle to database/sql, so that the query text bun
// built runs as is (bun's own QueryContext would format it once more).
func rawConn(idb bun.IDB) sqlQuerier {
	switch c := idb.(type) {
	case *db.DB:
		return c.Reader()
	case *bun.DB:
		return c.DB
	case bun.Tx:
		return c.Tx
	case *bun.Tx:
		return c.Tx
	case bun.Conn:
		return c.Conn
	case *bun.Conn:
		return c.Conn
	}
	return nil
}

// prepare sets the plan's select list on sq (SQLite time columns as text).
func (p *rowPlan) prepare(sq *bun.SelectQuery) *bun.SelectQuery {
	if p.columns != "" {
		sq = sq.ColumnExpr(p.columns)
	}
	return sq
}

// scanInto runs query and appends its rows to out. It returns errNoFastPath,
// before reading any row, when the result has a column the plan does not know.
func scanInto[T any](ctx context.Context, p *rowPlan, q sqlQuerier, query string, out []T) ([]T, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return out, err
	}
	fields := p.fields[:p.defaults]
	if !p.matches(cols) {
		fields = make([]planField, len(cols))
		for i, c := range cols {
			j, ok := p.byName[c]
			if !ok {
				return out, errNoFastPath
			}
			fields[i] = p.fields[j]
		}
	}
	n := len(fields)
	buf := make([]any, 2*n)
	vals, dest := buf[:n], buf[n:]
	for i := range vals {
		dest[i] = &vals[i]
	}
	var zero T
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return out, err
		}
		out = append(out, zero)
		base := unsafe.Pointer(&out[len(out)-1])
		for i := range fields {
			if err := fields[i].set(base, vals[i]); err != nil {
				return out, err
			}
			vals[i] = nil
		}
	}
	return out, rows.Err()
}

func (p *rowPlan) matches(cols []string) bool {
	if len(cols) != p.defaults {
		return false
	}
	for i, c := range cols {
		if p.fields[i].column != c {
			return false
		}
	}
	return true
}

// set stores a driver value into the field at base+off.
func (f *planField) set(base unsafe.Pointer, src any) error {
	ptr := unsafe.Add(base, f.off)
	switch f.kind {
	case kindString:
		switch v := src.(type) {
		case string:
			*(*string)(ptr) = v
			return nil
		case []byte:
			*(*string)(ptr) = string(v)
			return nil
		case nil:
			*(*string)(ptr) = ""
			return nil
		}
	case kindInt:
		switch v := src.(type) {
		case int64:
			setInt(ptr, f.size, v)
			return nil
		case nil:
			setInt(ptr, f.size, 0)
			return nil
		}
	case kindBool:
		switch v := src.(type) {
		case bool:
			*(*bool)(ptr) = v
			return nil
		case int64:
			*(*bool)(ptr) = v != 0
			return nil
		case nil:
			*(*bool)(ptr) = false
			return nil
		}
	case kindFloat64:
		switch v := src.(type) {
		case float64:
			*(*float64)(ptr) = v
			return nil
		case nil:
			*(*float64)(ptr) = 0
			return nil
		}
	case kindWireTime:
		t := (*wire.Time)(ptr)
		switch v := src.(type) {
		case string:
			if tm, ok := parseDateTime(v); ok {
				t.Time = tm
				return nil
			}
			return t.Scan(v)
		case time.Time:
			t.Time = v.UTC()
			return nil
		case nil:
			t.Time = time.Time{}
			return nil
		}
		return t.Scan(src)
	case kindWireDecimal:
		// SQLite's text, pgx's NUMERIC text; what bun would call too, without reflection
		return (*wire.Decimal)(ptr).Scan(src)
	}
	return f.bun.Scan(reflect.NewAt(f.bun.StructField.Type, ptr).Elem(), src)
}

func setInt(ptr unsafe.Pointer, size uintptr, v int64) {
	switch size {
	case 8:
		*(*int64)(ptr) = v
	case 4:
		*(*int32)(ptr) = int32(v)
	case 2:
		*(*int16)(ptr) = int16(v)
	case 1:
		*(*int8)(ptr) = int8(v)
	}
}

// parseDateTime reads exactly "yyyy-MM-dd HH:mm:ss" (wire.Layout) as UTC; any
// other text is left to wire.Time.Scan.
func parseDateTime(s string) (time.Time, bool) {
	if len(s) != len(wire.Layout) || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(i, j int) int {
		n := 0
		for ; i < j; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(0, 4), num(5, 7), num(8, 10)
	hour, minute, sec := num(11, 13), num(14, 16), num(17, 19)
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC)
	if t.Day() != day { // 31 in a 30-day month and the like
		return time.Time{}, false
	}
	return t, true
}

// checkScan (BLUEBIRD_CHECK_SCAN=1, for test runs) makes List and Get read
// every page a second time through bun and fail on any difference.
var checkScan = os.Getenv("BLUEBIRD_CHECK_SCAN") != ""

func sameRows[T any](key string, got, want []T) error {
	if len(got) == 0 && len(want) == 0 {
		return nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("resource %s: fast scan differs from bun:\n got %+v\nwant %+v", key, got, want)
	}
	return nil
}
