package numbering_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/numbering"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/seed"
)

func TestMain(m *testing.M) { apptest.Main(m) }

const (
	rulePath    = "/api/bluebird-basic/coderulenew"
	detailPath  = "/api/bluebird-basic/coderuledetail"
	previewPath = rulePath + "/preview"
)

// fixedDay is a clock stopped at a given day, 10:00 local time.
func fixedDay(y int, m time.Month, d int) func() time.Time {
	return func() time.Time { return time.Date(y, m, d, 10, 0, 0, 0, time.Local) }
}

// withDocTable adds a stand-in document table: the number column is unique
// per tenant, as a real document's is.
func withDocTable(t testing.TB, h *apptest.H) {
	t.Helper()
	_, err := h.App.DB.ExecContext(context.Background(), `CREATE TABLE test_doc (id BIGINT PRIMARY KEY, tenant_id VARCHAR(12) NOT NULL, doc_no VARCHAR(40) NOT NULL)`)
	if err == nil {
		_, err = h.App.DB.ExecContext(context.Background(), `CREATE UNIQUE INDEX ux_test_doc_no ON test_doc (tenant_id, doc_no)`)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// insertDoc is what a document insert does: in one write transaction of a
// tracked request, take a number and insert the row holding it. hold keeps
// the transaction open after the number is taken.
func insertDoc(ctx context.Context, h *apptest.H, tenantID, bizType string, hold func()) (string, error) {
	ctx = db.Track(ctx)
	var number string
	err := h.App.DB.Tx(ctx, func(tx bun.Tx) error {
		var err error
		if number, err = h.App.Numbering.Next(ctx, tx, tenantID, bizType, nil); err != nil {
			return err
		}
		if err := db.InsertRow(ctx, tx, "test_doc", map[string]any{"id": db.NewID(), "tenant_id": tenantID, "doc_no": number}); err != nil {
			return err
		}
		if hold != nil {
			hold()
		}
		return nil
	})
	return number, err
}

// TestNextConcurrentDistinct: sixteen document inserts at once on one rule
// get sixteen distinct, consecutive numbers, on both databases.
func TestNextConcurrentDistinct(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		h.App.Numbering.Now = fixedDay(2026, 11, 25)
		tenantID, _ := h.NewTenant("Concurrent Co")
		const n = 16
		numbers := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				numbers[i], errs[i] = insertDoc(context.Background(), h, tenantID, "MIN", func() { time.Sleep(2 * time.Millisecond) })
			})
		}
		close(start)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		slices.Sort(numbers)
		for i, got := range numbers {
			if want := fmt.Sprintf("MIN20261125%04d", i+1); got != want {
				t.Fatalf("number %d: %s, want %s (all: %v)", i, got, want, numbers)
			}
		}
	})
}

// TestNextDoesNotHoldCounterOnPostgres: on PostgreSQL a number is taken in
// its own short transaction, so a second document gets the next number while
// the first document's transaction is still open.
func TestNextDoesNotHoldCounterOnPostgres(t *testing.T) {
	if !slices.Contains(apptest.Kinds(), "postgres") {
		t.Skip(apptest.PGEnv + " not set")
	}
	h := apptest.New(t, "postgres")
	withDocTable(t, h)
	h.App.Numbering.Now = fixedDay(2026, 11, 25)
	tenantID, _ := h.NewTenant("Open Tx Co")
	taken, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		_, err := insertDoc(context.Background(), h, tenantID, "MIN", func() {
			close(taken) // the number is taken and the row inserted: keep the transaction open
			<-release
		})
		first <- err
	}()
	<-taken
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	second, err := insertDoc(ctx, h, tenantID, "MIN", nil)
	if err != nil {
		t.Fatalf("second document while the first is open: %v", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if second != "MIN202611250002" {
		t.Fatalf("second document got %s, want MIN202611250002", second)
	}
}

// TestPeriodKeyResetsSerialEachDay: the date segment is part of the counter's
// key, so a new day starts at the serial start and the old day's counter
// goes on where it was.
func TestPeriodKeyResetsSerialEachDay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		tenantID, _ := h.NewTenant("Daily Co")
		ctx := context.Background()
		take := func(y int, m time.Month, d int, want string) {
			t.Helper()
			h.App.Numbering.Now = fixedDay(y, m, d)
			got, err := insertDoc(ctx, h, tenantID, "MOUT", nil)
			if err != nil || got != want {
				t.Fatalf("%d-%d-%d: %s %v, want %s", y, m, d, got, err, want)
			}
		}
		take(2026, 11, 25, "MOUT202611250001")
		take(2026, 11, 25, "MOUT202611250002")
		take(2026, 11, 26, "MOUT202611260001")
		take(2026, 11, 25, "MOUT202611250003")
		take(2027, 1, 1, "MOUT202701010001")
		// batch numbers: yyyyMMdd + 3 digits
		h.App.Numbering.Now = fixedDay(2026, 11, 26)
		if got, err := insertDoc(ctx, h, tenantID, "BATCH", nil); err != nil || got != "20261126001" {
			t.Fatalf("batch: %s %v", got, err)
		}
	})
}

