package numbering

import "github.com/bluebird/console/internal/platform/httpx"

// noRule is the readable 400 of a missing rule.
func noRule(bizType string) error { return httpx.BadRequest(errNoRule.Format(bizType)) }
