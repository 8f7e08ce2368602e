package app

import (
	"strings"
	"testing"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

type openAPIDecimalRow struct {
	resource.Base
	Qty   wire.Decimal `bun:"qty" json:"qty" f:"label=数量|Quantity;req;positive;max=1000"`
	Price wire.Decimal `bun:"price" json:"price" f:"label=单价|Price;scale=4;precision=18;min=0"`
}

// TestOpenAPIDecimalFields: a decimal is a string of format decimal, never
// a number, in bodies and in filters.
func TestOpenAPIDecimalFields(t *testing.T) {
	res := resource.New(resource.Spec{Service: "t", Name: "dec", Table: "t_dec", Label: i18n.T("小数", "Decimal")}, resource.Hooks[openAPIDecimalRow]{})
	m := res.Meta()
	qty := fieldSchema(m.Field("qty"))
	if typ, _ := qty["type"].([]string); len(typ) != 2 || typ[0] != "string" || qty["format"] != "decimal" || qty["pattern"] == nil {
		t.Errorf("qty schema %v", qty)
	}
	if d, _ := qty["description"].(string); !strings.Contains(d, "6 digits after the point") || !strings.Contains(d, "greater than 0") || !strings.Contains(d, "at most 1000.000000") {
		t.Errorf("qty description %q", d)
	}
	if d, _ := fieldSchema(m.Field("price"))["description"].(string); !strings.Contains(d, "4 digits after the point, at most 18 digits") || !strings.Contains(d, "at least 0.0000") {
		t.Errorf("price description %q", d)
	}
	found := false
	for _, p := range listParams(m) {
		p := p.(map[string]any)
		if p["name"] == "qty" {
			found = true
			if s := p["schema"].(map[string]any); s["type"] != "string" || s["format"] != "decimal" {
				t.Errorf("qty filter schema %v", s)
			}
		}
	}
	if !found {
		t.Error("no qty filter parameter")
	}
}
