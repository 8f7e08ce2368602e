-- +goose Up
-- Stock queries (domain.md §2 "Queries", §8 materialstock/allDetail).
--
-- bb_material_stock_v is a material bucket with what its screens show
-- beside the balance: the batch's dates and first receipt (FEFO) and the
-- item's moving-average cost. It is a plain join of rows keyed by unique
-- indexes, so both databases inline it into the query that reads it and a
-- page walks the balance's bucket index, joining only the rows it returns.
-- The amount is qty × avgCost at four places, exact: computed by the
-- service, the column is only its slot.
CREATE VIEW bb_material_stock_v AS
SELECT b.id, b.tenant_id, b.create_user, b.create_dept, b.create_time, b.update_user, b.update_time,
  b.status, b.is_deleted, b.version,
  b.item_kind, b.item_id, b.warehouse_id, b.position_id, b.batch_no, b.qty, b.locked_qty, b.available_qty, b.last_posted_at,
  COALESCE(t.production_date, '') AS production_date, COALESCE(t.expiry_date, '') AS expiry_date, t.first_in_at,
  c.avg_cost, CAST(NULL AS VARCHAR(40)) AS amount
FROM bb_stock_balance b
LEFT JOIN bb_stock_batch t ON t.tenant_id = b.tenant_id AND t.item_kind = b.item_kind AND t.item_id = b.item_id AND t.batch_no = b.batch_no
LEFT JOIN bb_item_cost c ON c.tenant_id = b.tenant_id AND c.item_kind = b.item_kind AND c.item_id = b.item_id
WHERE b.item_kind = 1;

-- The ledger's drill-down lists newest first, and finds a document's rows by its number.
CREATE INDEX ix_stock_ledger_posted ON bb_stock_ledger (tenant_id, posted_at);
CREATE INDEX ix_stock_ledger_bizno ON bb_stock_ledger (tenant_id, biz_no);

-- +goose Down
DROP INDEX ix_stock_ledger_bizno;
DROP INDEX ix_stock_ledger_posted;
DROP VIEW bb_material_stock_v;