// newRule creates a rule not effective, its segments, then makes it
// effective; it returns the rule's id.
func newRule(t *testing.T, c *apptest.Client, code, bizType string, segs ...map[string]any) string {
	t.Helper()
	var rule map[string]any
	c.PostJSON(rulePath+"/submit", map[string]any{"ruleCode": code, "ruleName": code + " rule", "bizType": bizType, "isEffective": numbering.NotEffective}).OK(t, &rule)
	id := rule["id"].(string)
	for i, s := range segs {
		s["ruleId"], s["seq"] = id, i+1
		c.PostJSON(detailPath+"/submit", s).OK(t, nil)
	}
	c.Edit(rulePath+"/submit", map[string]any{"id": id, "isEffective": numbering.Effective}).OK(t, nil)
	return id
}

// TestSerialOverflowIs400: a one-digit serial gives 1..9, then a readable
// 400 (zh and en) to the document insert and to the preview alike.
func TestSerialOverflowIs400(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		tenantID, admin := h.NewTenant("Overflow Co")
		newRule(t, admin, "TINY", "TST",
			map[string]any{"segmentType": numbering.SegmentFixed, "fixedValue": "T", "separator": "-"},
			map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 1})
		for i := 1; i <= 9; i++ {
			got, err := insertDoc(context.Background(), h, tenantID, "TST", nil)
			if want := fmt.Sprintf("T-%d", i); err != nil || got != want {
				t.Fatalf("%s %v, want %s", got, err, want)
			}
		}
		_, err := insertDoc(context.Background(), h, tenantID, "TST", nil)
		e, ok := httpx.As(err)
		if !ok || e.Status != 400 || !strings.Contains(e.Msg.Zh, "已用完") || !strings.Contains(e.Msg.En, "used up") {
			t.Fatalf("overflow: %v", err)
		}
		if msg := admin.Get(previewPath, apptest.Q("bizType", "TST")).Fail(t, 400); !strings.Contains(msg, "TINY") {
			t.Fatalf("preview after overflow: %s", msg)
		}
		admin.Lang = "en"
		if msg := admin.Get(previewPath, apptest.Q("bizType", "TST")).Fail(t, 400); !strings.Contains(msg, "lengthen the serial") {
			t.Fatalf("English preview after overflow: %s", msg)
		}
		// the counter stays at its last value: nothing was used up twice
		var current int64
		if err := h.App.DB.NewSelect().Table("bb_code_rule_counter").Column("current_value").Where("tenant_id = ?", tenantID).Scan(context.Background(), &current); err != nil || current != 9 {
			t.Fatalf("counter after overflow: %d %v", current, err)
		}
	})
}

type preview struct {
	BizType string `json:"bizType"`
	Number  string `json:"number"`
	RuleID  string `json:"ruleId"`
}

