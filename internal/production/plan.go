package production

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

var (
	msgNoLines        = i18n.T("生产计划没有产品明细", "The plan has no product lines")
	msgNoMaterials    = i18n.T("生产计划 %s 没有物料需求, 请先录入所需物料", "Plan %s has no material requirement: enter the materials it needs first")
	msgTooMany        = i18n.T("物料需求最多%d行", "At most %d required materials")
	msgReqLine        = "物料需求第%d行: %s|Required material line %d: %s"
	msgReqMaterial    = i18n.T("请选择物料", "Please select the material")
	msgReqNoMaterial  = i18n.T("物料不存在或未生效", "the material does not exist or is not effective")
	msgReqQty         = i18n.T("需求数量必须大于0", "the required quantity must be greater than 0")
	msgReqQtyScale    = i18n.T("需求数量最多14位整数、6位小数", "the required quantity has at most 14 integer digits and 6 decimals")
	msgReqDetailNo    = i18n.T("产品行号 %d 不存在(计划共%d行产品)", "product line %d does not exist (the plan has %d)")
	msgNoCustomer     = i18n.T("客户不存在", "No such customer")
	msgClose          = i18n.T("关闭", "Close")
	msgCloseDone      = i18n.T("生产计划已关闭", "Plan closed")
	msgCloseConfirm   = i18n.T("确定关闭选择的生产计划?关闭后不能再领料和入库", "Close the selected plans? No more picking or receipts can be made against them")
	msgCloseReason    = i18n.T("请输入关闭原因", "Please enter the reason for closing")
	msgAlreadyClosed  = i18n.T("生产计划 %s 已关闭", "Plan %s is already closed")
	msgVoidPicked     = i18n.T("生产计划 %s 已有领料或入库, 不能作废; 请先退料或关闭计划", "Plan %s has picked material or received products: it cannot be voided; return the material or close the plan")
	msgPlanLabel      = i18n.T("生产计划", "Production plan")
	msgDetailLabel    = i18n.T("生产计划明细", "Production plan line")
	msgRequiredLabel  = i18n.T("计划物料", "Required material")
	msgMaterialsLabel = i18n.T("生产计划物料需求", "Plan material requirement")
)

const maxRequired = 1000

func (s *Service) declare() {
	s.details = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "produceplandetail", Table: "bb_produce_plan_detail", Label: msgDetailLabel,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "id ASC",
		Views: []resource.View{{Name: "selectProducePlanDetailVOPage", Paged: true, Joins: []resource.Join{{Field: "planId", Columns: []resource.JoinColumn{
			{Name: "producePlanCode", Column: "produce_plan_code", Label: i18n.T("计划单号", "Plan no."), Filter: "like", Sort: true},
			{Name: "projectName", Column: "project_name", Label: i18n.T("项目名称", "Project name"), Filter: "like"},
		}}}}},
	}, resource.Hooks[PlanDetail]{BeforeSave: prepareDetail})

	// The required materials are this package's own lines: no routes, read
	// and written only with their plan.
	s.required = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "produceplanrequired", Table: "bb_produce_plan_required", Label: msgRequiredLabel,
		Routes: []string{"detail"}, DefaultOrder: "id ASC",
	}, resource.Hooks[RequiredMaterial]{})

	s.materials = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "produceplanmaterial", Table: "bb_produce_plan_material", Label: msgMaterialsLabel,
		Routes: []string{"list", "detail", "export"}, DefaultOrder: "plan_id DESC, id ASC",
	}, resource.Hooks[PlanMaterial]{
		Query:  s.ofReadablePlans,
		Routes: map[string]httpx.HandlerFunc{"detail": s.materialDetail},
	})

	s.plans = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "produceplanmain", Table: "bb_produce_plan", Label: msgPlanLabel,
		MenuCode: "produce_plan", DataScope: true, Routes: []string{"list", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"producePlanCode"}}, Title: "producePlanCode", DefaultOrder: "id DESC", States: approval.DocStates(),
		Number:        &resource.Number{Field: "producePlanCode", BizType: "PP"},
		SubmitAliases: []string{"saveProducePlan"},
		Lines:         &resource.Lines{Field: "details", Child: s.details, Parent: "planId", Totals: []string{"count"}},
		// the required materials are saved by this package's hooks (afterSave)
		ExtraLines: []resource.ExtraLines{{Field: "materials", Child: s.required, Totals: []string{"requiredQty"}}},
		Lookup:     &resource.Lookup{URL: "/api/bluebird-basic/produceplanmain/list", CodeField: "producePlanCode", LabelField: "projectName", SearchParam: "producePlanCode"},
		Views: []resource.View{{Name: "selectProducePlanVOPage", Paged: true, Joins: []resource.Join{{Field: "workShopId", Columns: []resource.JoinColumn{
			{Name: "workShopName", Column: "dept_name", Label: i18n.T("生产车间", "Workshop"), Filter: "like"},
		}}}}},
		ListView: "selectProducePlanVOPage",
	}, resource.Hooks[Plan]{
		Validate:     validatePlan,
		BeforeSave:   s.beforeSave,
		AfterSave:    s.afterSave,
		BeforeRemove: s.beforeRemove,
		Enrich:       s.enrich,
		Commands:     s.commands(),
	})
}

