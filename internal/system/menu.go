package system

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Menu categories and the top-level parent.
const (
	categoryMenu   = 1
	categoryButton = 2
)

var (
	msgParentButton    = i18n.T("按钮不能作为上级菜单", "A button cannot be the parent of another entry")
	msgButtonNeeds     = i18n.T("按钮必须选择上级菜单", "A button needs a parent menu")
	msgButtonChildren  = i18n.T("该菜单存在子节点,不能改为按钮", "This menu has children and cannot become a button")
	msgCategory        = i18n.T("菜单类型不正确", "Unknown menu type")
	msgAction          = i18n.T("按钮功能不正确", "Unknown button function")
	msgIsOpen          = i18n.T("新窗口取值不正确", "The new-window flag must be 1 or 2")
	msgGranted         = i18n.T("授权成功", "Granted")
	msgSaved           = i18n.T("操作成功", "Success")
	msgTopMenuRequired = i18n.T("请选择顶部菜单", "Select at least one top menu")
	msgTopMenuMissing  = i18n.T("顶部菜单不存在", "No such top menu")
)

// ---------------------------------------------------------------------------
// Cache: the menu table, the top-menu bindings and the roles' menu grants.
//
// Menus are few (hundreds) and read on every page load (routes, buttons), so
// they are held in memory as an immutable snapshot. Every write here resets
// it after its transaction commits; Service.Invalidate resets it too. A
// generation counter keeps a load that raced with a reset from storing old data.

type menuCache struct {
	mu       sync.RWMutex
	snap     *menuSnap
	gen      uint64
	grants   map[wire.ID]roleGrant
	grantGen uint64
	// onReset, when set, is called after reset and resetGrants (Service.notify).
	onReset func()
}

// roleGrant is the menu ids granted to one role.
type roleGrant struct {
	tenant string
	menus  []wire.ID
}

// reset drops everything (menus, bindings, grants) and tells onReset.
func (c *menuCache) reset() {
	c.resetLocal()
	c.notify()
}

// resetLocal drops everything without telling onReset.
func (c *menuCache) resetLocal() {
	c.mu.Lock()
	c.snap, c.grants = nil, nil
	c.gen++
	c.grantGen++
	c.mu.Unlock()
}

// resetGrants drops the cached role grants only.
func (c *menuCache) resetGrants() {
	c.mu.Lock()
	c.grants = nil
	c.grantGen++
	c.mu.Unlock()
	c.notify()
}

func (c *menuCache) notify() {
	if c.onReset != nil {
		c.onReset()
	}
}

// menuSnap is an immutable view of the live menus; the maps filled lazily
// (rendered, tops, bounds) are guarded by mu.
type menuSnap struct {
	all   []*Menu               // live rows, ordered by sort, id
	byID  map[wire.ID]*Menu     //
	kids  map[wire.ID][]*Menu   // parent → children, ordered
	binds map[wire.ID][]wire.ID // top menu → bound live menu ids
	shown map[wire.ID]bool      // category-1 menus a route may show: enabled, under enabled parents

	mu       sync.Mutex
	rendered map[renderKey][]byte         // routes and buttons as whole responses
	tops     map[wire.ID]map[wire.ID]bool // top menu → its menus, their descendants and ancestors
	bounds   map[string]map[wire.ID]bool  // package menus by bound key
}

// maxCached caps the lazily filled maps of a snapshot; past it they start over.
const maxCached = 4096

type renderKey struct {
	kind string // "routes" or "buttons"
	lang i18n.Lang
	top  wire.ID
	// who is "" for the super user; for anyone else it names everything the
	// answer depends on: tenant, roles, package content and grant generation.
	who string
}

// menuSnapshot returns the cached snapshot, loading it when needed.
func (s *Service) menuSnapshot(ctx context.Context) (*menuSnap, error) {
	c := &s.menus
	c.mu.RLock()
	sn, gen := c.snap, c.gen
	c.mu.RUnlock()
	if sn != nil {
		return sn, nil
	}
	var rows []*Menu
	if err := s.DB.NewSelect().Model(&rows).Where("is_deleted = 0").OrderExpr("sort ASC, id ASC").Scan(ctx); err != nil {
		return nil, err
	}
	var binds []struct {
		TopMenuID wire.ID `bun:"top_menu_id"`
		MenuID    wire.ID `bun:"menu_id"`
	}
	if err := s.DB.NewSelect().Table("blade_top_menu_setting").Column("top_menu_id", "menu_id").OrderExpr("id ASC").Scan(ctx, &binds); err != nil {
		return nil, err
	}
	sn = &menuSnap{all: rows, byID: make(map[wire.ID]*Menu, len(rows)), kids: map[wire.ID][]*Menu{},
		binds: map[wire.ID][]wire.ID{}, shown: map[wire.ID]bool{}}
	for _, m := range rows {
		sn.byID[m.ID] = m
	}
	for _, m := range rows {
		sn.kids[m.ParentID] = append(sn.kids[m.ParentID], m)
	}
	for _, b := range binds {
		if _, ok := sn.byID[b.MenuID]; ok {
			sn.binds[b.TopMenuID] = append(sn.binds[b.TopMenuID], b.MenuID)
		}
	}
	var mark func(parent wire.ID, depth int)
	mark = func(parent wire.ID, depth int) {
		if depth > 64 {
			return // a cycle in stored data; submit refuses to create one
		}
		for _, m := range sn.kids[parent] {
			if m.Category == categoryMenu && m.Status == 1 && !sn.shown[m.ID] {
				sn.shown[m.ID] = true
				mark(m.ID, depth+1)
			}
		}
	}
	mark(0, 0)
	c.mu.Lock()
	if c.gen == gen {
		c.snap = sn
	}
	c.mu.Unlock()
	return sn, nil
}

