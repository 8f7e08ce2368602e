package approval

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// Service keeps the approval records.
type Service struct {
	DB  *db.DB
	res struct {
		process *resource.Resource[Process]
		log     *resource.Resource[ProcessLog]
	}
}

// New returns the approval service on d.
func New(d *db.DB) *Service { return &Service{DB: d} }

// Mount routes the approval records (bluebird-basic/tgprocess): read by
// anyone signed in to the tenant, removed by administrators; they are
// written only by the lifecycle commands of the rows they record.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	// the log has no routes of its own: it is read as the process's details
	s.res.log = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "tgprocesslog", Table: "bb_tgprocess_log", Label: i18n.T("审批日志", "Approval log"),
		DefaultOrder: "acted_at ASC, id ASC",
	}, resource.Hooks[ProcessLog]{})
	s.res.process = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "tgprocess", Table: "bb_tgprocess", Label: i18n.T("审批记录", "Approval record"),
		MenuCode: "tgprocess", Write: resource.Admin, Routes: []string{"list", "page", "detail", "remove", "export"},
		Unique: [][]string{{"processNo"}}, DefaultOrder: "id DESC",
		Lines: &resource.Lines{Field: "details", Child: s.res.log, Parent: "processId"},
	}, resource.Hooks[Process]{})
	s.res.process.Mount(r, env)
	return []resource.Registered{s.res.process}
}
