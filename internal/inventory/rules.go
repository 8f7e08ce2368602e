package inventory

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

var (
	msgEffective       = i18n.T("生效", "Set effective")
	msgIneffective     = i18n.T("失效", "Set not effective")
	msgEffectiveDone   = i18n.T("设置成功", "Done")
	msgStockHeld       = i18n.T("仓库或库位中仍有库存(含锁定),不能设为失效", "Stock (or locked stock) is still held there: it cannot be set not effective")
	msgParentElsewhere = i18n.T("上级库位不属于所选仓库", "The parent location belongs to another warehouse")
)

// effectiveCommands are doEffective with effectiveStatus 2 (effective) and
// 1 (not effective); guard runs before rows are made not effective.
func effectiveCommands[T any](guard func(ctx context.Context, tx bun.Tx, rows []*T) error) []resource.Command[T] {
	run := func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T, req *resource.CommandRequest) (any, error) {
		status, err := req.Int("effectiveStatus", NotEffective, Effective)
		if err != nil {
			return nil, err
		}
		if status == NotEffective {
			if err := guard(ctx, tx, rows); err != nil {
				return nil, err
			}
		}
		return nil, res.SetFields(ctx, tx, rows, map[string]any{"isEffective": status})
	}
	return []resource.Command[T]{
		{Name: "doEffective", Key: "effective", Label: msgEffective, Button: "effective", Done: msgEffectiveDone,
			Params: map[string]string{"effectiveStatus": "2"}, Run: run},
		{Name: "doEffective", Key: "ineffective", Label: msgIneffective, Button: "effective", Done: msgEffectiveDone,
			Params: map[string]string{"effectiveStatus": "1"}, Run: run},
	}
}

// noStockIn refuses when stock lies in the warehouses or position subtrees.
func (s *Service) noStockIn(ctx context.Context, tx bun.Tx, warehouseIDs, positionIDs []wire.ID) error {
	if s.HeldStock == nil {
		return nil
	}
	held, err := s.HeldStock(ctx, tx, warehouseIDs, positionIDs)
	if err != nil {
		return err
	}
	if held {
		return httpx.BadRequest(msgStockHeld)
	}
	return nil
}

// RootPositionKey is the code of the position every warehouse is created with.
const RootPositionKey = "DEFAULT"

// rootPosition gives a new warehouse its root position DEFAULT, so that
// every posting has a position to name (domain.md §5). The root bears the
// warehouse's name and follows its renames: in a tree or picker of every
// warehouse's positions, the roots read as the warehouses.
func (s *Service) rootPosition(ctx context.Context, tx bun.Tx, w *Warehouse, isNew bool) error {
	if isNew {
		root := &Position{WarehouseID: w.ID, WarehouseKey: RootPositionKey, WarehouseName: w.WarehouseName,
			IsEffective: Effective, Ancestors: "0"}
		root.TenantID = w.TenantID
		return s.Positions.Insert(ctx, tx, root)
	}
	if !resource.Sent(ctx, "warehouseName") {
		return nil
	}
	// The root goes with its warehouse, like removePositionsOf: the
	// caller's data scope over positions does not decide it.
	_, err := tx.NewUpdate().Table("bb_warehouse_position").
		Set("warehouse_name = ?", w.WarehouseName).Set("update_user = ?", authz.From(ctx).UserID).
		Set("update_time = ?", wire.Now()).Set("version = version + 1").
		Where("tenant_id = ? AND warehouse_id = ? AND parent_id = 0 AND warehouse_key = ? AND is_deleted = 0", w.TenantID, w.ID, RootPositionKey).
		Exec(ctx)
	return err
}

// removePositionsOf removes a removed warehouse's positions with it.
func (s *Service) removePositionsOf(ctx context.Context, tx bun.Tx, warehouseIDs []wire.ID) error {
	return s.Positions.RemoveWhere(ctx, tx, authz.From(ctx).TenantID, "warehouse_id IN (?)", bun.In(warehouseIDs))
}

// positionInItsWarehouse: a position hangs under a position of its own
// warehouse (the engine has checked the parent is the caller's and that no
// cycle arises).
func (s *Service) positionInItsWarehouse(ctx context.Context, tx bun.Tx, pos *Position, isNew bool) error {
	if pos.ParentID == 0 || (!isNew && !resource.Sent(ctx, "parentId")) {
		return nil
	}
	warehouseID := pos.WarehouseID
	if !isNew {
		if err := tx.NewSelect().Table("bb_warehouse_position").Column("warehouse_id").Where("id = ?", pos.ID).Scan(ctx, &warehouseID); err != nil {
			return err
		}
	}
	var parentWarehouse wire.ID
	err := tx.NewSelect().Table("bb_warehouse_position").Column("warehouse_id").
		Where("id = ? AND tenant_id = ? AND is_deleted = 0", pos.ParentID, pos.TenantID).Scan(ctx, &parentWarehouse)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if parentWarehouse != warehouseID {
		return resource.FieldErrorOf(ctx, "parentId", msgParentElsewhere)
	}
	return nil
}