// withAncestors returns ids plus every ancestor of each.
func (sn *menuSnap) withAncestors(ids map[wire.ID]bool) map[wire.ID]bool {
	out := make(map[wire.ID]bool, len(ids)*2)
	for id := range ids {
		for cur, n := id, 0; cur != 0 && !out[cur] && n < 64; n++ {
			m := sn.byID[cur]
			if m == nil {
				break
			}
			out[cur] = true
			cur = m.ParentID
		}
	}
	return out
}

// topSet is the menus a top menu shows: the bound menus, everything under
// them and their ancestors. An unknown top menu shows nothing.
func (sn *menuSnap) topSet(top wire.ID) map[wire.ID]bool {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if set, ok := sn.tops[top]; ok {
		return set
	}
	bound := map[wire.ID]bool{}
	for _, id := range sn.binds[top] {
		bound[id] = true
	}
	set := sn.withAncestors(bound)
	var down func(id wire.ID, depth int)
	down = func(id wire.ID, depth int) {
		if depth > 64 {
			return
		}
		for _, k := range sn.kids[id] {
			set[k.ID] = true
			down(k.ID, depth+1)
		}
	}
	for id := range bound {
		down(id, 0)
	}
	if _, known := sn.binds[top]; known {
		if sn.tops == nil {
			sn.tops = map[wire.ID]map[wire.ID]bool{}
		}
		sn.tops[top] = set // only known top menus are kept, so the map stays small
	}
	return set
}

// roleMenus is the union of the menus granted to roles of a tenant, read
// through the grant cache.
func (s *Service) roleMenus(ctx context.Context, tenantID string, roleIDs []wire.ID) (map[wire.ID]bool, error) {
	c := &s.menus
	out := map[wire.ID]bool{}
	var missing []wire.ID
	c.mu.RLock()
	gen := c.grantGen
	for _, id := range roleIDs {
		g, ok := c.grants[id]
		if !ok || g.tenant != tenantID {
			missing = append(missing, id)
			continue
		}
		for _, m := range g.menus {
			out[m] = true
		}
	}
	c.mu.RUnlock()
	if len(missing) == 0 {
		return out, nil
	}
	var rows []struct {
		RoleID wire.ID `bun:"role_id"`
		MenuID wire.ID `bun:"menu_id"`
	}
	err := s.DB.NewSelect().TableExpr("blade_role_menu AS rm").Join("JOIN blade_role AS r ON r.id = rm.role_id").
		ColumnExpr("rm.role_id, rm.menu_id").
		Where("rm.role_id IN (?) AND r.is_deleted = 0 AND r.tenant_id = ?", bun.In(missing), tenantID).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	loaded := make(map[wire.ID]roleGrant, len(missing))
	for _, id := range missing {
		loaded[id] = roleGrant{tenant: tenantID}
	}
	for _, r := range rows {
		g := loaded[r.RoleID]
		g.menus = append(g.menus, r.MenuID)
		loaded[r.RoleID] = g
		out[r.MenuID] = true
	}
	c.mu.Lock()
	if c.grantGen == gen {
		if c.grants == nil {
			c.grants = map[wire.ID]roleGrant{}
		}
		for id, g := range loaded {
			c.grants[id] = g
		}
	}
	c.mu.Unlock()
	return out, nil
}

// tenantBound is the set of menus a tenant's package allows; nil means
// unbounded (the platform tenant). A tenant that no longer exists, or whose
// package is gone, is bounded by the empty set: it fails closed.
func (s *Service) tenantBound(ctx context.Context, idb bun.IDB, sn *menuSnap, tenantID string) (map[wire.ID]bool, error) {
	set, _, err := s.tenantBoundKey(ctx, idb, sn, tenantID)
	return set, err
}