// prepareDetail: a new line starts not produced, whatever its body said.
func prepareDetail(_ context.Context, _ bun.Tx, d *PlanDetail, isNew bool) error {
	if isNew {
		zero := wire.NewDecimal(0, 6)
		d.ProduceCount, d.InStockCount, d.ProduceDetailStatus, d.AttachCount = zero, zero, DetailNotStarted, 0
	}
	return nil
}

func reqError(ctx context.Context, i int, field string, msg i18n.Text) error {
	parts := strings.Split(msgReqLine, "|")
	text := i18n.T(fmt.Sprintf(parts[0], i+1, msg.Zh), fmt.Sprintf(parts[1], i+1, msg.En))
	return &httpx.Error{Status: 400, Msg: text, Data: resource.FieldError{fmt.Sprintf("materials[%d].%s", i, field): text.In(i18n.From(ctx))}}
}

// validatePlan checks the required materials' shape (outside the transaction).
func validatePlan(ctx context.Context, p *Plan, present map[string]bool, isNew bool) error {
	if !isNew && !present["materials"] {
		return nil
	}
	if len(p.Materials) > maxRequired {
		return httpx.BadRequest(msgTooMany.Format(maxRequired))
	}
	for i := range p.Materials {
		m := &p.Materials[i]
		if m.MaterialID == 0 {
			return reqError(ctx, i, "materialId", msgReqMaterial)
		}
		if m.RequiredQty.IsNull() || m.RequiredQty.Sign() <= 0 {
			return reqError(ctx, i, "requiredQty", msgReqQty)
		}
		q, ok := m.RequiredQty.Rescale(6)
		if !ok || q.IntegerDigits() > 14 {
			return reqError(ctx, i, "requiredQty", msgReqQtyScale)
		}
		m.RequiredQty = q
		if m.DetailNo < 0 {
			return reqError(ctx, i, "detailNo", msgReqDetailNo.Format(m.DetailNo, len(p.Details)))
		}
	}
	return nil
}

