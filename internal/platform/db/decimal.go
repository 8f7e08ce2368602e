package db

import (
	"database/sql/driver"
	"fmt"

	"modernc.org/sqlite"

	"github.com/bluebird/console/internal/platform/wire"
)

// Exact decimals (wire.Decimal) are NUMERIC(p,s) on PostgreSQL. SQLite has
// no exact numeric type: a NUMERIC column turns '99999999999999.999999' into
// a REAL and loses digits. There they are TEXT with the DECIMAL collation,
// which compares the text numerically and exactly, so `=`, `<`, ORDER BY,
// unique keys and indexes on the column are numeric; and sums go through
// decimal_sum, never SUM (which would read the text as floats). Both are
// registered on every connection the app opens (registerCachingDriver); a
// tool that opens the file without them (the sqlite3 shell) cannot compare
// those columns: "no such collation sequence: DECIMAL".

// DecimalCollation is the SQLite collation of decimal columns.
const DecimalCollation = "DECIMAL"

// DecimalColumnType is the column type of a decimal of precision digits,
// scale of them after the point: NUMERIC(p,s) on PostgreSQL, TEXT COLLATE
// DECIMAL on SQLite (where precision and scale are the engine's to check).
func DecimalColumnType(postgres bool, precision, scale int) string {
	if postgres {
		return fmt.Sprintf("NUMERIC(%d,%d)", precision, scale)
	}
	return "TEXT COLLATE " + DecimalCollation
}

// DecimalSumFunc is the name of the exact sum aggregate of decimal columns:
// SUM on PostgreSQL (NUMERIC sums exactly), decimal_sum on SQLite. Both are
// NULL over no rows or only NULLs.
func DecimalSumFunc(postgres bool) string {
	if postgres {
		return "SUM"
	}
	return "decimal_sum"
}

// registerDecimalSQL adds the DECIMAL collation and the exact decimal
// functions to the connections drv opens:
//
//	decimal_sum(x)      aggregate (and window) sum; NULL over no non-NULL rows
//	decimal_add(a, b)   a + b; NULL when either is NULL
//	decimal_sub(a, b)   a - b; NULL when either is NULL
//
// Their results are text at the larger scale of their inputs ("12.500000").
// Inputs are decimal text or integers; a REAL input is an error, since it
// has already lost digits.
func registerDecimalSQL(drv *sqlite.Driver) error {
	if err := drv.RegisterCollationUtf8(DecimalCollation, wire.CompareDecimalText); err != nil {
		return err
	}
	if err := drv.RegisterFunction("decimal_sum", &sqlite.FunctionImpl{
		NArgs: 1, Deterministic: true,
		MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) { return &decimalSum{}, nil },
	}); err != nil {
		return err
	}
	binary := func(op func(a, b wire.Decimal) wire.Decimal) func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
		return func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			a, err := sqlDecimal(args[0])
			if err != nil {
				return nil, err
			}
			b, err := sqlDecimal(args[1])
			if err != nil || a.IsNull() || b.IsNull() {
				return nil, err
			}
			return op(a, b).String(), nil
		}
	}
	if err := drv.RegisterDeterministicScalarFunction("decimal_add", 2, binary(wire.Decimal.Add)); err != nil {
		return err
	}
	return drv.RegisterDeterministicScalarFunction("decimal_sub", 2, binary(wire.Decimal.Sub))
}

// sqlDecimal reads a function argument.
func sqlDecimal(v driver.Value) (wire.Decimal, error) {
	var d wire.Decimal
	if err := d.Scan(v); err != nil {
		return d, fmt.Errorf("decimal function: %w", err)
	}
	return d, nil
}

// decimalSum is one decimal_sum invocation.
type decimalSum struct {
	sum  wire.Decimal
	rows int // non-NULL rows in the window
}

func (s *decimalSum) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	d, err := sqlDecimal(args[0])
	if err != nil || d.IsNull() {
		return err
	}
	s.sum = s.sum.Add(d)
	s.rows++
	return nil
}

func (s *decimalSum) WindowInverse(_ *sqlite.FunctionContext, args []driver.Value) error {
	d, err := sqlDecimal(args[0])
	if err != nil || d.IsNull() {
		return err
	}
	s.sum = s.sum.Sub(d)
	s.rows--
	return nil
}

func (s *decimalSum) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	if s.rows == 0 {
		return nil, nil
	}
	return s.sum.String(), nil
}

func (s *decimalSum) Final(*sqlite.FunctionContext) {}
