package flow

import (
	"context"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
)

// ButtonHolder tells whether a caller holds a menu button (system.Service).
type ButtonHolder interface {
	HoldsButton(ctx context.Context, p *authz.Principal, code string) (bool, error)
}

// Business is what the engine knows of a business table whose rows go
// through approval (registered by the approval area per resource).
type Business struct {
	Service, Name, MenuCode string
	// Visible tells whether the caller may read the row (its resource's scope).
	Visible func(ctx context.Context, idb bun.IDB, id wire.ID) bool
}

// Service is the workflow area: the engine and the blade-flow endpoints.
type Service struct {
	DB      *db.DB
	Engine  *Engine
	Buttons ButtonHolder
	// TenantExists checks the tenants a definition is deployed to.
	TenantExists func(ctx context.Context, idb bun.IDB, tenantID string) (bool, error)
	businesses   map[string]*Business
}

// New returns the workflow service on d.
func New(d *db.DB) *Service {
	return &Service{DB: d, Engine: NewEngine(d), businesses: map[string]*Business{}}
}

// RegisterBusiness names a business table's resource and gives its end
// callback: every resource with startProcess registers itself at mount.
func (s *Service) RegisterBusiness(table string, b *Business, end EndFunc) {
	s.Engine.mu.Lock()
	s.businesses[table] = b
	s.Engine.mu.Unlock()
	if end != nil {
		s.Engine.OnEnd(table, end)
	}
}

func (s *Service) business(table string) *Business {
	s.Engine.mu.RLock()
	defer s.Engine.mu.RUnlock()
	return s.businesses[table]
}

// actorOf is the caller as the engine sees them.
func actorOf(p *authz.Principal) Actor {
	return Actor{UserID: p.UserID, TenantID: p.TenantID, Groups: p.RoleAliases}
}

// holds checks that the caller holds one of the buttons (the super user holds all).
func (s *Service) holds(ctx context.Context, codes ...string) error {
	p := authz.From(ctx)
	if p == nil {
		return httpx.ErrUnauthorized
	}
	if p.IsSuper() {
		return nil
	}
	if s.Buttons == nil {
		return httpx.ErrForbidden
	}
	for _, c := range codes {
		ok, err := s.Buttons.HoldsButton(ctx, p, c)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return httpx.ErrForbidden
}

// canSee tells whether the caller may see an instance's history and
// diagram: an administrator of its tenant, a holder of the follow screen,
// its initiator, someone with a task in it (done, assigned or claimable),
// or a reader of its business row.
func (s *Service) canSee(ctx context.Context, idb bun.IDB, inst *Instance) (bool, error) {
	p := authz.From(ctx)
	if p == nil || (inst.TenantID != p.TenantID && !p.IsSuper()) {
		return false, nil
	}
	if p.IsTenantAdmin() || inst.Initiator == p.UserID {
		return true, nil
	}
	if s.holds(ctx, "flow_follow_view") == nil {
		return true, nil
	}
	mine, err := idb.NewSelect().Table("bb_flow_task").Where("tenant_id = ? AND instance_id = ? AND assignee = ?", inst.TenantID, inst.ID, p.UserID).Exists(ctx)
	if err != nil || mine {
		return mine, err
	}
	cand, err := candidateMatch(idb, actorOf(p), "1").Join("JOIN bb_flow_task AS t ON t.id = c.task_id").Where("t.instance_id = ?", inst.ID).Exists(ctx)
	if err != nil || cand {
		return cand, err
	}
	if b := s.business(inst.BusinessTable); b != nil && b.Visible != nil {
		return b.Visible(ctx, idb, inst.BusinessID), nil
	}
	return false, nil
}

// splitTenants reads a comma list of tenant ids.
func splitTenants(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