// tenantBoundKey is tenantBound with a key that changes whenever the bound does.
func (s *Service) tenantBoundKey(ctx context.Context, idb bun.IDB, sn *menuSnap, tenantID string) (map[wire.ID]bool, string, error) {
	if tenantID == authz.SuperTenant {
		return nil, "*", nil
	}
	t, err := s.TenantIn(ctx, idb, tenantID)
	if err != nil {
		return nil, "", err
	}
	if t == nil {
		return map[wire.ID]bool{}, "-", nil
	}
	var key string
	var load func() ([]wire.ID, error)
	if t.PackageID == 0 {
		// The default package follows the tenant.default.menuCode parameter.
		menuCodes, err := s.ParamIn(ctx, idb, "tenant.default.menuCode", "")
		if err != nil {
			return nil, "", err
		}
		key = "d:" + menuCodes
		load = func() ([]wire.ID, error) { return s.packageMenus(ctx, idb, 0) }
	} else {
		// Packages are edited on the tenant-package screen, which does not
		// tell this cache: read the package's list each time (one small
		// query) and key the parsed set by its content.
		var list []string
		if err := idb.NewSelect().Table("blade_tenant_package").Column("menu_id").
			Where("id = ? AND is_deleted = 0", t.PackageID).Limit(1).Scan(ctx, &list); err != nil {
			return nil, "", err
		}
		if len(list) == 0 {
			return map[wire.ID]bool{}, "-", nil
		}
		sum := sha256.Sum256([]byte(list[0]))
		key = "p:" + hex.EncodeToString(sum[:16])
		load = func() ([]wire.ID, error) { return wire.ParseIDs(list[0]) }
	}
	sn.mu.Lock()
	set, ok := sn.bounds[key]
	sn.mu.Unlock()
	if ok {
		return set, key, nil
	}
	ids, err := load()
	if err != nil {
		return nil, "", err
	}
	set = idSet(ids)
	sn.mu.Lock()
	if sn.bounds == nil || len(sn.bounds) >= maxCached {
		sn.bounds = map[string]map[wire.ID]bool{}
	}
	sn.bounds[key] = set
	sn.mu.Unlock()
	return set, key, nil
}

