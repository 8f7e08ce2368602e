package httpx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/bluebird/console/internal/platform/wire"
)

// appendJSON appends the JSON of v exactly as a json.Encoder with
// SetEscapeHTML(false) writes it (without the trailing newline), through
// encoders compiled once per type: struct fields are read by offset, and
// wire.ID and wire.Time — a dozen per user row — and wire.Decimal are
// formatted in place instead of through MarshalJSON and a re-validation of
// its output.
//
// It returns errUseStd, before or while writing, for anything it does not
// model exactly — base64 byte slices, `string` and `omitzero` options,
// embedded pointers, clashing field names, methods with pointer receivers,
// maps with non-string keys, cycles — and the caller then runs encoding/json
// on the whole value. Any other error is a value encoding/json refuses too
// (NaN, a failing MarshalJSON); the caller reruns encoding/json for its exact error.
func appendJSON(b []byte, v any) ([]byte, error) {
	if v == nil {
		return append(b, "null"...), nil
	}
	t := reflect.TypeOf(v)
	enc := encoderFor(t)
	if enc == nil {
		return b, errUseStd
	}
	box := reflect.New(t)
	box.Elem().Set(reflect.ValueOf(v))
	return enc.fn(b, box.UnsafePointer(), 0)
}

var errUseStd = errors.New("httpx: value needs encoding/json")

// maxDepth bounds pointer, interface and container nesting; past it (a
// cycle, most likely) encoding/json reports the error.
const maxDepth = 500

type encodeFunc func(b []byte, p unsafe.Pointer, depth int) ([]byte, error)

type encoder struct{ fn encodeFunc }

var (
	encoders   sync.Map // reflect.Type → *encoder; nil when unsupported
	compileMu  sync.Mutex
	marshalerT = reflect.TypeFor[json.Marshaler]()
	textMarshT = reflect.TypeFor[encoding.TextMarshaler]()
	wireIDT    = reflect.TypeFor[wire.ID]()
	wireTimeT  = reflect.TypeFor[wire.Time]()
	wireDecT   = reflect.TypeFor[wire.Decimal]()
)

// encoderFor returns the compiled encoder of t, or nil when t needs encoding/json.
func encoderFor(t reflect.Type) *encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(*encoder)
	}
	compileMu.Lock()
	defer compileMu.Unlock()
	if e, ok := encoders.Load(t); ok {
		return e.(*encoder)
	}
	c := &compiler{building: map[reflect.Type]*encoder{}}
	e := c.compile(t)
	if e == nil {
		encoders.Store(t, (*encoder)(nil))
		return nil
	}
	for bt, be := range c.building {
		encoders.Store(bt, be)
	}
	return e
}

type compiler struct {
	building map[reflect.Type]*encoder
}

func (c *compiler) compile(t reflect.Type) *encoder {
	if e, ok := c.building[t]; ok {
		return e // recursive type: filled in when its compile returns
	}
	if e, ok := encoders.Load(t); ok {
		return e.(*encoder)
	}
	e := &encoder{}
	c.building[t] = e
	fn := c.build(t)
	if fn == nil {
		return nil
	}
	e.fn = fn
	return e
}

