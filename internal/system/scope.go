package system

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
)

// Scope categories in blade_role_scope.
const (
	ScopeData = 1
	ScopeAPI  = 2
)

// Data-scope types (api-contract.md §6).
const (
	DataAll         = 1
	DataOwn         = 2
	DataOwnDept     = 3
	DataDeptSubtree = 4
	DataCustom      = 5
)

// Scopes answers data-scope predicates and API-scope checks from the roles'
// grants, cached per role until a grant or rule changes.
type Scopes struct {
	DB *db.DB

	mu   sync.RWMutex
	data map[wire.ID][]DataScope // role → granted data rules
	api  map[wire.ID][]APIScope  // role → granted API rules

	// OnInvalidate, when set, is called after Invalidate; the app publishes it
	// so that the other instances call InvalidateLocal. Set it before serving.
	OnInvalidate func()
}

// Invalidate forgets cached grants (after role grant or scope rule edits).
func (s *Scopes) Invalidate() {
	s.InvalidateLocal()
	if s.OnInvalidate != nil {
		s.OnInvalidate()
	}
}

// InvalidateLocal forgets cached grants without calling OnInvalidate
// (another instance announced the change).
func (s *Scopes) InvalidateLocal() {
	s.mu.Lock()
	s.data, s.api = nil, nil
	s.mu.Unlock()
}

func (s *Scopes) load(ctx context.Context) (map[wire.ID][]DataScope, map[wire.ID][]APIScope, error) {
	s.mu.RLock()
	d, a := s.data, s.api
	s.mu.RUnlock()
	if d != nil {
		return d, a, nil
	}
	var grants []struct {
		Category int     `bun:"scope_category"`
		ScopeID  wire.ID `bun:"scope_id"`
		RoleID   wire.ID `bun:"role_id"`
	}
	if err := s.DB.NewSelect().Table("blade_role_scope").Column("scope_category", "scope_id", "role_id").Scan(ctx, &grants); err != nil {
		return nil, nil, err
	}
	var rules []DataScope
	if err := s.DB.NewSelect().Model(&rules).Where("is_deleted = 0").Scan(ctx); err != nil {
		return nil, nil, err
	}
	var apis []APIScope
	if err := s.DB.NewSelect().Model(&apis).Where("is_deleted = 0").Scan(ctx); err != nil {
		return nil, nil, err
	}
	ruleByID := map[wire.ID]DataScope{}
	for _, r := range rules {
		ruleByID[r.ID] = r
	}
	apiByID := map[wire.ID]APIScope{}
	for _, r := range apis {
		apiByID[r.ID] = r
	}
	d, a = map[wire.ID][]DataScope{}, map[wire.ID][]APIScope{}
	for _, g := range grants {
		switch g.Category {
		case ScopeData:
			if r, ok := ruleByID[g.ScopeID]; ok {
				d[g.RoleID] = append(d[g.RoleID], r)
			}
		case ScopeAPI:
			if r, ok := apiByID[g.ScopeID]; ok {
				a[g.RoleID] = append(a[g.RoleID], r)
			}
		}
	}
	s.mu.Lock()
	s.data, s.api = d, a
	s.mu.Unlock()
	return d, a, nil
}

// Where implements resource.DataScoper: the union of the caller's roles'
// rules for the resource; no rule means unrestricted. A rule that cannot be
// applied (unknown type or column) contributes "1 = 0": it hides rather than leaks.
func (s *Scopes) Where(ctx context.Context, p *authz.Principal, code, alias string, hasColumn func(string) bool) (string, []any, error) {
	data, _, err := s.load(ctx)
	if err != nil {
		return "", nil, err
	}
	var parts []string
	var args []any
	col := func(c string) bun.Ident {
		if alias != "" {
			return bun.Ident(alias + "." + c)
		}
		return bun.Ident(c)
	}
	for _, roleID := range p.RoleIDs {
		for _, rule := range data[roleID] {
			if rule.ResourceCode != code {
				continue
			}
			switch rule.ScopeType {
			case DataAll:
				return "", nil, nil
			case DataOwn, DataOwnDept, DataDeptSubtree:
				c := rule.ScopeColumn
				if c == "" {
					c = map[int]string{DataOwn: "create_user", DataOwnDept: "create_dept", DataDeptSubtree: "create_dept"}[rule.ScopeType]
				}
				if !hasColumn(c) {
					parts = append(parts, "1 = 0")
					continue
				}
				switch rule.ScopeType {
				case DataOwn:
					parts, args = append(parts, "? = ?"), append(args, col(c), p.UserID)
				case DataOwnDept:
					parts, args = append(parts, "? = ?"), append(args, col(c), p.DeptID)
				default:
					ids, err := deptSubtree(ctx, s.DB, p.TenantID, p.DeptID)
					if err != nil {
						return "", nil, err
					}
					parts, args = append(parts, "? IN (?)"), append(args, col(c), bun.In(ids))
				}
			case DataCustom:
				sql, a, err := compileCustom(rule.ScopeValue, p, col, hasColumn)
				if err != nil {
					parts = append(parts, "1 = 0")
					continue
				}
				parts, args = append(parts, sql), append(args, a...)
			default:
				parts = append(parts, "1 = 0")
			}
		}
	}
	if len(parts) == 0 {
		return "", nil, nil
	}
	return "(" + strings.Join(parts, " OR ") + ")", args, nil
}

