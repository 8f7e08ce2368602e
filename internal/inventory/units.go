package inventory

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Item kinds, dictionary item_kind; 0 on a unit conversion means every item.
const (
	KindAny      = 0
	KindMaterial = 1
	KindProduct  = 2
)

// Rounding modes, dictionary rounding_mode.
const (
	RoundNone   = 1
	RoundUp     = 2
	RoundDown   = 3
	RoundHalfUp = 4
)

// QtyScale is the scale of every stored quantity (domain.md §0: decimal(20,6)).
const QtyScale = 6

var (
	msgSameUnit       = i18n.T("换算单位与基本单位不能相同", "The two units must differ")
	msgKindUnknown    = i18n.T("单位换算只能针对物料或全部物品", "A unit conversion applies to a material or to every item")
	msgItemMissing    = i18n.T("请选择物料", "Please select the material")
	msgNotBaseUnit    = i18n.T("物料的换算须换算为其基本单位%s", "A material's conversion must convert to its base unit %s")
	msgNoConversion   = i18n.T("没有从%s到%s的有效单位换算", "No effective unit conversion from %s to %s")
	msgNotWholeNumber = i18n.T("换算后的数量%s不是整数", "The converted quantity %s is not a whole number")
)

func validateConversion(ctx context.Context, u *UnitComparison, present map[string]bool, isNew bool) error {
	if (isNew || present["fromUnit"] || present["toUnit"]) && u.FromUnit == u.ToUnit && u.FromUnit != "" {
		return resource.FieldErrorOf(ctx, "toUnit", msgSameUnit)
	}
	if isNew || present["itemKind"] || present["itemId"] {
		switch {
		case u.ItemKind == KindAny && u.ItemID == 0:
		case u.ItemKind == KindMaterial && u.ItemID == 0:
			return resource.FieldErrorOf(ctx, "itemId", msgItemMissing)
		case u.ItemKind == KindMaterial:
		default:
			// products come with the product master; until then a product rule could not be checked
			return resource.FieldErrorOf(ctx, "itemKind", msgKindUnknown)
		}
	}
	return nil
}

// conversionOfItem: an item's rule converts into that item's base unit
// (the engine has checked the material is the caller's).
func (s *Service) conversionOfItem(ctx context.Context, tx bun.Tx, u *UnitComparison, isNew bool) error {
	if u.ItemKind != KindMaterial || (!isNew && !resource.Sent(ctx, "toUnit") && !resource.Sent(ctx, "itemId")) {
		return nil
	}
	cur := *u
	if !isNew {
		if err := tx.NewSelect().Model(&cur).Where("id = ?", u.ID).Scan(ctx); err != nil {
			return err
		}
		if resource.Sent(ctx, "toUnit") {
			cur.ToUnit = u.ToUnit
		}
		if resource.Sent(ctx, "itemId") {
			cur.ItemID = u.ItemID
		}
	}
	var unit string
	if err := tx.NewSelect().Table("bb_material").Column("unit").Where("id = ? AND tenant_id = ?", cur.ItemID, u.TenantID).Scan(ctx, &unit); err != nil {
		return err
	}
	if cur.ToUnit != unit {
		return resource.FieldErrorOf(ctx, "toUnit", msgNotBaseUnit.Format(unit))
	}
	return nil
}

// Convert turns qty in fromUnit of an item into toUnit, by the item's
// approved, effective rule, else the rule for every item (domain.md §5).
// The product is rounded to the quantity scale first, so that float-like
// dust never fails a whole-number check [I-57861]; the rule's rounding mode
// then rounds to a whole number, and a rule for whole numbers refuses a
// result that still has a fraction.
func Convert(ctx context.Context, idb bun.IDB, tenantID string, itemKind int, itemID wire.ID, fromUnit, toUnit string, qty wire.Decimal) (wire.Decimal, error) {
	if fromUnit == toUnit {
		return qty.Round(QtyScale, wire.RoundHalfUp), nil
	}
	var rule UnitComparison
	err := idb.NewSelect().Model(&rule).
		Where("tenant_id = ? AND is_deleted = 0 AND status = ? AND is_effective = ?", tenantID, approval.Approved, Effective).
		Where("from_unit = ? AND to_unit = ?", fromUnit, toUnit).
		Where("((item_kind = ? AND item_id = ?) OR (item_kind = ? AND item_id = 0))", itemKind, itemID, KindAny).
		OrderExpr("item_id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return wire.Decimal{}, httpx.BadRequest(msgNoConversion.Format(fromUnit, toUnit))
	}
	if err != nil {
		return wire.Decimal{}, err
	}
	out := qty.Mul(rule.Ratio).Round(QtyScale, wire.RoundHalfUp)
	switch rule.RoundingMode {
	case RoundUp:
		out = out.Round(0, wire.RoundUp)
	case RoundDown:
		out = out.Round(0, wire.RoundDown)
	case RoundHalfUp:
		out = out.Round(0, wire.RoundHalfUp)
	}
	if rule.WholeNumber == Yes && !out.Round(0, wire.RoundDown).Equal(out) {
		return wire.Decimal{}, httpx.BadRequest(msgNotWholeNumber.Format(out.String()))
	}
	if s, ok := out.Rescale(QtyScale); ok {
		out = s
	}
	return out, nil
}
