package resource

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Exact decimals: a struct field of type wire.Decimal is a NUMERIC(p,s)
// column on PostgreSQL and TEXT COLLATE DECIMAL on SQLite
// (db.DecimalColumnType), a JSON string on the wire. The engine checks the
// scale, precision and bounds the tag declares, stores every value at the
// field's scale (so both databases answer "12.500000"), and filters and sorts
// numerically: on SQLite through the column's collation, so a filter value is
// always bound as text.

const (
	defaultDecimalScale     = 6  // qty, unitCost: decimal(20,6) (domain.md §0)
	defaultDecimalPrecision = 20 //
	maxDecimalScale         = 18
	maxDecimalPrecision     = 38
)

// decimalRule is what the tag of a decimal field declares.
type decimalRule struct {
	scale, precision int
	min, max         wire.Decimal // null: unbounded
	positive         bool
	minText, maxText string // as written, checked once scale is known
}

func (d *decimalRule) applyTag(key, val string) error {
	switch key {
	case "scale", "precision":
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("%s=%q", key, val)
		}
		if key == "scale" {
			d.scale = n
		} else {
			d.precision = n
		}
	case "min":
		d.minText = val
	case "max":
		d.maxText = val
	case "positive":
		d.positive = true
	}
	return nil
}

// bindDecimal checks the declared rule and fills the metadata keys.
func (f *Field) bindDecimal(noFilter bool) error {
	d := f.decimal
	if d.scale < 0 || d.scale > maxDecimalScale {
		return fmt.Errorf("scale=%d: 0..%d", d.scale, maxDecimalScale)
	}
	if d.precision < 1 || d.precision > maxDecimalPrecision || d.precision < d.scale {
		return fmt.Errorf("precision=%d: 1..%d and at least the scale", d.precision, maxDecimalPrecision)
	}
	bound := func(key, text string) (wire.Decimal, error) {
		if text == "" {
			return wire.Decimal{}, nil
		}
		v, err := wire.ParseDecimal(text)
		if err != nil {
			return v, fmt.Errorf("%s=%q: %w", key, text, err)
		}
		r, exact := v.Rescale(d.scale)
		if !exact || r.IntegerDigits() > d.precision-d.scale {
			return v, fmt.Errorf("%s=%q does not fit scale %d, precision %d", key, text, d.scale, d.precision)
		}
		return r, nil
	}
	var err error
	if d.min, err = bound("min", d.minText); err != nil {
		return err
	}
	if d.max, err = bound("max", d.maxText); err != nil {
		return err
	}
	if !d.min.IsNull() && !d.max.IsNull() && d.min.Cmp(d.max) > 0 {
		return fmt.Errorf("min=%s is above max=%s", d.min, d.max)
	}
	if !noFilter && f.Filter != "" && f.Filter != "equal" {
		return fmt.Errorf("filter=%s: a decimal filters by value (equal, with the _gt, _lt ... suffixes)", f.Filter)
	}
	scale := d.scale
	f.Scale, f.Precision, f.Positive = &scale, d.precision, d.positive
	f.MinValue, f.MaxValue = d.min.String(), d.max.String()
	return nil
}

// checkDecimal applies a decimal field's rule to a submitted value and,
// when it passes, stores the value at the field's scale. It is called by
// Check for every field it checks; other fields pass through.
func checkDecimal(f *Field, fv reflect.Value, fail func(*Field, i18n.Text)) {
	d := f.decimal
	if d == nil {
		return
	}
	v := fv.Interface().(wire.Decimal)
	if v.IsNull() {
		// "" reads as null but counts as sent: required still wants a value
		if f.Required {
			fail(f, f.Messages["required"])
		}
		return
	}
	scaled, exact := v.Rescale(d.scale)
	switch {
	case !exact && d.scale == 0:
		fail(f, i18n.T(f.Label.Zh+"必须是整数", f.Label.En+" must be a whole number"))
	case !exact:
		fail(f, i18n.T(f.Label.Zh+"最多%d位小数", f.Label.En+" allows at most %d decimal places").Format(d.scale))
	case scaled.IntegerDigits() > d.precision-d.scale:
		fail(f, i18n.T(f.Label.Zh+"整数部分最多%d位", f.Label.En+" allows at most %d digits before the decimal point").Format(d.precision-d.scale))
	case d.positive && scaled.Sign() <= 0:
		fail(f, i18n.T(f.Label.Zh+"必须大于0", f.Label.En+" must be greater than 0"))
	case !d.min.IsNull() && scaled.Cmp(d.min) < 0:
		fail(f, i18n.T(f.Label.Zh+"不能小于%s", f.Label.En+" must be at least %s").Format(d.min))
	case !d.max.IsNull() && scaled.Cmp(d.max) > 0:
		fail(f, i18n.T(f.Label.Zh+"不能大于%s", f.Label.En+" must be at most %s").Format(d.max))
	default:
		fv.Set(reflect.ValueOf(scaled))
	}
}

// decimalOps are the filters of a decimal field: comparisons by value.
var decimalOps = map[string]bool{"equal": true, "notequal": true, "gt": true, "ge": true, "lt": true, "le": true, "null": true, "notnull": true}

// decimalCond completes the condition of a decimal filter: the value must be
// a decimal, and is bound as its text (SQLite's DECIMAL collation compares
// text with text; PostgreSQL reads the literal as NUMERIC).
func decimalCond(c Cond, raw, key string) (Cond, error) {
	if !decimalOps[c.Op] {
		return c, httpx.Badf("查询条件%s不适用于数值字段", "Filter %s does not apply to a number", key)
	}
	if c.Op == "null" || c.Op == "notnull" {
		return c, nil
	}
	v, err := wire.ParseDecimal(raw)
	if err != nil {
		return c, httpx.Badf("查询条件%s不是有效的数值", "Filter %s is not a valid number", key)
	}
	c.Value = v.String()
	return c, nil
}