// beforeSave: a new plan starts not started, named after its creator;
// the customer's name is snapshotted; the lines are replaced whole
// (domain.md §3) and the required materials are checked against the
// tenant's materials and the plan's product lines.
func (s *Service) beforeSave(ctx context.Context, tx bun.Tx, p *Plan, isNew bool) error {
	pr := authz.From(ctx)
	if isNew {
		p.ProducePlanStatus, p.ClosedAt, p.CloseReason = PlanNotStarted, wire.Time{}, ""
		var names []struct {
			RealName string `bun:"real_name"`
			Name     string `bun:"name"`
		}
		if err := tx.NewSelect().Table("blade_user").Column("real_name", "name").Where("id = ?", pr.UserID).Scan(ctx, &names); err != nil {
			return err
		}
		if len(names) > 0 {
			p.CreateUserName = names[0].RealName
			if p.CreateUserName == "" {
				p.CreateUserName = names[0].Name
			}
		}
	}
	if resource.Sent(ctx, "customerId") {
		p.CustomerName = ""
		if p.CustomerID != 0 {
			var names []string
			if err := tx.NewSelect().Table("bb_customer").Column("customer_name").
				Where("id = ? AND tenant_id = ? AND is_deleted = 0", p.CustomerID, p.TenantID).Scan(ctx, &names); err != nil {
				return err
			}
			if len(names) == 0 {
				return resource.FieldErrorOf(ctx, "customerId", msgNoCustomer)
			}
			p.CustomerName = names[0]
		}
	}
	details := len(p.Details)
	if isNew || resource.Sent(ctx, "details") {
		if len(p.Details) == 0 {
			return httpx.BadRequest(msgNoLines)
		}
		for i := range p.Details {
			p.Details[i].ID = 0
		}
	} else {
		n, err := tx.NewSelect().Table("bb_produce_plan_detail").Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", p.ID, p.TenantID).Count(ctx)
		if err != nil {
			return err
		}
		details = int(n)
	}
	if isNew || resource.Sent(ctx, "materials") {
		return s.fillRequired(ctx, tx, p.TenantID, p.Materials, details)
	}
	// the product lines changed alone: the kept materials must still point at one
	var highest []int
	if err := tx.NewSelect().Table("bb_produce_plan_required").ColumnExpr("detail_no").
		Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0 AND detail_no > ?", p.ID, p.TenantID, details).Limit(1).Scan(ctx, &highest); err != nil {
		return err
	}
	if len(highest) > 0 {
		t := msgReqDetailNo.Format(highest[0], details)
		return httpx.BadRequest(i18n.T("物料需求: "+t.Zh, "Required materials: "+t.En))
	}
	return nil
}

// fillRequired checks each required material is an effective material of
// the tenant and its product line exists, and snapshots the material.
func (s *Service) fillRequired(ctx context.Context, tx bun.Tx, tenant string, lines []RequiredMaterial, details int) error {
	if len(lines) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(lines))
	for i := range lines {
		ids[i] = lines[i].MaterialID
	}
	var mats []struct {
		ID           wire.ID `bun:"id"`
		MaterialCode string  `bun:"material_code"`
		MaterialName string  `bun:"material_name"`
		Spec         string  `bun:"spec"`
		Unit         string  `bun:"unit"`
		IsEffective  int     `bun:"is_effective"`
	}
	if err := tx.NewSelect().Table("bb_material").Column("id", "material_code", "material_name", "spec", "unit", "is_effective").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", tenant, bun.In(ids)).Scan(ctx, &mats); err != nil {
		return err
	}
	for i := range lines {
		l := &lines[i]
		found := false
		for _, m := range mats {
			if m.ID == l.MaterialID && m.IsEffective == inventory.Effective {
				l.MaterialCode, l.MaterialName, l.Spec, l.Unit, found = m.MaterialCode, m.MaterialName, m.Spec, m.Unit, true
			}
		}
		if !found {
			return reqError(ctx, i, "materialId", msgReqNoMaterial)
		}
		if l.DetailNo > details {
			return reqError(ctx, i, "detailNo", msgReqDetailNo.Format(l.DetailNo, details))
		}
	}
	return nil
}

// afterSave replaces the plan's required materials whole when the body
// carried them (every field of a new plan counts as carried).
func (s *Service) afterSave(ctx context.Context, tx bun.Tx, p *Plan, isNew bool) error {
	if !isNew && !resource.Sent(ctx, "materials") {
		return nil
	}
	if !isNew {
		if err := s.required.RemoveWhere(ctx, tx, p.TenantID, "plan_id = ?", p.ID); err != nil {
			return err
		}
	}
	for i := range p.Materials {
		l := &p.Materials[i]
		l.Base = resource.Base{TenantID: p.TenantID}
		l.PlanID = p.ID
		if err := s.required.Insert(ctx, tx, l); err != nil {
			return err
		}
	}
	return nil
}