// TestPreviewEqualsNextNumber: the preview is the number the next document
// gets, and previewing takes nothing.
func TestPreviewEqualsNextNumber(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		h.App.Numbering.Now = fixedDay(2026, 11, 25)
		tenantID, admin := h.NewTenant("Preview Co")
		for range 3 {
			var p preview
			admin.Get(previewPath, apptest.Q("bizType", "PUR")).OK(t, &p)
			admin.Get(previewPath, apptest.Q("bizType", "PUR")).OK(t, nil) // a second look takes nothing either
			got, err := insertDoc(context.Background(), h, tenantID, "PUR", nil)
			if err != nil || got != p.Number || p.BizType != "PUR" || p.RuleID == "" {
				t.Fatalf("preview %+v, then the document got %s %v", p, got, err)
			}
		}
		// by rule: the same number as by business type
		var byType, byRule preview
		admin.Get(previewPath, apptest.Q("bizType", "PUR")).OK(t, &byType)
		admin.Get(previewPath, apptest.Q("ruleId", byType.RuleID)).OK(t, &byRule)
		if byRule != byType || byType.Number != "PUR202611250004" {
			t.Fatalf("by type %+v, by rule %+v", byType, byRule)
		}
		// a FIELD segment shows its name until the document gives a value
		newRule(t, admin, "WHR", "WHX",
			map[string]any{"segmentType": numbering.SegmentField, "fieldName": "warehouseCode", "separator": "-"},
			map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 3})
		var p preview
		admin.Get(previewPath, apptest.Q("bizType", "WHX")).OK(t, &p)
		if p.Number != "{warehouseCode}-001" {
			t.Fatalf("field preview %+v", p)
		}
		admin.Get(previewPath, apptest.Q("bizType", "WHX", "warehouseCode", "WH7")).OK(t, &p)
		if p.Number != "WH7-001" {
			t.Fatalf("field preview with a value %+v", p)
		}
		// no rule: a readable 400 naming the business type, which the engine also recognises
		msg := admin.Get(previewPath, apptest.Q("bizType", "NOPE")).Fail(t, 400)
		if !strings.Contains(msg, "未配置编码规则") || !strings.Contains(msg, "NOPE") {
			t.Fatalf("no rule: %s", msg)
		}
		_, err := h.App.Numbering.Next(context.Background(), h.App.DB, tenantID, "NOPE", nil)
		if e, ok := httpx.As(err); !ok || e.Status != 400 || !strings.Contains(e.Msg.En, "NOPE") {
			t.Fatalf("Next without a rule: %v", err)
		}
		admin.Get(previewPath, nil).Fail(t, 400)
		admin.Get(previewPath, apptest.Q("ruleId", "x")).Fail(t, 400)
	})
}

type ruleRow struct {
	ID          string `json:"id"`
	RuleCode    string `json:"ruleCode"`
	RuleName    string `json:"ruleName"`
	BizType     string `json:"bizType"`
	Status      int    `json:"status"`
	IsEffective int    `json:"isEffective"`
	AllowManual int    `json:"allowManual"`
}

func listRules(t *testing.T, c *apptest.Client, q url.Values) []ruleRow {
	t.Helper()
	if q == nil {
		q = url.Values{}
	}
	q.Set("size", "100")
	var page apptest.Page[ruleRow]
	c.Get(rulePath+"/list", q).OK(t, &page)
	return page.Records
}

// TestNewTenantHasDefaultRules: a tenant made now has every default rule,
// approved and effective, and its numbers are its own.
func TestNewTenantHasDefaultRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		h.App.Numbering.Now = fixedDay(2026, 11, 25)
		tenantA, a := h.NewTenant("Defaults A")
		tenantB, _ := h.NewTenant("Defaults B")
		rules := listRules(t, a, nil)
		if len(rules) != len(numbering.DefaultRules) {
			t.Fatalf("%d rules, want %d", len(rules), len(numbering.DefaultRules))
		}
		for _, r := range rules {
			if r.Status != numbering.AuditApproved || r.IsEffective != numbering.Effective || r.AllowManual != numbering.No || r.RuleCode != r.BizType || r.RuleName == "" {
				t.Errorf("default rule %+v", r)
			}
		}
		for _, bt := range []string{"MIN", "MOUT", "MBK", "MTR", "MBW", "MRY", "MCK", "PIN", "POUT", "PTR", "PUR", "PP", "CA", "QB", "TAG", "BOM"} {
			var p preview
			a.Get(previewPath, apptest.Q("bizType", bt)).OK(t, &p)
			if p.Number != bt+"202611250001" {
				t.Errorf("%s preview %s", bt, p.Number)
			}
		}
		for range 3 {
			if _, err := insertDoc(context.Background(), h, tenantA, "MCK", nil); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := insertDoc(context.Background(), h, tenantB, "MCK", nil); err != nil || got != "MCK202611250001" {
			t.Fatalf("tenant B's first number: %s %v", got, err)
		}
		if got, err := insertDoc(context.Background(), h, tenantA, "MCK", nil); err != nil || got != "MCK202611250004" {
			t.Fatalf("tenant A's fourth number: %s %v", got, err)
		}
		// the platform tenant has them too (first seed)
		if len(listRules(t, h.Admin(), nil)) != len(numbering.DefaultRules) {
			t.Fatal("the platform tenant lacks the default rules")
		}
		// an English session gets English names
		super := h.Admin()
		super.Lang = "en"
		var created struct {
			TenantID string `json:"tenantId"`
		}
		super.PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": "English Co", "linkman": "tester"}).OK(t, &created)
		en := h.Login(created.TenantID, "admin", "admin")
		if r := listRules(t, en, apptest.Q("ruleCode", "MIN")); len(r) != 1 || r[0].RuleName != "Material receipt number" {
			t.Fatalf("English default rule: %+v", r)
		}
	})
}

