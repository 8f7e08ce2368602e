package system

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// Service is blade-system's face to other areas: tenants, clients, roles and
// parameters, read through small caches that every write here invalidates.
type Service struct {
	DB *db.DB
	// Users creates a new tenant's administrator (blade-user owns the table).
	Users AdminCreator
	// Scopes is told when grants or rules change.
	Scopes *Scopes
	// Sessions is told when tenants change (tenant.go); nil in tools without sessions.
	Sessions TenantSessions
	// TenantProvisioners give a new tenant what other areas need (default
	// code rules, ...), inside its creation transaction.
	TenantProvisioners []func(ctx context.Context, tx bun.Tx, tenantID string) error
	// Audit keeps the usual log of grants and tenant changes; nil keeps none.
	Audit audit.Recorder

	res *Resources

	mu      sync.RWMutex
	params  map[string]string
	clients map[string]*auth.ClientInfo
	tenants map[string]*auth.TenantInfo
	// gen counts invalidations. A load that began before one must not store
	// what it read: the write that caused it may have committed after the read.
	gen uint64

	// menus caches the menu table, top-menu bindings and role grants (menu.go).
	menus menuCache

	// OnInvalidate, when set, is called after a local change dropped a cache
	// (Invalidate, a menu or grant reset). The app publishes it so that the
	// other instances drop theirs with InvalidateLocal. Set it before serving.
	OnInvalidate func()
}

// NewService builds the service.
func NewService(d *db.DB) *Service {
	s := &Service{DB: d}
	s.menus.onReset = s.notify
	return s
}

// Invalidate drops every cache (after a write, or oauth/clear-cache).
func (s *Service) Invalidate() {
	s.InvalidateLocal()
	s.notify()
}

// InvalidateLocal drops every cache without calling OnInvalidate (another
// instance announced the change).
func (s *Service) InvalidateLocal() {
	s.mu.Lock()
	s.params, s.clients, s.tenants = nil, nil, nil
	s.gen++
	s.mu.Unlock()
	s.menus.resetLocal()
}

func (s *Service) notify() {
	if s.OnInvalidate != nil {
		s.OnInvalidate()
	}
}

// Param returns a system parameter's value, or def.
func (s *Service) Param(ctx context.Context, key, def string) string {
	s.mu.RLock()
	m, gen := s.params, s.gen
	s.mu.RUnlock()
	if m == nil {
		var rows []Param
		if err := s.DB.NewSelect().Model(&rows).Where("is_deleted = 0").Scan(ctx); err != nil {
			return def
		}
		m = make(map[string]string, len(rows))
		for _, p := range rows {
			m[p.ParamKey] = p.ParamValue
		}
		s.mu.Lock()
		if s.gen == gen {
			s.params = m
		}
		s.mu.Unlock()
	}
	if v, ok := m[key]; ok && v != "" {
		return v
	}
	return def
}

// ParamInt reads an integer parameter.
func (s *Service) ParamInt(ctx context.Context, key string, def int) int {
	return atoiOr(s.Param(ctx, key, ""), def)
}

func atoiOr(v string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return def
	}
	return n
}

// ParamIn is Param read through idb. A write transaction reads through
// itself, since a statement beside it is refused (db.ErrOutsideTx), and does
// not fill the cache (its view is not yet everybody's); other handles use Param.
func (s *Service) ParamIn(ctx context.Context, idb bun.IDB, key, def string) (string, error) {
	if !inTx(idb) {
		return s.Param(ctx, key, def), nil
	}
	return readParam(ctx, idb, key, def)
}

// readParam reads a parameter past the cache, failing on a database error
// where Param would fall back to def.
func readParam(ctx context.Context, idb bun.IDB, key, def string) (string, error) {
	var values []string
	err := idb.NewSelect().Model((*Param)(nil)).Column("param_value").
		Where("param_key = ? AND is_deleted = 0", key).Limit(1).Scan(ctx, &values)
	if err != nil {
		return "", err
	}
	if len(values) == 0 || values[0] == "" {
		return def, nil
	}
	return values[0], nil
}

func inTx(idb bun.IDB) bool {
	switch idb.(type) {
	case bun.Tx, *bun.Tx:
		return true
	}
	return false
}

