package numbering

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Resources are the code-rule resources: the rule and its segments.
type Resources struct {
	Rule   *resource.Resource[CodeRule]
	Detail *resource.Resource[CodeRuleDetail]
}

// Rules are configuration every document of the tenant depends on: anyone
// signed in reads them (the forms preview numbers), administrators write them.
func (s *Service) declare() *Resources {
	r := &Resources{}
	r.Detail = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "coderuledetail", Table: "bb_code_rule_detail", Label: i18n.T("编码规则明细", "Code rule segment"),
		Scope: resource.Tenant, Write: resource.Admin,
		Routes:       []string{"list", "detail", "submit", "remove"},
		DefaultOrder: "rule_id ASC, seq ASC, id ASC",
	}, resource.Hooks[CodeRuleDetail]{
		Validate:     validateDetail,
		AfterSave:    afterSaveDetail,
		BeforeRemove: beforeRemoveDetails,
	})
	// A rule is saved with its segments as its details (submit, or
	// saveCodeRules as BladeX names it); its lifecycle is master data's.
	r.Rule = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "coderulenew", Table: "bb_code_rule", Label: i18n.T("编码规则", "Code rule"),
		MenuCode: "code_rule", Scope: resource.Tenant, Write: resource.Admin,
		Routes:        []string{"list", "page", "detail", "submit", "remove", "export"},
		SubmitAliases: []string{"saveCodeRules"},
		Unique:        [][]string{{"ruleCode"}}, DefaultOrder: "biz_type ASC, id DESC",
		States: approval.MasterStates(),
		Lines:  &resource.Lines{Field: "details", Child: r.Detail, Parent: "ruleId", Max: 20},
	}, resource.Hooks[CodeRule]{
		Validate:     validateRule,
		BeforeSave:   beforeSaveRule,
		AfterSave:    afterSaveRule,
		BeforeRemove: beforeRemoveRules,
		Commands: approval.Commands(s.Approval, approval.Lifecycle[CodeRule]{BizType: "CODE_RULE", Void: true,
			No: func(c *CodeRule) string { return c.RuleCode }, Title: func(c *CodeRule) string { return "编码规则 " + c.RuleCode + " " + c.RuleName }}),
	})
	return r
}

// Mount adds the code-rule routes and returns the declared resources.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	s.res = s.declare()
	s.res.Rule.Mount(r, env)
	s.res.Detail.Mount(r, env)
	r.Get(s.res.Rule.Spec().Path()+"/preview", httpx.Handle(resource.Guard(resource.AnyUser)(s.handlePreview)))
	return []resource.Registered{s.res.Rule, s.res.Detail}
}

// Provision gives a new tenant the default rules inside its creation
// transaction (system.Service.TenantProvisioners).
func (s *Service) Provision(ctx context.Context, tx bun.Tx, tenantID string) error {
	return SeedDefaults(ctx, tx, tenantID)
}

// --- rules ---

func validateRule(ctx context.Context, row *CodeRule, present map[string]bool, isNew bool) error {
	row.BizType = strings.ToUpper(row.BizType)
	if (isNew || present["isEffective"]) && row.IsEffective != NotEffective && row.IsEffective != Effective {
		return resource.FieldErrorOf(ctx, "isEffective", i18n.T("生效状态应为1(未生效)或2(已生效)", "The effective status is 1 (not effective) or 2 (effective)"))
	}
	if isNew && !present["allowManual"] {
		row.AllowManual = No
	}
	if (isNew || present["allowManual"]) && row.AllowManual != No && row.AllowManual != Yes {
		return resource.FieldErrorOf(ctx, "allowManual", i18n.T("允许手工编号应为1(否)或2(是)", "Manual numbers allowed is 1 (no) or 2 (yes)"))
	}
	return nil
}

// beforeSaveRule: a new rule is a draft, whatever the body says; the audit
// status moves through the approval actions.
func beforeSaveRule(ctx context.Context, tx bun.Tx, row *CodeRule, isNew bool) error {
	if isNew {
		row.Status = AuditDraft
	}
	return nil
}

// afterSaveRule: an effective rule must be able to give numbers, so its
// segments are checked as a whole when it is saved effective (a rule is
// built not effective, segment by segment, then switched on).
func afterSaveRule(ctx context.Context, tx bun.Tx, row *CodeRule, isNew bool) error {
	if err := atMostOneSerial(ctx, tx, row.ID, row.TenantID); err != nil {
		return err
	}
	return checkEffectiveRule(ctx, tx, row.ID)
}

// atMostOneSerial: a rule has one serial segment at most at any time.
func atMostOneSerial(ctx context.Context, tx bun.Tx, ruleID wire.ID, tenantID string) error {
	serials, err := tx.NewSelect().Table("bb_code_rule_detail").
		Where("rule_id = ? AND tenant_id = ? AND segment_type = ? AND is_deleted = 0", ruleID, tenantID, SegmentSerial).Count(ctx)
	if err != nil {
		return err
	}
	if serials > 1 {
		return httpx.Badf("一个编码规则只能有一个流水号段", "A code rule has only one serial segment")
	}
	return nil
}

// checkEffectiveRule validates the stored segments of a rule, if it is effective.
func checkEffectiveRule(ctx context.Context, tx bun.Tx, ruleID wire.ID) error {
	rule := new(CodeRule)
	if err := tx.NewSelect().Model(rule).Where("id = ? AND is_deleted = 0", ruleID).Scan(ctx); err != nil {
		return err
	}
	if rule.IsEffective != Effective {
		return nil
	}
	segs, err := segments(ctx, tx, rule)
	if err != nil {
		return err
	}
	if err := ValidateSegments(rule.RuleCode, segs); err != nil {
		return err
	}
	// the longest number the rule could make must fit (FIELD values aside)
	_, err = resolve(rule.RuleCode, segs, timeForCheck, func(string) string { return "X" })
	return err
}

