package production

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// The plan's quantities move only through the documents that cause them,
// inside their command's transaction (the caller's tx), in the caller's
// tenant (authz principal in ctx), every quantity in the material's or
// product's base unit:
//
//   - a production picking (material issue with producePlanId) calls
//     PickAllowed at startProcess (nothing is locked against a plan that
//     cannot be picked for) and AddPicked(+qty) when it posts, AddPicked(−qty)
//     when its posting is reversed;
//   - a material return (back-stock) against the plan calls AddReturned
//     (+qty when posted, −qty when reversed);
//   - a production report calls AddProduced, a product receipt from
//     production AddInStock (−qty on reversal).
//
// Each recomputes the derived statuses: a line is IN_PRODUCTION once
// something was produced, FINISHED when produceCount ≥ count, STOCKED when
// inStockCount ≥ count; the plan is IN_PRODUCTION from the first picking or
// production, COMPLETED when every line is stocked; CLOSED (closePlan) stays.
// Reversals are always accepted as long as no quantity goes below zero;
// additions need the plan approved and not closed.

var (
	msgNoPlan        = i18n.T("生产计划不存在", "No such production plan")
	msgNoPlanDetail  = i18n.T("生产计划明细不存在", "No such production plan line")
	msgPlanNotAppr   = i18n.T("生产计划 %s 尚未审批通过, 不能领料或入库", "Plan %s is not approved: nothing can be picked or received against it")
	msgPlanClosed    = i18n.T("生产计划 %s 已关闭, 不能再领料或入库", "Plan %s is closed: nothing more can be picked or received against it")
	msgNotRequired   = i18n.T("物料 %s 不在生产计划 %s 的物料需求中", "Material %s is not in the material requirement of plan %s")
	msgPickedBelow   = i18n.T("生产计划 %s: 物料 %s 的已领数量(扣除已退)不足 %s", "Plan %s: material %s has less than %s picked and not returned")
	msgReturnTooMuch = i18n.T("生产计划 %s: 物料 %s 的退料数量超过已领未退数量 %s", "Plan %s: the return of material %s is more than the %s picked and not returned")
	msgReturnedBelow = i18n.T("生产计划 %s: 物料 %s 的已退数量不足 %s", "Plan %s: material %s has less than %s returned")
	msgCountNegative = i18n.T("生产计划 %s 产品 %s: 数量不能小于0", "Plan %s, product %s: the quantity cannot go below 0")
	zeroQty          = wire.NewDecimal(0, 6)
)

type planHead struct {
	ID                wire.ID `bun:"id"`
	ProducePlanCode   string  `bun:"produce_plan_code"`
	Status            int     `bun:"status"`
	ProducePlanStatus int     `bun:"produce_plan_status"`
}

// loadPlan reads the plan of the caller's tenant (locked on PostgreSQL).
func loadPlan(ctx context.Context, idb bun.IDB, planID wire.ID, lock bool) (*planHead, error) {
	var heads []planHead
	q := idb.NewSelect().Table("bb_produce_plan").Column("id", "produce_plan_code", "status", "produce_plan_status").
		Where("id = ? AND tenant_id = ? AND is_deleted = 0", planID, authz.From(ctx).TenantID)
	if tx, ok := idb.(bun.Tx); ok && lock {
		q = forUpdate(tx, q)
	}
	if err := q.Scan(ctx, &heads); err != nil {
		return nil, err
	}
	if len(heads) == 0 {
		return nil, httpx.BadRequest(msgNoPlan)
	}
	return &heads[0], nil
}

// open refuses additions to a plan that is not approved or is closed.
func (h *planHead) open() error {
	if h.Status != approval.Approved {
		return httpx.BadRequest(msgPlanNotAppr.Format(h.ProducePlanCode))
	}
	if h.ProducePlanStatus == PlanClosed {
		return httpx.BadRequest(msgPlanClosed.Format(h.ProducePlanCode))
	}
	return nil
}

// PickAllowed tells whether materialID may be picked for plan planID: the
// plan is the caller's tenant's, approved and not closed, and the material
// is in its frozen requirement. Its error is a 400 naming plan and material.
func PickAllowed(ctx context.Context, idb bun.IDB, planID, materialID wire.ID) error {
	h, err := loadPlan(ctx, idb, planID, false)
	if err != nil {
		return err
	}
	if err := h.open(); err != nil {
		return err
	}
	_, err = requirement(ctx, idb, h, materialID, false)
	return err
}

// requirement reads the plan's frozen rows of a material, in id order.
func requirement(ctx context.Context, idb bun.IDB, h *planHead, materialID wire.ID, lock bool) ([]PlanMaterial, error) {
	var rows []PlanMaterial
	q := idb.NewSelect().Model(&rows).ModelTableExpr("bb_produce_plan_material AS plan_material").
		Where("plan_id = ? AND material_id = ? AND tenant_id = ? AND is_deleted = 0", h.ID, materialID, authz.From(ctx).TenantID).OrderExpr("id ASC")
	if tx, ok := idb.(bun.Tx); ok && lock {
		q = forUpdate(tx, q)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		var codes []string
		if err := idb.NewSelect().Table("bb_material").Column("material_code").Where("id = ? AND tenant_id = ?", materialID, authz.From(ctx).TenantID).Scan(ctx, &codes); err != nil {
			return nil, err
		}
		code := materialID.String()
		if len(codes) > 0 {
			code = codes[0]
		}
		return nil, httpx.BadRequest(msgNotRequired.Format(code, h.ProducePlanCode))
	}
	return rows, nil
}

