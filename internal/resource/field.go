package resource

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Field types as the UI knows them.
const (
	TypeString   = "string"
	TypeText     = "text"
	TypeInt      = "int"
	TypeDecimal  = "decimal"
	TypeBool     = "bool"
	TypeDate     = "date"
	TypeDateTime = "datetime"
	TypeID       = "id"
	TypeDict     = "dict"
	TypePassword = "password"
	TypeTree     = "tree"
	TypeImage    = "image"
	// TypeVideo holds a video uploaded through put-file?kind=video; like an
	// image it is a file link (filelinks.go).
	TypeVideo  = "video"
	TypeSelect = "select"
	// TypeHTML is rich text: the engine sanitises it before every save
	// (internal/platform/richtext), so no reader is ever sent a script, and a
	// required one must show something (text or an image), not only markup.
	TypeHTML = "html"
)

// Value types: what a field's JSON value is on the wire, whatever its UI
// type. They come from the Go type of the struct field, so a dictionary
// field on an integer column is ValueInt (submit must send 1, not "1").
const (
	ValueString   = "string"   // a JSON string
	ValueInt      = "int"      // a JSON integer
	ValueBool     = "bool"     // a JSON boolean
	ValueID       = "id"       // a 64-bit id sent as a decimal string; a JSON number is accepted on input
	ValueDateTime = "datetime" // "yyyy-MM-dd HH:mm:ss", or null when unset
	ValueDecimal  = "decimal"  // an exact decimal as a JSON string ("12.500000"), or null when unset; a JSON number is accepted on input
)

// Field is one declared column: derived from the struct field and its `f` tag.
//
// The tag is a semicolon list: label=zh|en, type=…, req, msg=zh|en (required
// message when the derived 请输入<label> does not fit), max=N, min=N,
// pattern=regexp (patternMsg=zh|en: its message), format=phone|email|url|path
// (named format rules, rules.go), confirm=name (the form asks twice),
// dict=code, dictbiz=code, search (shown in the search bar),
// filter=like|equal (default: like for text, date for datetimes, equal otherwise),
// nofilter, sort, hide (not a table column), noform, last (after the
// resource's other fields: a document's handler and remark, declared in its
// embedded header, close its form instead of splitting it), ro
// (never written by submit), once (written at insert only), span=N, tree=url,
// select=url and selectLabel=prop (choices are the rows of a list endpoint:
// an array, or a page's records; the value is the row's id, the text its prop),
// multi (comma-list of ids), ref=service/name or ref=self (the field holds ids of that
// resource's rows: every one must be visible to the caller and of the row's
// tenant when saved, see ref.go), type=html (rich text, sanitised on save). Password fields are never read back, and an
// empty password in an update leaves the stored one alone. A secret field
// (a key, a client secret) reads as SecretMask to all but the super user,
// is never filtered or sorted on, and keeps its value when an update sends
// it empty or masked (secret.go).
//
// A wire.Decimal field (decimal.go) takes scale=N (digits after the point,
// default 6), precision=N (all digits, default 20: NUMERIC(20,6)), min= and
// max= as inclusive decimal bounds, and positive (> 0).
type Field struct {
	Name     string               `json:"name"`
	Column   string               `json:"-"`
	Type     string               `json:"type"`
	Label    i18n.Text            `json:"label"`
	Required bool                 `json:"required"`
	Messages map[string]i18n.Text `json:"messages,omitempty"`
	Max      int                  `json:"max,omitempty"`
	Min      *int                 `json:"min,omitempty"`
	Pattern  string               `json:"pattern,omitempty"`
	// Rules are the format rules of a text field (rules.go): a value that is
	// not empty must match each pattern, or fails with its message. The form
	// checks them on blur; the server refuses with the same message.
	Rules []*Rule `json:"rules,omitempty"`
	// Confirm asks the form for the value twice (a password): the field the
	// second copy goes in, its label and the mismatch message (rules.go).
	Confirm  *Confirm `json:"confirm,omitempty"`
	Dict     string   `json:"dict,omitempty"`
	DictBiz  bool     `json:"dictBiz,omitempty"`
	Filter   string   `json:"filter,omitempty"` // like, equal, or "" when not filterable
	Search   bool     `json:"search"`
	Sortable bool     `json:"sortable"`
	List     bool     `json:"list"`
	Form     bool     `json:"form"`
	Readonly bool     `json:"readonly"`
	Span     int      `json:"span,omitempty"`
	TreeURL  string   `json:"treeUrl,omitempty"`
	Multi    bool     `json:"multi,omitempty"`
	// ValueType is the JSON type of the value (Value* constants), from the Go type.
	ValueType string `json:"valueType"`
	// SelectURL lists the choices of a select field; SelectLabel names the row property shown.
	SelectURL   string `json:"selectUrl,omitempty"`
	SelectLabel string `json:"selectLabel,omitempty"`
	// Once fields are written at insert only (a user's password: changed by its own endpoints).
	Once bool `json:"once,omitempty"`
	// Secret fields are masked and write-only; SecretRows, when set, limits that to some rows.
	Secret     bool        `json:"secret,omitempty"`
	SecretRows *SecretRows `json:"secretRows,omitempty"`
	// Ref is the key ("service/name") of the resource whose row ids the field holds.
	Ref string `json:"ref,omitempty"`
	// Default is the value a new row gets when the body does not send the
	// field (a dictionary key, a number, a text); the form starts with it.
	Default string `json:"default,omitempty"`
	// Remote: the field is picked by remote search (its target declares a Lookup).
	Remote *Remote `json:"remote,omitempty"`
	// Number marks the resource's numbered field (number.go).
	Number bool `json:"number,omitempty"`
	// Joined fields are a view's columns read from a referenced row (view.go):
	// joinSource is the reference field, joinColumn the referenced table's
	// column, joinAlias that table's alias in the view's query.
	Joined     bool `json:"joined,omitempty"`
	joinSource string
	joinColumn string
	joinAlias  string
	// Decimal fields: Scale and Precision of the column (set for them only),
	// inclusive bounds as decimal text at the field's scale, and > 0 (decimal.go).
	Scale     *int   `json:"scale,omitempty"`
	Precision int    `json:"precision,omitempty"`
	MinValue  string `json:"minValue,omitempty"`
	MaxValue  string `json:"maxValue,omitempty"`
	Positive  bool   `json:"positive,omitempty"`
	decimal   *decimalRule

	index   []int
	last    bool     // shown after the other fields (tag last)
	formats []string // format= names, made into Rules by bindRules
}

