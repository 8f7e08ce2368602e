package resource

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// Rule is a format rule of a text field: a value that is not empty must
// match Pattern (a regular expression both Go and JavaScript read the same
// way), or the field fails with Message. Rules are declared once on the Go
// field (pattern=, format=); Check enforces them and the metadata carries
// them to the form, which checks them on blur (web/src/resource/fields.tsx).
type Rule struct {
	Pattern string    `json:"pattern"`
	Message i18n.Text `json:"message"`
	re      *regexp.Regexp
}

// Confirm is a field the form asks for twice (confirm=password2): Name is
// the second copy's field in the submit body, Label its label, Message the
// mismatch message. A submit that sends the copy must send the same value
// (checkConfirm); one that leaves it out is not checked (API clients).
type Confirm struct {
	Name    string    `json:"name"`
	Label   i18n.Text `json:"label"`
	Message i18n.Text `json:"message"`
}

// formats are the named format rules (format=name), each built from the
// field's label: a phone is 11 digits starting with 1 (spec.md §5, with its
// two messages), an e-mail address has a local part, an @ and a dotted
// domain, a URL starts with http:// or https://, a path with /.
var formats = map[string]func(label i18n.Text) []*Rule{
	"phone": func(l i18n.Text) []*Rule {
		return []*Rule{
			{Pattern: `^.{11}$`, Message: i18n.T(l.Zh+"长度不为11位", l.En+" must be 11 digits long")},
			{Pattern: `^1[0-9]{10}$`, Message: i18n.T(l.Zh+"格式不正确", l.En+" is not a valid mobile number")},
		}
	},
	"email": func(l i18n.Text) []*Rule {
		return []*Rule{{Pattern: `^[^@\s]+@[^@\s]+\.[^@\s]+$`, Message: i18n.T(l.Zh+"格式不正确", l.En+" is not a valid e-mail address")}}
	},
	"url": func(l i18n.Text) []*Rule {
		return []*Rule{{Pattern: `^https?://\S+$`, Message: i18n.T(l.Zh+"必须以 http:// 或 https:// 开头", l.En+" must start with http:// or https://")}}
	},
	"path": func(l i18n.Text) []*Rule {
		return []*Rule{{Pattern: `^/\S*$`, Message: i18n.T(l.Zh+"必须以 / 开头且不含空格", l.En+" must start with / and contain no spaces")}}
	},
}

// addFormat records a format= name; its rules are built once the label is known (bindRules).
func (f *Field) addFormat(name string) error {
	if formats[name] == nil {
		return fmt.Errorf("unknown format %q", name)
	}
	f.formats = append(f.formats, name)
	return nil
}

// bindRules turns pattern= and format= into the field's rules, compiled,
// and completes confirm= with its label and message.
func (f *Field) bindRules() error {
	var rules []*Rule
	if f.Pattern != "" {
		msg, ok := f.Messages["pattern"]
		if !ok {
			msg = i18n.T(f.Label.Zh+"格式不正确", f.Label.En+" is not in a valid format")
		}
		rules = append(rules, &Rule{Pattern: f.Pattern, Message: msg})
	}
	for _, name := range f.formats {
		rules = append(rules, formats[name](f.Label)...)
	}
	for _, r := range rules {
		re, err := regexp.Compile(r.Pattern)
		if err != nil {
			return fmt.Errorf("pattern %q: %w", r.Pattern, err)
		}
		r.re = re
	}
	if len(rules) > 0 && f.ValueType != ValueString {
		return fmt.Errorf("pattern and format need a text field")
	}
	f.Rules = rules
	if f.Confirm != nil {
		if f.Confirm.Name == "" {
			return fmt.Errorf("confirm needs the name of the second field")
		}
		f.Confirm.Label = i18n.T("确认"+f.Label.Zh, "Confirm "+strings.ToLower(f.Label.En))
		f.Confirm.Message = i18n.T("两次"+f.Label.Zh+"输入不一致", "The two "+strings.ToLower(f.Label.En)+"s do not match")
	}
	return nil
}

// failedRule is the message of the first rule a non-empty value breaks, if any.
func (f *Field) failedRule(s string) (i18n.Text, bool) {
	if s == "" {
		return i18n.Text{}, false
	}
	for _, r := range f.Rules {
		if !r.re.MatchString(s) {
			return r.Message, true
		}
	}
	return i18n.Text{}, false
}

// checkConfirm refuses a submit body whose confirmation copy of a field
// (Confirm.Name) differs from the field, naming the copy's field.
func (r *Resource[T]) checkConfirm(req *http.Request, keys map[string]json.RawMessage) error {
	for _, f := range r.meta.Fields {
		if f.Confirm == nil {
			continue
		}
		raw, sent := keys[f.Confirm.Name]
		if !sent || string(raw) == "null" {
			continue
		}
		var copyOf, value string
		_ = json.Unmarshal(raw, &copyOf)
		_ = json.Unmarshal(keys[f.Name], &value)
		if copyOf != value {
			lang := i18n.FromRequest(req)
			return &httpx.Error{Status: 400, Msg: f.Confirm.Message, Data: FieldError{f.Confirm.Name: f.Confirm.Message.In(lang)}}
		}
	}
	return nil
}