func minDec(a, b wire.Decimal) wire.Decimal {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

// AddPicked adds qty (negative: a reversed picking) to the picked quantity
// of materialID in plan planID. A material with rows for several product
// lines fills them in order up to each one's requirement, the last taking
// any excess; a reversal takes back from the last row first, never below
// what was returned.
func AddPicked(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error {
	h, err := loadPlan(ctx, tx, planID, true)
	if err != nil {
		return err
	}
	if qty.Sign() > 0 {
		if err := h.open(); err != nil {
			return err
		}
	}
	rows, err := requirement(ctx, tx, h, materialID, true)
	if err != nil {
		return err
	}
	if qty.Sign() >= 0 {
		left := qty
		for i := range rows {
			take := left
			if i < len(rows)-1 {
				take = minDec(left, rows[i].RequiredQty.Sub(rows[i].PickedQty))
				if take.Sign() < 0 {
					take = zeroQty
				}
			}
			rows[i].PickedQty = rows[i].PickedQty.Add(take)
			left = left.Sub(take)
		}
	} else {
		left := qty.Neg()
		for i := len(rows) - 1; i >= 0 && left.Sign() > 0; i-- {
			take := minDec(left, rows[i].PickedQty.Sub(rows[i].ReturnedQty))
			if take.Sign() <= 0 {
				continue
			}
			rows[i].PickedQty = rows[i].PickedQty.Sub(take)
			left = left.Sub(take)
		}
		if left.Sign() > 0 {
			return httpx.BadRequest(msgPickedBelow.Format(h.ProducePlanCode, rows[0].MaterialCode, qty.Neg().String()))
		}
	}
	if err := saveQty(ctx, tx, rows); err != nil {
		return err
	}
	return refreshStatus(ctx, tx, h)
}

// AddReturned adds qty (negative: a reversed return) to the returned
// quantity of materialID in plan planID, never more than was picked and not
// returned. Returns are accepted from a closed plan.
func AddReturned(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error {
	h, err := loadPlan(ctx, tx, planID, true)
	if err != nil {
		return err
	}
	if h.Status != approval.Approved {
		return httpx.BadRequest(msgPlanNotAppr.Format(h.ProducePlanCode))
	}
	rows, err := requirement(ctx, tx, h, materialID, true)
	if err != nil {
		return err
	}
	if qty.Sign() >= 0 {
		left := qty
		for i := len(rows) - 1; i >= 0 && left.Sign() > 0; i-- {
			take := minDec(left, rows[i].PickedQty.Sub(rows[i].ReturnedQty))
			if take.Sign() <= 0 {
				continue
			}
			rows[i].ReturnedQty = rows[i].ReturnedQty.Add(take)
			left = left.Sub(take)
		}
		if left.Sign() > 0 {
			return httpx.BadRequest(msgReturnTooMuch.Format(h.ProducePlanCode, rows[0].MaterialCode, qty.Sub(left).String()))
		}
	} else {
		left := qty.Neg()
		for i := range rows {
			take := minDec(left, rows[i].ReturnedQty)
			rows[i].ReturnedQty = rows[i].ReturnedQty.Sub(take)
			left = left.Sub(take)
		}
		if left.Sign() > 0 {
			return httpx.BadRequest(msgReturnedBelow.Format(h.ProducePlanCode, rows[0].MaterialCode, qty.Neg().String()))
		}
	}
	if err := saveQty(ctx, tx, rows); err != nil {
		return err
	}
	return refreshStatus(ctx, tx, h)
}

func saveQty(ctx context.Context, tx bun.Tx, rows []PlanMaterial) error {
	p := authz.From(ctx)
	for _, r := range rows {
		if _, err := tx.NewUpdate().Table("bb_produce_plan_material").
			Set("picked_qty = ?", r.PickedQty.Round(6, wire.RoundHalfUp)).Set("returned_qty = ?", r.ReturnedQty.Round(6, wire.RoundHalfUp)).
			Set("update_user = ?", p.UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").
			Where("id = ? AND tenant_id = ?", r.ID, p.TenantID).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// AddProduced adds qty (negative: a correction) to the produced count of
// plan line planDetailID (reportProduction; no stock effect).
func AddProduced(ctx context.Context, tx bun.Tx, planDetailID wire.ID, qty wire.Decimal) error {
	return addToDetail(ctx, tx, planDetailID, "produce_count", qty)
}

// AddInStock adds qty (negative: a reversed receipt) to the received count
// of plan line planDetailID (product receipts from production).
func AddInStock(ctx context.Context, tx bun.Tx, planDetailID wire.ID, qty wire.Decimal) error {
	return addToDetail(ctx, tx, planDetailID, "in_stock_count", qty)
}

func addToDetail(ctx context.Context, tx bun.Tx, detailID wire.ID, column string, qty wire.Decimal) error {
	p := authz.From(ctx)
	var lines []PlanDetail
	if err := tx.NewSelect().Model(&lines).ModelTableExpr("bb_produce_plan_detail AS plan_detail").
		Where("id = ? AND tenant_id = ? AND is_deleted = 0", detailID, p.TenantID).Scan(ctx); err != nil {
		return err
	}
	if len(lines) == 0 {
		return httpx.BadRequest(msgNoPlanDetail)
	}
	d := lines[0]
	h, err := loadPlan(ctx, tx, d.PlanID, true)
	if err != nil {
		return err
	}
	if qty.Sign() > 0 {
		if err := h.open(); err != nil {
			return err
		}
	}
	cur := d.ProduceCount
	if column == "in_stock_count" {
		cur = d.InStockCount
	}
	next := cur.Add(qty).Round(6, wire.RoundHalfUp)
	if next.Sign() < 0 {
		return httpx.BadRequest(msgCountNegative.Format(h.ProducePlanCode, d.ProductCode))
	}
	if _, err := tx.NewUpdate().Table("bb_produce_plan_detail").Set("? = ?", bun.Ident(column), next).
		Set("update_user = ?", p.UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").
		Where("id = ? AND tenant_id = ?", d.ID, p.TenantID).Exec(ctx); err != nil {
		return err
	}
	return refreshStatus(ctx, tx, h)
}

// refreshStatus derives the lines' and the plan's statuses from their
// quantities (a closed plan keeps CLOSED; its lines still follow).
func refreshStatus(ctx context.Context, tx bun.Tx, h *planHead) error {
	p := authz.From(ctx)
	var lines []PlanDetail
	if err := tx.NewSelect().Model(&lines).ModelTableExpr("bb_produce_plan_detail AS plan_detail").
		Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", h.ID, p.TenantID).OrderExpr("id ASC").Scan(ctx); err != nil {
		return err
	}
	var picked []string
	if err := tx.NewSelect().Table("bb_produce_plan_material").Column("picked_qty").
		Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", h.ID, p.TenantID).Scan(ctx, &picked); err != nil {
		return err
	}
	started, stocked := false, len(lines) > 0
	for _, text := range picked {
		if q, err := wire.ParseDecimal(text); err != nil || q.Sign() > 0 {
			started = true
		}
	}
	for _, d := range lines {
		st := DetailNotStarted
		switch {
		case d.InStockCount.Cmp(d.Count) >= 0:
			st = DetailStocked
		case d.ProduceCount.Cmp(d.Count) >= 0:
			st = DetailFinished
		case d.ProduceCount.Sign() > 0 || d.InStockCount.Sign() > 0:
			st = DetailInProduction
		}
		if st != DetailStocked {
			stocked = false
		}
		if st != DetailNotStarted {
			started = true
		}
		if st != d.ProduceDetailStatus {
			if _, err := tx.NewUpdate().Table("bb_produce_plan_detail").Set("produce_detail_status = ?", st).
				Where("id = ? AND tenant_id = ?", d.ID, p.TenantID).Exec(ctx); err != nil {
				return err
			}
		}
	}
	if h.ProducePlanStatus == PlanClosed {
		return nil
	}
	st := PlanNotStarted
	switch {
	case stocked:
		st = PlanCompleted
	case started:
		st = PlanInProduction
	}
	if st == h.ProducePlanStatus {
		return nil
	}
	_, err := tx.NewUpdate().Table("bb_produce_plan").Set("produce_plan_status = ?", st).
		Set("update_user = ?", p.UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").
		Where("id = ? AND tenant_id = ?", h.ID, p.TenantID).Exec(ctx)
	h.ProducePlanStatus = st
	return err
}

// The same API on the service, for callers that hold it.

// PickAllowed is the package's PickAllowed.
func (s *Service) PickAllowed(ctx context.Context, idb bun.IDB, planID, materialID wire.ID) error {
	return PickAllowed(ctx, idb, planID, materialID)
}

// AddPicked is the package's AddPicked.
func (s *Service) AddPicked(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error {
	return AddPicked(ctx, tx, planID, materialID, qty)
}

// AddReturned is the package's AddReturned.
func (s *Service) AddReturned(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error {
	return AddReturned(ctx, tx, planID, materialID, qty)
}

// AddProduced is the package's AddProduced.
func (s *Service) AddProduced(ctx context.Context, tx bun.Tx, planDetailID wire.ID, qty wire.Decimal) error {
	return AddProduced(ctx, tx, planDetailID, qty)
}

// AddInStock is the package's AddInStock.
func (s *Service) AddInStock(ctx context.Context, tx bun.Tx, planDetailID wire.ID, qty wire.Decimal) error {
	return AddInStock(ctx, tx, planDetailID, qty)
}
