package wire

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Decimal is an exact decimal number: quantities, ratios, prices and money
// (domain.md §0). It is a JSON string on the wire ("12.500000") and never
// passes through a float64: JSON numbers are read from their text, and the
// database holds NUMERIC on PostgreSQL and text on SQLite (db.DecimalColumnType).
//
// The zero value is null: NULL in the database, null in JSON. IsNull tells
// it apart; everywhere else a null counts as zero (arithmetic, comparisons,
// Sign, IsZero), the way business code sums optional quantities. Round,
// Rescale, Neg and Abs keep a null null.
//
// A value is a coefficient and a scale (digits after the point), so "12.50"
// and "12.5" are equal in Cmp but print as they were written. Coefficients
// that fit an int64 are held without an allocation (most rows), larger ones
// in a big.Int. Decimals are immutable; every operation returns a new value.
type Decimal struct {
	big   *big.Int // the coefficient when it does not fit in int64, else nil
	small int64    // the coefficient otherwise
	scale int32    // digits after the point, >= 0
	valid bool     // false: null
}

// RoundingMode says what Round does with the digits it drops.
type RoundingMode uint8

const (
	// RoundHalfUp rounds to nearest, a half away from zero (2.5 → 3, -2.5 → -3).
	RoundHalfUp RoundingMode = iota
	// RoundUp rounds away from zero (2.1 → 3, -2.1 → -3).
	RoundUp
	// RoundDown truncates toward zero (2.9 → 2, -2.9 → -2).
	RoundDown
)