// APIAllowed tells whether the caller may call path of the resource code:
// when the caller's roles hold API-scope grants for the code, the path must
// match one of them ("/**" suffix matches a whole subtree).
func (s *Scopes) APIAllowed(ctx context.Context, p *authz.Principal, code, path string) (bool, error) {
	_, api, err := s.load(ctx)
	if err != nil {
		return false, err
	}
	restricted := false
	for _, roleID := range p.RoleIDs {
		for _, rule := range api[roleID] {
			if rule.ResourceCode != code {
				continue
			}
			restricted = true
			if pathMatches(rule.ScopePath, path) {
				return true, nil
			}
		}
	}
	return !restricted, nil
}

func pathMatches(pattern, path string) bool {
	pattern = strings.TrimSpace(pattern)
	if strings.HasSuffix(pattern, "/**") {
		prefix := strings.TrimSuffix(pattern, "/**")
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	if strings.HasSuffix(pattern, "/*") {
		prefix := strings.TrimSuffix(pattern, "*")
		return strings.HasPrefix(path, prefix) && !strings.Contains(strings.TrimPrefix(path, prefix), "/")
	}
	return pattern == path
}

// DeptSubtree is a department and all departments below it.
func (s *Service) DeptSubtree(ctx context.Context, tenantID string, deptID wire.ID) ([]wire.ID, error) {
	return deptSubtree(ctx, s.DB, tenantID, deptID)
}

func deptSubtree(ctx context.Context, d *db.DB, tenantID string, deptID wire.ID) ([]wire.ID, error) {
	ids := []wire.ID{deptID}
	if deptID == 0 {
		return ids, nil
	}
	var more []wire.ID
	pattern := "%," + deptID.String() + ",%"
	err := d.NewSelect().Table("blade_dept").Column("id").
		Where("tenant_id = ? AND is_deleted = 0 AND (',' || ancestors || ',') LIKE ?", tenantID, pattern).Scan(ctx, &more)
	if err != nil {
		return nil, err
	}
	return append(ids, more...), nil
}

// Custom rules are a restricted filter language, never SQL: conditions
// "column op value" joined by "and", where op is = <> != > >= < <= and value
// is a number, a 'quoted string' or one of ${userId} ${deptId} ${roleId} ${tenantId}.
var customCond = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=|<>|!=|>=|<=|>|<)\s*(\$\{(?:userId|deptId|roleId|tenantId)\}|-?[0-9]+|'[^']*')\s*$`)

func compileCustom(expr string, p *authz.Principal, col func(string) bun.Ident, hasColumn func(string) bool) (string, []any, error) {
	var parts []string
	var args []any
	for _, cond := range regexp.MustCompile(`(?i)\s+and\s+`).Split(strings.TrimSpace(expr), -1) {
		m := customCond.FindStringSubmatch(cond)
		if m == nil {
			return "", nil, fmt.Errorf("bad condition %q", cond)
		}
		if !hasColumn(m[1]) {
			return "", nil, fmt.Errorf("unknown column %q", m[1])
		}
		op := m[2]
		if op == "!=" {
			op = "<>"
		}
		var v any
		switch {
		case m[3] == "${userId}":
			v = p.UserID
		case m[3] == "${deptId}":
			v = p.DeptID
		case m[3] == "${roleId}":
			if len(p.RoleIDs) > 0 {
				v = p.RoleIDs[0]
			} else {
				v = int64(0)
			}
		case m[3] == "${tenantId}":
			v = p.TenantID
		case strings.HasPrefix(m[3], "'"):
			v = strings.Trim(m[3], "'")
		default:
			n, err := strconv.ParseInt(m[3], 10, 64)
			if err != nil {
				return "", nil, err
			}
			v = n
		}
		parts = append(parts, "? "+op+" ?")
		args = append(args, col(m[1]), v)
	}
	if len(parts) == 0 {
		return "", nil, fmt.Errorf("empty rule")
	}
	return "(" + strings.Join(parts, " AND ") + ")", args, nil
}

// validateDataScope checks a rule before it is stored, so that a bad custom rule is refused up front.
func validateDataScope(ctx context.Context, d *DataScope, present map[string]bool, isNew bool) error {
	if d.ScopeType < DataAll || d.ScopeType > DataCustom {
		if isNew || present["scopeType"] {
			return httpx.Badf("规则类型不正确", "Unknown rule type")
		}
	}
	if d.ScopeType == DataCustom && (isNew || present["scopeValue"]) {
		p := &authz.Principal{}
		any := func(string) bool { return true }
		if _, _, err := compileCustom(d.ScopeValue, p, func(c string) bun.Ident { return bun.Ident(c) }, any); err != nil {
			return httpx.Badf("自定义规则格式错误: %s", "The custom rule is malformed: %s", err.Error())
		}
	}
	return nil
}
