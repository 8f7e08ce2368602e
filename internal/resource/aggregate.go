package resource

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Aggregates (reports, internal/report): counts, sums, averages, minima and
// maxima of a resource's rows, grouped by some of its fields. The rows are
// exactly those the list would answer for the same filters — tenant, data
// scope, soft delete, the resource's own query hook — because the grouped
// query is built over the list's scoped select as a subquery. Only declared
// fields group or aggregate (a whitelist: anything else is a 400, never
// SQL), and decimal sums and averages are exact on both databases.

// Aggregate limits: a report is a summary, not an export.
const (
	MaxGroupBy        = 3
	MaxMeasures       = 6
	MaxAggregateGroup = 1000 // groups answered; more is cut and said so
)

// Aggregation asks for one grouped summary.
type Aggregation struct {
	View     string     `json:"view,omitempty"` // a declared view: its joined columns may group too
	Filters  url.Values `json:"-"`              // as a list request's query: declared filters only
	GroupBy  []GroupBy  `json:"groupBy"`
	Measures []Measure  `json:"measures"`
}

// GroupBy is one grouping field; a datetime groups by its day, month or year (UTC).
type GroupBy struct {
	Field  string `json:"field"`
	Bucket string `json:"bucket,omitempty"` // day (default for datetimes), month, year
}

// Measure is one aggregate: count (no field), or sum, avg, min, max of a numeric field
// (min and max also of a datetime).
type Measure struct {
	Func  string `json:"func"`
	Field string `json:"field,omitempty"`
}

// Key names the measure's column in the answer: count, sum_amount...
func (m Measure) Key() string {
	if m.Field == "" {
		return m.Func
	}
	return m.Func + "_" + m.Field
}

// AggregateColumn describes one column of the answer.
type AggregateColumn struct {
	Key       string    `json:"key"`
	Label     i18n.Text `json:"label"`
	Measure   bool      `json:"measure"`             // false: a grouping column
	ValueType string    `json:"valueType"`           // of the values: int, decimal, string, id, bool, datetime
	Ref       string    `json:"ref,omitempty"`       // a grouping reference field: <key>Label holds the rows' names
	Dict      string    `json:"dict,omitempty"`      // a grouping dictionary field: <key>Label holds the entries' names
	DictBiz   bool      `json:"dictBiz,omitempty"`   //
	Bucket    string    `json:"bucket,omitempty"`    // a grouping datetime's bucket
	Scale     int       `json:"scale,omitempty"`     // decimals: digits after the point
	Aggregate string    `json:"aggregate,omitempty"` // a measure's function
}

// AggregateResult is the grouped summary: one row per group (at most
// MaxAggregateGroup, Truncated when there were more), ordered by the groups.
type AggregateResult struct {
	Columns   []AggregateColumn `json:"columns"`
	Rows      []map[string]any  `json:"rows"`
	Truncated bool              `json:"truncated,omitempty"`
}

// Aggregator is a resource that answers aggregates (every Resource[T]).
type Aggregator interface {
	Registered
	Aggregate(req *http.Request, a Aggregation) (*AggregateResult, error)
	// Groupable and Measurable tell the choices a report screen may offer.
	Groupable(f *Field) bool
	Measurable(fn string, f *Field) bool
	CheckAggregation(a Aggregation) error
}

var (
	msgNoGroupField = i18n.T("不能按字段%s分组", "Cannot group by field %s")
	msgNoMeasure    = i18n.T("不能对字段%[2]s求%[1]s", "Cannot compute %[1]s of field %[2]s")
	msgNoView       = i18n.T("视图%s不存在", "No view named %s")
	msgNoMeasures   = i18n.T("请至少选择一个统计值", "Choose at least one aggregate")
	msgTooManyAgg   = i18n.T("分组最多%d个,统计值最多%d个", "At most %d groupings and %d aggregates")
	msgBadBucket    = i18n.T("时间分组%s不支持(day、month、year)", "Time bucket %s is not supported (day, month, year)")
)

// Groupable: a declared field of a short kind — text (not long or rich
// text, a password, a secret or an image link), integer, id, yes/no or
// datetime — other than the row's own id (one group per row says nothing).
func (r *Resource[T]) Groupable(f *Field) bool {
	if f == nil || f.Secret || f.Name == "id" || f.Name == "isDeleted" || f.Name == "version" {
		return false
	}
	if f.Type == TypePassword || f.Type == TypeText || f.Type == TypeHTML || f.FileLink() {
		return false
	}
	switch f.ValueType {
	case ValueString, ValueInt, ValueID, ValueBool, ValueDateTime:
		return true
	}
	return false
}

