package numbering

import (
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/resource"
)

// The engine's Env.Numbers.
var _ resource.Numberer = (*Service)(nil)

// noRule is the readable 400 of a missing rule, which the engine also
// recognises as resource.ErrNoNumberRule (it then asks for the field instead).
func noRule(bizType string) error {
	return &noRuleError{httpx.BadRequest(errNoRule.Format(bizType))}
}

type noRuleError struct{ bad *httpx.Error }

func (e *noRuleError) Error() string   { return e.bad.Error() }
func (e *noRuleError) Unwrap() []error { return []error{e.bad, resource.ErrNoNumberRule} }
