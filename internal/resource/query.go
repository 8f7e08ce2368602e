package resource

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/uptrace/bun"
)

// MaxPageSize caps `size` so no single request can ask for the whole table.
const MaxPageSize = httpx.MaxPageSize

// MaxFilterLen bounds a filter value in characters, or the field's own max
// when that is larger: a longer value cannot match a stored one, and a long
// LIKE pattern is refused by SQLite.
const MaxFilterLen = 255

// Query is a parsed list request (api-contract.md §3).
type Query struct {
	Current, Size int
	Conds         []Cond
	Order         []Order
}

// KeywordParam searches a resource's lookup fields (its code and name) at
// once: what a remote picker sends as the user types.
const KeywordParam = "keyword"

// Cond is one whitelisted filter.
type Cond struct {
	Fields []*Field // the keyword condition's fields
	Field  *Field
	Op     string // equal notequal like notlike likeleft likeright gt ge lt le null notnull dategt datege datelt datele dateequal
	Value  any
}

// Order is one whitelisted sort.
type Order struct {
	Field *Field
	Desc  bool
}

var suffixes = []string{"_notequal", "_equal", "_notlike", "_likeleft", "_likeright", "_like", "_notnull", "_null",
	"_dategt", "_datege", "_datelt", "_datele", "_dateequal", "_gt", "_ge", "_lt", "_le", "_ignore"}

// reserved parameters are never filters.
var reserved = map[string]bool{KeywordParam: true, "current": true, "size": true, "descs": true, "ascs": true, "ids": true, "id": true, "_t": true, "t": true}

// ParseQuery reads paging, filters and sorts from the URL query. Filters on
// undeclared names are ignored; sorts on undeclared columns are a 400.
func (m *Meta) ParseQuery(v url.Values) (*Query, error) {
	paging, err := httpx.ParsePaging(v)
	if err != nil {
		return nil, err
	}
	q := &Query{Current: paging.Current, Size: paging.Size}
	for _, key := range []string{"descs", "ascs"} {
		for _, name := range strings.Split(v.Get(key), ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			f := m.sortable(name)
			if f == nil {
				return nil, httpx.Badf("不支持按%s排序", "Sorting by %s is not supported", name)
			}
			q.Order = append(q.Order, Order{Field: f, Desc: key == "descs"})
		}
	}
	if kw := strings.TrimSpace(v.Get(KeywordParam)); kw != "" && len(m.keyword) > 0 {
		if utf8.RuneCountInString(kw) > MaxFilterLen {
			return nil, httpx.Badf("查询条件%s过长(最多%d个字符)", "Filter %s is too long (at most %d characters)", KeywordParam, MaxFilterLen)
		}
		q.Conds = append(q.Conds, Cond{Op: "keyword", Value: kw, Fields: m.keyword})
	}
	for key, vals := range v {
		if reserved[key] || len(vals) == 0 {
			continue
		}
		raw := strings.TrimSpace(vals[0])
		name, op := key, ""
		for _, s := range suffixes {
			if strings.HasSuffix(key, s) {
				name, op = strings.TrimSuffix(key, s), s[1:]
				break
			}
		}
		if op == "ignore" {
			continue
		}
		if raw == "" && op != "null" && op != "notnull" {
			continue
		}
		f := m.byName[name]
		if f == nil || f.Filter == "" {
			continue
		}
		c, err := buildCond(f, op, raw, key)
		if err != nil {
			return nil, err
		}
		q.Conds = append(q.Conds, c)
	}
	return q, nil
}

func (m *Meta) sortable(name string) *Field {
	f := m.byName[name]
	if f == nil {
		// BladeX clients may send column names.
		f = m.byColumn[name]
	}
	if f == nil || !f.Sortable {
		return nil
	}
	return f
}