// Client returns a live OAuth client by id, or nil.
func (s *Service) Client(ctx context.Context, clientID string) (*auth.ClientInfo, error) {
	s.mu.RLock()
	c, ok := s.clients[clientID]
	gen := s.gen
	s.mu.RUnlock()
	if ok {
		return c, nil
	}
	var row Client
	err := s.DB.NewSelect().Model(&row).Where("client_id = ? AND is_deleted = 0", clientID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c = &auth.ClientInfo{ClientID: row.ClientID, Secret: row.ClientSecret, AccessTTL: row.AccessTokenValidity, RefreshTTL: row.RefreshTokenValidity}
	for _, g := range strings.Split(row.AuthorizedGrantTypes, ",") {
		if g = strings.TrimSpace(g); g != "" {
			c.GrantTypes = append(c.GrantTypes, g)
		}
	}
	s.mu.Lock()
	if s.gen == gen {
		if s.clients == nil {
			s.clients = map[string]*auth.ClientInfo{}
		}
		s.clients[clientID] = c
	}
	s.mu.Unlock()
	return c, nil
}

// Tenant returns a live tenant, or nil.
func (s *Service) Tenant(ctx context.Context, tenantID string) (*auth.TenantInfo, error) {
	s.mu.RLock()
	t, ok := s.tenants[tenantID]
	gen := s.gen
	s.mu.RUnlock()
	if ok {
		return t, nil
	}
	t, err := loadTenant(ctx, s.DB, tenantID)
	if t == nil {
		return nil, err
	}
	s.mu.Lock()
	if s.gen == gen {
		if s.tenants == nil {
			s.tenants = map[string]*auth.TenantInfo{}
		}
		s.tenants[tenantID] = t
	}
	s.mu.Unlock()
	return t, nil
}

// TenantIn is Tenant read through idb; a write transaction reads through
// itself, uncached (see ParamIn).
func (s *Service) TenantIn(ctx context.Context, idb bun.IDB, tenantID string) (*auth.TenantInfo, error) {
	if !inTx(idb) {
		return s.Tenant(ctx, tenantID)
	}
	return loadTenant(ctx, idb, tenantID)
}

// TenantExists tells whether a live tenant has this id (resource.Env.TenantExists).
func (s *Service) TenantExists(ctx context.Context, idb bun.IDB, tenantID string) (bool, error) {
	t, err := s.TenantIn(ctx, idb, tenantID)
	return t != nil, err
}

func loadTenant(ctx context.Context, idb bun.IDB, tenantID string) (*auth.TenantInfo, error) {
	var row Tenant
	err := idb.NewSelect().Model(&row).Where("tenant_id = ? AND is_deleted = 0", tenantID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &auth.TenantInfo{TenantID: row.TenantID, Name: row.TenantName, ExpireTime: row.ExpireTime, AccountNumber: row.AccountNumber, PackageID: row.PackageID}, nil
}

// RoleAliases returns the aliases of the tenant's live roles among ids.
func (s *Service) RoleAliases(ctx context.Context, tenantID string, ids []wire.ID) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var aliases []string
	err := s.DB.NewSelect().Model((*Role)(nil)).Column("role_alias").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", tenantID, bun.In(ids)).Order("sort", "id").Scan(ctx, &aliases)
	return aliases, err
}

// Names returns display names of the tenant's roles, departments or posts by
// id, for other areas to label their rows without reading these tables. An
// id of another tenant has no name here: the caller names the tenant of the
// rows it labels, so a stored id that crossed tenants is not read out.
func (s *Service) Names(ctx context.Context, tenantID, kind string, ids []wire.ID) (map[wire.ID]string, error) {
	if len(ids) == 0 {
		return map[wire.ID]string{}, nil
	}
	table, col := "", ""
	switch kind {
	case "role":
		table, col = "blade_role", "role_name"
	case "dept":
		table, col = "blade_dept", "dept_name"
	case "post":
		table, col = "blade_post", "post_name"
	default:
		return nil, errors.New("unknown name kind " + kind)
	}
	v, err := s.DB.Memo.Get("names:"+kind+":"+tenantID+":"+wire.JoinIDs(ids), func() (any, error) {
		var rows []struct {
			ID   wire.ID `bun:"id"`
			Name string  `bun:"name"`
		}
		err := s.DB.NewSelect().Table(table).ColumnExpr("id, ? AS name", bun.Ident(col)).
			Where("tenant_id = ? AND id IN (?) AND is_deleted = 0", tenantID, bun.In(ids)).Scan(ctx, &rows)
		out := make(map[wire.ID]string, len(rows))
		for _, r := range rows {
			out[r.ID] = r.Name
		}
		return out, err
	})
	if err != nil {
		return nil, err
	}
	return v.(map[wire.ID]string), nil
}