// beforeRemove removes the required materials with their plans.
func (s *Service) beforeRemove(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	return s.required.RemoveWhere(ctx, tx, authz.From(ctx).TenantID, "plan_id IN (?)", bun.In(ids))
}

// enrich answers each plan with its product lines and required materials,
// so that the plan list shows the lines as child rows without a request
// per plan (one query each for the whole page).
func (s *Service) enrich(ctx context.Context, idb bun.IDB, rows []Plan) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	var details []PlanDetail
	q, err := s.details.Select(ctx, idb, &details)
	if err != nil {
		return err
	}
	if err := q.Where("plan_id IN (?)", bun.In(ids)).OrderExpr("id ASC").Scan(ctx); err != nil {
		return err
	}
	var reqs []RequiredMaterial
	if err := idb.NewSelect().Model(&reqs).ModelTableExpr("bb_produce_plan_required AS required_material").
		Where("plan_id IN (?) AND tenant_id = ? AND is_deleted = 0", bun.In(ids), rows[0].TenantID).OrderExpr("id ASC").Scan(ctx); err != nil {
		return err
	}
	at := make(map[wire.ID]int, len(rows))
	for i := range rows {
		at[rows[i].ID] = i
		rows[i].Details, rows[i].Materials = []PlanDetail{}, []RequiredMaterial{}
	}
	for _, d := range details {
		if i, ok := at[d.PlanID]; ok {
			rows[i].Details = append(rows[i].Details, d)
		}
	}
	for _, r := range reqs {
		if i, ok := at[r.PlanID]; ok && r.TenantID == rows[i].TenantID {
			rows[i].Materials = append(rows[i].Materials, r)
		}
	}
	return nil
}

// ofReadablePlans: requirement rows are listed only for plans the caller
// may read (tenant, data scope, soft delete of the plan).
func (s *Service) ofReadablePlans(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	plans, err := s.plans.Select(r.Context(), q.DB(), (*Plan)(nil))
	if err != nil {
		return nil, err
	}
	return q.Where("plan_id IN (?)", plans.Column("id")), nil
}

// materialDetail answers a requirement row only where its plan is readable.
func (s *Service) materialDetail(r *http.Request) (any, error) {
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	row, err := s.materials.Get(r.Context(), s.materials.Env().DB, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.plans.Get(r.Context(), s.materials.Env().DB, row.PlanID); err != nil {
		return nil, err
	}
	return row, nil
}

// commands: startProcess (approved at once, freezing the requirement),
// cancellation (refused once material is picked or products received) and
// closePlan.
func (s *Service) commands() []resource.Command[Plan] {
	cmds := approval.Commands(s.approval, approval.Lifecycle[Plan]{BizType: BizType, Void: true,
		No:          func(p *Plan) string { return p.ProducePlanCode },
		Title:       func(p *Plan) string { return "生产计划 " + p.ProducePlanCode + " " + p.ProjectName },
		BeforeStart: s.beforeStart,
		BeforeVoid:  s.beforeVoid,
		// the requirement is frozen when the plan is approved: at once, or at the end of its process
		AfterApprove: func(ctx context.Context, tx bun.Tx, _ *resource.Resource[Plan], rows []*Plan) error {
			for _, p := range rows {
				if err := s.freeze(ctx, tx, p); err != nil {
					return err
				}
			}
			return nil
		},
	})
	closePlan := resource.Command[Plan]{Name: "closePlan", Label: msgClose, Button: "edit", Done: msgCloseDone, Confirm: msgCloseConfirm, Row: true,
		From: &resource.States{Field: "status", Values: []int{approval.Approved}},
		Run:  s.closePlan}
	report := resource.Command[Plan]{Name: "reportProduction", Label: msgReport, Button: "edit", Done: msgReportDone, Row: true,
		From: &resource.States{Field: "status", Values: []int{approval.Approved}},
		Run:  s.reportProduction}
	return append(cmds, closePlan, report)
}

var (
	msgReport     = i18n.T("报工", "Report production")
	msgReportDone = i18n.T("报工成功", "Production reported")
	msgReportOne  = i18n.T("一次只能为一个生产计划报工", "Report production for one plan at a time")
	msgReportQty  = i18n.T("报工数量必须大于0, 最多6位小数", "The quantity must be greater than 0, with at most 6 decimals")
)

// reportProduction adds qty (> 0) to the produced count of the plan's line
// planDetailId (domain.md §6.8; no stock effect).
func (s *Service) reportProduction(ctx context.Context, tx bun.Tx, _ *resource.Resource[Plan], rows []*Plan, req *resource.CommandRequest) (any, error) {
	if len(rows) != 1 {
		return nil, httpx.BadRequest(msgReportOne)
	}
	detailID, err := wire.ParseID(req.Values.Get("planDetailId"))
	if err != nil || detailID == 0 {
		return nil, httpx.InvalidParam("planDetailId")
	}
	qty, err := wire.ParseDecimal(strings.TrimSpace(req.Values.Get("qty")))
	if err != nil || qty.IsNull() || qty.Sign() <= 0 {
		return nil, resource.FieldErrorOf(ctx, "qty", msgReportQty)
	}
	if q, ok := qty.Rescale(6); !ok || q.IntegerDigits() > 14 {
		return nil, resource.FieldErrorOf(ctx, "qty", msgReportQty)
	}
	n, err := tx.NewSelect().Table("bb_produce_plan_detail").
		Where("id = ? AND plan_id = ? AND tenant_id = ? AND is_deleted = 0", detailID, rows[0].ID, rows[0].TenantID).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, httpx.BadRequest(msgNoPlanDetail)
	}
	return nil, AddProduced(ctx, tx, detailID, qty)
}

