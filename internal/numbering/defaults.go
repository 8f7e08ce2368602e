package numbering

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// DefaultRule is a rule every tenant starts with (docs/domain.md §4).
type DefaultRule struct {
	BizType   string
	Name      i18n.Text
	Prefix    string // fixed text before the date; "" for none
	SerialLen int
}

// DefaultRules: PREFIX + yyyyMMdd + 4-digit serial per document type, and
// batch numbers as yyyyMMdd + 3-digit serial. The rule code is the business type.
var DefaultRules = []DefaultRule{
	{"MIN", i18n.T("物料入库单号", "Material receipt number"), "MIN", 4},
	{"MOUT", i18n.T("物料出库单号", "Material issue number"), "MOUT", 4},
	{"MBK", i18n.T("物料退库单号", "Material return number"), "MBK", 4},
	{"MTR", i18n.T("物料调拨单号", "Material transfer number"), "MTR", 4},
	{"MBW", i18n.T("物料借用单号", "Material borrow number"), "MBW", 4},
	{"MRY", i18n.T("物料归还单号", "Material repay number"), "MRY", 4},
	{"MCK", i18n.T("物料盘点单号", "Stocktaking number"), "MCK", 4},
	{"PIN", i18n.T("产品入库单号", "Product receipt number"), "PIN", 4},
	{"POUT", i18n.T("产品出库单号", "Product delivery number"), "POUT", 4},
	{"PTR", i18n.T("产品调拨单号", "Product transfer number"), "PTR", 4},
	{"PUR", i18n.T("采购订单号", "Purchase order number"), "PUR", 4},
	{"PP", i18n.T("生产计划单号", "Production plan number"), "PP", 4},
	{"CA", i18n.T("成本核算单号", "Cost account number"), "CA", 4},
	{"QB", i18n.T("报价BOM编号", "Quotation BOM number"), "QB", 4},
	{"TAG", i18n.T("标签打印编号", "Print tag number"), "TAG", 4},
	{"BOM", i18n.T("BOM编号", "BOM code"), "BOM", 4},
	{"BATCH", i18n.T("批次号", "Batch number"), "", 3},
}

// SeedDefaults gives a tenant the default rules it lacks: a default is
// skipped when the tenant has a live rule of its business type or its code,
// so running it again, or on a tenant that made its own rules, changes
// nothing. Names are in the language of ctx (a tenant created by an English
// session gets English names; the start-up upgrade writes Chinese). The
// rules are approved and effective.
func SeedDefaults(ctx context.Context, idb bun.IDB, tenantID string) error {
	var have []CodeRule
	if err := idb.NewSelect().Model(&have).Column("rule_code", "biz_type").
		Where("tenant_id = ? AND is_deleted = 0", tenantID).Scan(ctx); err != nil {
		return err
	}
	taken := map[string]bool{}
	for _, r := range have {
		taken["code:"+r.RuleCode], taken["biz:"+r.BizType] = true, true
	}
	lang := i18n.From(ctx)
	var user, dept wire.ID
	if p := authz.From(ctx); p != nil {
		user, dept = p.UserID, p.DeptID
	}
	now := wire.Now()
	base := func() resource.Base {
		return resource.Base{ID: db.NewID(), TenantID: tenantID, CreateUser: user, UpdateUser: user, CreateDept: dept,
			CreateTime: now, UpdateTime: now, Status: 1, Version: 1}
	}
	var rules []CodeRule
	var segs []CodeRuleDetail
	for _, d := range DefaultRules {
		if taken["code:"+d.BizType] || taken["biz:"+d.BizType] {
			continue
		}
		rule := CodeRule{Base: base(), RuleCode: d.BizType, RuleName: d.Name.In(lang), BizType: d.BizType,
			IsEffective: Effective, AllowManual: No}
		rule.Status = AuditApproved
		rules = append(rules, rule)
		seq := 1
		seg := func(s CodeRuleDetail) {
			s.Base, s.RuleID, s.Seq = base(), rule.ID, seq
			if s.SerialStep == 0 {
				s.SerialStart, s.SerialStep = 1, 1
			}
			segs = append(segs, s)
			seq++
		}
		if d.Prefix != "" {
			seg(CodeRuleDetail{SegmentType: SegmentFixed, FixedValue: d.Prefix})
		}
		seg(CodeRuleDetail{SegmentType: SegmentDate, DateFormat: "yyyyMMdd"})
		seg(CodeRuleDetail{SegmentType: SegmentSerial, SerialLength: d.SerialLen})
	}
	if len(rules) == 0 {
		return nil
	}
	if _, err := idb.NewInsert().Model(&rules).Exec(ctx); err != nil {
		return err
	}
	_, err := idb.NewInsert().Model(&segs).Exec(ctx)
	return err
}

// SeedAllTenants runs SeedDefaults for every live tenant: the start-up
// upgrade of a database whose tenants predate code rules.
func SeedAllTenants(ctx context.Context, idb bun.IDB) error {
	var tenants []string
	if err := idb.NewSelect().Table("blade_tenant").Column("tenant_id").Where("is_deleted = 0").
		OrderExpr("tenant_id").Scan(ctx, &tenants); err != nil {
		return err
	}
	for _, t := range tenants {
		if err := SeedDefaults(ctx, idb, t); err != nil {
			return err
		}
	}
	return nil
}
