package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func init() {
	// a code-rule segment hangs on a rule of its tenant, and a fixed-text
	// segment (the sample's segmentType 1) needs its text
	sampleOverrides["bluebird-basic/coderuledetail"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		var rule map[string]any
		c.PostJSON("/api/bluebird-basic/coderulenew/submit", map[string]any{
			"ruleCode": randomWord(10), "ruleName": "sample", "bizType": "SAMPLE", "isEffective": 1,
		}).OK(h.T, &rule)
		return map[string]any{"ruleId": rule["id"], "fixedValue": "X"}
	}
}

// TestNumberingRoutes: the code-rule resources and the preview are routed
// for a tenant's users, and the preview answers the tenant's own rule.
func TestNumberingRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, admin := h.NewTenant("Numbering Co")
		var p struct {
			BizType string `json:"bizType"`
			Number  string `json:"number"`
			RuleID  string `json:"ruleId"`
		}
		admin.Get("/api/bluebird-basic/coderulenew/preview", apptest.Q("bizType", "MIN")).OK(t, &p)
		if p.BizType != "MIN" || len(p.Number) != len("MIN202611250001") || p.RuleID == "" {
			t.Fatalf("preview %+v", p)
		}
		admin.Get("/api/bluebird-basic/coderulenew/detail", apptest.Q("id", p.RuleID)).OK(t, nil)
		admin.Get("/api/bluebird-basic/coderuledetail/list", apptest.Q("ruleId", p.RuleID)).OK(t, nil)
		h.Anon().Get("/api/bluebird-basic/coderulenew/preview", apptest.Q("bizType", "MIN")).Fail(t, 401)
	})
}