// Measurable: count needs no field; sum and avg take integers (not
// dictionary keys) and decimals; min and max also datetimes.
func (r *Resource[T]) Measurable(fn string, f *Field) bool {
	if fn == "count" {
		return f == nil
	}
	if f == nil || f.Secret || f.Joined || f.Name == "isDeleted" || f.Name == "version" || f.Type == TypeDict {
		return false
	}
	switch fn {
	case "sum", "avg":
		return f.ValueType == ValueInt || f.ValueType == ValueDecimal
	case "min", "max":
		return f.ValueType == ValueInt || f.ValueType == ValueDecimal || f.ValueType == ValueDateTime
	}
	return false
}

// plannedMeasure is a Measure bound to its field.
type plannedMeasure struct {
	Measure
	field *Field
}

// Aggregate answers the grouped summary of the rows the caller may read,
// behind the resource's own read guard.
func (r *Resource[T]) Aggregate(req *http.Request, a Aggregation) (*AggregateResult, error) {
	var out *AggregateResult
	_, err := Guard(r.spec.Read)(func(req *http.Request) (any, error) {
		var err error
		out, err = r.aggregate(req, a)
		return nil, err
	})(req)
	return out, err
}

// aggregationPlan is an Aggregation checked against the declared fields.
type aggregationPlan struct {
	Aggregation     // datetime groups with their bucket filled
	view        int // index of the view, or -1
	meta        *Meta
	groups      []*Field
	measures    []plannedMeasure
	query       *Query
}

// CheckAggregation refuses (400) an aggregation the resource would refuse
// to run: an unknown view, a field that does not group or aggregate, a bad
// bucket or filter. A report checks its definition with it when saved.
func (r *Resource[T]) CheckAggregation(a Aggregation) error {
	_, err := r.planAggregation(a)
	return err
}

func (r *Resource[T]) planAggregation(a Aggregation) (*aggregationPlan, error) {
	if len(a.Measures) == 0 {
		return nil, httpx.BadRequest(msgNoMeasures)
	}
	if len(a.GroupBy) > MaxGroupBy || len(a.Measures) > MaxMeasures {
		return nil, httpx.Badf(msgTooManyAgg.Zh, msgTooManyAgg.En, MaxGroupBy, MaxMeasures)
	}
	p := &aggregationPlan{view: -1, meta: r.meta}
	if a.View != "" {
		if p.view = r.viewIndex(a.View); p.view < 0 {
			return nil, httpx.Badf(msgNoView.Zh, msgNoView.En, a.View)
		}
		p.meta = r.meta.withFields(r.meta.Views[p.view].Fields)
	}
	a.GroupBy = slices.Clone(a.GroupBy)
	p.groups = make([]*Field, len(a.GroupBy))
	for i, g := range a.GroupBy {
		f := p.meta.byName[g.Field]
		if !r.Groupable(f) {
			return nil, httpx.Badf(msgNoGroupField.Zh, msgNoGroupField.En, g.Field)
		}
		switch {
		case f.ValueType == ValueDateTime && g.Bucket == "":
			a.GroupBy[i].Bucket = "day"
		case f.ValueType == ValueDateTime && g.Bucket != "day" && g.Bucket != "month" && g.Bucket != "year",
			f.ValueType != ValueDateTime && g.Bucket != "":
			return nil, httpx.Badf(msgBadBucket.Zh, msgBadBucket.En, g.Bucket)
		}
		p.groups[i] = f
	}
	p.measures = make([]plannedMeasure, len(a.Measures))
	for i, m := range a.Measures {
		var f *Field
		if m.Field != "" {
			if f = p.meta.byName[m.Field]; f == nil {
				return nil, httpx.Badf(msgNoMeasure.Zh, msgNoMeasure.En, m.Func, m.Field)
			}
		}
		if !r.Measurable(m.Func, f) {
			return nil, httpx.Badf(msgNoMeasure.Zh, msgNoMeasure.En, m.Func, m.Field)
		}
		p.measures[i] = plannedMeasure{m, f}
	}
	var err error
	if p.query, err = p.meta.ParseQuery(a.Filters); err != nil {
		return nil, err
	}
	p.Aggregation = a
	return p, nil
}

