-- +goose Up
-- Stock queries (domain.md §2 "Queries", §8 materialstock/allDetail).
--
-- bb_material_stock_v is a material bucket with what its screens show
-- beside the balance: its material's code, name, specification, model and
-- unit, its warehouse's and position's names, the batch's dates and first
-- receipt (FEFO) and the item's moving-average cost. Each is a correlated
-- lookup by a unique key in the select list, not a join: a database
-- evaluates it only for the rows a page returns (or a filter or sort that
-- names it), so counting a page's total reads the balance alone. A name
-- reads empty when its row is removed or of another tenant. The amount is
-- qty × avgCost at four places, exact: computed by the service, the column
-- is only its slot.
CREATE VIEW bb_material_stock_v AS
SELECT b.id, b.tenant_id, b.create_user, b.create_dept, b.create_time, b.update_user, b.update_time,
  b.status, b.is_deleted, b.version,
  b.item_kind, b.item_id, b.warehouse_id, b.position_id, b.batch_no, b.qty, b.locked_qty, b.available_qty, b.last_posted_at,
  (SELECT m.material_code FROM bb_material m WHERE m.id = b.item_id AND m.tenant_id = b.tenant_id AND m.is_deleted = 0) AS material_code,
  (SELECT m.material_name FROM bb_material m WHERE m.id = b.item_id AND m.tenant_id = b.tenant_id AND m.is_deleted = 0) AS material_name,
  (SELECT m.spec FROM bb_material m WHERE m.id = b.item_id AND m.tenant_id = b.tenant_id AND m.is_deleted = 0) AS spec,
  (SELECT m.model FROM bb_material m WHERE m.id = b.item_id AND m.tenant_id = b.tenant_id AND m.is_deleted = 0) AS model,
  (SELECT m.unit FROM bb_material m WHERE m.id = b.item_id AND m.tenant_id = b.tenant_id AND m.is_deleted = 0) AS unit,
  (SELECT w.warehouse_name FROM bb_warehouse w WHERE w.id = b.warehouse_id AND w.tenant_id = b.tenant_id AND w.is_deleted = 0) AS warehouse_name,
  (SELECT p.warehouse_key FROM bb_warehouse_position p WHERE p.id = b.position_id AND p.tenant_id = b.tenant_id AND p.is_deleted = 0) AS position_key,
  (SELECT p.warehouse_name FROM bb_warehouse_position p WHERE p.id = b.position_id AND p.tenant_id = b.tenant_id AND p.is_deleted = 0) AS position_name,
  COALESCE((SELECT t.production_date FROM bb_stock_batch t WHERE t.tenant_id = b.tenant_id AND t.item_kind = b.item_kind AND t.item_id = b.item_id AND t.batch_no = b.batch_no), '') AS production_date,
  COALESCE((SELECT t.expiry_date FROM bb_stock_batch t WHERE t.tenant_id = b.tenant_id AND t.item_kind = b.item_kind AND t.item_id = b.item_id AND t.batch_no = b.batch_no), '') AS expiry_date,
  (SELECT t.first_in_at FROM bb_stock_batch t WHERE t.tenant_id = b.tenant_id AND t.item_kind = b.item_kind AND t.item_id = b.item_id AND t.batch_no = b.batch_no) AS first_in_at,
  (SELECT c.avg_cost FROM bb_item_cost c WHERE c.tenant_id = b.tenant_id AND c.item_kind = b.item_kind AND c.item_id = b.item_id) AS avg_cost,
  CAST(NULL AS VARCHAR(40)) AS amount
FROM bb_stock_balance b
WHERE b.item_kind = 1;

-- A page's total counts a tenant's live non-empty material buckets: from
-- this index alone, without reading the rows.
CREATE INDEX ix_stock_balance_count ON bb_stock_balance (tenant_id, item_kind, is_deleted, qty, locked_qty, available_qty);

-- The ledger's drill-down lists newest first, and finds a document's rows by its number.
CREATE INDEX ix_stock_ledger_posted ON bb_stock_ledger (tenant_id, posted_at);
CREATE INDEX ix_stock_ledger_bizno ON bb_stock_ledger (tenant_id, biz_no);

-- +goose Down
DROP INDEX ix_stock_ledger_bizno;
DROP INDEX ix_stock_ledger_posted;
DROP INDEX ix_stock_balance_count;
DROP VIEW bb_material_stock_v;