// TestSeedUpgradeAddsDefaultRules: tenants of a database seeded before code
// rules get them at the next start, once; a tenant's own rule for a business
// type is kept and not shadowed by a default.
func TestSeedUpgradeAddsDefaultRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		tenantID, admin := h.NewTenant("Upgrade Co")
		d := h.App.DB
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.NewRaw(q, args...).Exec(ctx); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		// back to seed version 2, before code rules; the tenant has made its own MIN rule
		exec("DELETE FROM bb_code_rule_detail")
		exec("DELETE FROM bb_code_rule")
		exec("UPDATE bb_setting SET setting_value = '2' WHERE setting_key = 'seed.version'")
		own := newRule(t, admin, "MY-MIN", "MIN",
			map[string]any{"segmentType": numbering.SegmentFixed, "fixedValue": "IN"},
			map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 5})
		for range 2 {
			if err := seed.Run(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		rules := listRules(t, admin, nil)
		if len(rules) != len(numbering.DefaultRules) {
			t.Fatalf("%d rules after the upgrade, want %d", len(rules), len(numbering.DefaultRules))
		}
		var p preview
		admin.Get(previewPath, apptest.Q("bizType", "MIN")).OK(t, &p)
		if p.RuleID != own || p.Number != "IN00001" {
			t.Fatalf("the tenant's own MIN rule was shadowed: %+v", p)
		}
		if len(listRules(t, h.Admin(), nil)) != len(numbering.DefaultRules) {
			t.Fatal("the platform tenant did not get the default rules")
		}
		_ = tenantID
	})
}

// TestRulesStayInTenant: another tenant can neither preview, read, edit nor
// remove a tenant's rules and segments (the engine's tenant predicate).
func TestRulesStayInTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Owner A")
		_, b := h.NewTenant("Other B")
		id := newRule(t, a, "SECRET", "SEC",
			map[string]any{"segmentType": numbering.SegmentFixed, "fixedValue": "S"},
			map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 4})
		var segs apptest.Page[map[string]any]
		a.Get(detailPath+"/list", apptest.Q("ruleId", id)).OK(t, &segs)
		if len(segs.Records) != 2 {
			t.Fatalf("A's segments: %d", len(segs.Records))
		}
		segID := segs.Records[0]["id"].(string)

		b.Get(previewPath, apptest.Q("ruleId", id)).Fail(t, 404)
		b.Get(previewPath, apptest.Q("bizType", "SEC")).Fail(t, 400) // B has no such rule
		b.Get(rulePath+"/detail", apptest.Q("id", id)).Fail(t, 404)
		if r := listRules(t, b, apptest.Q("ruleCode", "SECRET")); len(r) != 0 {
			t.Fatalf("B lists A's rule: %+v", r)
		}
		b.PostJSON(rulePath+"/submit", map[string]any{"id": id, "version": 2, "ruleName": "stolen"}).Fail(t, 404)
		b.Post(rulePath+"/remove", apptest.Q("ids", id)).Fail(t, 404)
		var bSegs apptest.Page[map[string]any]
		b.Get(detailPath+"/list", apptest.Q("ruleId", id)).OK(t, &bSegs)
		if len(bSegs.Records) != 0 {
			t.Fatalf("B lists A's segments: %v", bSegs.Records)
		}
		b.PostJSON(detailPath+"/submit", map[string]any{"id": segID, "version": 1, "fixedValue": "X"}).Fail(t, 404)
		b.Post(detailPath+"/remove", apptest.Q("ids", segID)).Fail(t, 404)
		// nor hang a segment on A's rule
		b.PostJSON(detailPath+"/submit", map[string]any{"ruleId": id, "seq": 9, "segmentType": numbering.SegmentFixed, "fixedValue": "B"}).Fail(t, 400)
		// B's own MIN numbers are untouched by A's preview, and the reverse
		var pa, pb preview
		a.Get(previewPath, apptest.Q("ruleId", id)).OK(t, &pa)
		b.Get(previewPath, apptest.Q("bizType", "MIN")).OK(t, &pb)
		if pa.Number != "S0001" || !strings.HasPrefix(pb.Number, "MIN") || pa.RuleID == pb.RuleID {
			t.Fatalf("previews: A %+v, B %+v", pa, pb)
		}
		// a plain read of A's rule by A still works after all that
		var row ruleRow
		a.Get(rulePath+"/detail", apptest.Q("id", id)).OK(t, &row)
		if row.RuleName != "SECRET rule" {
			t.Fatalf("A's rule after B's attempts: %+v", row)
		}
	})
}

