package numbering_test

import (
	"context"
	"errors"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/resource"
)

// TestEngineContract: the service is the engine's Env.Numbers: a missing rule
// is resource.ErrNoNumberRule as well as a readable 400, and ManualAllowed
// follows the rule's allowManual (typing allowed when there is no rule).
func TestEngineContract(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		tenantID, admin := h.NewTenant("Engine Co")
		var numbers resource.Numberer = h.App.Numbering
		_, err := numbers.Next(ctx, h.App.DB, tenantID, "NOPE", nil)
		if e, ok := httpx.As(err); !ok || e.Status != 400 || !errors.Is(err, resource.ErrNoNumberRule) {
			t.Fatalf("Next without a rule: %v", err)
		}
		manual := func(bizType string, want bool) {
			t.Helper()
			if got, err := numbers.ManualAllowed(ctx, h.App.DB, tenantID, bizType); err != nil || got != want {
				t.Fatalf("ManualAllowed(%s) = %v %v, want %v", bizType, got, err, want)
			}
		}
		manual("NOPE", true)
		manual("MIN", false)
		rules := listRules(t, admin, nil)
		for _, r := range rules {
			if r.BizType == "MIN" {
				admin.Edit(rulePath+"/submit", map[string]any{"id": r.ID, "allowManual": 2}).OK(t, nil)
			}
		}
		manual("MIN", true)
	})
}