func (r *Resource[T]) aggregate(req *http.Request, in Aggregation) (*AggregateResult, error) {
	p, err := r.planAggregation(in)
	if err != nil {
		return nil, err
	}
	a, groups, measures, q := p.Aggregation, p.groups, p.measures, p.query
	var cv *compiledView
	if p.view >= 0 {
		if cv, err = r.compiledView(p.view, r.env.Refs); err != nil {
			return nil, err
		}
	}
	q.Order = nil // the groups order the answer
	// The list's own request hooks see the report's filters as the query.
	lreq := req.Clone(req.Context())
	lreq.URL = &url.URL{Path: req.URL.Path, RawQuery: a.Filters.Encode()}
	ctx, idb := req.Context(), r.env.DB
	inner, err := r.scopedRows(ctx, idb, q, r.extra(lreq), cv)
	if err != nil {
		return nil, err
	}
	pg := idb.Dialect().Name() == dialect.PG
	outer := idb.NewSelect().TableExpr("(?) AS agg", inner)
	for i, g := range a.GroupBy {
		expr := groupExpr(pg, groups[i], g.Bucket)
		outer = outer.ColumnExpr(expr+" AS ?", bun.Ident(fmt.Sprintf("g%d", i))).GroupExpr(expr).OrderExpr(expr + " ASC")
	}
	for i, m := range measures {
		outer = outer.ColumnExpr(measureExpr(pg, m), bun.Ident(fmt.Sprintf("m%d", i)))
		if m.Func == "avg" { // summed exactly and divided here
			outer = outer.ColumnExpr("COUNT(agg.?) AS ?", bun.Ident(m.field.Column), bun.Ident(fmt.Sprintf("n%d", i)))
		}
	}
	outer = outer.Limit(MaxAggregateGroup + 1)
	rows, err := outer.Rows(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &AggregateResult{Columns: aggregateColumns(a.GroupBy, groups, measures), Rows: []map[string]any{}}
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		raw := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		if len(res.Rows) == MaxAggregateGroup {
			res.Truncated = true
			break
		}
		row := map[string]any{}
		k := 0
		for i, g := range a.GroupBy {
			f := groups[i]
			vt := f.ValueType
			if g.Bucket != "" {
				vt = ValueString
			}
			row[g.Field] = cellOf(vt, raw[k])
			k++
		}
		for _, m := range measures {
			v := raw[k]
			k++
			if m.Func == "avg" {
				row[m.Key()] = average(v, raw[k], m.field)
				k++
				continue
			}
			row[m.Key()] = measureCell(m, v)
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := r.labelGroups(ctx, idb, res, groups); err != nil {
		return nil, err
	}
	return res, nil
}

func (r *Resource[T]) viewIndex(name string) int {
	for i := range r.spec.Views {
		if r.spec.Views[i].Name == name {
			return i
		}
	}
	return -1
}

// scopedRows is the list's scoped, filtered select (base table or view),
// every column, unordered and unpaged: the subquery aggregates read.
func (r *Resource[T]) scopedRows(ctx context.Context, idb bun.IDB, q *Query, extra func(*bun.SelectQuery) (*bun.SelectQuery, error), cv *compiledView) (*bun.SelectQuery, error) {
	var dest []T
	var sq *bun.SelectQuery
	var err error
	if cv == nil {
		if sq, err = r.Select(ctx, idb, &dest); err != nil {
			return nil, err
		}
		sq = q.Apply(sq, "")
	} else {
		if sq, err = r.viewSelect(ctx, idb, &dest, cv, r.baseColumns(idb, nil)); err != nil {
			return nil, err
		}
		sq = q.Apply(sq, r.tableAlias(idb))
	}
	if extra != nil {
		return extra(sq)
	}
	return sq, nil
}

// groupExpr is a grouping column of the subquery, a datetime cut to its
// bucket as text ("2026-11-27", "2026-11", "2026"). SQLite keeps datetimes as
// "yyyy-MM-dd HH:mm:ss" text (wire.Time).
func groupExpr(pg bool, f *Field, bucket string) string {
	col := "agg." + quoteIdent(f.Column)
	if bucket == "" {
		return col
	}
	if pg {
		layout := map[string]string{"day": "YYYY-MM-DD", "month": "YYYY-MM", "year": "YYYY"}[bucket]
		return "to_char(" + col + ", '" + layout + "')"
	}
	n := map[string]int{"day": 10, "month": 7, "year": 4}[bucket]
	return "substr(" + col + ", 1, " + strconv.Itoa(n) + ")"
}

// quoteIdent quotes a declared column name (both databases take "name").
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// measureExpr is a measure's aggregate with one ? for its alias: decimal
// sums (and the sums averages divide) exact on both databases.
func measureExpr(pg bool, m plannedMeasure) string {
	if m.Func == "count" {
		return "COUNT(*) AS ?"
	}
	col := "agg." + quoteIdent(m.field.Column)
	switch m.Func {
	case "sum", "avg":
		if m.field.ValueType == ValueDecimal {
			return db.DecimalSumFunc(pg) + "(" + col + ") AS ?"
		}
		return "SUM(" + col + ") AS ?"
	case "min":
		return "MIN(" + col + ") AS ?"
	}
	return "MAX(" + col + ") AS ?"
}

// aggregateColumns describes the answer's columns.
func aggregateColumns(gs []GroupBy, groups []*Field, measures []plannedMeasure) []AggregateColumn {
	var out []AggregateColumn
	for i, g := range gs {
		f := groups[i]
		c := AggregateColumn{Key: g.Field, Label: f.Label, ValueType: f.ValueType, Ref: f.Ref, Dict: f.Dict, DictBiz: f.DictBiz, Bucket: g.Bucket}
		if g.Bucket != "" {
			c.ValueType = ValueString
		}
		out = append(out, c)
	}
	for _, m := range measures {
		c := AggregateColumn{Key: m.Key(), Measure: true, Aggregate: m.Func}
		switch {
		case m.Func == "count":
			c.Label, c.ValueType = i18n.T("数量", "Count"), ValueInt
		default:
			fn := map[string]i18n.Text{"sum": i18n.T("合计", "Sum of"), "avg": i18n.T("平均", "Average"),
				"min": i18n.T("最小", "Min"), "max": i18n.T("最大", "Max")}[m.Func]
			c.Label = i18n.T(m.field.Label.Zh+fn.Zh, fn.En+" "+m.field.Label.En)
			c.ValueType = m.field.ValueType
			if m.Func == "avg" {
				c.ValueType = ValueDecimal
			}
			if c.ValueType == ValueDecimal {
				c.Scale = avgScale(m.field)
			}
		}
		out = append(out, c)
	}
	return out
}

// avgScale is the scale of a decimal measure: the field's, or 2 for an
// integer's average.
func avgScale(f *Field) int {
	if f.Scale != nil {
		return *f.Scale
	}
	return 2
}

// cellOf converts a scanned grouping value to its wire form.
func cellOf(valueType string, v any) any {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	if v == nil {
		return nil
	}
	switch valueType {
	case ValueID:
		n, err := toInt(v)
		if err != nil {
			return fmt.Sprint(v)
		}
		return wire.ID(n)
	case ValueInt:
		if n, err := toInt(v); err == nil {
			return n
		}
	case ValueBool:
		switch x := v.(type) {
		case bool:
			return x
		case int64:
			return x != 0
		}
	case ValueDateTime:
		var t wire.Time
		if err := t.Scan(v); err == nil {
			return t
		}
	case ValueDecimal:
		d, err := wire.ParseDecimal(fmt.Sprint(v))
		if err == nil {
			return d
		}
	}
	return fmt.Sprint(v)
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case float64:
		return int64(x), nil
	}
	return strconv.ParseInt(fmt.Sprint(v), 10, 64)
}

// measureCell converts a scanned aggregate: counts and integer sums are
// integers, decimals exact decimals at the field's scale.
func measureCell(m plannedMeasure, v any) any {
	if m.Func == "count" {
		return cellOf(ValueInt, v)
	}
	if v == nil {
		return nil
	}
	if m.field.ValueType == ValueDecimal {
		d, ok := cellOf(ValueDecimal, v).(wire.Decimal)
		if !ok {
			return nil
		}
		if s, ok := d.Rescale(avgScale(m.field)); ok {
			return s
		}
		return d
	}
	return cellOf(m.field.ValueType, v)
}

// average divides an exact sum by the count of values, rounding half up at
// the field's scale (2 for integers).
func average(sum, count any, f *Field) any {
	n, err := toInt(count)
	if err != nil || n == 0 || sum == nil {
		return nil
	}
	d, ok := cellOf(ValueDecimal, sum).(wire.Decimal)
	if !ok {
		return nil
	}
	return d.Div(wire.DecimalFromInt(n), avgScale(f), wire.RoundHalfUp)
}

// labelGroups adds <field>Label beside reference and dictionary groups:
// the names of the referenced rows the caller may read (a comma list of ids
// gets a comma list of names), the dictionary entries' labels.
func (r *Resource[T]) labelGroups(ctx context.Context, idb bun.IDB, res *AggregateResult, groups []*Field) error {
	for i, f := range groups {
		key := res.Columns[i].Key
		switch {
		case f.Ref != "" && r.env.Refs != nil:
			target, ok := r.env.Refs.Get(f.Ref).(RowLabeler)
			if !ok {
				continue
			}
			var ids []wire.ID
			for _, row := range res.Rows {
				ids = append(ids, idsOf(row[key])...)
			}
			names, err := target.RowLabels(ctx, idb, ids)
			if err != nil {
				return err
			}
			for _, row := range res.Rows {
				var parts []string
				for _, id := range idsOf(row[key]) {
					parts = append(parts, names[id])
				}
				row[key+"Label"] = strings.Join(parts, ",")
			}
		case f.Dict != "" && r.env.Dicts != nil:
			for _, row := range res.Rows {
				if v := row[key]; v != nil {
					row[key+"Label"] = r.env.Dicts.DictLabel(ctx, idb, f.Dict, f.DictBiz, fmt.Sprint(v))
				}
			}
		}
	}
	return nil
}

// idsOf reads the ids of a grouping value: one id, or a comma list of them.
func idsOf(v any) []wire.ID {
	var out []wire.ID
	for _, s := range strings.Split(fmt.Sprint(v), ",") {
		if id, err := wire.ParseID(strings.TrimSpace(s)); err == nil && id != 0 {
			out = append(out, id)
		}
	}
	return out
}

// RowLabeler names rows by id.
type RowLabeler interface {
	RowLabels(ctx context.Context, idb bun.IDB, ids []wire.ID) (map[wire.ID]string, error)
}

// RowLabels names the rows among ids the caller may read, by the field a
// picker shows: the Lookup's label, the tree's label, the Title, or the
// first unique field. Rows the caller may not read get no name.
func (r *Resource[T]) RowLabels(ctx context.Context, idb bun.IDB, ids []wire.ID) (map[wire.ID]string, error) {
	out := map[wire.ID]string{}
	f := r.labelField()
	if f == nil || len(ids) == 0 {
		return out, nil
	}
	var rows []T
	q, err := r.Select(ctx, idb, &rows)
	if err != nil {
		return nil, err
	}
	if err := q.Where("id IN (?)", bun.In(ids)).Limit(MaxAggregateGroup * 4).Scan(ctx); err != nil {
		return nil, err
	}
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		out[BaseOf(&rows[i]).ID] = fmt.Sprint(v.FieldByIndex(f.index).Interface())
	}
	return out, nil
}