// timeForCheck is any moment: only the length of a date's text matters to the check.
var timeForCheck = time.Date(2000, 1, 1, 0, 0, 0, 0, time.Local)

var errRuleInUse = i18n.T("编码规则%s已生成过编号,不能删除;不再使用请设为未生效", "Code rule %s has given numbers and cannot be deleted; set it not effective instead")

// beforeRemoveRules refuses to delete a rule that has given numbers (its
// counter has rows): its numbers stand in documents, and a new rule of the
// same shape would hand them out again. The segments, the rule's lines, go
// with it (the engine removes lines with their parent).
func beforeRemoveRules(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	var used []string
	err := tx.NewSelect().Table("bb_code_rule").Column("rule_code").
		Where("id IN (?) AND EXISTS (SELECT 1 FROM bb_code_rule_counter c WHERE c.rule_id = bb_code_rule.id AND c.tenant_id = bb_code_rule.tenant_id)", bun.In(ids)).
		OrderExpr("rule_code").Scan(ctx, &used)
	if err != nil {
		return err
	}
	if len(used) > 0 {
		return httpx.BadRequest(errRuleInUse.Format(strings.Join(used, ", ")))
	}
	return nil
}

// --- segments ---

// validateDetail fills the serial defaults of a new segment and checks the
// fields sent; the segment as a whole is checked after it is stored.
func validateDetail(ctx context.Context, row *CodeRuleDetail, present map[string]bool, isNew bool) error {
	if isNew && !present["serialStart"] {
		row.SerialStart = 1
	}
	if isNew && !present["serialStep"] {
		row.SerialStep = 1
	}
	if (isNew || present["dateFormat"]) && row.DateFormat != "" {
		if _, ok := dateLayouts[row.DateFormat]; !ok {
			return resource.FieldErrorOf(ctx, "dateFormat", i18n.T("日期格式应为 yyyy、yy、MM、dd、yyyyMM 或 yyyyMMdd", "The date format is one of yyyy, yy, MM, dd, yyyyMM, yyyyMMdd"))
		}
	}
	return nil
}

// afterSaveDetail checks the stored segment (an edit sends only some of its
// fields), that its rule keeps at most one serial, and an effective rule as a whole.
func afterSaveDetail(ctx context.Context, tx bun.Tx, row *CodeRuleDetail, isNew bool) error {
	stored := new(CodeRuleDetail)
	if err := tx.NewSelect().Model(stored).Where("id = ?", row.ID).Scan(ctx); err != nil {
		return err
	}
	if err := ValidateSegment(stored); err != nil {
		return err
	}
	if resource.AsLine(ctx) {
		return nil // saved with its rule: the rule's AfterSave checks the whole
	}
	if err := atMostOneSerial(ctx, tx, stored.RuleID, stored.TenantID); err != nil {
		return err
	}
	return checkEffectiveRule(ctx, tx, stored.RuleID)
}

// beforeRemoveDetails refuses to take the serial segment from an effective
// rule: it would stop giving numbers. Set the rule not effective first.
func beforeRemoveDetails(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	var codes []string
	err := tx.NewSelect().TableExpr("bb_code_rule_detail AS d").Join("JOIN bb_code_rule AS r ON r.id = d.rule_id").
		ColumnExpr("DISTINCT r.rule_code").
		Where("d.id IN (?) AND d.segment_type = ? AND r.is_effective = ? AND r.is_deleted = 0", bun.In(ids), SegmentSerial, Effective).
		Scan(ctx, &codes)
	if err != nil {
		return err
	}
	if len(codes) > 0 {
		return httpx.Badf("编码规则%s已生效,不能删除其流水号段;请先设为未生效", "Code rule %s is effective; set it not effective before removing its serial segment", strings.Join(codes, ", "))
	}
	return nil
}

// --- preview ---

// Preview is the answer of coderulenew/preview.
type Preview struct {
	BizType string  `json:"bizType"`
	Number  string  `json:"number"`
	RuleID  wire.ID `json:"ruleId"`
}

// handlePreview answers the number the caller's tenant would give next:
// by bizType (its effective rule) or by ruleId (a rule being edited, effective
// or not). Other query parameters are the document's fields; a FIELD segment
// without one shows as {fieldName}.
func (s *Service) handlePreview(r *http.Request) (any, error) {
	ctx := i18n.With(r.Context(), i18n.FromRequest(r))
	p := authz.From(ctx)
	q := r.URL.Query()
	fields := func(name string) string {
		if v := q.Get(name); v != "" {
			return v
		}
		return "{" + name + "}"
	}
	var (
		rule *CodeRule
		segs []CodeRuleDetail
	)
	if q.Get("ruleId") != "" {
		id, err := httpx.QueryID(r, "ruleId")
		if err != nil {
			return nil, err
		}
		// through the resource: another tenant's rule is not found
		if rule, err = s.res.Rule.Get(ctx, s.DB, id); err != nil {
			return nil, err
		}
		if segs, err = segments(ctx, s.DB, rule); err != nil {
			return nil, err
		}
	} else {
		bizType, err := httpx.QueryString(r, "bizType")
		if err != nil {
			return nil, err
		}
		if len(bizType) > 32 {
			return nil, httpx.InvalidParam("bizType")
		}
		if rule, segs, err = s.effectiveRule(ctx, s.DB, p.TenantID, bizType); err != nil {
			return nil, err
		}
	}
	number, err := s.peek(ctx, s.DB, rule, segs, fields)
	if err != nil {
		return nil, err
	}
	return Preview{BizType: rule.BizType, Number: number, RuleID: rule.ID}, nil
}