func buildCond(f *Field, op, raw, key string) (Cond, error) {
	if op == "" {
		switch f.Filter {
		case "like":
			op = "like"
		case "date":
			op = "dateequal"
		default:
			op = "equal"
		}
	}
	c := Cond{Field: f, Op: op}
	if limit := max(MaxFilterLen, f.Max); utf8.RuneCountInString(raw) > limit {
		return c, httpx.Badf("查询条件%s过长(最多%d个字符)", "Filter %s is too long (at most %d characters)", key, limit)
	}
	if f.ValueType == ValueDecimal {
		return decimalCond(c, raw, key) // decimal.go
	}
	switch op {
	case "null", "notnull":
		return c, nil
	case "like", "notlike", "likeleft", "likeright":
		c.Value = raw
		return c, nil
	case "dategt", "datege", "datelt", "datele", "dateequal":
		t, err := wire.ParseTime(raw)
		if err != nil {
			return c, httpx.InvalidParam(key)
		}
		c.Value = t
		return c, nil
	}
	// The value is parsed as the column's Go type, whatever the UI type.
	var err error
	switch f.ValueType {
	case ValueID:
		var id wire.ID
		id, err = wire.ParseID(raw)
		c.Value = int64(id)
	case ValueInt:
		c.Value, err = strconv.ParseInt(raw, 10, 64)
	case ValueBool:
		c.Value, err = strconv.ParseBool(raw)
	case ValueDateTime:
		c.Value, err = wire.ParseTime(raw)
	default:
		c.Value = raw
	}
	if err != nil {
		return c, httpx.InvalidParam(key)
	}
	return c, nil
}

// Apply adds the conditions and order to a select query on table alias tbl.
func (q *Query) Apply(sq *bun.SelectQuery, alias string) *bun.SelectQuery {
	for _, c := range q.Conds {
		if c.Op == "keyword" {
			// case-insensitive on both databases (PostgreSQL's LIKE is not)
			like := "%" + db.EscapeLike(strings.ToLower(c.Value.(string))) + "%"
			ors := make([]string, len(c.Fields))
			args := make([]any, 0, 2*len(c.Fields))
			for i, f := range c.Fields {
				ors[i] = "LOWER(?) LIKE ? ESCAPE '\\'"
				args = append(args, f.qualified(alias), like)
			}
			sq = sq.Where("("+strings.Join(ors, " OR ")+")", args...)
			continue
		}
		col := c.Field.qualified(alias)
		switch c.Op {
		case "equal", "dateequal":
			if c.Op == "dateequal" {
				t := c.Value.(wire.Time)
				if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
					// a bare date means the whole day
					sq = sq.Where("? >= ? AND ? < ?", col, t, col, wire.Time{Time: t.AddDate(0, 0, 1)})
					continue
				}
			}
			sq = sq.Where("? = ?", col, c.Value)
		case "notequal":
			sq = sq.Where("? <> ?", col, c.Value)
		case "like":
			sq = sq.Where("? LIKE ? ESCAPE '\\'", col, "%"+db.EscapeLike(c.Value.(string))+"%")
		case "notlike":
			sq = sq.Where("? NOT LIKE ? ESCAPE '\\'", col, "%"+db.EscapeLike(c.Value.(string))+"%")
		case "likeleft":
			sq = sq.Where("? LIKE ? ESCAPE '\\'", col, "%"+db.EscapeLike(c.Value.(string)))
		case "likeright":
			sq = sq.Where("? LIKE ? ESCAPE '\\'", col, db.EscapeLike(c.Value.(string))+"%")
		case "gt", "dategt":
			sq = sq.Where("? > ?", col, c.Value)
		case "ge", "datege":
			sq = sq.Where("? >= ?", col, c.Value)
		case "lt", "datelt":
			sq = sq.Where("? < ?", col, c.Value)
		case "le", "datele":
			sq = sq.Where("? <= ?", col, c.Value)
		// text columns hold '' for no value (NOT NULL DEFAULT ''): empty is null there
		case "null":
			if c.Field.ValueType == ValueString {
				sq = sq.Where("(? IS NULL OR ? = '')", col, col)
			} else {
				sq = sq.Where("? IS NULL", col)
			}
		case "notnull":
			if c.Field.ValueType == ValueString {
				sq = sq.Where("(? IS NOT NULL AND ? <> '')", col, col)
			} else {
				sq = sq.Where("? IS NOT NULL", col)
			}
		}
	}
	for _, o := range q.Order {
		col := o.Field.qualified(alias)
		if o.Desc {
			sq = sq.OrderExpr("? DESC", col)
		} else {
			sq = sq.OrderExpr("? ASC", col)
		}
	}
	return sq
}

// qualified is the field's column under the base table's alias, or under
// its joined table's for a view's joined column.
func (f *Field) qualified(alias string) bun.Ident {
	switch {
	case f.joinAlias != "":
		return bun.Ident(f.joinAlias + "." + f.joinColumn)
	case alias != "":
		return bun.Ident(alias + "." + f.Column)
	}
	return bun.Ident(f.Column)
}