// TestRuleInUseCannotBeDeleted: a rule that has given a number stays;
// an unused one goes with its segments.
func TestRuleInUseCannotBeDeleted(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		withDocTable(t, h)
		tenantID, admin := h.NewTenant("In Use Co")
		rules := map[string]string{}
		for _, r := range listRules(t, admin, nil) {
			rules[r.BizType] = r.ID
		}
		if _, err := insertDoc(context.Background(), h, tenantID, "PIN", nil); err != nil {
			t.Fatal(err)
		}
		// an approved rule is voided before it can be removed (master data's lifecycle)
		msg := admin.Post(rulePath+"/remove", apptest.Q("ids", rules["PIN"])).Fail(t, 400)
		if msg != "PIN 当前状态为「已审批」,不能删除" {
			t.Fatalf("approved rule removal: %s", msg)
		}
		admin.Post(rulePath+"/cancellation", apptest.Q("ids", rules["PIN"]+","+rules["POUT"])).OK(t, nil)
		msg = admin.Post(rulePath+"/remove", apptest.Q("ids", rules["PIN"])).Fail(t, 400)
		if !strings.Contains(msg, "PIN") || !strings.Contains(msg, "已生成过编号,不能删除") {
			t.Fatalf("in-use rule removal: %s", msg)
		}
		admin.Lang = "en"
		if msg := admin.Post(rulePath+"/remove", apptest.Q("ids", rules["PIN"]+","+rules["POUT"])).Fail(t, 400); !strings.Contains(msg, "cannot be deleted") {
			t.Fatalf("in-use rule removal (en): %s", msg)
		}
		admin.Get(rulePath+"/detail", apptest.Q("id", rules["POUT"])).OK(t, nil) // the batch was refused whole
		// the unused one goes, and its segments with it
		admin.Post(rulePath+"/remove", apptest.Q("ids", rules["POUT"])).OK(t, nil)
		var segs apptest.Page[map[string]any]
		admin.Get(detailPath+"/list", apptest.Q("ruleId", rules["POUT"])).OK(t, &segs)
		if len(segs.Records) != 0 {
			t.Fatalf("segments of a removed rule: %v", segs.Records)
		}
		_, err := insertDoc(context.Background(), h, tenantID, "POUT", nil)
		if e, ok := httpx.As(err); !ok || !strings.Contains(e.Msg.Zh, "未配置编码规则") {
			t.Fatalf("number of a removed rule: %v", err)
		}
	})
}

