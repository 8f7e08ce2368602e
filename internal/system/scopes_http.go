package system

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// mountScopes adds what the data-scope and API-scope screens need beyond
// CRUD. Nothing, today: both screens open per menu and list with
// list?menuId= (filterByMenu), and detail, submit and remove are generic.
// What the rules need is enforcement to follow edits: every committed submit
// or remove of a rule drops the grant cache (Hooks.Changed).
func (s *Service) mountScopes(r chi.Router, env *resource.Env) {}

// invalidateScopes drops the cached grants and rules; it runs after the
// submit or remove has committed (Hooks.Changed), so no reader can cache the
// old rules again.
func (s *Service) invalidateScopes(context.Context) {
	if s.Scopes != nil {
		s.Scopes.Invalidate()
	}
}

// scopeBeforeRemove drops the roles' grants of the removed rules with them,
// so that role-tree-keys never answers ids of rules that no longer exist.
func scopeBeforeRemove(category int) func(context.Context, bun.Tx, []wire.ID) error {
	return func(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
		if _, err := tx.NewDelete().Table("blade_role_scope").
			Where("scope_category = ? AND scope_id IN (?)", category, bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		return nil
	}
}

// validateScopeRule is validateDataScope for partial updates too: an edit
// that sends only scopeValue (or only scopeType) is checked against the
// stored rule's other half, so that a custom rule cannot be turned into a
// malformed one by sending the value alone.
func (s *Service) validateScopeRule(ctx context.Context, d *DataScope, present map[string]bool, isNew bool) error {
	if isNew || (!present["scopeType"] && !present["scopeValue"]) {
		return validateDataScope(ctx, d, present, isNew)
	}
	var cur DataScope
	if err := s.DB.NewSelect().Model(&cur).Where("id = ? AND is_deleted = 0", d.ID).Limit(1).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the save answers 404
		}
		return err
	}
	merged := *d
	if !present["scopeType"] {
		merged.ScopeType = cur.ScopeType
	}
	if !present["scopeValue"] {
		merged.ScopeValue = cur.ScopeValue
	}
	return validateDataScope(ctx, &merged, map[string]bool{"scopeType": true, "scopeValue": true}, false)
}
