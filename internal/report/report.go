// Package report is blade-report: report definitions over the registered
// resources, run as grouped summaries through the resource engine
// (resource.Aggregate), so a report sees exactly the rows its caller's list
// would — tenant, data scope, soft delete — and groups and aggregates only
// declared fields. A definition is never SQL.
package report

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Report is one report definition.
type Report struct {
	bun.BaseModel `bun:"table:blade_report"`
	resource.Base
	ReportName string `bun:"report_name" json:"reportName" f:"label=报表名称|Report name;req;max=100;search;sort"`
	// Source is the resource's key ("blade-user/user").
	Source   string `bun:"source" json:"source" f:"label=数据来源|Source;req;max=100;search;filter=equal"`
	ViewName string `bun:"view_name" json:"viewName" f:"label=视图|View;max=64;hide"`
	// GroupBy is a comma list of fields, a datetime with its bucket: "deptId", "createTime:day".
	GroupBy string `bun:"group_by" json:"groupBy" f:"label=分组字段|Group by;max=255"`
	// Measures is a comma list: "count", "sum:amount", "avg:qty".
	Measures string `bun:"measures" json:"measures" f:"label=统计值|Aggregates;req;max=255"`
	// Filters is a JSON object of list filters ({"status": "1", "createTime_datege": "2026-01-01 00:00:00"}).
	Filters string `bun:"filters" json:"filters" f:"label=筛选条件|Filters;max=2000;hide;nofilter"`
	// Columns, when set, are the answer's columns the table shows, in order.
	Columns   string `bun:"columns_shown" json:"columns" f:"label=显示列|Columns;max=500;hide;nofilter"`
	ChartType string `bun:"chart_type" json:"chartType" f:"label=图表类型|Chart;req;max=10;default=bar;pattern=^(bar|line|pie)$;patternMsg=图表类型应为 bar、line 或 pie|The chart must be bar, line or pie"`
	Remark    string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// Registry is where report sources are found (the app's registry).
type Registry interface {
	Get(key string) resource.Registered
	All() []resource.Registered
}

// Service runs reports.
type Service struct {
	DB       *db.DB
	Registry Registry
	Reports  *resource.Resource[Report]
}

// Path is where the report routes sit (BladeX: blade-report/report/rest).
const Path = "/blade-report/report/rest"

// New declares the report resource.
func New(d *db.DB, reg Registry) *Service {
	s := &Service{DB: d, Registry: reg}
	s.Reports = resource.New(resource.Spec{
		Service: "blade-report", Name: "report", URLPath: Path, Table: "blade_report", Label: i18n.T("报表", "Report"),
		MenuCode: "report", Unique: [][]string{{"reportName"}},
	}, resource.Hooks[Report]{Validate: s.validate})
	return s
}

var (
	msgNoSource   = i18n.T("数据来源%s不存在或不能统计", "The source %s does not exist or cannot be summarised")
	msgBadFilters = i18n.T("筛选条件应为 JSON 对象", "The filters must be a JSON object")
	msgNoColumn   = i18n.T("显示列%s不在报表结果中", "Column %s is not in the report's answer")
)

// Mount routes the definitions (list, detail, submit, remove, export) and
// the runs: run?id= and run-export?id= of a saved report, preview of an
// unsaved one, and the sources a report may summarise.
func (s *Service) Mount(r chi.Router, env *resource.Env) *resource.Resource[Report] {
	s.Reports.Mount(r, env)
	r.Get(Path+"/run", httpx.Handle(s.handleRun))
	r.Get(Path+"/run-export", httpx.Handle(func(req *http.Request) (any, error) { return s.handleRunExport(req, env) }))
	r.Post(Path+"/preview", httpx.Handle(s.handlePreview))
	r.Get(Path+"/sources", httpx.Handle(s.handleSources))
	return s.Reports
}

// plan reads a definition into its source and aggregation, every name
// checked against the source's declared fields.
func (s *Service) plan(rep *Report) (resource.Aggregator, resource.Aggregation, error) {
	var a resource.Aggregation
	src, ok := s.Registry.Get(strings.TrimSpace(rep.Source)).(resource.Aggregator)
	if !ok {
		return nil, a, httpx.Badf(msgNoSource.Zh, msgNoSource.En, rep.Source)
	}
	a.View = strings.TrimSpace(rep.ViewName)
	for _, g := range splitList(rep.GroupBy) {
		name, bucket, _ := strings.Cut(g, ":")
		a.GroupBy = append(a.GroupBy, resource.GroupBy{Field: name, Bucket: bucket})
	}
	for _, m := range splitList(rep.Measures) {
		fn, name, _ := strings.Cut(m, ":")
		a.Measures = append(a.Measures, resource.Measure{Func: fn, Field: name})
	}
	a.Filters = url.Values{}
	if f := strings.TrimSpace(rep.Filters); f != "" {
		var m map[string]any
		if err := json.Unmarshal([]byte(f), &m); err != nil {
			return nil, a, httpx.BadRequest(msgBadFilters)
		}
		for k, v := range m {
			if s, ok := v.(string); ok {
				a.Filters.Set(k, s)
			} else if v != nil {
				b, _ := json.Marshal(v)
				a.Filters.Set(k, string(b))
			}
		}
	}
	// the engine's own checks: declared fields only, the list's filters
	if err := src.CheckAggregation(a); err != nil {
		return nil, a, err
	}
	keys := map[string]bool{}
	for _, g := range a.GroupBy {
		keys[g.Field] = true
	}
	for _, m := range a.Measures {
		keys[m.Key()] = true
	}
	for _, c := range splitList(rep.Columns) {
		if !keys[c] {
			return nil, a, httpx.Badf(msgNoColumn.Zh, msgNoColumn.En, c)
		}
	}
	return src, a, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// validate plans the definition as it will be saved: an update's unsent
// fields are the stored row's.
func (s *Service) validate(ctx context.Context, rep *Report, present map[string]bool, isNew bool) error {
	merged := *rep
	if !isNew {
		stored, err := s.Reports.Get(ctx, s.DB, rep.ID)
		if err != nil {
			return err
		}
		merged = *stored
		take := func(name string, dst *string, sent string) {
			if present[name] {
				*dst = sent
			}
		}
		take("source", &merged.Source, rep.Source)
		take("viewName", &merged.ViewName, rep.ViewName)
		take("groupBy", &merged.GroupBy, rep.GroupBy)
		take("measures", &merged.Measures, rep.Measures)
		take("filters", &merged.Filters, rep.Filters)
		take("columns", &merged.Columns, rep.Columns)
	}
	_, _, err := s.plan(&merged)
	return err
}

// Result is a run: the definition's name and chart, and the summary.
type Result struct {
	ID         wire.ID `json:"id,omitempty"`
	ReportName string  `json:"reportName"`
	ChartType  string  `json:"chartType"`
	*resource.AggregateResult
}

func (s *Service) run(req *http.Request, rep *Report) (*Result, error) {
	src, a, err := s.plan(rep)
	if err != nil {
		return nil, err
	}
	res, err := src.Aggregate(req, a)
	if err != nil {
		return nil, err
	}
	if shown := splitList(rep.Columns); len(shown) > 0 {
		cols := make([]resource.AggregateColumn, 0, len(shown))
		for _, key := range shown {
			i := slices.IndexFunc(res.Columns, func(c resource.AggregateColumn) bool { return c.Key == key })
			cols = append(cols, res.Columns[i])
		}
		res.Columns = cols
	}
	return &Result{ID: rep.ID, ReportName: rep.ReportName, ChartType: rep.ChartType, AggregateResult: res}, nil
}

func (s *Service) saved(req *http.Request) (*Report, error) {
	if authz.From(req.Context()) == nil {
		return nil, httpx.ErrUnauthorized
	}
	id, err := httpx.QueryID(req, "id")
	if err != nil {
		return nil, err
	}
	return s.Reports.Get(req.Context(), s.DB, id)
}

func (s *Service) handleRun(req *http.Request) (any, error) {
	rep, err := s.saved(req)
	if err != nil {
		return nil, err
	}
	return s.run(req, rep)
}

// handleRunExport answers a saved report's table as an xlsx file, recorded
// in the download monitor as the report's path and id.
func (s *Service) handleRunExport(req *http.Request, env *resource.Env) (any, error) {
	rep, err := s.saved(req)
	if err != nil {
		return nil, err
	}
	res, err := s.run(req, rep)
	if err != nil {
		return nil, err
	}
	target := fmt.Sprintf("%s/run-export?id=%s", strings.TrimPrefix(Path, "/"), rep.ID)
	return resource.ExportAggregate(req, env, target, rep.ReportName, res.AggregateResult)
}

// handlePreview runs a definition as sent, unsaved (the builder's chart).
func (s *Service) handlePreview(req *http.Request) (any, error) {
	if authz.From(req.Context()) == nil {
		return nil, httpx.ErrUnauthorized
	}
	rep, present, err := s.Reports.Decode(req)
	if err != nil {
		return nil, err
	}
	if err := s.Reports.Check(req.Context(), rep, present, true); err != nil {
		return nil, err
	}
	return s.run(req, rep)
}

// Source is a resource a report may summarise, as the builder offers it.
type Source struct {
	ID     string        `json:"id"` // the resource's key, the definition's source
	Label  string        `json:"label"`
	Fields []SourceField `json:"fields"`
	Views  []SourceView  `json:"views,omitempty"`
}

// SourceView is a view of a source: its joined fields group too.
type SourceView struct {
	Name   string        `json:"name"`
	Fields []SourceField `json:"fields"`
}

// SourceField is a field that groups or aggregates.
type SourceField struct {
	Name      string   `json:"name"`
	Label     string   `json:"label"`
	ValueType string   `json:"valueType"`
	Group     bool     `json:"group"`
	Measures  []string `json:"measures,omitempty"` // sum, avg, min, max
}

// handleSources lists the resources the caller may read, with the fields a
// report may group by or aggregate.
func (s *Service) handleSources(req *http.Request) (any, error) {
	p := authz.From(req.Context())
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	lang := i18n.FromRequest(req)
	out := []Source{}
	for _, reg := range s.Registry.All() {
		src, ok := reg.(resource.Aggregator)
		spec := reg.Spec()
		if !ok || (spec.Read == resource.Super && !p.IsSuper()) || (spec.Read == resource.Admin && !p.IsTenantAdmin()) {
			continue
		}
		meta := src.Meta()
		one := Source{ID: spec.Key(), Label: meta.Label.In(lang), Fields: sourceFields(src, meta.Fields, lang)}
		for _, v := range meta.Views {
			if fs := sourceFields(src, v.Fields, lang); len(fs) > 0 {
				one.Views = append(one.Views, SourceView{Name: v.Name, Fields: fs})
			}
		}
		out = append(out, one)
	}
	return out, nil
}

func sourceFields(src resource.Aggregator, fields []*resource.Field, lang i18n.Lang) []SourceField {
	var out []SourceField
	for _, f := range fields {
		sf := SourceField{Name: f.Name, Label: f.Label.In(lang), ValueType: f.ValueType, Group: src.Groupable(f)}
		for _, fn := range []string{"sum", "avg", "min", "max"} {
			if src.Measurable(fn, f) {
				sf.Measures = append(sf.Measures, fn)
			}
		}
		if sf.Group || len(sf.Measures) > 0 {
			out = append(out, sf)
		}
	}
	return out
}