func (c *compiler) build(t reflect.Type) encodeFunc {
	// encoding/json calls pointer-receiver methods only on addressable
	// values; that distinction is left to it.
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		((!t.Implements(marshalerT) && reflect.PointerTo(t).Implements(marshalerT)) ||
			(!t.Implements(textMarshT) && reflect.PointerTo(t).Implements(textMarshT))) {
		return nil
	}
	switch {
	case t == wireIDT:
		return encodeWireID
	case t == wireTimeT:
		return encodeWireTime
	case t == wireDecT:
		return encodeWireDecimal
	case t.Kind() == reflect.Interface && (t.Implements(marshalerT) || t.Implements(textMarshT)):
		return nil
	case t.Implements(marshalerT):
		return marshalerEncoder(t)
	case t.Implements(textMarshT):
		return textMarshalerEncoder(t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendBool(b, *(*bool)(p)), nil
		}
	case reflect.Int:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendInt(b, int64(*(*int)(p)), 10), nil
		}
	case reflect.Int8:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendInt(b, int64(*(*int8)(p)), 10), nil
		}
	case reflect.Int16:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendInt(b, int64(*(*int16)(p)), 10), nil
		}
	case reflect.Int32:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendInt(b, int64(*(*int32)(p)), 10), nil
		}
	case reflect.Int64:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendInt(b, *(*int64)(p), 10), nil
		}
	case reflect.Uint:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, uint64(*(*uint)(p)), 10), nil
		}
	case reflect.Uint8:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, uint64(*(*uint8)(p)), 10), nil
		}
	case reflect.Uint16:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, uint64(*(*uint16)(p)), 10), nil
		}
	case reflect.Uint32:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, uint64(*(*uint32)(p)), 10), nil
		}
	case reflect.Uint64:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, *(*uint64)(p), 10), nil
		}
	case reflect.Uintptr:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return strconv.AppendUint(b, uint64(*(*uintptr)(p)), 10), nil
		}
	case reflect.Float32:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendFloat(b, float64(*(*float32)(p)), 32)
		}
	case reflect.Float64:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) { return appendFloat(b, *(*float64)(p), 64) }
	case reflect.String:
		return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) { return appendString(b, *(*string)(p)), nil }
	case reflect.Struct:
		return c.structEncoder(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil // base64, or per-byte marshalers
		}
		return c.sliceEncoder(t)
	case reflect.Array:
		return c.arrayEncoder(t)
	case reflect.Pointer:
		return c.pointerEncoder(t)
	case reflect.Map:
		return c.mapEncoder(t)
	case reflect.Interface:
		return interfaceEncoder(t)
	}
	return nil // complex numbers, channels, functions
}

func encodeWireID(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(*(*wire.ID)(p)), 10)
	return append(b, '"'), nil
}

// encodeWireTime writes what wire.Time.MarshalJSON writes.
func encodeWireTime(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	t := (*wire.Time)(p)
	if t.IsZero() {
		return append(b, "null"...), nil
	}
	u := t.UTC()
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		b = append(b, '"')
		b = u.AppendFormat(b, wire.Layout)
		return append(b, '"'), nil
	}
	hour, minute, sec := u.Clock()
	b = append(b, '"',
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+int(month)/10), byte('0'+int(month)%10), '-',
		byte('0'+day/10), byte('0'+day%10), ' ',
		byte('0'+hour/10), byte('0'+hour%10), ':',
		byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+sec/10), byte('0'+sec%10), '"')
	return b, nil
}

// encodeWireDecimal writes what wire.Decimal.MarshalJSON writes: its text
// is digits, a sign and a point, so it needs no escaping or compaction.
func encodeWireDecimal(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	return (*wire.Decimal)(p).AppendJSON(b), nil
}

func marshalerEncoder(t reflect.Type) encodeFunc {
	return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		v := reflect.NewAt(t, p).Elem()
		if t.Kind() == reflect.Pointer && v.IsNil() {
			return append(b, "null"...), nil
		}
		out, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return b, err
		}
		buf := bytes.NewBuffer(b)
		if err := json.Compact(buf, out); err != nil {
			return b, err
		}
		return buf.Bytes(), nil
	}
}

func textMarshalerEncoder(t reflect.Type) encodeFunc {
	return func(b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		v := reflect.NewAt(t, p).Elem()
		if t.Kind() == reflect.Pointer && v.IsNil() {
			return append(b, "null"...), nil
		}
		out, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return b, err
		}
		return appendString(b, string(out)), nil
	}
}

type fieldEncoder struct {
	key       string // `"name":`
	off       uintptr
	typ       reflect.Type
	omitEmpty bool
	enc       *encoder
}

