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
// super user writes) and business (per tenant, tenant admin writes). Each is
// a tree: a root per code and its entries, which go with it when it is
// removed (Cascade).
func (s *Service) declareDicts() (*resource.Resource[Dict], *resource.Resource[Dict]) {
	tree := &resource.Tree{Parent: "parentId", Label: "dictValue", LabelEn: "dictValueEn", Cascade: true, Filter: dictTreeFilter}
	hooks := func(table string) resource.Hooks[Dict] {
		return resource.Hooks[Dict]{
			BeforeSave: func(ctx context.Context, tx bun.Tx, d *Dict, isNew bool) error {
				return dictCode(ctx, tx, table, d)
			},
		}
	}
	dict := resource.New(resource.Spec{
		Service: "blade-system", Name: "dict", Table: "blade_dict", Label: i18n.T("系统字典", "System dictionary"),
		MenuCode: "dict", Scope: resource.Global, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"code", "dictKey"}}, Tree: tree,
	}, hooks("blade_dict"))
	biz := resource.New(resource.Spec{
		Service: "blade-system", Name: "dict-biz", Table: "blade_dict_biz", Label: i18n.T("业务字典", "Business dictionary"),
		MenuCode: "dictbiz", Scope: resource.Tenant, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"code", "dictKey"}}, Tree: tree,
	}, hooks("blade_dict_biz"))
	return dict, biz
}

// dictCode keeps an entry's code equal to its parent's, and a root's key -1.
// The engine has found the parent a live row of the dictionary.
func dictCode(ctx context.Context, tx bun.Tx, table string, d *Dict) error {
	if d.ParentID == 0 {
		if d.DictKey == "" {
			d.DictKey = "-1"
		}
		return nil
	}
	return tx.NewSelect().Table(table).Column("code").Where("id = ?", d.ParentID).Limit(1).Scan(ctx, &d.Code)
}

// dictTreeFilter: tree?code=X is the tree of one dictionary; code=DICT (or
// none) is every dictionary's.
func dictTreeFilter(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	if code := r.URL.Query().Get("code"); code != "" && code != "DICT" {
		q = q.Where("code = ?", code)
	}
	return q, nil
}

func (s *Service) mountDict(r chi.Router, env *resource.Env) {
	for _, res := range []*resource.Resource[Dict]{s.res.Dict, s.res.DictBiz} {
		res.Mount(r, env)
		res := res
		base := res.Spec().Path()
		read := resource.Guard(resource.AnyUser)
		r.Get(base+"/parent-list", httpx.Handle(read(func(req *http.Request) (any, error) { return dictPage(req, res, true) })))
		r.Get(base+"/child-list", httpx.Handle(read(func(req *http.Request) (any, error) { return dictPage(req, res, false) })))
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
