-- +goose Up
-- A warehouse's root position bears the warehouse's name (it was created as
-- 默认库位): the positions of every warehouse are then one readable tree,
-- whose roots read as the warehouses. Roots a user renamed keep their name.
UPDATE bb_warehouse_position
SET warehouse_name = (SELECT w.warehouse_name FROM bb_warehouse w WHERE w.id = bb_warehouse_position.warehouse_id)
WHERE parent_id = 0 AND warehouse_key = 'DEFAULT' AND warehouse_name IN ('默认库位', 'Default location')
  AND EXISTS (SELECT 1 FROM bb_warehouse w WHERE w.id = bb_warehouse_position.warehouse_id);

-- +goose Down
SELECT 1;