func (f *Field) isText() bool {
	return f.ValueType == ValueString && (f.Type == TypeString || f.Type == TypeText)
}

// requiredMessage is the message for an empty required field.
func (f *Field) requiredMessage() i18n.Text {
	if m, ok := f.Messages["required"]; ok {
		return m
	}
	if f.Type == TypeDict || f.Type == TypeTree || f.Type == TypeBool {
		return i18n.T("请选择"+f.Label.Zh, "Please select "+strings.ToLower(f.Label.En))
	}
	return i18n.T("请输入"+f.Label.Zh, "Please enter "+strings.ToLower(f.Label.En))
}

var (
	idType      = reflect.TypeOf(wire.ID(0))
	timeType    = reflect.TypeOf(wire.Time{})
	decimalType = reflect.TypeOf(wire.Decimal{})
)

// parseFields walks the struct type (embedded structs first) and returns its declared fields.
func parseFields(t reflect.Type) ([]*Field, error) {
	var out []*Field
	var walk func(t reflect.Type, prefix []int) error
	walk = func(t reflect.Type, prefix []int) error {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			idx := append(append([]int{}, prefix...), i)
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				if err := walk(sf.Type, idx); err != nil {
					return err
				}
				continue
			}
			bunTag := sf.Tag.Get("bun")
			jsonTag := strings.Split(sf.Tag.Get("json"), ",")[0]
			if bunTag == "" || bunTag == "-" || strings.Contains(bunTag, "scanonly") || jsonTag == "" {
				continue
			}
			col := strings.Split(bunTag, ",")[0]
			f := &Field{Name: jsonTag, Column: col, List: true, Form: true, index: idx}
			if jsonTag == "-" {
				f.Name = ""
			}
			switch {
			case sf.Type == idType:
				f.Type, f.ValueType = TypeID, ValueID
			case sf.Type == timeType:
				f.Type, f.ValueType = TypeDateTime, ValueDateTime
			case sf.Type == decimalType:
				f.Type, f.ValueType = TypeDecimal, ValueDecimal
				f.decimal = &decimalRule{scale: defaultDecimalScale, precision: defaultDecimalPrecision}
			case sf.Type.Kind() == reflect.Int || sf.Type.Kind() == reflect.Int64 || sf.Type.Kind() == reflect.Int32:
				f.Type, f.ValueType = TypeInt, ValueInt
			case sf.Type.Kind() == reflect.Bool:
				f.Type, f.ValueType = TypeBool, ValueBool
			case sf.Type.Kind() == reflect.String:
				f.Type, f.ValueType = TypeString, ValueString
			default:
				return fmt.Errorf("field %s: Go type %s has no wire value type", sf.Name, sf.Type)
			}
			if err := f.applyTag(sf.Tag.Get("f")); err != nil {
				return fmt.Errorf("field %s: %w", sf.Name, err)
			}
			out = append(out, f)
		}
		return nil
	}
	if err := walk(t, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// intBound reads max=N (characters of text, or the greatest integer) or
// min=N (least integer).
func (f *Field) intBound(key, val string) error {
	n, err := strconv.Atoi(val)
	if err != nil {
		return fmt.Errorf("%s=%q", key, val)
	}
	if key == "max" {
		f.Max = n
	} else {
		f.Min = &n
	}
	return nil
}

func (f *Field) applyTag(tag string) error {
	noFilter := false
	for _, part := range strings.Split(tag, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, _ := strings.Cut(part, "=")
		switch key {
		case "label":
			zh, en, _ := strings.Cut(val, "|")
			f.Label = i18n.T(zh, en)
		case "type":
			f.Type = val
		case "req":
			f.Required = true
		case "msg":
			zh, en, _ := strings.Cut(val, "|")
			if f.Messages == nil {
				f.Messages = map[string]i18n.Text{}
			}
			f.Messages["required"] = i18n.T(zh, en)
		case "max", "min", "scale", "precision", "positive":
			if f.decimal == nil {
				if key == "max" || key == "min" {
					if err := f.intBound(key, val); err != nil {
						return err
					}
					continue
				}
				return fmt.Errorf("%s needs a wire.Decimal field", key)
			}
			if err := f.decimal.applyTag(key, val); err != nil {
				return err
			}
		case "span":
			n, err := strconv.Atoi(val)
			if err != nil {
				return fmt.Errorf("%s=%q", key, val)
			}
			f.Span = n
		case "pattern":
			f.Pattern = val
		case "patternMsg":
			zh, en, _ := strings.Cut(val, "|")
			if f.Messages == nil {
				f.Messages = map[string]i18n.Text{}
			}
			f.Messages["pattern"] = i18n.T(zh, en)
		case "format":
			if err := f.addFormat(val); err != nil {
				return err
			}
		case "confirm":
			f.Confirm = &Confirm{Name: val}
		case "dict", "dictbiz":
			f.Dict, f.DictBiz = val, key == "dictbiz"
			if f.Type == TypeString || f.Type == TypeInt {
				f.Type = TypeDict
			}
		case "search":
			f.Search = true
		case "filter":
			f.Filter = val
		case "nofilter":
			noFilter = true
		case "sort":
			f.Sortable = true
		case "hide":
			f.List = false
		case "noform":
			f.Form = false
		case "last":
			f.last = true
		case "ro":
			f.Readonly = true
		case "tree":
			f.TreeURL = val
			if f.Type == TypeID || f.Type == TypeString {
				f.Type = TypeTree
			}
		case "select":
			f.SelectURL = val
			if f.Type == TypeID || f.Type == TypeString {
				f.Type = TypeSelect
			}
		case "selectLabel":
			f.SelectLabel = val
		case "multi":
			f.Multi = true
		case "once":
			f.Once = true
		case "secret":
			f.Secret = true
		case "ref":
			f.Ref = val
		case "default":
			f.Default = val
			if val == DefaultToday && f.ValueType != ValueDateTime {
				return fmt.Errorf("default=today on a field that is not a date")
			}
		default:
			return fmt.Errorf("unknown tag key %q", key)
		}
	}
	if f.Label.Zh == "" {
		return fmt.Errorf("missing label")
	}
	if (f.SelectURL == "") != (f.SelectLabel == "") {
		return fmt.Errorf("select and selectLabel go together")
	}
	if f.Label.En == "" {
		f.Label.En = f.Label.Zh
	}
	if f.Ref != "" && f.ValueType != ValueID && !(f.ValueType == ValueString && f.Multi) {
		return fmt.Errorf("ref=%s needs an id field, or a string field with multi", f.Ref)
	}
	if err := f.bindRules(); err != nil { // rules.go
		return err
	}
	if f.Required {
		if f.Messages == nil {
			f.Messages = map[string]i18n.Text{}
		}
		f.Messages["required"] = f.requiredMessage()
	}
	if f.Type == TypeHTML && f.ValueType != ValueString {
		return fmt.Errorf("type=html needs a string field")
	}
	if f.Secret && (f.ValueType != ValueString || f.Sortable) {
		return fmt.Errorf("secret needs a text field that is not sorted on")
	}
	if f.decimal != nil {
		if err := f.bindDecimal(noFilter); err != nil {
			return err
		}
	}
	switch {
	case noFilter || f.Secret || f.Type == TypePassword || f.FileLink() || f.Type == TypeHTML:
		f.Filter = ""
	case f.Filter != "":
	case f.Type == TypeDateTime || f.Type == TypeDate:
		f.Filter = "date"
	case f.isText():
		f.Filter = "like"
	default:
		f.Filter = "equal"
	}
	return nil
}

// DefaultToday is the default of a date field that starts as the day the
// row is made (a document's date), in the server's time zone.
const DefaultToday = "today"

// setDefault gives an unsent field of a new row its declared default.
func setDefault(f *Field, fv reflect.Value) {
	switch {
	case fv.Type() == timeType && f.Default == DefaultToday:
		y, m, d := time.Now().Date()
		fv.Set(reflect.ValueOf(wire.Time{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}))
	case fv.Type() == decimalType:
		if d, err := wire.ParseDecimal(f.Default); err == nil {
			fv.Set(reflect.ValueOf(d))
		}
	case fv.Kind() == reflect.String:
		fv.SetString(f.Default)
	case fv.CanInt():
		if n, err := strconv.ParseInt(f.Default, 10, 64); err == nil {
			fv.SetInt(n)
		}
	case fv.Kind() == reflect.Bool:
		fv.SetBool(f.Default == "true")
	}
}
