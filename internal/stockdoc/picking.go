package stockdoc

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Production picking against plans (domain.md §6.2): a picking names its
// approved, open plan; each line is tied to a row of the plan's frozen
// material requirement; what is locked or posted for one requirement row
// stays within requiredQty × (1 + overPickPct); posting adds to the plan's
// picked quantity and a reversal takes it off again. The plan's
// quantities move only through PlanQuantities (internal/production).

// SettingOverPickPct is the tenant setting (bb_tenant_setting) of how much
// more than required may be picked for a plan material, as a fraction
// ("0.05" is 5 %); 0 when unset.
const SettingOverPickPct = "overPickPct"

var (
	msgPickingPlan     = i18n.T("生产领料请选择生产计划", "A production picking needs its production plan")
	msgNotPlanMaterial = i18n.T("第%d行: 计划物料不属于该生产计划", "Line %d: the plan material is not one of the plan's")
	msgPlanMaterialMat = i18n.T("第%d行: 物料与所选计划物料不一致", "Line %d: the material is not the chosen plan material's")
	msgOverPick        = i18n.T("物料 %s 的领料数量 %s 超过生产计划的可领数量 %s (需求 %s, 超领比例 %s)",
		"Material %s: %s picked, more than the %s the plan allows (required %s, over-picking %s)")
)

// planMaterialRow is a row of a plan's frozen requirement.
type planMaterialRow struct {
	ID           wire.ID      `bun:"id"`
	PlanDetailID wire.ID      `bun:"plan_detail_id"`
	MaterialID   wire.ID      `bun:"material_id"`
	MaterialCode string       `bun:"material_code"`
	RequiredQty  wire.Decimal `bun:"required_qty"`
}

// planMaterials reads a plan's requirement in the caller's tenant, in id
// order; lock holds the rows on PostgreSQL until the transaction ends (two
// pickings of one plan material are checked one after the other).
func planMaterials(ctx context.Context, tx bun.Tx, planID wire.ID, lock bool) ([]planMaterialRow, error) {
	var rows []planMaterialRow
	q := tx.NewSelect().Table("bb_produce_plan_material").Column("id", "plan_detail_id", "material_id", "material_code", "required_qty").
		Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", planID, authz.From(ctx).TenantID).OrderExpr("id ASC")
	if lock && tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	return rows, q.Scan(ctx, &rows)
}

// tieLines ties each line of a picking to its plan's requirement: the plan
// takes picking of the line's material (approved, not closed, required:
// PickAllowed), and the line gets the requirement row the client named
// (strict: a wrong one is refused; otherwise it is chosen again) or the
// first row of its material, with that row's product line and required
// quantity. Lines of other issue types carry no plan.
func (s *Service) tieLines(ctx context.Context, tx bun.Tx, outType int, planID wire.ID, lines []*MaterialOutDetail, strict bool) error {
	if outType != OutPicking {
		for _, d := range lines {
			d.ProducePlanDetailID, d.ProducePlanMaterialID, d.RequiredQty = 0, 0, wire.Decimal{}
		}
		return nil
	}
	if planID == 0 {
		return resource.FieldErrorOf(ctx, "producePlanId", msgPickingPlan)
	}
	allowed := map[wire.ID]bool{}
	for _, d := range lines {
		if !allowed[d.MaterialID] {
			if err := s.plans.PickAllowed(ctx, tx, planID, d.MaterialID); err != nil {
				return err
			}
			allowed[d.MaterialID] = true
		}
	}
	rows, err := planMaterials(ctx, tx, planID, false)
	if err != nil {
		return err
	}
	for i, d := range lines {
		var pick *planMaterialRow
		if d.ProducePlanMaterialID != 0 {
			for j := range rows {
				if rows[j].ID == d.ProducePlanMaterialID {
					pick = &rows[j]
				}
			}
			switch {
			case pick == nil && strict:
				return resource.FieldErrorOf(ctx, "producePlanMaterialId", msgNotPlanMaterial.Format(i+1))
			case pick != nil && pick.MaterialID != d.MaterialID && strict:
				return resource.FieldErrorOf(ctx, "materialId", msgPlanMaterialMat.Format(i+1))
			case pick != nil && pick.MaterialID != d.MaterialID:
				pick = nil
			}
		}
		for j := range rows {
			if pick == nil && rows[j].MaterialID == d.MaterialID {
				pick = &rows[j]
			}
		}
		if pick == nil { // PickAllowed found the material required: only a concurrent change gets here
			return httpx.BadRequest(msgNotPlanMaterial.Format(i + 1))
		}
		d.ProducePlanMaterialID, d.ProducePlanDetailID, d.RequiredQty = pick.ID, pick.PlanDetailID, pick.RequiredQty
	}
	return nil
}

