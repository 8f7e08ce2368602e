package flow

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Bindings: which process a tenant's documents of one type go through. The
// document types are the entries of the flow_route system dictionary (one
// per resource with startProcess); a tenant binds them from the process
// manager (bb_flow_binding). Where a tenant has set nothing, the remark of
// its own flow_route business-dictionary entry, else of the system
// dictionary's, names the process: the defaults a platform administrator
// may give every tenant.

var (
	msgNotDeployedHere = i18n.T("流程未部署到当前租户, 不能绑定单据", "The process is not deployed to this tenant, so no documents can be bound to it")
	msgUnknownRoute    = i18n.T("单据类型 %s 不存在", "There is no document type %s")
	msgBound           = i18n.T("单据绑定已保存", "The document bindings are saved")
)

// RouteBinding is a document type and the process its documents go through
// in the caller's tenant.
type RouteBinding struct {
	Route      string `json:"route"`
	Label      string `json:"label"`
	ProcessKey string `json:"processKey"`
	// Bound tells whether ProcessKey is the process asked about.
	Bound bool `json:"bound"`
}

// BoundProcess is the process key bound to a document type (route, e.g.
// "material") for the tenant; "" when none is.
func (s *Service) BoundProcess(ctx context.Context, idb bun.IDB, tenantID, route string) (string, error) {
	var set []string
	if err := idb.NewSelect().Table("bb_flow_binding").Column("def_key").Where("tenant_id = ? AND route = ?", tenantID, route).
		Limit(1).Scan(ctx, &set); err != nil {
		return "", err
	}
	if len(set) == 1 {
		return set[0], nil
	}
	var keys []string
	if err := idb.NewSelect().Table("blade_dict_biz").Column("remark").
		Where("tenant_id = ? AND code = 'flow_route' AND dict_key = ? AND parent_id <> 0 AND is_deleted = 0", tenantID, route).
		Limit(1).Scan(ctx, &keys); err != nil {
		return "", err
	}
	if len(keys) == 0 || strings.TrimSpace(keys[0]) == "" {
		keys = nil
		if err := idb.NewSelect().Table("blade_dict").Column("remark").
			Where("code = 'flow_route' AND dict_key = ? AND parent_id <> 0 AND is_deleted = 0", route).Limit(1).Scan(ctx, &keys); err != nil {
			return "", err
		}
	}
	if len(keys) == 0 {
		return "", nil
	}
	return strings.TrimSpace(keys[0]), nil
}

// routeBindings lists every document type with the process it goes through
// in the tenant, marking those bound to key.
func (s *Service) routeBindings(ctx context.Context, idb bun.IDB, tenantID, key string) ([]RouteBinding, error) {
	var items []struct {
		Key string `bun:"dict_key"`
		Zh  string `bun:"dict_value"`
		En  string `bun:"dict_value_en"`
	}
	if err := idb.NewSelect().Table("blade_dict").Column("dict_key", "dict_value", "dict_value_en").
		Where("code = 'flow_route' AND parent_id <> 0 AND is_deleted = 0").OrderExpr("sort, id").Scan(ctx, &items); err != nil {
		return nil, err
	}
	en := i18n.From(ctx) == i18n.En
	out := make([]RouteBinding, 0, len(items))
	for _, it := range items {
		bound, err := s.BoundProcess(ctx, idb, tenantID, it.Key)
		if err != nil {
			return nil, err
		}
		label := it.Zh
		if en && it.En != "" {
			label = it.En
		}
		out = append(out, RouteBinding{Route: it.Key, Label: label, ProcessKey: bound, Bound: key != "" && bound == key})
	}
	return out, nil
}

// deployedHere loads a definition the caller sees that is deployed to the
// caller's own tenant: bindings are per tenant, the super user's too.
func (s *Service) deployedHere(ctx context.Context, idb bun.IDB, id wire.ID) (*Definition, error) {
	d, err := s.definition(ctx, idb, id)
	if err != nil {
		return nil, err
	}
	ok, err := idb.NewSelect().Table("bb_flow_definition_tenant").Where("tenant_id = ? AND def_key = ?", authz.From(ctx).TenantID, d.Key).Exists(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, httpx.BadRequest(msgNotDeployedHere)
	}
	return d, nil
}

// handleRoutes: manager/routes?processId= lists the document types and
// which of them go through the definition's process in the caller's tenant.
func (s *Service) handleRoutes(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_manager_bind"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "processId")
	if err != nil {
		return nil, err
	}
	d, err := s.deployedHere(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	return s.routeBindings(ctx, s.DB, authz.From(ctx).TenantID, d.Key)
}

// handleBind: manager/bind?processId=&routes=a,b makes exactly the listed
// document types go through the definition's process in the caller's
// tenant; a type bound to it before and not listed goes through none.
func (s *Service) handleBind(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_manager_bind"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "processId")
	if err != nil {
		return nil, err
	}
	var routes []string
	for _, rt := range strings.Split(r.URL.Query().Get("routes"), ",") {
		if rt = strings.TrimSpace(rt); rt != "" && !slices.Contains(routes, rt) {
			routes = append(routes, rt)
		}
	}
	p := authz.From(ctx)
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		d, err := s.deployedHere(ctx, tx, id)
		if err != nil {
			return err
		}
		types, err := s.routeBindings(ctx, tx, p.TenantID, d.Key)
		if err != nil {
			return err
		}
		known := map[string]bool{}
		for _, t := range types {
			known[t.Route] = true
		}
		for _, rt := range routes {
			if !known[rt] {
				return httpx.BadRequest(msgUnknownRoute.Format(rt))
			}
			if err := setBinding(ctx, tx, p, rt, d.Key); err != nil {
				return err
			}
		}
		for _, t := range types {
			if t.Bound && !slices.Contains(routes, t.Route) {
				if err := setBinding(ctx, tx, p, t.Route, ""); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgBound, Data: true}, nil
}

// setBinding writes one tenant binding (key "" = none).
func setBinding(ctx context.Context, tx bun.Tx, p *authz.Principal, route, key string) error {
	_, err := tx.NewRaw(`INSERT INTO bb_flow_binding (id, tenant_id, route, def_key, update_user, update_time) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (tenant_id, route) DO UPDATE SET def_key = excluded.def_key, update_user = excluded.update_user, update_time = excluded.update_time`,
		db.NewID(), p.TenantID, route, key, p.UserID, wire.Now()).Exec(ctx)
	return err
}