// TestSegmentRules: one serial per rule; an effective rule must be complete,
// and keeps its serial; a segment carries what its type needs.
func TestSegmentRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, admin := h.NewTenant("Segments Co")
		var rule map[string]any
		admin.PostJSON(rulePath+"/submit", map[string]any{"ruleCode": "R1", "ruleName": "R1", "bizType": "r1", "isEffective": 1, "status": 3}).OK(t, &rule)
		id := rule["id"].(string)
		if rule["bizType"] != "R1" || rule["status"] != float64(numbering.AuditDraft) || rule["allowManual"] != float64(numbering.No) {
			t.Fatalf("new rule: %v", rule)
		}
		seg := func(body map[string]any) *apptest.Resp {
			body["ruleId"] = id
			if body["seq"] == nil {
				body["seq"] = 1
			}
			return admin.PostJSON(detailPath+"/submit", body)
		}
		// no serial yet: cannot be made effective
		seg(map[string]any{"segmentType": numbering.SegmentFixed, "fixedValue": "R"}).OK(t, nil)
		if msg := admin.Edit(rulePath+"/submit", map[string]any{"id": id, "isEffective": 2}).Fail(t, 400); !strings.Contains(msg, "流水号") {
			t.Fatalf("effective without a serial: %s", msg)
		}
		// what each type needs
		seg(map[string]any{"segmentType": numbering.SegmentFixed}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentDate, "dateFormat": "dd/MM"}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentDate}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentField}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentSerial}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 19}).Fail(t, 400)
		seg(map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 3, "serialStep": 0}).Fail(t, 400)
		seg(map[string]any{"segmentType": 7}).Fail(t, 400)
		var serial map[string]any
		seg(map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 3, "seq": 2}).OK(t, &serial)
		if serial["serialStart"] != float64(1) || serial["serialStep"] != float64(1) {
			t.Fatalf("serial defaults: %v", serial)
		}
		// a second serial is refused
		if msg := seg(map[string]any{"segmentType": numbering.SegmentSerial, "serialLength": 3, "seq": 3}).Fail(t, 400); !strings.Contains(msg, "流水号") {
			t.Fatalf("second serial: %s", msg)
		}
		admin.Edit(rulePath+"/submit", map[string]any{"id": id, "isEffective": 2}).OK(t, nil)
		var p preview
		admin.Get(previewPath, apptest.Q("bizType", "R1")).OK(t, &p)
		if p.Number != "R001" {
			t.Fatalf("preview %+v", p)
		}
		// an effective rule keeps its serial: not removed, not turned into another type
		serialID := serial["id"].(string)
		admin.Post(detailPath+"/remove", apptest.Q("ids", serialID)).Fail(t, 400)
		admin.Edit(detailPath+"/submit", map[string]any{"id": serialID, "segmentType": numbering.SegmentFixed, "fixedValue": "X"}).Fail(t, 400)
		// edits of the segments change future numbers
		admin.Edit(detailPath+"/submit", map[string]any{"id": serialID, "serialLength": 5}).OK(t, nil)
		admin.Get(previewPath, apptest.Q("bizType", "R1")).OK(t, &p)
		if p.Number != "R00001" {
			t.Fatalf("preview after the edit %+v", p)
		}
		// not effective: the serial may go, and the preview by business type finds no rule
		admin.Edit(rulePath+"/submit", map[string]any{"id": id, "isEffective": 1}).OK(t, nil)
		admin.Post(detailPath+"/remove", apptest.Q("ids", serialID)).OK(t, nil)
		admin.Get(previewPath, apptest.Q("bizType", "R1")).Fail(t, 400)
		admin.Get(previewPath, apptest.Q("ruleId", id)).Fail(t, 400) // incomplete: a readable refusal
		// a rule code is unique in the tenant
		admin.PostJSON(rulePath+"/submit", map[string]any{"ruleCode": "R1", "ruleName": "again", "bizType": "R1", "isEffective": 1}).Fail(t, 400)
		admin.PostJSON(rulePath+"/submit", map[string]any{"ruleName": "no code", "bizType": "R1", "isEffective": 1}).Fail(t, 400)
		admin.PostJSON(rulePath+"/submit", map[string]any{"ruleCode": "R2", "ruleName": "bad flag", "bizType": "R1", "isEffective": 3}).Fail(t, 400)
	})
}

// BenchmarkNumberingNext: document-insert transactions taking numbers on one
// rule, on SQLite (the single writer is the limit). -cpu sets the writers.
func BenchmarkNumberingNext(b *testing.B) {
	h := apptest.New(b, "sqlite")
	ctx := context.Background()
	// the platform tenant's batch rule, with room for any b.N
	if _, err := h.App.DB.NewRaw(`UPDATE bb_code_rule_detail SET serial_length = 12 WHERE segment_type = ? AND rule_id IN
		(SELECT id FROM bb_code_rule WHERE tenant_id = '000000' AND biz_type = 'BATCH')`, numbering.SegmentSerial).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ctx := db.Track(ctx)
			err := h.App.DB.Tx(ctx, func(tx bun.Tx) error {
				_, err := h.App.Numbering.Next(ctx, tx, "000000", "BATCH", nil)
				return err
			})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "numbers/s")
}
