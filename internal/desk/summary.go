package desk

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// SummaryPath answers the home page's key figures.
const SummaryPath = "/blade-desk/home/summary"

// Figure is one key figure of the home page: the live rows of a resource
// that match Where, counted as the caller's list of that resource would
// count them.
type Figure struct {
	Key      string    `json:"key"`
	Label    i18n.Text `json:"-"`
	Resource string    `json:"-"` // service/name in the registry
	Where    string    `json:"-"` // a fixed condition on the resource's table, no user input
}

// Figures are the tenant's key figures, cheap counts on indexed tables.
var Figures = []Figure{
	{Key: "users", Label: i18n.T("用户", "Users"), Resource: "blade-user/user"},
	{Key: "materials", Label: i18n.T("物料", "Materials"), Resource: "bluebird-basic/material"},
	{Key: "openReceipts", Label: i18n.T("未过账入库单", "Receipts not posted"), Resource: "bluebird-basic/materialinrecordmain",
		Where: "stock_status = 1 AND status <> 5"}, // not posted, not voided (stockdoc.NotPosted, approval.Voided)
	{Key: "openIssues", Label: i18n.T("未过账出库单", "Issues not posted"), Resource: "bluebird-basic/materialoutrecordmain",
		Where: "stock_status = 1 AND status <> 5"},
	{Key: "inApproval", Label: i18n.T("审批中单据", "Documents in approval"), Resource: "bluebird-basic/tgprocess",
		Where: "process_status = 1"}, // approval.ProcessRunning
}

// Counted is a registered resource the summary counts through: its Select
// applies the tenant, soft-delete and data-scope predicates
// (resource.Resource[T] has it).
type Counted interface {
	Spec() *resource.Spec
	Select(ctx context.Context, idb bun.IDB, model any) (*bun.SelectQuery, error)
}

// Summary answers the home page's figures.
type Summary struct {
	DB      *db.DB
	Buttons resource.ButtonHolder // whether the caller is granted a menu (system.Service)
	// Lookup finds a registered resource by service/name.
	Lookup func(key string) resource.Registered
}

// FigureValue is one figure as the home page shows it: the menu it opens.
type FigureValue struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	MenuCode string `json:"menuCode"`
	Value    int64  `json:"value"`
}

// Mount routes the summary for any signed-in user: each figure is answered
// only to a caller granted its resource's menu, so a user with none gets an
// empty list.
func (s *Summary) Mount(r chi.Router) {
	r.Get(SummaryPath, httpx.Handle(resource.Guard(resource.AnyUser)(s.handleSummary)))
}

type countRow struct {
	bun.BaseModel `bun:"table:counted"`
}

func (s *Summary) handleSummary(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	lang := i18n.FromRequest(r)
	out := []FigureValue{}
	for _, f := range Figures {
		res, ok := s.Lookup(f.Resource).(Counted)
		if !ok {
			continue // that area is not part of this build
		}
		menu := res.Spec().MenuCode
		granted, err := s.Buttons.HoldsButton(ctx, p, menu)
		if err != nil {
			return nil, err
		}
		if !granted {
			continue
		}
		q, err := res.Select(ctx, s.DB, (*countRow)(nil))
		if err != nil {
			return nil, err
		}
		// the caller's own tenant, even for the super user, whom the
		// cross-tenant resources (users) would otherwise count across tenants
		q = q.Where("tenant_id = ?", p.TenantID)
		if f.Where != "" {
			q = q.Where(f.Where)
		}
		n, err := q.Count(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, FigureValue{Key: f.Key, Label: f.Label.In(lang), MenuCode: menu, Value: int64(n)})
	}
	return out, nil
}