func idSet(ids []wire.ID) map[wire.ID]bool {
	out := make(map[wire.ID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// granted is what a caller holds: nil for the super user (everything),
// otherwise their roles' grants within their tenant's package.
func (s *Service) granted(ctx context.Context, p *authz.Principal, sn *menuSnap) (map[wire.ID]bool, error) {
	if p.IsSuper() {
		return nil, nil
	}
	bound, err := s.tenantBound(ctx, s.DB, sn, p.TenantID)
	if err != nil {
		return nil, err
	}
	return s.heldWithin(ctx, p, sn, bound)
}

// heldWithin is the caller's roles' grants that are live menus within bound.
func (s *Service) heldWithin(ctx context.Context, p *authz.Principal, sn *menuSnap, bound map[wire.ID]bool) (map[wire.ID]bool, error) {
	held, err := s.roleMenus(ctx, p.TenantID, p.RoleIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[wire.ID]bool, len(held))
	for id := range held {
		if _, live := sn.byID[id]; live && (bound == nil || bound[id]) {
			out[id] = true
		}
	}
	return out, nil
}

// callerKey names what a non-super caller's routes and buttons depend on.
// The grant generation is read before the grants are, so an answer built
// while a grant commits is stored under a key nobody asks for again.
func (s *Service) callerKey(p *authz.Principal, boundKey string) string {
	s.menus.mu.RLock()
	gen := s.menus.grantGen
	s.menus.mu.RUnlock()
	roles := append([]wire.ID(nil), p.RoleIDs...)
	slices.Sort(roles)
	return p.TenantID + "|" + wire.JoinIDs(roles) + "|" + boundKey + "|" + strconv.FormatUint(gen, 10)
}

// ---------------------------------------------------------------------------
// Routes, buttons, top menus.

// RouteNode is one entry of menu/routes and menu/buttons (api-contract.md §4).
type RouteNode struct {
	ID          wire.ID      `json:"id"`
	ParentID    wire.ID      `json:"parentId"`
	Code        string       `json:"code"`
	Name        string       `json:"name"`
	Alias       string       `json:"alias"`
	Path        string       `json:"path"`
	Source      string       `json:"source"`
	Sort        int          `json:"sort"`
	Category    int          `json:"category"`
	Action      int          `json:"action"`
	IsOpen      int          `json:"isOpen"`
	HasChildren bool         `json:"hasChildren"`
	Children    []*RouteNode `json:"children"`
}

func menuName(m *Menu, lang i18n.Lang) string {
	if lang == i18n.En && m.NameEn != "" {
		return m.NameEn
	}
	return m.Name
}

func newRouteNode(m *Menu, lang i18n.Lang) *RouteNode {
	return &RouteNode{ID: m.ID, ParentID: m.ParentID, Code: m.Code, Name: menuName(m, lang), Alias: m.Alias, Path: m.Path,
		Source: m.Source, Sort: m.Sort, Category: m.Category, Action: m.Action, IsOpen: m.IsOpen}
}

// grow builds the subtree under parent of the entries keep accepts; it
// descends only into accepted entries.
func (sn *menuSnap) grow(parent wire.ID, lang i18n.Lang, keep func(*Menu) bool, depth int) []*RouteNode {
	out := []*RouteNode{}
	if depth > 64 {
		return out
	}
	for _, m := range sn.kids[parent] {
		if !keep(m) {
			continue
		}
		n := newRouteNode(m, lang)
		n.Children = sn.grow(m.ID, lang, keep, depth+1)
		n.HasChildren = len(n.Children) > 0
		out = append(out, n)
	}
	return out
}

// routeKeep is the filter of menu/routes: shown menus the caller holds (with
// their ancestors), within the top menu when one is asked for.
func (sn *menuSnap) routeKeep(held map[wire.ID]bool, top map[wire.ID]bool) func(*Menu) bool {
	var allowed map[wire.ID]bool
	if held != nil {
		menus := map[wire.ID]bool{}
		for id := range held {
			if m := sn.byID[id]; m != nil && m.Category == categoryMenu {
				menus[id] = true
			}
		}
		allowed = sn.withAncestors(menus)
	}
	return func(m *Menu) bool {
		return sn.shown[m.ID] && (allowed == nil || allowed[m.ID]) && (top == nil || top[m.ID])
	}
}

// buttonKeep is the filter of menu/buttons: held buttons and the menus above them.
func (sn *menuSnap) buttonKeep(held map[wire.ID]bool) func(*Menu) bool {
	if held == nil {
		return func(*Menu) bool { return true }
	}
	buttons := map[wire.ID]bool{}
	for id := range held {
		if m := sn.byID[id]; m != nil && m.Category == categoryButton {
			buttons[id] = true
		}
	}
	allowed := sn.withAncestors(buttons)
	return func(m *Menu) bool { return allowed[m.ID] }
}

// renderedOnce returns the whole response (envelope included) for key,
// encoded once per snapshot and written as is: re-encoding a cached
// json.RawMessage would make encoding/json validate it again on every request.
func (sn *menuSnap) renderedOnce(key renderKey, build func() (any, error)) (httpx.Streamer, error) {
	sn.mu.Lock()
	b, ok := sn.rendered[key]
	sn.mu.Unlock()
	if !ok {
		data, err := build()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(httpx.Envelope{Code: 200, Success: true, Msg: msgSaved.In(key.lang), Data: data}); err != nil {
			return nil, err
		}
		b = buf.Bytes()
		sn.mu.Lock()
		if sn.rendered == nil || len(sn.rendered) >= maxCached {
			sn.rendered = map[renderKey][]byte{}
		}
		sn.rendered[key] = b
		sn.mu.Unlock()
	}
	return func(w http.ResponseWriter) error {
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, err := w.Write(b)
		return err
	}, nil
}

func (s *Service) handleRoutes(r *http.Request) (any, error) {
	topID, err := resource.OptionalID(r, "topMenuId")
	if err != nil {
		return nil, err
	}
	return s.renderMenus(r, "routes", topID)
}

func (s *Service) handleButtons(r *http.Request) (any, error) { return s.renderMenus(r, "buttons", 0) }

// renderMenus answers routes and buttons from the render cache: once the
// menus, grants and package are cached nothing is read from the database,
// except the package row of a tenant with an explicit package.
func (s *Service) renderMenus(r *http.Request, kind string, topID wire.ID) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	if _, known := sn.binds[topID]; topID != 0 && !known {
		return []*RouteNode{}, nil // an unknown top menu shows nothing
	}
	lang := i18n.FromRequest(r)
	key := renderKey{kind: kind, lang: lang, top: topID}
	var bound map[wire.ID]bool
	if !p.IsSuper() {
		var boundKey string
		if bound, boundKey, err = s.tenantBoundKey(ctx, s.DB, sn, p.TenantID); err != nil {
			return nil, err
		}
		key.who = s.callerKey(p, boundKey)
	}
	return sn.renderedOnce(key, func() (any, error) {
		var held map[wire.ID]bool
		if !p.IsSuper() {
			var err error
			if held, err = s.heldWithin(ctx, p, sn, bound); err != nil {
				return nil, err
			}
		}
		if kind == "buttons" {
			return sn.grow(0, lang, sn.buttonKeep(held), 0), nil
		}
		var top map[wire.ID]bool
		if topID != 0 {
			top = sn.topSet(topID)
		}
		return sn.grow(0, lang, sn.routeKeep(held, top), 0), nil
	})
}

// TopMenuItem is one entry of menu/top-menu.
type TopMenuItem struct {
	ID     wire.ID `json:"id"`
	Code   string  `json:"code"`
	Name   string  `json:"name"`
	Source string  `json:"source"`
	Path   string  `json:"path"`
	Sort   int     `json:"sort"`
}

// handleTopMenu lists the top menus under which the caller sees at least one menu.
func (s *Service) handleTopMenu(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	held, err := s.granted(ctx, p, sn)
	if err != nil {
		return nil, err
	}
	keep := sn.routeKeep(held, nil)
	var tops []TopMenu
	if err := s.DB.NewSelect().Model(&tops).Where("is_deleted = 0 AND status = 1").OrderExpr("sort ASC, id ASC").Scan(ctx); err != nil {
		return nil, err
	}
	lang := i18n.FromRequest(r)
	out := []TopMenuItem{}
	for _, t := range tops {
		visible := false
		for _, id := range sn.binds[t.ID] {
			if keep(sn.byID[id]) {
				visible = true
				break
			}
		}
		if !visible {
			continue
		}
		name := t.Name
		if lang == i18n.En && t.NameEn != "" {
			name = t.NameEn
		}
		out = append(out, TopMenuItem{ID: t.ID, Code: t.Code, Name: name, Source: t.Source, Path: t.Path, Sort: t.Sort})
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Select trees.

func menuNode(m *Menu, lang i18n.Lang) resource.TreeNode {
	return resource.TreeNode{ID: m.ID, ParentID: m.ParentID, Title: menuName(m, lang), Value: m.ID, Key: m.ID}
}

// menuTree is the select tree of the menus keep accepts (in menu order).
func (sn *menuSnap) menuTree(lang i18n.Lang, keep func(*Menu) bool) []*resource.TreeNode {
	nodes := make([]resource.TreeNode, 0, len(sn.all))
	for _, m := range sn.all {
		if keep(m) {
			nodes = append(nodes, menuNode(m, lang))
		}
	}
	return resource.NestNodes(nodes)
}

// flatMap turns a tree into an object keyed by id, children left out.
func flatMap(roots []*resource.TreeNode) map[string]*resource.TreeNode {
	out := map[string]*resource.TreeNode{}
	var walk func(ns []*resource.TreeNode)
	walk = func(ns []*resource.TreeNode) {
		for _, n := range ns {
			c := *n
			c.Children = nil
			out[n.ID.String()] = &c
			walk(n.Children)
		}
	}
	walk(roots)
	return out
}

// boundTenant is the tenant whose package bounds a tree: the caller's own, or
// for the super user the tenantId asked for. Anyone else asking for another
// tenant is refused.
func boundTenant(r *http.Request, p *authz.Principal) (string, error) {
	t := strings.TrimSpace(r.URL.Query().Get("tenantId"))
	if t == "" || t == p.TenantID {
		return p.TenantID, nil
	}
	if !p.IsSuper() {
		return "", httpx.ErrForbidden
	}
	return t, nil
}

// boundKeep accepts the menus within a tenant's package (and their ancestors,
// so the tree stays connected); nil bound accepts all.
func (sn *menuSnap) boundKeep(bound map[wire.ID]bool, category int) func(*Menu) bool {
	var allowed map[wire.ID]bool
	if bound != nil {
		allowed = sn.withAncestors(bound)
	}
	return func(m *Menu) bool {
		return (allowed == nil || allowed[m.ID]) && (category == 0 || m.Category == category)
	}
}

func (s *Service) boundTree(r *http.Request, category int) ([]*resource.TreeNode, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	tenantID, err := boundTenant(r, p)
	if err != nil {
		return nil, err
	}
	if category == 0 {
		if category, err = httpx.QueryInt(r, "category", 0); err != nil {
			return nil, err
		}
	}
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	bound, err := s.tenantBound(ctx, s.DB, sn, tenantID)
	if err != nil {
		return nil, err
	}
	return sn.menuTree(i18n.FromRequest(r), sn.boundKeep(bound, category)), nil
}

// GrantTree is the answer of menu/grant-tree.
type GrantTree struct {
	Menu      []*resource.TreeNode `json:"menu"`
	DataScope []*resource.TreeNode `json:"dataScope"`
	APIScope  []*resource.TreeNode `json:"apiScope"`
}

// GrantTreeMap is the answer of menu/grant-tree-map.
type GrantTreeMap struct {
	Menu      map[string]*resource.TreeNode `json:"menu"`
	DataScope map[string]*resource.TreeNode `json:"dataScope"`
	APIScope  map[string]*resource.TreeNode `json:"apiScope"`
}

// scopeRule is what the grant tree needs of a data or API scope rule.
type scopeRule struct {
	ID        wire.ID `bun:"id"`
	MenuID    wire.ID `bun:"menu_id"`
	ScopeName string  `bun:"scope_name"`
}

// scopeTree groups a scope table's rules under their menus (with ancestors).
func (s *Service) scopeTree(ctx context.Context, sn *menuSnap, table string, bound map[wire.ID]bool, lang i18n.Lang) ([]*resource.TreeNode, error) {
	var rules []scopeRule
	if err := s.DB.NewSelect().Table(table).Column("id", "menu_id", "scope_name").Where("is_deleted = 0").
		OrderExpr("id ASC").Scan(ctx, &rules); err != nil {
		return nil, err
	}
	owners := map[wire.ID]bool{}
	kept := rules[:0]
	for _, rule := range rules {
		if _, live := sn.byID[rule.MenuID]; !live || (bound != nil && !bound[rule.MenuID]) {
			continue
		}
		owners[rule.MenuID] = true
		kept = append(kept, rule)
	}
	menus := sn.withAncestors(owners)
	nodes := make([]resource.TreeNode, 0, len(menus)+len(kept))
	for _, m := range sn.all {
		if menus[m.ID] {
			nodes = append(nodes, menuNode(m, lang))
		}
	}
	for _, rule := range kept {
		nodes = append(nodes, resource.TreeNode{ID: rule.ID, ParentID: rule.MenuID, Title: rule.ScopeName, Value: rule.ID, Key: rule.ID})
	}
	return resource.NestNodes(nodes), nil
}

func (s *Service) grantTree(r *http.Request) (*GrantTree, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	bound, err := s.tenantBound(ctx, s.DB, sn, p.TenantID)
	if err != nil {
		return nil, err
	}
	lang := i18n.FromRequest(r)
	out := &GrantTree{Menu: sn.menuTree(lang, sn.boundKeep(bound, 0))}
	if out.DataScope, err = s.scopeTree(ctx, sn, "blade_scope_data", bound, lang); err != nil {
		return nil, err
	}
	if out.APIScope, err = s.scopeTree(ctx, sn, "blade_scope_api", bound, lang); err != nil {
		return nil, err
	}
	return out, nil
}

// RoleTreeKeys is what roles hold, as id lists.
type RoleTreeKeys struct {
	Menu      []wire.ID `json:"menu"`
	DataScope []wire.ID `json:"dataScope"`
	APIScope  []wire.ID `json:"apiScope"`
}

func (s *Service) handleRoleTreeKeys(r *http.Request) (any, error) {
	ids, err := httpx.QueryIDs(r, "roleIds")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	ids = dedupe(ids)
	if _, err := s.visibleRoles(ctx, s.DB, ids); err != nil {
		return nil, err
	}
	out := RoleTreeKeys{Menu: []wire.ID{}, DataScope: []wire.ID{}, APIScope: []wire.ID{}}
	if err := s.DB.NewSelect().Table("blade_role_menu").ColumnExpr("DISTINCT menu_id").
		Where("role_id IN (?)", bun.In(ids)).OrderExpr("menu_id").Scan(ctx, &out.Menu); err != nil {
		return nil, err
	}
	var scopes []struct {
		Category int     `bun:"scope_category"`
		ScopeID  wire.ID `bun:"scope_id"`
	}
	if err := s.DB.NewSelect().Table("blade_role_scope").ColumnExpr("DISTINCT scope_category, scope_id").
		Where("role_id IN (?)", bun.In(ids)).OrderExpr("scope_id").Scan(ctx, &scopes); err != nil {
		return nil, err
	}
	for _, sc := range scopes {
		switch sc.Category {
		case ScopeData:
			out.DataScope = append(out.DataScope, sc.ScopeID)
		case ScopeAPI:
			out.APIScope = append(out.APIScope, sc.ScopeID)
		}
	}
	if out.Menu == nil {
		out.Menu = []wire.ID{}
	}
	return out, nil
}

func (s *Service) handleTopTreeKeys(r *http.Request) (any, error) {
	ids, err := httpx.QueryIDs(r, "topMenuIds")
	if err != nil {
		return nil, err
	}
	sn, err := s.menuSnapshot(r.Context())
	if err != nil {
		return nil, err
	}
	out := []wire.ID{}
	seen := map[wire.ID]bool{}
	for _, t := range ids {
		for _, id := range sn.binds[t] {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Management lists.

func (s *Service) handleMenuList(r *http.Request, category int) (any, error) {
	rows, err := s.res.Menu.TreeRows(r, func(q *bun.SelectQuery, _ *resource.Query) (*bun.SelectQuery, error) {
		if category != 0 {
			q = q.Where("category = ?", category)
		}
		return q, nil
	})
	if err != nil {
		return nil, err
	}
	return resource.Nest(rows, func(m *Menu) wire.ID { return m.ID }, func(m *Menu) wire.ID { return m.ParentID },
		func(p, c *Menu) { p.Children, p.HasChildren = append(p.Children, c), true }), nil
}

// lazyRows answers one level: the children of parentId (0 when absent), or,
// when filters are given without a parentId, every matching row. A row has
// children when it has some of the category asked for.
func (s *Service) lazyRows(r *http.Request, category int) ([]Menu, error) {
	parentID, err := resource.OptionalID(r, "parentId")
	if err != nil {
		return nil, err
	}
	hasParent := strings.TrimSpace(r.URL.Query().Get("parentId")) != ""
	rows, err := s.res.Menu.TreeRows(r, func(q *bun.SelectQuery, query *resource.Query) (*bun.SelectQuery, error) {
		if category != 0 {
			q = q.Where("category = ?", category)
		}
		if hasParent || len(query.Conds) == 0 {
			q = q.Where("parent_id = ?", parentID)
		}
		return q, nil
	})
	if err != nil {
		return nil, err
	}
	sn, err := s.menuSnapshot(r.Context())
	if err != nil {
		return nil, err
	}
	for i := range rows {
		for _, k := range sn.kids[rows[i].ID] {
			if category == 0 || k.Category == category {
				rows[i].HasChildren = true
				break
			}
		}
	}
	return rows, nil
}

func (s *Service) handleLazyMap(r *http.Request) (any, error) {
	rows, err := s.lazyRows(r, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Menu, len(rows))
	for i := range rows {
		out[rows[i].ID.String()] = &rows[i]
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Writes.

// validateMenu checks the enumerations of a submitted menu (declared rules ran already).
func validateMenu(_ context.Context, m *Menu, present map[string]bool, isNew bool) error {
	if (isNew || present["category"]) && m.Category != categoryMenu && m.Category != categoryButton {
		return httpx.BadRequest(msgCategory)
	}
	if (isNew || present["action"]) && (m.Action < 0 || m.Action > 3) {
		return httpx.BadRequest(msgAction)
	}
	if isNew && m.IsOpen == 0 {
		m.IsOpen = 1
	}
	if (isNew || present["isOpen"]) && m.IsOpen != 1 && m.IsOpen != 2 {
		return httpx.BadRequest(msgIsOpen)
	}
	return nil
}

// checkMenuKinds (BeforeSave) keeps buttons in their place: a button has a
// parent, a button is nobody's parent, and a menu with children stays a
// menu. The engine's tree checks the parent itself (live, not the menu or
// below it). An edit that does not send parentId or category keeps the
// stored one, so that is what is judged.
func (s *Service) checkMenuKinds(ctx context.Context, tx bun.Tx, m *Menu, isNew bool) error {
	parentID, category := m.ParentID, m.Category
	parentChanged, categoryChanged := isNew, isNew
	if !isNew {
		cur, err := s.res.Menu.Get(ctx, tx, m.ID)
		if err != nil {
			return err
		}
		if !resource.Sent(ctx, "parentId") {
			parentID = cur.ParentID
		}
		if !resource.Sent(ctx, "category") {
			category = cur.Category
		}
		parentChanged = parentID != cur.ParentID
		categoryChanged = category != cur.Category
	}
	if category == categoryButton && parentID == 0 {
		return httpx.BadRequest(msgButtonNeeds)
	}
	if parentID != 0 && parentChanged {
		var parent []int
		if err := tx.NewSelect().Table("blade_menu").Column("category").Where("id = ? AND is_deleted = 0", parentID).Scan(ctx, &parent); err != nil {
			return err
		}
		if len(parent) > 0 && parent[0] == categoryButton {
			return httpx.BadRequest(msgParentButton)
		}
	}
	if !isNew && categoryChanged && category == categoryButton {
		n, err := tx.NewSelect().Table("blade_menu").Where("parent_id = ? AND is_deleted = 0", m.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.BadRequest(msgButtonChildren)
		}
	}
	return nil
}

// menuBeforeRemove drops the grants and top-menu bindings of removed menus.
func menuBeforeRemove(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	if _, err := tx.NewDelete().Table("blade_role_menu").Where("menu_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDelete().Table("blade_top_menu_setting").Where("menu_id IN (?)", bun.In(ids)).Exec(ctx)
	return err
}

// idList is a JSON list of ids: an array of strings or numbers, or a comma string.
type idList []wire.ID

func (l *idList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*l = nil
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		ids, err := wire.ParseIDs(s)
		if err != nil {
			return err
		}
		*l = dedupe(ids)
		return nil
	}
	var ids []wire.ID
	if err := json.Unmarshal(b, &ids); err != nil {
		return err
	}
	*l = dedupe(ids)
	return nil
}

// TopMenuGrant is the body of topmenu/grant.
type TopMenuGrant struct {
	TopMenuIDs idList `json:"topMenuIds"`
	MenuIDs    idList `json:"menuIds"`
}

// handleTopMenuGrant replaces the menus bound to top menus.
func (s *Service) handleTopMenuGrant(r *http.Request) (any, error) {
	var body TopMenuGrant
	if err := httpx.DecodeJSON(r, &body); err != nil {
		return nil, err
	}
	if len(body.TopMenuIDs) == 0 {
		return nil, httpx.BadRequest(msgTopMenuRequired)
	}
	ctx := r.Context()
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		n, err := tx.NewSelect().Table("blade_top_menu").Where("id IN (?) AND is_deleted = 0", bun.In(body.TopMenuIDs)).Count(ctx)
		if err != nil {
			return err
		}
		if int(n) != len(body.TopMenuIDs) {
			return httpx.BadRequest(msgTopMenuMissing)
		}
		if err := checkMenusExist(ctx, tx, body.MenuIDs); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Table("blade_top_menu_setting").Where("top_menu_id IN (?)", bun.In(body.TopMenuIDs)).Exec(ctx); err != nil {
			return err
		}
		for _, t := range body.TopMenuIDs {
			for _, m := range body.MenuIDs {
				if err := insertLink(ctx, tx, "blade_top_menu_setting", map[string]any{"top_menu_id": t, "menu_id": m}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.menus.reset()
	return httpx.Message{Text: msgGranted}, nil
}

// insertLink adds one row to a link table with a fresh id.
func insertLink(ctx context.Context, tx bun.Tx, table string, cols map[string]any) error {
	cols["id"] = db.NewID()
	return db.InsertRow(ctx, tx, table, cols)
}

// checkMenusExist refuses ids that are not live menus.
func checkMenusExist(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	if len(ids) == 0 {
		return nil
	}
	var found []wire.ID
	if err := tx.NewSelect().Table("blade_menu").Column("id").Where("id IN (?) AND is_deleted = 0", bun.In(ids)).Scan(ctx, &found); err != nil {
		return err
	}
	if len(found) == len(ids) {
		return nil
	}
	have := idSet(found)
	var missing []wire.ID
	for _, id := range ids {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	return httpx.Badf("菜单不存在: %s", "No such menu: %s", wire.JoinIDs(missing))
}

// ---------------------------------------------------------------------------
// Declaration and routes.

func (s *Service) declareMenu() *resource.Resource[Menu] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "menu", Table: "blade_menu", Label: i18n.T("菜单", "Menu"),
		MenuCode: "menu", Scope: resource.Global, DefaultOrder: "sort ASC, id ASC", Unique: [][]string{{"code"}},
		Routes: []string{"list", "detail", "submit", "remove"},
		Tree:   &resource.Tree{Parent: "parentId", Label: "name", LabelEn: "nameEn", ParentName: "parentName"},
	}, resource.Hooks[Menu]{
		Validate:     validateMenu,
		BeforeSave:   s.checkMenuKinds,
		BeforeRemove: menuBeforeRemove,
		Changed:      func(context.Context) { s.menus.reset() },
		Enrich: func(ctx context.Context, _ bun.IDB, rows []Menu) error {
			sn, err := s.menuSnapshot(ctx)
			if err != nil {
				return err
			}
			for i := range rows {
				rows[i].HasChildren = len(sn.kids[rows[i].ID]) > 0
			}
			return nil
		},
		// The management list is the nested tree of the matching rows, and the
		// select tree is bounded by the tenant's package (boundTree).
		Routes: map[string]httpx.HandlerFunc{
			"list": func(r *http.Request) (any, error) { return s.handleMenuList(r, 0) },
			"tree": func(r *http.Request) (any, error) { return s.boundTree(r, 0) },
		},
	})
}

func (s *Service) mountMenu(r chi.Router, env *resource.Env) {
	base := s.res.Menu.Spec().Path()
	s.res.Menu.Mount(r, env)
	read, admin, super := resource.Guard(resource.AnyUser), resource.Guard(resource.Admin), resource.Guard(resource.Super)
	get := func(path string, g func(httpx.HandlerFunc) httpx.HandlerFunc, h httpx.HandlerFunc) {
		r.Get(base+path, httpx.Handle(g(h)))
	}
	get("/menu-list", read, func(r *http.Request) (any, error) { return s.handleMenuList(r, categoryMenu) })
	get("/lazy-list", read, func(r *http.Request) (any, error) { return s.lazyRows(r, 0) })
	get("/lazy-menu-list", read, func(r *http.Request) (any, error) { return s.lazyRows(r, categoryMenu) })
	get("/lazy-map", read, s.handleLazyMap)
	get("/tree-map", read, func(r *http.Request) (any, error) {
		t, err := s.boundTree(r, 0)
		if err != nil {
			return nil, err
		}
		return flatMap(t), nil
	})
	get("/routes", read, s.handleRoutes)
	get("/buttons", read, s.handleButtons)
	get("/top-menu", read, s.handleTopMenu)
	get("/grant-tree", admin, func(r *http.Request) (any, error) { return s.grantTree(r) })
	get("/grant-tree-map", admin, func(r *http.Request) (any, error) {
		t, err := s.grantTree(r)
		if err != nil {
			return nil, err
		}
		return GrantTreeMap{Menu: flatMap(t.Menu), DataScope: flatMap(t.DataScope), APIScope: flatMap(t.APIScope)}, nil
	})
	get("/role-tree-keys", admin, s.handleRoleTreeKeys)
	get("/grant-top-tree", admin, func(r *http.Request) (any, error) {
		sn, err := s.menuSnapshot(r.Context())
		if err != nil {
			return nil, err
		}
		return sn.menuTree(i18n.FromRequest(r), func(m *Menu) bool { return m.Category == categoryMenu }), nil
	})
	get("/top-tree-keys", admin, s.handleTopTreeKeys)
	r.Post("/blade-system/topmenu/grant", httpx.Handle(super(s.handleTopMenuGrant)))
}