func (c *compiler) structEncoder(t reflect.Type) encodeFunc {
	var fields []fieldEncoder
	seen := map[string]bool{}
	ok := true
	var walk func(t reflect.Type, base uintptr)
	walk = func(t reflect.Type, base uintptr) {
		for i := 0; i < t.NumField() && ok; i++ {
			sf := t.Field(i)
			if sf.Anonymous {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if !sf.IsExported() && et.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if !validTag(name) {
				name = ""
			}
			omitEmpty := false
			for opt := range strings.SplitSeq(opts, ",") {
				switch opt {
				case "omitempty":
					omitEmpty = true
				case "string", "omitzero":
					ok = false
				}
			}
			ft := sf.Type
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				if sf.Type.Kind() == reflect.Pointer {
					ok = false // embedded pointer: nil handling and promotion rules
					return
				}
				walk(sf.Type, base+sf.Offset)
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if seen[name] {
				ok = false // encoding/json's dominance rules decide
				return
			}
			seen[name] = true
			enc := c.compile(sf.Type)
			if enc == nil {
				ok = false
				return
			}
			fields = append(fields, fieldEncoder{key: `"` + name + `":`, off: base + sf.Offset, typ: sf.Type, omitEmpty: omitEmpty, enc: enc})
		}
	}
	walk(t, 0)
	if !ok {
		return nil
	}
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		b = append(b, '{')
		first := true
		var err error
		for i := range fields {
			f := &fields[i]
			fp := unsafe.Add(p, f.off)
			if f.omitEmpty && isEmpty(f.typ, fp) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			if b, err = f.enc.fn(b, fp, depth); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(t reflect.Type, p unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.String:
		return len(*(*string)(p)) == 0
	case reflect.Slice:
		return (*sliceHeader)(p).len == 0
	case reflect.Pointer:
		return *(*unsafe.Pointer)(p) == nil
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface:
		return reflect.NewAt(t, p).Elem().IsZero()
	case reflect.Array, reflect.Map:
		return reflect.NewAt(t, p).Elem().Len() == 0
	}
	return false
}

type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

func (c *compiler) sliceEncoder(t reflect.Type) encodeFunc {
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	size := t.Elem().Size()
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		h := (*sliceHeader)(p)
		if h.data == nil {
			return append(b, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return b, errUseStd
		}
		b = append(b, '[')
		var err error
		for i := 0; i < h.len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = elem.fn(b, unsafe.Add(h.data, uintptr(i)*size), depth); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
}

func (c *compiler) arrayEncoder(t reflect.Type) encodeFunc {
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	size, n := t.Elem().Size(), t.Len()
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		b = append(b, '[')
		var err error
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = elem.fn(b, unsafe.Add(p, uintptr(i)*size), depth); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
}

func (c *compiler) pointerEncoder(t reflect.Type) encodeFunc {
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(b, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return b, errUseStd
		}
		return elem.fn(b, q, depth)
	}
}

// mapEncoder handles string-kinded keys (sorted, as encoding/json does).
func (c *compiler) mapEncoder(t reflect.Type) encodeFunc {
	if t.Key().Kind() != reflect.String {
		return nil
	}
	elem := c.compile(t.Elem())
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			return append(b, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return b, errUseStd
		}
		type kv struct {
			k string
			v reflect.Value
		}
		pairs := make([]kv, 0, m.Len())
		for it := m.MapRange(); it.Next(); {
			pairs = append(pairs, kv{it.Key().String(), it.Value()})
		}
		slices.SortFunc(pairs, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		val := reflect.New(t.Elem())
		b = append(b, '{')
		var err error
		for i, pair := range pairs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, pair.k)
			b = append(b, ':')
			val.Elem().Set(pair.v)
			if b, err = elem.fn(b, val.UnsafePointer(), depth); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
}

func interfaceEncoder(t reflect.Type) encodeFunc {
	return func(b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		v := reflect.NewAt(t, p).Elem()
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if depth++; depth > maxDepth {
			return b, errUseStd
		}
		e := v.Elem()
		enc := encoderFor(e.Type())
		if enc == nil {
			return b, errUseStd
		}
		box := reflect.New(e.Type())
		box.Elem().Set(e)
		return enc.fn(b, box.UnsafePointer(), depth)
	}
}

// appendFloat is encoding/json's float format.
func appendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// appendString is encoding/json's string escaping with HTML escaping off.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// validTag is encoding/json's test of a tag name.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