// beforeStart: a plan goes for approval with product lines and required
// materials that still point at existing lines.
func (s *Service) beforeStart(ctx context.Context, tx bun.Tx, rows []*Plan) error {
	for _, p := range rows {
		full, err := s.plans.Detail(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		if len(full.Details) == 0 {
			return httpx.BadRequest(msgNoLines)
		}
		if len(full.Materials) == 0 {
			return httpx.BadRequest(msgNoMaterials.Format(p.ProducePlanCode))
		}
		for i, m := range full.Materials {
			if m.DetailNo > len(full.Details) {
				return reqError(ctx, i, "detailNo", msgReqDetailNo.Format(m.DetailNo, len(full.Details)))
			}
		}
	}
	return nil
}

// freeze creates the plan's material requirement from its required
// materials: one row per (product line, material), quantities summed, the
// material snapshotted as it is at approval. Later edits of materials (and,
// once they exist, of BOMs) do not change it (domain.md §6.8).
func (s *Service) freeze(ctx context.Context, tx bun.Tx, p *Plan) error {
	full, err := s.plans.Detail(ctx, tx, p.ID)
	if err != nil {
		return err
	}
	if err := s.materials.RemoveWhere(ctx, tx, p.TenantID, "plan_id = ?", p.ID); err != nil {
		return err
	}
	type key struct{ detail, material wire.ID }
	var order []key
	rows := map[key]*PlanMaterial{}
	for _, m := range full.Materials {
		k := key{material: m.MaterialID}
		if m.DetailNo > 0 {
			k.detail = full.Details[m.DetailNo-1].ID
		}
		if r, ok := rows[k]; ok {
			r.RequiredQty = r.RequiredQty.Add(m.RequiredQty)
			continue
		}
		order = append(order, k)
		rows[k] = &PlanMaterial{PlanID: p.ID, PlanDetailID: k.detail, MaterialID: m.MaterialID, RequiredQty: m.RequiredQty,
			PickedQty: wire.NewDecimal(0, 6), ReturnedQty: wire.NewDecimal(0, 6)}
	}
	ids := make([]wire.ID, 0, len(order))
	for _, k := range order {
		ids = append(ids, k.material)
	}
	var mats []struct {
		ID           wire.ID `bun:"id"`
		MaterialCode string  `bun:"material_code"`
		MaterialName string  `bun:"material_name"`
		Spec         string  `bun:"spec"`
		Model        string  `bun:"model"`
		Unit         string  `bun:"unit"`
	}
	if err := tx.NewSelect().Table("bb_material").Column("id", "material_code", "material_name", "spec", "model", "unit").
		Where("tenant_id = ? AND id IN (?)", p.TenantID, bun.In(ids)).Scan(ctx, &mats); err != nil {
		return err
	}
	for _, k := range order {
		r := rows[k]
		for _, m := range mats {
			if m.ID == r.MaterialID {
				r.MaterialCode, r.MaterialName, r.Spec, r.Model, r.Unit = m.MaterialCode, m.MaterialName, m.Spec, m.Model, m.Unit
			}
		}
		r.TenantID = p.TenantID
		r.RequiredQty = r.RequiredQty.Round(6, wire.RoundHalfUp)
		if err := s.materials.Insert(ctx, tx, r); err != nil {
			return err
		}
	}
	return nil
}

// beforeVoid refuses to void a plan material was picked for, or products
// received against: its history must stay whole (return or close instead).
func (s *Service) beforeVoid(ctx context.Context, tx bun.Tx, rows []*Plan) error {
	for _, p := range rows {
		if p.ProducePlanStatus != PlanNotStarted {
			return httpx.BadRequest(msgVoidPicked.Format(p.ProducePlanCode))
		}
		var picked []string
		if err := tx.NewSelect().Table("bb_produce_plan_material").Column("picked_qty").
			Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", p.ID, p.TenantID).Scan(ctx, &picked); err != nil {
			return err
		}
		for _, text := range picked {
			if q, err := wire.ParseDecimal(text); err != nil || q.Sign() > 0 {
				return httpx.BadRequest(msgVoidPicked.Format(p.ProducePlanCode))
			}
		}
	}
	return nil
}