// retieStored ties an issue's stored lines again after its type or plan
// changed without its lines being sent.
func (s *Service) retieStored(ctx context.Context, tx bun.Tx, issueID wire.ID, outType int, planID wire.ID) error {
	var lines []*MaterialOutDetail
	if err := tx.NewSelect().Model(&lines).Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", issueID, authz.From(ctx).TenantID).
		OrderExpr("id ASC").Scan(ctx); err != nil {
		return err
	}
	if err := s.tieLines(ctx, tx, outType, planID, lines, false); err != nil {
		return err
	}
	for _, d := range lines {
		if _, err := tx.NewUpdate().Model(d).Column("produce_plan_detail_id", "produce_plan_material_id", "required_qty").WherePK().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// checkPickingLimits (startProcess of a picking): the plan still takes
// picking, each line is tied to its requirement, and per requirement row
// what other live pickings hold or issued (in approval or approved, not
// voided) plus this one's lines stays within requiredQty × (1 + overPickPct).
func (s *outDoc) checkPickingLimits(ctx context.Context, tx bun.Tx, m *MaterialOut) error {
	if err := s.retieStored(ctx, tx, m.ID, m.OutType, m.ProducePlanID); err != nil {
		return err
	}
	lines, err := s.outLines(ctx, tx, m)
	if err != nil {
		return err
	}
	pct, err := overPickPct(ctx, tx, m.TenantID)
	if err != nil {
		return err
	}
	rows, err := planMaterials(ctx, tx, m.ProducePlanID, true)
	if err != nil {
		return err
	}
	mine := map[wire.ID]wire.Decimal{}
	for _, d := range lines {
		mine[d.ProducePlanMaterialID] = addQty(mine[d.ProducePlanMaterialID], d.BaseQty)
	}
	one := wire.NewDecimal(1, 0)
	for _, r := range rows {
		want, ok := mine[r.ID]
		if !ok {
			continue
		}
		var held []struct {
			Qty wire.Decimal `bun:"base_qty"`
		}
		if err := tx.NewSelect().TableExpr("bb_material_out_detail AS d").Join("JOIN bb_material_out AS o ON o.id = d.main_id").
			ColumnExpr("d.base_qty").
			Where("d.tenant_id = ? AND d.is_deleted = 0 AND d.produce_plan_material_id = ?", m.TenantID, r.ID).
			Where("o.tenant_id = ? AND o.is_deleted = 0 AND o.out_type = ? AND o.status IN (?) AND o.id <> ?",
				m.TenantID, OutPicking, bun.In([]int{approval.InApproval, approval.Approved}), m.ID).
			Scan(ctx, &held); err != nil {
			return err
		}
		total := want
		for _, q := range held {
			total = addQty(total, q.Qty)
		}
		limit := r.RequiredQty.Mul(one.Add(pct)).Round(6, wire.RoundHalfUp)
		if total.Cmp(limit) > 0 {
			return httpx.BadRequest(msgOverPick.Format(r.MaterialCode, total.Round(6, wire.RoundHalfUp).String(), limit.String(),
				r.RequiredQty.String(), pct.String()))
		}
	}
	return nil
}

// addQty adds decimals of which a may be unset.
func addQty(a, b wire.Decimal) wire.Decimal {
	if a.IsNull() {
		a = wire.NewDecimal(0, 6)
	}
	if b.IsNull() {
		return a
	}
	return a.Add(b)
}

// overPickPct reads the tenant's over-picking allowance (0 unless set to a
// non-negative decimal).
func overPickPct(ctx context.Context, idb bun.IDB, tenantID string) (wire.Decimal, error) {
	var values []string
	if err := idb.NewSelect().Table("bb_tenant_setting").Column("setting_value").
		Where("tenant_id = ? AND setting_key = ? AND is_deleted = 0", tenantID, SettingOverPickPct).Scan(ctx, &values); err != nil {
		return wire.Decimal{}, err
	}
	if len(values) > 0 {
		if d, err := wire.ParseDecimal(values[0]); err == nil && !d.IsNull() && d.Sign() >= 0 {
			return d, nil
		}
	}
	return wire.NewDecimal(0, 0), nil
}

// addPicked moves a posted (or, undo, reversed) picking's quantities into
// its plan's picked quantities, one call per material.
func (s *outDoc) addPicked(ctx context.Context, tx bun.Tx, m *MaterialOut, undo bool) error {
	if m.OutType != OutPicking || m.ProducePlanID == 0 {
		return nil
	}
	lines, err := s.outLines(ctx, tx, m)
	if err != nil {
		return err
	}
	var order []wire.ID
	sums := map[wire.ID]wire.Decimal{}
	for _, d := range lines {
		if _, ok := sums[d.MaterialID]; !ok {
			order = append(order, d.MaterialID)
		}
		sums[d.MaterialID] = addQty(sums[d.MaterialID], d.BaseQty)
	}
	for _, mat := range order {
		q := sums[mat]
		if undo {
			q = q.Neg()
		}
		if err := s.plans.AddPicked(ctx, tx, m.ProducePlanID, mat, q); err != nil {
			return err
		}
	}
	return nil
}
