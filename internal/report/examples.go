package report

import (
	"context"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// example is a seeded report of the platform tenant.
type example struct {
	id                                     wire.ID
	name, source, groupBy, measures, chart string
	filters                                string
}

// Examples are seeded under fixed ids once their source is registered: a
// removed example stays removed (its row is still there), and the logins
// example appears once the usual log (blade-log/usual) is.
var Examples = []example{
	{id: 1123598816738675301, name: "各部门用户数", source: "blade-user/user", groupBy: "deptId", measures: "count", chart: "bar"},
	{id: 1123598816738675302, name: "每日登录次数", source: "blade-log/usual", groupBy: "createTime:day", measures: "count", chart: "line",
		filters: `{"logId":"login"}`},
}

// SeedExamples adds the examples the database lacks.
func (s *Service) SeedExamples(ctx context.Context) error {
	for _, e := range Examples {
		if s.Registry.Get(e.source) == nil {
			continue
		}
		rep := Report{ReportName: e.name, Source: e.source, GroupBy: e.groupBy, Measures: e.measures, ChartType: e.chart, Filters: e.filters}
		if _, _, err := s.plan(&rep); err != nil {
			continue // the source changed its fields: no example rather than a broken one
		}
		n, err := s.DB.NewSelect().Table("blade_report").Where("id = ?", e.id).Count(ctx)
		if err != nil || n > 0 {
			return err
		}
		now := wire.Now()
		err = db.InsertRow(ctx, s.DB, "blade_report", map[string]any{
			"id": e.id, "tenant_id": "000000", "create_time": now, "update_time": now, "status": 1, "is_deleted": 0, "version": 1,
			"report_name": e.name, "source": e.source, "group_by": e.groupBy, "measures": e.measures, "filters": e.filters,
			"chart_type": e.chart, "view_name": "", "columns_shown": "", "remark": "",
		})
		if err != nil {
			// another instance starting on the same database seeded it first
			if n, _ := s.DB.NewSelect().Table("blade_report").Where("id = ?", e.id).Count(ctx); n > 0 {
				continue
			}
			return err
		}
	}
	return nil
}
