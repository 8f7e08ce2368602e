package system

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// Regions (blade_region, api-contract.md §5b) are the national
// administrative divisions, shared by every tenant and written by the super
// user. The key is the code, not an id, so this is not an engine resource:
// the handlers are written here with the same envelope, errors and paging.
// The tree's root is the virtual code "00": provinces have parentCode 00.
//
// Nor is it on the engine's tree (resource.Tree), which keys rows by id and
// reads them through the tenant and soft-delete predicates regions do not
// have (no tenant, no is_deleted, removed for good). What a tree needs is
// simpler here: a region's parent is fixed at insert (msgRegionParentFixed),
// so no move can make a cycle and ancestors never need rewriting; the
// children guard of remove is one statement with the engine's message, and
// the nested tree is resource.Nest over codes.

const (
	regionRoot     = "00"
	regionMaxLevel = 5 // 1 province, 2 city, 3 district, 4 street, 5 village
	// regionTreeMaxLevel: the nested tree stops at districts. China has about
	// 3,400 provinces, cities and districts but over 41,000 streets; a tree
	// down to streets would be a ~5 MB answer that no select widget can draw,
	// so streets (and villages) are loaded one parent at a time with lazy-tree.
	regionTreeMaxLevel = 3
	regionCodeMax      = 12 // blade_region.code is VARCHAR(12)
	regionNameMax      = 32 // blade_region.name is VARCHAR(32)
)

var (
	msgRegionCodeRequired = i18n.T("请输入区划编号", "Please enter the region code")
	msgRegionNameRequired = i18n.T("请输入区划名称", "Please enter the region name")
	msgRegionCodeDigits   = i18n.T("区划编号只能包含数字", "The region code may contain digits only")
	msgRegionCodeLong     = i18n.T("区划编号长度不能超过%d位", "The region code must be at most %d digits")
	msgRegionNameLong     = i18n.T("区划名称长度不能超过%d个字符", "The region name must be at most %d characters")
	msgRegionCodePrefix   = i18n.T("区划编号须以上级区划编号开头", "The region code must start with its parent's code")
	msgRegionParent       = i18n.T("上级区划不存在", "The parent region does not exist")
	msgRegionParentFixed  = i18n.T("不能修改已有区划的上级区划", "The parent of an existing region cannot be changed")
	msgRegionTooDeep      = i18n.T("区划最多%d级", "Regions go down to level %d at most")
	msgRegionNotFound     = i18n.T("区划不存在", "No such region")
	msgRegionCodeTaken    = i18n.T("区划编号已存在", "The region code is taken")
	msgRegionTreeLevel    = i18n.T("区划树最多%d级,更深的层级请用 lazy-tree 逐级加载", "The region tree goes down to level %d at most; load deeper levels with lazy-tree")
)

// RegionNode is a region as the screens and tree widgets read it: the row,
// whether it has children, and id/title/value/key (all the code) for trees.
type RegionNode struct {
	Code        string        `bun:"code" json:"code"`
	ParentCode  string        `bun:"parent_code" json:"parentCode"`
	Ancestors   string        `bun:"ancestors" json:"ancestors"`
	Name        string        `bun:"name" json:"name"`
	RegionLevel int           `bun:"region_level" json:"regionLevel"`
	Sort        int           `bun:"sort" json:"sort"`
	Remark      string        `bun:"remark" json:"remark"`
	HasChildren bool          `bun:"has_children" json:"hasChildren"`
	ID          string        `bun:"-" json:"id"`
	Title       string        `bun:"-" json:"title"`
	Value       string        `bun:"-" json:"value"`
	Key         string        `bun:"-" json:"key"`
	ParentName  string        `bun:"-" json:"parentName,omitempty"`
	Children    []*RegionNode `bun:"-" json:"children,omitempty"`
}

func (n *RegionNode) label() {
	n.ID, n.Title, n.Value, n.Key = n.Code, n.Name, n.Code, n.Code
}

// declareRegion gives regions their metadata and registry entry; the routes
// are the hand-written ones of mountRegion.
func (s *Service) declareRegion() *resource.Described {
	return resource.Describe[Region](resource.Spec{
		Service: "blade-system", Name: "region", Table: "blade_region", Label: i18n.T("行政区划", "Region"),
		MenuCode: "region", Scope: resource.Global, Read: resource.AnyUser, Write: resource.Super,
		Routes: []string{"list", "detail", "submit", "remove"},
	}, s.mountRegion)
}

