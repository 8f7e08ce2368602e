package system

import (
	"context"
	"net/http"
	"sort"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// dictionaries are declared twice over the same row type: system (global,
// super user writes) and business (per tenant, tenant admin writes).
func (s *Service) declareDicts() (*resource.Resource[Dict], *resource.Resource[Dict]) {
	hooks := func(table string) resource.Hooks[Dict] {
		return resource.Hooks[Dict]{
			BeforeSave: func(ctx context.Context, tx bun.Tx, d *Dict, isNew bool) error {
				return checkDictParent(ctx, tx, table, d)
			},
			BeforeRemove: func(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
				// removing a root removes its items with it
				_, err := tx.NewUpdate().Table(table).Set("is_deleted = 1").Where("parent_id IN (?)", bun.In(ids)).Exec(ctx)
				return err
			},
		}
	}
	dict := resource.New(resource.Spec{
		Service: "blade-system", Name: "dict", Table: "blade_dict", Label: i18n.T("系统字典", "System dictionary"),
		MenuCode: "dict", Scope: resource.Global, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"code", "dictKey"}},
	}, hooks("blade_dict"))
	biz := resource.New(resource.Spec{
		Service: "blade-system", Name: "dict-biz", Table: "blade_dict_biz", Label: i18n.T("业务字典", "Business dictionary"),
		MenuCode: "dictbiz", Scope: resource.Tenant, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"code", "dictKey"}},
	}, hooks("blade_dict_biz"))
	return dict, biz
}

// checkDictParent keeps a child's code equal to its root's code, and a root's key -1.
func checkDictParent(ctx context.Context, tx bun.Tx, table string, d *Dict) error {
	if d.ParentID == 0 {
		if d.DictKey == "" {
			d.DictKey = "-1"
		}
		return nil
	}
	var parent Dict
	err := tx.NewSelect().Model(&parent).ModelTableExpr("? AS dict", bun.Ident(table)).Where("id = ? AND is_deleted = 0", d.ParentID).Scan(ctx)
	if err != nil {
		return httpx.Badf("上级字典不存在", "The parent dictionary does not exist")
	}
	d.Code = parent.Code
	return nil
}

func (s *Service) mountDict(r chi.Router, env *resource.Env) {
	for _, res := range []*resource.Resource[Dict]{s.res.Dict, s.res.DictBiz} {
		res.Mount(r, env)
		res := res
		base := res.Spec().Path()
		read := resource.Guard(resource.AnyUser)
		r.Get(base+"/parent-list", httpx.Handle(read(func(req *http.Request) (any, error) { return dictPage(req, res, true) })))
		r.Get(base+"/child-list", httpx.Handle(read(func(req *http.Request) (any, error) { return dictPage(req, res, false) })))
		r.Get(base+"/tree", httpx.Handle(read(func(req *http.Request) (any, error) { return dictTree(req, res) })))
		r.Get(base+"/dictionary", httpx.Handle(read(func(req *http.Request) (any, error) { return dictionary(req, res) })))
	}
}

// dictPage lists roots (parent-list) or the children of parentId (child-list), paged.
func dictPage(r *http.Request, res *resource.Resource[Dict], roots bool) (any, error) {
	q, err := res.Meta().ParseQuery(r.URL.Query())
	if err != nil {
		return nil, err
	}
	var parentID wire.ID
	if !roots {
		if parentID, err = httpx.QueryID(r, "parentId"); err != nil {
			return nil, err
		}
	}
	rows, total, err := res.List(r.Context(), res.Env().DB, q, func(sq *bun.SelectQuery) (*bun.SelectQuery, error) {
		return sq.Where("parent_id = ?", parentID), nil
	})
	if err != nil {
		return nil, err
	}
	localize(r, rows)
	return httpx.NewPage(rows, total, q.Current, q.Size), nil
}

func localize(r *http.Request, rows []Dict) {
	if i18n.FromRequest(r) != i18n.En {
		return
	}
	for i := range rows {
		if rows[i].DictValueEn != "" {
			rows[i].DictValue = rows[i].DictValueEn
		}
	}
}

// TreeNode is the shape of every select tree (api-contract.md §4).
type TreeNode struct {
	ID          wire.ID     `json:"id"`
	ParentID    wire.ID     `json:"parentId"`
	Title       string      `json:"title"`
	Value       wire.ID     `json:"value"`
	Key         wire.ID     `json:"key"`
	HasChildren bool        `json:"hasChildren"`
	Children    []*TreeNode `json:"children,omitempty"`
}

// buildTree links flat nodes under their parents; nodes whose parent is absent become roots.
func buildTree(nodes []*TreeNode) []*TreeNode {
	byID := make(map[wire.ID]*TreeNode, len(nodes))
	for _, n := range nodes {
		byID[n.ID] = n
	}
	roots := []*TreeNode{}
	for _, n := range nodes {
		if p, ok := byID[n.ParentID]; ok && n.ParentID != n.ID {
			p.Children = append(p.Children, n)
			p.HasChildren = true
		} else {
			roots = append(roots, n)
		}
	}
	return roots
}

// dictTree is the tree of dictionaries: every root with its items (code=DICT asks for the roots' tree).
func dictTree(r *http.Request, res *resource.Resource[Dict]) (any, error) {
	var rows []Dict
	q, err := res.Select(r.Context(), res.Env().DB, &rows)
	if err != nil {
		return nil, err
	}
	if code := r.URL.Query().Get("code"); code != "" && code != "DICT" {
		q = q.Where("code = ?", code)
	}
	if err := q.Order("sort", "id").Limit(5000).Scan(r.Context()); err != nil {
		return nil, err
	}
	localize(r, rows)
	nodes := make([]*TreeNode, len(rows))
	for i, d := range rows {
		nodes[i] = &TreeNode{ID: d.ID, ParentID: d.ParentID, Title: d.DictValue, Value: d.ID, Key: d.ID}
	}
	return buildTree(nodes), nil
}

// dictionary returns the items of one code, flat and sorted.
func dictionary(r *http.Request, res *resource.Resource[Dict]) (any, error) {
	code, err := httpx.QueryString(r, "code")
	if err != nil {
		return nil, err
	}
	var rows []Dict
	q, err := res.Select(r.Context(), res.Env().DB, &rows)
	if err != nil {
		return nil, err
	}
	if err := q.Where("code = ? AND parent_id <> 0", code).Order("sort", "id").Scan(r.Context()); err != nil {
		return nil, err
	}
	localize(r, rows)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Sort < rows[j].Sort })
	if rows == nil {
		rows = []Dict{}
	}
	return rows, nil
}
