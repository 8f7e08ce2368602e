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
	bound, err := boundProcesses(ctx, idb, tenantID, []string{route})
	return bound[route], err
}

// boundProcesses is BoundProcess of several routes, in three reads whatever
// their number: the tenant's bindings, then for the routes it has not set
// its business dictionary's remarks, then the system dictionary's.
func boundProcesses(ctx context.Context, idb bun.IDB, tenantID string, routes []string) (map[string]string, error) {
	out := make(map[string]string, len(routes))
	if len(routes) == 0 {
		return out, nil
	}
	var set []struct {
		Route  string `bun:"route"`
		DefKey string `bun:"def_key"`
	}
	if err := idb.NewSelect().Table("bb_flow_binding").Column("route", "def_key").
		Where("tenant_id = ? AND route IN (?)", tenantID, bun.In(routes)).Scan(ctx, &set); err != nil {
		return nil, err
	}
	decided := make(map[string]bool, len(routes))
	for _, b := range set {
		out[b.Route], decided[b.Route] = b.DefKey, true // an explicit "" (none) decides too
	}
	for _, table := range []string{"blade_dict_biz", "blade_dict"} {
		var open []string
		for _, r := range routes {
			if !decided[r] {
				open = append(open, r)
			}
		}
		if len(open) == 0 {
			break
		}
		var remarks []struct {
			Route  string `bun:"dict_key"`
			Remark string `bun:"remark"`
		}
		q := idb.NewSelect().Table(table).Column("dict_key", "remark").
			Where("code = 'flow_route' AND dict_key IN (?) AND parent_id <> 0 AND is_deleted = 0", bun.In(open)).OrderExpr("id")
		if table == "blade_dict_biz" {
			q = q.Where("tenant_id = ?", tenantID)
		}
		if err := q.Scan(ctx, &remarks); err != nil {
			return nil, err
		}
		for _, r := range remarks {
			// the first entry of a route decides; an empty business remark leaves it to the system dictionary
			if key := strings.TrimSpace(r.Remark); !decided[r.Route] && (key != "" || table == "blade_dict") {
				out[r.Route], decided[r.Route] = key, true
			}
		}
	}
	return out, nil
}

// routeBindings lists every document type with the process it goes through
// in the tenant; Bound marks those going through key.
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
	routes := make([]string, len(items))
	for i, it := range items {
		routes[i] = it.Key
	}
	bound, err := boundProcesses(ctx, idb, tenantID, routes)
	if err != nil {
		return nil, err
	}
	en := i18n.From(ctx) == i18n.En
	out := make([]RouteBinding, 0, len(items))
	for _, it := range items {
		label := it.Zh
		if en && it.En != "" {
			label = it.En
		}
		out = append(out, RouteBinding{Route: it.Key, Label: label, ProcessKey: bound[it.Key], Bound: key != "" && bound[it.Key] == key})
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