// String is the mode's name in the domain's enum (HALF_UP, UP, DOWN).
func (m RoundingMode) String() string {
	switch m {
	case RoundHalfUp:
		return "HALF_UP"
	case RoundUp:
		return "UP"
	case RoundDown:
		return "DOWN"
	}
	return "RoundingMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseRoundingMode reads HALF_UP, UP or DOWN (the unit comparison's
// roundingMode; NONE is the caller's to handle: it means do not round).
func ParseRoundingMode(s string) (RoundingMode, error) {
	switch s {
	case "HALF_UP":
		return RoundHalfUp, nil
	case "UP":
		return RoundUp, nil
	case "DOWN":
		return RoundDown, nil
	}
	return 0, fmt.Errorf("unknown rounding mode %q", s)
}

// Parse limits. They bound what text can cost (a 1e1000000000 would
// otherwise be a billion zeros) far above any column: the engine allows
// NUMERIC(38,18) at most.
const (
	// MaxDecimalDigits is the most digits a parsed value may have before the
	// point, and again after it.
	MaxDecimalDigits = 64
	// maxDecimalText is the longest text parsed at all.
	maxDecimalText = 256
	// maxExponent bounds the exponent of a JSON number such as 1.5e3.
	maxExponent = 1000
)

// Errors of ParseDecimal; the text "invalid decimal" is what httpx answers a
// request body with as a malformed value.
var (
	ErrDecimalSyntax = errors.New("not a decimal number")
	ErrDecimalRange  = errors.New("out of range")
)

// DecimalError is a ParseDecimal failure: the text (cut to 40 characters) and why.
type DecimalError struct {
	Text string
	Err  error
}

func (e *DecimalError) Error() string {
	return fmt.Sprintf("invalid decimal %q: %v", e.Text, e.Err)
}

func (e *DecimalError) Unwrap() error { return e.Err }

func decimalError(s string, err error) error {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return &DecimalError{Text: s, Err: err}
}

// pow10 holds the powers of ten that fit an int64.
var pow10 = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

func bigPow10(n int32) *big.Int {
	if int(n) < len(pow10) {
		return big.NewInt(pow10[n])
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// NewDecimal is coefficient × 10^-scale: NewDecimal(125, 1) is 12.5 and
// NewDecimal(3, -2) is 300.
func NewDecimal(coefficient int64, scale int) Decimal {
	if scale < 0 {
		d := Decimal{small: coefficient, valid: true}.pad(int32(-scale))
		d.scale = 0 // the coefficient now holds the zeros
		return d
	}
	return Decimal{small: coefficient, scale: int32(min(scale, math.MaxInt32)), valid: true}
}

// DecimalFromInt is the integer n.
func DecimalFromInt(n int64) Decimal { return Decimal{small: n, valid: true} }

// fromBig normalises a coefficient: an int64 whenever it fits.
func fromBig(c *big.Int, scale int32) Decimal {
	if c.IsInt64() {
		return Decimal{small: c.Int64(), scale: scale, valid: true}
	}
	return Decimal{big: c, scale: scale, valid: true}
}

// coef is the coefficient as a big.Int the caller must not modify.
func (d Decimal) coef() *big.Int {
	if d.big != nil {
		return d.big
	}
	return big.NewInt(d.small)
}

// ParseDecimal reads an exact decimal: an optional sign, digits with an
// optional point, and an optional exponent (JSON's 1.5e3). Surrounding
// spaces are ignored. The scale is the number of digits written after the
// point less the exponent: "12.50" has scale 2, "1.5e3" is 1500. NaN,
// infinities, hex, separators and values past MaxDecimalDigits are errors.
func ParseDecimal(s string) (Decimal, error) {
	text := strings.TrimSpace(s)
	if text == "" || len(text) > maxDecimalText {
		return Decimal{}, decimalError(s, ErrDecimalSyntax)
	}
	i := 0
	neg := false
	if text[0] == '+' || text[0] == '-' {
		neg = text[0] == '-'
		i++
	}
	start := i
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	intPart := text[start:i]
	fracPart := ""
	if i < len(text) && text[i] == '.' {
		i++
		start = i
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		fracPart = text[start:i]
	}
	if intPart == "" && fracPart == "" {
		return Decimal{}, decimalError(s, ErrDecimalSyntax)
	}
	exp := 0
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		expNeg := false
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			expNeg = text[i] == '-'
			i++
		}
		if i == len(text) {
			return Decimal{}, decimalError(s, ErrDecimalSyntax)
		}
		for ; i < len(text) && isDigit(text[i]); i++ {
			if exp = exp*10 + int(text[i]-'0'); exp > maxExponent {
				return Decimal{}, decimalError(s, ErrDecimalRange)
			}
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(text) {
		return Decimal{}, decimalError(s, ErrDecimalSyntax)
	}
	// The value is the digits of intPart and fracPart (nd of them after
	// the leading zeros) × 10^-scale; read without joining the two parts,
	// since most values take the int64 path and need no allocation.
	total := len(intPart) + len(fracPart)
	digitAt := func(k int) byte {
		if k < len(intPart) {
			return intPart[k]
		}
		return fracPart[k-len(intPart)]
	}
	first := 0
	for first < total && digitAt(first) == '0' {
		first++
	}
	nd := total - first
	scale := len(fracPart) - exp
	if nd == 0 {
		scale = max(scale, 0)
		if scale > MaxDecimalDigits {
			return Decimal{}, decimalError(s, ErrDecimalRange)
		}
		return Decimal{scale: int32(scale), valid: true}, nil
	}
	if scale > MaxDecimalDigits || nd-scale > MaxDecimalDigits {
		return Decimal{}, decimalError(s, ErrDecimalRange)
	}
	zeros := 0 // a positive exponent past the written digits: 1.5e3
	if scale < 0 {
		zeros, scale = -scale, 0
	}
	if nd+zeros <= 18 {
		var n int64
		for k := first; k < total; k++ {
			n = n*10 + int64(digitAt(k)-'0')
		}
		n *= pow10[zeros]
		if neg {
			n = -n
		}
		return Decimal{small: n, scale: int32(scale), valid: true}, nil
	}
	c, ok := new(big.Int).SetString((intPart + fracPart)[first:]+strings.Repeat("0", zeros), 10)
	if !ok {
		return Decimal{}, decimalError(s, ErrDecimalSyntax)
	}
	if neg {
		c.Neg(c)
	}
	return fromBig(c, int32(scale)), nil
}

// MustParseDecimal is ParseDecimal for constants; it panics on bad text.
func MustParseDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsNull reports an unset value (the zero Decimal).
func (d Decimal) IsNull() bool { return !d.valid }

// Scale is the number of digits after the point the value holds.
func (d Decimal) Scale() int { return int(d.scale) }

// IntegerDigits is the number of digits before the point, leading zeros
// not counted: 0 for 0.5, 3 for -123.45.
func (d Decimal) IntegerDigits() int {
	n := d.absDigits()
	return max(0, n-int(d.scale))
}

// absDigits is the number of digits of the coefficient (0 for zero).
func (d Decimal) absDigits() int {
	if d.big != nil {
		return len(new(big.Int).Abs(d.big).Text(10))
	}
	u := absUint(d.small)
	n := 0
	for u > 0 {
		u /= 10
		n++
	}
	return n
}

func absUint(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// String is the plain text with exactly Scale digits after the point
// ("12.500000", "-0.5", "3"), or "" for null.
func (d Decimal) String() string {
	if !d.valid {
		return ""
	}
	var buf [48]byte
	return string(d.appendText(buf[:0]))
}

// appendText appends the plain text of a valid value.
func (d Decimal) appendText(b []byte) []byte {
	start := len(b)
	neg := false
	if d.big != nil {
		neg = d.big.Sign() < 0
		b = new(big.Int).Abs(d.big).Append(b, 10)
	} else {
		neg = d.small < 0
		b = strconv.AppendUint(b, absUint(d.small), 10)
	}
	if d.scale > 0 {
		n := len(b) - start // digits written
		scale := int(d.scale)
		if n <= scale {
			// 0.000123: "0." and the zeros before the digits
			pad := scale - n + 2
			for range pad {
				b = append(b, 0)
			}
			copy(b[start+pad:], b[start:start+n])
			b[start], b[start+1] = '0', '.'
			for j := start + 2; j < start+pad; j++ {
				b[j] = '0'
			}
		} else {
			b = append(b, 0)
			point := start + n - scale
			copy(b[point+1:], b[point:start+n])
			b[point] = '.'
		}
	}
	if neg {
		b = append(b, 0)
		copy(b[start+1:], b[start:len(b)-1])
		b[start] = '-'
	}
	return b
}

// StringFixed is the text with exactly scale digits after the point,
// rounded half up when digits are dropped: StringFixed(6) of 12.5 is
// "12.500000". Null gives "".
func (d Decimal) StringFixed(scale int) string {
	return d.Round(scale, RoundHalfUp).String()
}

// Sign is -1, 0 or +1 (0 for null).
func (d Decimal) Sign() int {
	if d.big != nil {
		return d.big.Sign()
	}
	switch {
	case d.small < 0:
		return -1
	case d.small > 0:
		return 1
	}
	return 0
}

// IsZero reports a value equal to 0 (a null too: it counts as zero).
func (d Decimal) IsZero() bool { return d.Sign() == 0 }

// scaleSmall is v × 10^k when that fits an int64.
func scaleSmall(v int64, k int32) (int64, bool) {
	if k == 0 {
		return v, true
	}
	if int(k) >= len(pow10) {
		return 0, v == 0
	}
	p := pow10[k]
	if v > math.MaxInt64/p || v < math.MinInt64/p {
		return 0, false
	}
	return v * p, true
}

// aligned returns both coefficients at the larger scale, as int64 when
// they fit (ok) and as big.Int otherwise.
func aligned(a, b Decimal) (x, y int64, bx, by *big.Int, scale int32, ok bool) {
	scale = max(a.scale, b.scale)
	if a.big == nil && b.big == nil {
		x, okx := scaleSmall(a.small, scale-a.scale)
		y, oky := scaleSmall(b.small, scale-b.scale)
		if okx && oky {
			return x, y, nil, nil, scale, true
		}
	}
	bx = a.coef()
	if a.scale < scale {
		bx = new(big.Int).Mul(bx, bigPow10(scale-a.scale))
	}
	by = b.coef()
	if b.scale < scale {
		by = new(big.Int).Mul(by, bigPow10(scale-b.scale))
	}
	return 0, 0, bx, by, scale, false
}

// Cmp compares the values: -1 if d < o, 0 if equal (1.50 equals 1.5), +1 if
// d > o. A null counts as zero.
func (d Decimal) Cmp(o Decimal) int {
	x, y, bx, by, _, ok := aligned(d, o)
	if ok {
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return bx.Cmp(by)
}

// Equal reports d.Cmp(o) == 0.
func (d Decimal) Equal(o Decimal) bool { return d.Cmp(o) == 0 }

// Add is d + o, at the larger of the two scales.
func (d Decimal) Add(o Decimal) Decimal {
	x, y, bx, by, scale, ok := aligned(d, o)
	if ok {
		if s := x + y; (s > x) == (y > 0) {
			return Decimal{small: s, scale: scale, valid: true}
		}
		bx, by = big.NewInt(x), big.NewInt(y)
	}
	return fromBig(new(big.Int).Add(bx, by), scale)
}

// Sub is d - o, at the larger of the two scales.
func (d Decimal) Sub(o Decimal) Decimal { return d.Add(o.negate()) }

// Mul is d × o, exact: its scale is the sum of the two.
func (d Decimal) Mul(o Decimal) Decimal {
	scale := d.scale + o.scale
	if d.big == nil && o.big == nil && d.small >= math.MinInt32 && d.small <= math.MaxInt32 &&
		o.small >= math.MinInt32 && o.small <= math.MaxInt32 {
		return Decimal{small: d.small * o.small, scale: scale, valid: true}
	}
	return fromBig(new(big.Int).Mul(d.coef(), o.coef()), scale)
}

// negate is -d, a null counting as zero.
func (d Decimal) negate() Decimal {
	if d.big == nil && d.small != math.MinInt64 {
		return Decimal{small: -d.small, scale: d.scale, valid: true}
	}
	return fromBig(new(big.Int).Neg(d.coef()), d.scale)
}

// Neg is -d; null stays null.
func (d Decimal) Neg() Decimal {
	if !d.valid {
		return d
	}
	return d.negate()
}

// Abs is |d|; null stays null.
func (d Decimal) Abs() Decimal {
	if d.Sign() < 0 {
		return d.negate()
	}
	return d
}

// Round returns the value with exactly scale digits after the point:
// dropped digits are rounded by mode, missing ones are zeros (Round(6) of
// 12.5 is 12.500000). A negative scale counts as 0; null stays null.
func (d Decimal) Round(scale int, mode RoundingMode) Decimal {
	if !d.valid {
		return d
	}
	target := int32(max(0, min(scale, math.MaxInt32)))
	if target >= d.scale {
		return d.pad(target)
	}
	k := d.scale - target
	if d.big == nil && int(k) < len(pow10) {
		p := pow10[k]
		q, r := d.small/p, d.small%p
		if r != 0 && roundAway(mode, absUint(r), uint64(p)) {
			if d.small < 0 {
				q--
			} else {
				q++
			}
		}
		return Decimal{small: q, scale: target, valid: true}
	}
	p := bigPow10(k)
	q, r := new(big.Int).QuoRem(d.coef(), p, new(big.Int))
	if r.Sign() != 0 {
		twice := new(big.Int).Abs(r)
		twice.Lsh(twice, 1)
		away := mode == RoundUp || (mode == RoundHalfUp && twice.Cmp(p) >= 0)
		if away {
			q.Add(q, big.NewInt(int64(r.Sign())))
		}
	}
	return fromBig(q, target)
}

// Div returns d / o with exactly scale digits after the point, the dropped
// digits rounded by mode. Division by zero (or by null) gives null: callers
// that divide check the divisor first.
func (d Decimal) Div(o Decimal, scale int, mode RoundingMode) Decimal {
	if !d.valid || !o.valid || o.IsZero() {
		return Decimal{}
	}
	target := int32(max(0, min(scale, 38)))
	// d/o = (cd·10^-sd)/(co·10^-so); scaled to target digits plus one guard
	// exponent: q = cd·10^(target+so-sd) / co, the remainder decides rounding.
	num := d.coef()
	den := o.coef()
	if shift := target + o.scale - d.scale; shift >= 0 {
		num = new(big.Int).Mul(num, bigPow10(shift))
	} else {
		den = new(big.Int).Mul(den, bigPow10(-shift))
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		twice := new(big.Int).Abs(r)
		twice.Lsh(twice, 1)
		absDen := new(big.Int).Abs(den)
		if mode == RoundUp || (mode == RoundHalfUp && twice.Cmp(absDen) >= 0) {
			if (r.Sign() < 0) != (den.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return fromBig(q, target)
}

// roundAway tells whether a dropped remainder r (of a unit p) moves the
// kept digits away from zero.
func roundAway(mode RoundingMode, r, p uint64) bool {
	switch mode {
	case RoundUp:
		return true
	case RoundHalfUp:
		return 2*r >= p
	}
	return false
}

// pad is d at a scale >= its own (trailing zeros added).
func (d Decimal) pad(scale int32) Decimal {
	k := scale - d.scale
	if k == 0 {
		return d
	}
	if d.big == nil {
		if v, ok := scaleSmall(d.small, k); ok {
			return Decimal{small: v, scale: scale, valid: true}
		}
	}
	return fromBig(new(big.Int).Mul(d.coef(), bigPow10(k)), scale)
}

// Rescale returns the value with exactly scale digits after the point when
// that is exact (only zeros dropped, or zeros added), and false with d
// unchanged when non-zero digits would be lost. Null stays null.
func (d Decimal) Rescale(scale int) (Decimal, bool) {
	r := d.Round(scale, RoundDown)
	if r.Cmp(d) != 0 {
		return d, false
	}
	return r, true
}

// MarshalJSON writes the text as a JSON string, or null.
func (d Decimal) MarshalJSON() ([]byte, error) { return d.AppendJSON(nil), nil }

// AppendJSON appends what MarshalJSON writes.
func (d Decimal) AppendJSON(b []byte) []byte {
	if !d.valid {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = d.appendText(b)
	return append(b, '"')
}

// UnmarshalJSON reads a JSON string ("12.5") or number token (12.5) from its
// text; null and "" are null.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*d = Decimal{}
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*d = Decimal{}
			return nil
		}
		v, err := ParseDecimal(s)
		if err != nil {
			return err
		}
		*d = v
		return nil
	case len(b) > 0 && (b[0] == '-' || isDigit(b[0])):
		v, err := ParseDecimal(string(b))
		if err != nil {
			return err
		}
		*d = v
		return nil
	}
	return decimalError(string(b), ErrDecimalSyntax)
}

// Value stores the plain text ("12.500000"): a NUMERIC literal on
// PostgreSQL, the text SQLite's DECIMAL collation compares. Null is NULL.
func (d Decimal) Value() (driver.Value, error) {
	if !d.valid {
		return nil, nil
	}
	return d.String(), nil
}

// Scan reads text (SQLite's TEXT, PostgreSQL's NUMERIC through pgx) or an
// integer. A float is refused: a REAL in a decimal column has already lost
// digits, and reading it would hide that.
func (d *Decimal) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = Decimal{}
		return nil
	case string:
		return d.scanText(v)
	case []byte:
		return d.scanText(string(v))
	case int64:
		*d = Decimal{small: v, valid: true}
		return nil
	case float64:
		return fmt.Errorf("wire.Decimal: refusing the float %v (a REAL in a decimal column has lost digits)", v)
	}
	return fmt.Errorf("wire.Decimal: unsupported source %T", src)
}

func (d *Decimal) scanText(s string) error {
	if s == "" {
		*d = Decimal{}
		return nil
	}
	v, err := ParseDecimal(s)
	if err != nil {
		return fmt.Errorf("wire.Decimal: %w", err)
	}
	*d = v
	return nil
}

// CompareDecimalText orders the plain text of decimals numerically without
// parsing it into numbers: "9" < "10", "-2" < "-1.5", "1.50" equals "1.5"
// and "-0" equals "0". It is SQLite's DECIMAL collation. Text that is not a
// plain decimal ([+-]digits[.digits], what Value writes) orders after every
// number, bytewise among itself, so the order stays total.
func CompareDecimalText(a, b string) int {
	sa, ia, fa, okA := splitDecimalText(a)
	sb, ib, fb, okB := splitDecimalText(b)
	switch {
	case !okA && !okB:
		return strings.Compare(a, b)
	case !okA:
		return 1
	case !okB:
		return -1
	case sa != sb:
		if sa < sb {
			return -1
		}
		return 1
	case sa == 0:
		return 0
	}
	// Same sign: compare magnitudes, then flip for negatives.
	m := 0
	switch {
	case len(ia) != len(ib):
		m = cmpInt(len(ia), len(ib))
	default:
		if m = strings.Compare(ia, ib); m == 0 {
			m = strings.Compare(fa, fb)
		}
	}
	return m * sa
}

func cmpInt(a, b int) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// splitDecimalText cuts plain decimal text into its sign (0 for zero), its
// integer digits without leading zeros and its fraction digits without
// trailing zeros.
func splitDecimalText(s string) (sign int, intPart, fracPart string, ok bool) {
	i := 0
	sign = 1
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		if s[i] == '-' {
			sign = -1
		}
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracPart = s[start:i]
	}
	if i != len(s) || (intPart == "" && fracPart == "") {
		return 0, "", "", false
	}
	intPart = strings.TrimLeft(intPart, "0")
	fracPart = strings.TrimRight(fracPart, "0")
	if intPart == "" && fracPart == "" {
		sign = 0
	}
	return sign, intPart, fracPart, true
}