func (s *Service) mountRegion(r chi.Router, env *resource.Env) {
	read, write := resource.Guard(resource.AnyUser), resource.Guard(resource.Super)
	base := s.res.Region.Spec().Path()
	r.Get(base+"/list", httpx.Handle(read(s.handleRegionList)))
	r.Get(base+"/lazy-tree", httpx.Handle(read(s.handleRegionLazyTree)))
	r.Get(base+"/tree", httpx.Handle(read(s.handleRegionTree)))
	r.Get(base+"/detail", httpx.Handle(read(s.handleRegionDetail)))
	r.Post(base+"/submit", httpx.Handle(write(s.handleRegionSubmit)))
	r.Post(base+"/remove", httpx.Handle(write(s.handleRegionRemove)))
}

// regionSelect starts a select of region nodes with hasChildren.
func regionSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("blade_region AS r").
		ColumnExpr("r.code, r.parent_code, r.ancestors, r.name, r.region_level, r.sort, r.remark").
		ColumnExpr("EXISTS (SELECT 1 FROM blade_region c WHERE c.parent_code = r.code) AS has_children")
}

func labelAll(rows []*RegionNode) []*RegionNode {
	if rows == nil {
		return []*RegionNode{}
	}
	for _, n := range rows {
		n.label()
	}
	return rows
}

// regionSorts are the columns list may sort by (JSON and column names).
var regionSorts = map[string]string{
	"code": "code", "name": "name", "sort": "sort", "regionLevel": "region_level", "region_level": "region_level",
	"parentCode": "parent_code", "parent_code": "parent_code",
}

// handleRegionList is a page of regions. Filters: code and name (contains;
// _equal and _likeright for exact and prefix), parentCode and regionLevel (equal).
func (s *Service) handleRegionList(r *http.Request) (any, error) {
	v := r.URL.Query()
	paging, err := httpx.ParsePaging(v)
	if err != nil {
		return nil, err
	}
	var rows []*RegionNode
	q := regionSelect(s.DB)
	for _, f := range []struct{ param, col string }{{"code", "r.code"}, {"name", "r.name"}} {
		if x := strings.TrimSpace(v.Get(f.param)); x != "" {
			q = q.Where("? LIKE ? ESCAPE '\\'", bun.Ident(f.col), "%"+db.EscapeLike(x)+"%")
		}
		if x := strings.TrimSpace(v.Get(f.param + "_like")); x != "" {
			q = q.Where("? LIKE ? ESCAPE '\\'", bun.Ident(f.col), "%"+db.EscapeLike(x)+"%")
		}
		if x := strings.TrimSpace(v.Get(f.param + "_likeright")); x != "" {
			q = q.Where("? LIKE ? ESCAPE '\\'", bun.Ident(f.col), db.EscapeLike(x)+"%")
		}
		if x := strings.TrimSpace(v.Get(f.param + "_equal")); x != "" {
			q = q.Where("? = ?", bun.Ident(f.col), x)
		}
	}
	for _, key := range []string{"parentCode", "parentCode_equal"} {
		if x := strings.TrimSpace(v.Get(key)); x != "" {
			q = q.Where("r.parent_code = ?", x)
		}
	}
	for _, key := range []string{"regionLevel", "regionLevel_equal"} {
		if x := strings.TrimSpace(v.Get(key)); x != "" {
			n, err := strconv.Atoi(x)
			if err != nil {
				return nil, httpx.InvalidParam(key)
			}
			q = q.Where("r.region_level = ?", n)
		}
	}
	for _, key := range []string{"descs", "ascs"} {
		for _, name := range strings.Split(v.Get(key), ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			col, ok := regionSorts[name]
			if !ok {
				return nil, httpx.Badf("不支持按%s排序", "Sorting by %s is not supported", name)
			}
			dir := " ASC"
			if key == "descs" {
				dir = " DESC"
			}
			q = q.OrderExpr("?"+dir, bun.Ident("r."+col))
		}
	}
	q = q.OrderExpr("r.code ASC") // the default order, and a stable tie-break for paging
	total, err := q.Limit(int64(paging.Size)).Offset(int64(paging.Offset())).ScanAndCount(r.Context(), &rows)
	if err != nil {
		return nil, err
	}
	return httpx.NewPage(labelAll(rows), int64(total), paging.Current, paging.Size), nil
}