func (r *Resource[T]) labelField() *Field {
	var name string
	switch {
	case r.spec.Lookup != nil:
		name = r.spec.Lookup.LabelField
	case r.spec.Tree != nil:
		name = r.spec.Tree.Label
	case r.spec.Title != "":
		name = r.spec.Title
	case len(r.spec.Unique) > 0:
		name = r.spec.Unique[0][0]
	}
	return r.meta.byName[name]
}

// aggregateExportRow carries one answer row to the engine's xlsx writer
// (streamXLSX reads struct fields): one cell per column, MaxGroupBy +
// MaxMeasures at most.
type aggregateExportRow struct {
	C0, C1, C2, C3, C4, C5, C6, C7, C8 any
}

// ExportAggregate answers res as the engine's export makes a file: the
// columns' labels in the caller's language, a reference or dictionary group
// by its name, decimals as exact number cells at their scale. target names
// it in the download monitor; name starts the file's name.
func ExportAggregate(req *http.Request, env *Env, target, name string, res *AggregateResult) (any, error) {
	cols := make([]*Field, len(res.Columns))
	for j, c := range res.Columns {
		cols[j] = &Field{Name: c.Key, Label: c.Label, index: []int{j}}
		if c.ValueType == ValueDecimal {
			cols[j].decimal = &decimalRule{scale: c.Scale}
		}
	}
	rows := make([]aggregateExportRow, len(res.Rows))
	for i, row := range res.Rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for j, c := range res.Columns {
			cell := row[c.Key]
			if label, ok := row[c.Key+"Label"]; ok {
				cell = label
			}
			if c.ValueType == ValueDecimal {
				if _, ok := cell.(wire.Decimal); !ok {
					cell = wire.Decimal{} // an empty cell
				}
			}
			if cell != nil {
				v.Field(j).Set(reflect.ValueOf(cell))
			}
		}
	}
	return streamXLSX(xlsxAnswer{env: env, req: req, target: target, name: name}, cols, rows, noMore[aggregateExportRow]), nil
}