// closePlan closes approved plans (closeReason required): no more picking
// or product receipts against them. It answers, per plan, the materials
// picked and not returned (picked − returned > 0), prompting a material
// return (domain.md §6.8: a warning, not a refusal).
func (s *Service) closePlan(ctx context.Context, tx bun.Tx, res *resource.Resource[Plan], rows []*Plan, req *resource.CommandRequest) (any, error) {
	reason := strings.TrimSpace(req.Values.Get("closeReason"))
	if reason == "" {
		return nil, resource.FieldErrorOf(ctx, "closeReason", msgCloseReason)
	}
	if len([]rune(reason)) > 500 {
		return nil, httpx.InvalidParam("closeReason")
	}
	type open struct {
		PlanID       wire.ID      `json:"planId"`
		MaterialID   wire.ID      `json:"materialId"`
		MaterialCode string       `json:"materialCode"`
		OpenQty      wire.Decimal `json:"openQty"`
	}
	out := []open{}
	for _, p := range rows {
		if p.ProducePlanStatus == PlanClosed {
			return nil, httpx.BadRequest(msgAlreadyClosed.Format(p.ProducePlanCode))
		}
		var mats []PlanMaterial
		if err := tx.NewSelect().Model(&mats).ModelTableExpr("bb_produce_plan_material AS plan_material").
			Where("plan_id = ? AND tenant_id = ? AND is_deleted = 0", p.ID, p.TenantID).OrderExpr("id ASC").Scan(ctx); err != nil {
			return nil, err
		}
		for _, m := range mats {
			if d := m.PickedQty.Sub(m.ReturnedQty); d.Sign() > 0 {
				out = append(out, open{PlanID: p.ID, MaterialID: m.MaterialID, MaterialCode: m.MaterialCode, OpenQty: d})
			}
		}
	}
	return out, res.SetFields(ctx, tx, rows, map[string]any{"producePlanStatus": PlanClosed, "closedAt": wire.Now(), "closeReason": reason})
}

// forUpdate locks the rows a quantity update reads on PostgreSQL (SQLite
// has one writer).
func forUpdate(tx bun.Tx, q *bun.SelectQuery) *bun.SelectQuery {
	if tx.Dialect().Name() == dialect.PG {
		return q.For("UPDATE")
	}
	return q
}