// handleRegionLazyTree is the children of parentCode (default 00: the provinces).
func (s *Service) handleRegionLazyTree(r *http.Request) (any, error) {
	parent := strings.TrimSpace(r.URL.Query().Get("parentCode"))
	if parent == "" {
		parent = regionRoot
	}
	var rows []*RegionNode
	if err := regionSelect(s.DB).Where("r.parent_code = ?", parent).OrderExpr("r.sort ASC, r.code ASC").
		Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	return labelAll(rows), nil
}

// handleRegionTree is the nested tree from the provinces down to level
// (default 2: provinces and cities; at most 3, see regionTreeMaxLevel).
// Regions are shared by all tenants: tenantId is accepted and ignored.
func (s *Service) handleRegionTree(r *http.Request) (any, error) {
	level, err := httpx.QueryInt(r, "level", 2)
	if err != nil || level < 1 {
		return nil, httpx.InvalidParam("level")
	}
	if level > regionTreeMaxLevel {
		return nil, &httpx.Error{Status: 400, Msg: msgRegionTreeLevel.Format(regionTreeMaxLevel)}
	}
	var rows []RegionNode
	if err := regionSelect(s.DB).Where("r.region_level <= ?", level).OrderExpr("r.region_level ASC, r.sort ASC, r.code ASC").
		Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].label()
	}
	return resource.Nest(rows, func(n *RegionNode) string { return n.Code }, func(n *RegionNode) string { return n.ParentCode },
		func(p, c *RegionNode) { p.Children = append(p.Children, c) }), nil
}

// getRegion reads one region with hasChildren, or nil.
func (s *Service) getRegion(ctx context.Context, idb bun.IDB, code string) (*RegionNode, error) {
	var rows []*RegionNode
	q := regionSelect(idb).Where("r.code = ?", code).Limit(1)
	if err := q.Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	rows[0].label()
	return rows[0], nil
}

// handleRegionDetail reads one region by code, with its parent's name. The
// code may come as id too: a region's id is its code, and the generic
// detail?id= contract of the metadata then holds.
func (s *Service) handleRegionDetail(r *http.Request) (any, error) {
	code, err := httpx.QueryString(r, "code")
	if err != nil && strings.TrimSpace(r.URL.Query().Get("id")) != "" {
		code, err = httpx.QueryString(r, "id")
	}
	if err != nil {
		return nil, err
	}
	n, err := s.getRegion(r.Context(), s.DB, code)
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, &httpx.Error{Status: 404, Msg: msgRegionNotFound}
	}
	if n.ParentCode != regionRoot {
		if p, err := s.getRegion(r.Context(), s.DB, n.ParentCode); err != nil {
			return nil, err
		} else if p != nil {
			n.ParentName = p.Name
		}
	}
	return n, nil
}

