package wire

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "+0.00": "0.00", "12.5": "12.5", "12.500000": "12.500000", "-5": "-5", ".5": "0.5",
		"5.": "5", "-.25": "-0.25", "0.000001": "0.000001", "007.10": "7.10", " 3.25 ": "3.25",
		"99999999999999.999999":    "99999999999999.999999",
		"-99999999999999.999999":   "-99999999999999.999999",
		"123456789012345678901234": "123456789012345678901234",
		"9223372036854775807":      "9223372036854775807",
		"-9223372036854775808":     "-9223372036854775808",
		"9223372036854775808":      "9223372036854775808",
		"1e3":                      "1000", "1.5E3": "1500", "1.25e1": "12.5", "125e-2": "1.25", "-2.5e-3": "-0.0025", "0e5": "0", "1e+2": "100",
		"0." + strings.Repeat("0", 63) + "1": "0." + strings.Repeat("0", 63) + "1",
		strings.Repeat("9", 64):              strings.Repeat("9", 64),
	} {
		d, err := ParseDecimal(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := d.String(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]error{
		"": ErrDecimalSyntax, "abc": ErrDecimalSyntax, "NaN": ErrDecimalSyntax, "Inf": ErrDecimalSyntax, "-Infinity": ErrDecimalSyntax,
		"1.2.3": ErrDecimalSyntax, "1,000": ErrDecimalSyntax, "1_000": ErrDecimalSyntax, "0x10": ErrDecimalSyntax, "+": ErrDecimalSyntax,
		"-": ErrDecimalSyntax, ".": ErrDecimalSyntax, "1e": ErrDecimalSyntax, "1e+": ErrDecimalSyntax, "e5": ErrDecimalSyntax,
		"1e5x": ErrDecimalSyntax, "--1": ErrDecimalSyntax, "1 2": ErrDecimalSyntax, "١٢": ErrDecimalSyntax,
		strings.Repeat("1", 300): ErrDecimalSyntax,
		"1e400":                  ErrDecimalRange, "1e-400": ErrDecimalRange, "1e99999999999999999999": ErrDecimalRange, "1e65": ErrDecimalRange,
		"1e-65": ErrDecimalRange, strings.Repeat("9", 65): ErrDecimalRange, "0." + strings.Repeat("0", 65): ErrDecimalRange,
	} {
		_, err := ParseDecimal(in)
		if !errors.Is(err, want) || !strings.Contains(err.Error(), "invalid decimal") {
			t.Errorf("%q: error %v, want %v", in, err, want)
		}
	}
}

func TestDecimalJSON(t *testing.T) {
	type row struct {
		Qty  Decimal `json:"qty"`
		Cost Decimal `json:"cost"`
	}
	for in, want := range map[string]string{
		`{"qty":"12.500000","cost":null}`:                     `{"qty":"12.500000","cost":null}`,
		`{"qty":12.5,"cost":"0"}`:                             `{"qty":"12.5","cost":"0"}`,
		`{"qty":99999999999999.999999,"cost":-5}`:             `{"qty":"99999999999999.999999","cost":"-5"}`,
		`{"qty":"","cost":"  "}`:                              `{"qty":null,"cost":null}`,
		`{"qty":1.5e3}`:                                       `{"qty":"1500","cost":null}`,
		`{"qty":"\u0031\u0032"}`:                              `{"qty":"12","cost":null}`,
		`{"qty":0.1,"cost":0.30000000000000004}`:              `{"qty":"0.1","cost":"0.30000000000000004"}`,
		`{"qty":123456789012345678901234567890.123456789012}`: `{"qty":"123456789012345678901234567890.123456789012","cost":null}`,
	} {
		var r row
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		out, err := json.Marshal(r)
		if err != nil || string(out) != want {
			t.Errorf("%s: %s (%v), want %s", in, out, err, want)
		}
	}
	for _, in := range []string{`{"qty":true}`, `{"qty":"abc"}`, `{"qty":1e400}`, `{"qty":"NaN"}`, `{"qty":{}}`, `{"qty":[1]}`, `{"qty":"1e400"}`} {
		var r row
		err := json.Unmarshal([]byte(in), &r)
		if err == nil || !strings.Contains(err.Error(), "invalid decimal") {
			t.Errorf("%s: error %v, want an invalid decimal", in, err)
		}
	}
}

func TestDecimalCmpAndArithmetic(t *testing.T) {
	d := MustParseDecimal
	cmp := []struct {
		a, b string
		want int
	}{
		{"1.50", "1.5", 0}, {"9", "10", -1}, {"-2", "-1.5", -1}, {"-0", "0.000", 0}, {"0.000001", "0", 1},
		{"99999999999999.999999", "100000000000000", -1}, {"123456789012345678901234", "123456789012345678901233.99", 1},
		{"-123456789012345678901234", "-5", -1}, {"9223372036854775807", "9223372036854775808", -1},
	}
	for _, c := range cmp {
		if got := d(c.a).Cmp(d(c.b)); got != c.want {
			t.Errorf("%s cmp %s = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := CompareDecimalText(c.a, c.b); got != c.want {
			t.Errorf("text %s cmp %s = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	var null Decimal
	if !null.IsNull() || null.Sign() != 0 || !null.IsZero() || null.Cmp(d("0")) != 0 || null.Cmp(d("-1")) != 1 || null.String() != "" {
		t.Error("null is not a zero that prints empty")
	}
	if !null.Neg().IsNull() || !null.Round(2, RoundUp).IsNull() || !null.Abs().IsNull() {
		t.Error("unary operations must keep null")
	}
	if r, ok := null.Rescale(6); !ok || !r.IsNull() {
		t.Error("rescale of null")
	}
	arith := []struct{ got, want string }{
		{d("12.5").Add(d("0.000001")).String(), "12.500001"},
		{d("0.1").Add(d("0.2")).String(), "0.3"},
		{d("1").Sub(d("1.000")).String(), "0.000"},
		{d("-5").Sub(d("99999999999999.999999")).String(), "-100000000000004.999999"},
		{d("9223372036854775807").Add(d("1")).String(), "9223372036854775808"},
		{d("-9223372036854775808").Sub(d("1")).String(), "-9223372036854775809"},
		{d("-9223372036854775808").Neg().String(), "9223372036854775808"},
		{d("9223372036854775808").Sub(d("1")).String(), "9223372036854775807"},
		{d("1.5").Mul(d("-2.25")).String(), "-3.375"},
		{d("99999999999999.999999").Mul(d("99999999999999.999999")).String(), "9999999999999999999800000000.000000000001"},
		{d("3").Mul(d("0.333333333")).String(), "0.999999999"},
		{null.Add(d("2.50")).String(), "2.50"},
		{d("2").Sub(null).String(), "2"},
		{d("-3.2").Abs().String(), "3.2"},
		{NewDecimal(125, 1).String(), "12.5"},
		{NewDecimal(3, -2).String(), "300"},
		{NewDecimal(-7, 3).String(), "-0.007"},
		{DecimalFromInt(-42).String(), "-42"},
		{d("12.5").StringFixed(6), "12.500000"},
		{d("2.345").StringFixed(2), "2.35"},
	}
	for i, a := range arith {
		if a.got != a.want {
			t.Errorf("#%d: %s, want %s", i, a.got, a.want)
		}
	}
	if d("1.5").IntegerDigits() != 1 || d("0.5").IntegerDigits() != 0 || d("-123.45").IntegerDigits() != 3 ||
		d("99999999999999.999999").IntegerDigits() != 14 || d("0").IntegerDigits() != 0 || d("1e40").IntegerDigits() != 41 {
		t.Error("IntegerDigits")
	}
}

func TestDecimalRound(t *testing.T) {
	cases := []struct {
		in               string
		scale            int
		halfUp, up, down string
	}{
		{"2.5", 0, "3", "3", "2"},
		{"-2.5", 0, "-3", "-3", "-2"},
		{"2.49", 0, "2", "3", "2"},
		{"-2.51", 0, "-3", "-3", "-2"},
		{"1.0000001", 6, "1.000000", "1.000001", "1.000000"},
		{"-0.0000005", 6, "-0.000001", "-0.000001", "0.000000"},
		{"0.0000004", 6, "0.000000", "0.000001", "0.000000"},
		{"12.5", 6, "12.500000", "12.500000", "12.500000"},
		{"3", 2, "3.00", "3.00", "3.00"},
		{"123456789012345678901234.5", 0, "123456789012345678901235", "123456789012345678901235", "123456789012345678901234"},
		{"-123456789012345678901234.45", 1, "-123456789012345678901234.5", "-123456789012345678901234.5", "-123456789012345678901234.4"},
		{"0.1234567890123456789012345", 20, "0.12345678901234567890", "0.12345678901234567891", "0.12345678901234567890"},
		{"9.999999999", 6, "10.000000", "10.000000", "9.999999"},
		{"1.5", -1, "2", "2", "1"},
	}
	for _, c := range cases {
		d := MustParseDecimal(c.in)
		for mode, want := range map[RoundingMode]string{RoundHalfUp: c.halfUp, RoundUp: c.up, RoundDown: c.down} {
			if got := d.Round(c.scale, mode).String(); got != want {
				t.Errorf("%s Round(%d, %s) = %s, want %s", c.in, c.scale, mode, got, want)
			}
		}
	}
	for s, want := range map[string]RoundingMode{"HALF_UP": RoundHalfUp, "UP": RoundUp, "DOWN": RoundDown} {
		if m, err := ParseRoundingMode(s); err != nil || m != want || m.String() != s {
			t.Errorf("rounding mode %s: %v %v", s, m, err)
		}
	}
	if _, err := ParseRoundingMode("NONE"); err == nil {
		t.Error("NONE is the caller's, not a rounding mode")
	}
	if r, ok := MustParseDecimal("12.5000000").Rescale(6); !ok || r.String() != "12.500000" {
		t.Errorf("rescale dropping zeros: %s %v", r, ok)
	}
	if r, ok := MustParseDecimal("12.5000001").Rescale(6); ok || r.String() != "12.5000001" {
		t.Errorf("rescale losing a digit: %s %v", r, ok)
	}
}

func TestDecimalSQL(t *testing.T) {
	var d Decimal
	for src, want := range map[any]string{"12.500000": "12.500000", "-99999999999999.999999": "-99999999999999.999999", int64(-5): "-5"} {
		if err := d.Scan(src); err != nil || d.String() != want {
			t.Errorf("scan %v: %s %v", src, d, err)
		}
	}
	if err := d.Scan([]byte("0.000001")); err != nil || d.String() != "0.000001" {
		t.Errorf("scan bytes: %s %v", d, err)
	}
	if err := d.Scan(nil); err != nil || !d.IsNull() {
		t.Error("scan nil")
	}
	for _, bad := range []any{1.5, "NaN", "Infinity", true} {
		if err := d.Scan(bad); err == nil {
			t.Errorf("scan %v accepted", bad)
		}
	}
	if v, err := MustParseDecimal("12.500000").Value(); err != nil || v != "12.500000" {
		t.Errorf("value %v %v", v, err)
	}
	if v, err := (Decimal{}).Value(); err != nil || v != nil {
		t.Errorf("null value %v %v", v, err)
	}
}

// TestCompareDecimalText: the collation agrees with exact comparison on
// random values of every length, and keeps invalid text after numbers.
func TestCompareDecimalText(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			b.WriteByte('-')
		}
		for range rng.IntN(22) + 1 {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		if rng.IntN(3) > 0 {
			b.WriteByte('.')
			for range rng.IntN(8) {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
		}
		return b.String()
	}
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(strings.TrimSuffix(s, "."))
		if !ok {
			t.Fatalf("rat %q", s)
		}
		return r
	}
	for range 20000 {
		a, b := gen(), gen()
		if got, want := CompareDecimalText(a, b), rat(a).Cmp(rat(b)); got != want {
			t.Fatalf("%s vs %s: %d, want %d", a, b, got, want)
		}
		if got, want := MustParseDecimal(a).Cmp(MustParseDecimal(b)), rat(a).Cmp(rat(b)); got != want {
			t.Fatalf("Cmp %s vs %s: %d, want %d", a, b, got, want)
		}
		if got, want := MustParseDecimal(a).Add(MustParseDecimal(b)).String(), new(big.Rat).Add(rat(a), rat(b)); rat(got).Cmp(want) != 0 {
			t.Fatalf("%s + %s = %s", a, b, got)
		}
		if got, want := MustParseDecimal(a).Mul(MustParseDecimal(b)).String(), new(big.Rat).Mul(rat(a), rat(b)); rat(got).Cmp(want) != 0 {
			t.Fatalf("%s × %s = %s", a, b, got)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"abc", "1", 1}, {"1", "", -1}, {"", "abc", -1}, {"1e3", "5", 1}, {"abc", "abd", -1}, {"-0", "+0.0", 0}, {"+5", "5.000", 0}} {
		if got := CompareDecimalText(c.a, c.b); got != c.want {
			t.Errorf("%q vs %q: %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestDecimalCanonical: parsing the same text twice gives identical
// values, and small coefficients never sit in a big.Int, so the fast
// scanner and bun's (which both parse) give reflect.DeepEqual rows.
func TestDecimalCanonical(t *testing.T) {
	a := MustParseDecimal("9223372036854775808").Sub(MustParseDecimal("1"))
	b := MustParseDecimal("9223372036854775807")
	if !reflect.DeepEqual(a, b) || a.big != nil {
		t.Errorf("not canonical: %#v vs %#v", a, b)
	}
	if x := MustParseDecimal("-9223372036854775808"); x.big != nil || x.small != math.MinInt64 {
		t.Errorf("min int64: %#v", x)
	}
}

// FuzzParseDecimal: any text is refused or parses to a value whose text
// parses back to the same value, within the digit limits, and orders in the
// collation as it does in Cmp.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0", "-12.500000", "99999999999999.999999", "1e3", "1.5E-3", ".5", "5.", "NaN", "1e400", "--1", "9223372036854775808", "0.000"} {
		f.Add(s, "1.5")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, err := ParseDecimal(a)
		if err != nil {
			if !strings.Contains(err.Error(), "invalid decimal") {
				t.Fatalf("%q: error %v", a, err)
			}
			return
		}
		back, err := ParseDecimal(x.String())
		if err != nil || back.Cmp(x) != 0 || back.String() != x.String() {
			t.Fatalf("%q → %q → %v %v", a, x, back, err)
		}
		if x.IntegerDigits() > MaxDecimalDigits || x.Scale() > MaxDecimalDigits {
			t.Fatalf("%q: %d integer digits, scale %d", a, x.IntegerDigits(), x.Scale())
		}
		if y, err := ParseDecimal(b); err == nil && CompareDecimalText(x.String(), y.String()) != x.Cmp(y) {
			t.Fatalf("%s vs %s: collation %d, Cmp %d", x, y, CompareDecimalText(x.String(), y.String()), x.Cmp(y))
		}
	})
}

func TestDecimalDiv(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		scale int
		mode  RoundingMode
		want  string
	}{
		{"5", "3", 6, RoundHalfUp, "1.666667"},
		{"-5", "3", 6, RoundHalfUp, "-1.666667"},
		{"5", "-3", 6, RoundDown, "-1.666666"},
		{"1", "3", 2, RoundUp, "0.34"},
		{"-1", "3", 2, RoundUp, "-0.34"},
		{"0.000001", "0.000002", 1, RoundHalfUp, "0.5"},
		{"2.5", "1", 0, RoundHalfUp, "3"},
		{"-2.5", "1", 0, RoundHalfUp, "-3"},
		{"99999999999999.999999", "0.000001", 0, RoundHalfUp, "99999999999999999999"},
		{"10", "4", 6, RoundHalfUp, "2.500000"},
	} {
		got := MustParseDecimal(c.a).Div(MustParseDecimal(c.b), c.scale, c.mode)
		if got.String() != c.want {
			t.Errorf("%s / %s at %d: %s, want %s", c.a, c.b, c.scale, got, c.want)
		}
	}
	if !MustParseDecimal("1").Div(MustParseDecimal("0"), 2, RoundHalfUp).IsNull() {
		t.Error("division by zero is not null")
	}
}