// regionForm is the submit body. The BladeX form may send the code as
// parentCode + subCode instead of the whole code.
type regionForm struct {
	Code       string `json:"code"`
	SubCode    string `json:"subCode"`
	ParentCode string `json:"parentCode"`
	Name       string `json:"name"`
	Sort       int    `json:"sort"`
	Remark     string `json:"remark"`
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// handleRegionSubmit inserts a region, or updates the one with that code.
// On insert the parent (an existing region or 00) gives ancestors and
// regionLevel; the code must extend the parent's code. On update only name,
// sort and remark change (the keys present in the body): the parent, and so
// ancestors and level, stay.
func (s *Service) handleRegionSubmit(r *http.Request) (any, error) {
	body, err := httpx.ReadBody(r)
	if err != nil {
		return nil, err
	}
	var keys map[string]json.RawMessage
	if err := httpx.DecodeBytes(body, &keys); err != nil {
		return nil, err
	}
	var f regionForm
	if err := httpx.DecodeBytes(body, &f); err != nil {
		return nil, err
	}
	f.Code, f.SubCode = strings.TrimSpace(f.Code), strings.TrimSpace(f.SubCode)
	f.ParentCode, f.Name = strings.TrimSpace(f.ParentCode), strings.TrimSpace(f.Name)
	if f.Code == "" && f.SubCode != "" {
		if f.ParentCode == "" || f.ParentCode == regionRoot {
			f.Code = f.SubCode
		} else {
			f.Code = f.ParentCode + f.SubCode
		}
	}
	fieldErr := func(field string, msg i18n.Text) error {
		return &httpx.Error{Status: 400, Msg: msg, Data: map[string]string{field: msg.In(i18n.FromRequest(r))}}
	}
	switch {
	case f.Code == "":
		return nil, fieldErr("code", msgRegionCodeRequired)
	case !isDigits(f.Code):
		return nil, fieldErr("code", msgRegionCodeDigits)
	case len(f.Code) > regionCodeMax:
		return nil, fieldErr("code", msgRegionCodeLong.Format(regionCodeMax))
	}
	ctx := r.Context()
	var saved *RegionNode
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		cur, err := s.getRegion(ctx, tx, f.Code)
		if err != nil {
			return err
		}
		isNew := cur == nil
		if isNew || keys["name"] != nil {
			if f.Name == "" {
				return fieldErr("name", msgRegionNameRequired)
			}
			if utf8.RuneCountInString(f.Name) > regionNameMax {
				return fieldErr("name", msgRegionNameLong.Format(regionNameMax))
			}
		}
		if !isNew {
			if f.ParentCode != "" && f.ParentCode != cur.ParentCode {
				return fieldErr("parentCode", msgRegionParentFixed)
			}
			q := tx.NewUpdate().Table("blade_region").Where("code = ?", f.Code)
			changed := false
			if keys["name"] != nil {
				q, changed = q.Set("name = ?", f.Name), true
			}
			if keys["sort"] != nil {
				q, changed = q.Set("sort = ?", f.Sort), true
			}
			if keys["remark"] != nil {
				q, changed = q.Set("remark = ?", f.Remark), true
			}
			if changed {
				if _, err := q.Exec(ctx); err != nil {
					return err
				}
			}
		} else {
			if f.ParentCode == "" {
				f.ParentCode = regionRoot
			}
			ancestors, level := regionRoot, 1
			if f.ParentCode != regionRoot {
				parent, err := s.getRegion(ctx, tx, f.ParentCode)
				if err != nil {
					return err
				}
				if parent == nil {
					return fieldErr("parentCode", msgRegionParent)
				}
				if !strings.HasPrefix(f.Code, parent.Code) || f.Code == parent.Code {
					return fieldErr("code", msgRegionCodePrefix)
				}
				ancestors, level = parent.Ancestors+","+parent.Code, parent.RegionLevel+1
				if level > regionMaxLevel {
					return fieldErr("parentCode", msgRegionTooDeep.Format(regionMaxLevel))
				}
			}
			if keys["sort"] == nil {
				var max sql.NullInt64
				if err := tx.NewSelect().Table("blade_region").ColumnExpr("MAX(sort)").
					Where("parent_code = ?", f.ParentCode).Scan(ctx, &max); err != nil {
					return err
				}
				f.Sort = int(max.Int64) + 1
			}
			row := &Region{Code: f.Code, ParentCode: f.ParentCode, Ancestors: ancestors, Name: f.Name,
				RegionLevel: level, Sort: f.Sort, Remark: f.Remark}
			res, err := tx.NewInsert().Model(row).On("CONFLICT (code) DO NOTHING").Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 { // inserted meanwhile by another request
				return fieldErr("code", msgRegionCodeTaken)
			}
		}
		saved, err = s.getRegion(ctx, tx, f.Code)
		return err
	})
	if err != nil {
		return nil, err
	}
	return saved, nil
}

// handleRemoveRegion deletes regions by code (id=<code>, or a comma list),
// refusing any that still has children outside the list.
func (s *Service) handleRegionRemove(r *http.Request) (any, error) {
	raw := r.URL.Query().Get("id")
	if raw == "" {
		raw = r.URL.Query().Get("ids")
	}
	if raw == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		_ = r.ParseForm()
		raw = r.PostForm.Get("id")
	}
	var codes []string
	for _, c := range strings.Split(raw, ",") {
		if c = strings.TrimSpace(c); c != "" {
			if !isDigits(c) {
				return nil, httpx.InvalidParam("id")
			}
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return nil, httpx.MissingParam("id")
	}
	ctx := r.Context()
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		n, err := tx.NewSelect().Table("blade_region").
			Where("parent_code IN (?) AND code NOT IN (?)", bun.In(codes), bun.In(codes)).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return resource.ErrDeleteChildren
		}
		res, err := tx.NewDelete().Table("blade_region").Where("code IN (?)", bun.In(codes)).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &httpx.Error{Status: 404, Msg: msgRegionNotFound}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: i18n.T("删除成功", "Deleted")}, nil
}
