package bench

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// SeedUsers adds n users to a tenant directly in the database (the API would
// spend most of the time hashing passwords), with the tenant's first role and dept.
func SeedUsers(ctx context.Context, d *db.DB, tenantID string, n int) error {
	var roleID, deptID wire.ID
	if err := d.NewSelect().Table("blade_role").Column("id").Where("tenant_id = ? AND is_deleted = 0", tenantID).Order("sort").Limit(1).Scan(ctx, &roleID); err != nil {
		return err
	}
	if err := d.NewSelect().Table("blade_dept").Column("id").Where("tenant_id = ? AND is_deleted = 0", tenantID).Order("sort").Limit(1).Scan(ctx, &deptID); err != nil {
		return err
	}
	hash := authn.HashPassword(authn.MD5Hex("bench"))
	now := wire.Now()
	return d.Tx(ctx, func(tx bun.Tx) error {
		for i := 0; i < n; i++ {
			err := db.InsertRow(ctx, tx, "blade_user", map[string]any{
				"id": db.NewID(), "tenant_id": tenantID, "account": fmt.Sprintf("user%05d", i), "password": hash,
				"name": fmt.Sprintf("用户%d", i), "real_name": fmt.Sprintf("用户%d", i), "email": fmt.Sprintf("u%d@example.com", i),
				"phone": fmt.Sprintf("138%08d", i), "role_id": roleID.String(), "dept_id": deptID.String(),
				"create_time": now, "update_time": now, "user_type": 1, "sex": 1 + i%2,
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// SeedMaterials adds 100 brands and n materials to a tenant directly in the
// database, each material with a brand, a safety stock and a reference price.
func SeedMaterials(ctx context.Context, d *db.DB, tenantID string, n int) error {
	now := wire.Now()
	base := func(cols map[string]any) map[string]any {
		cols["id"], cols["tenant_id"], cols["create_time"], cols["update_time"], cols["status"] = db.NewID(), tenantID, now, now, 3
		return cols
	}
	return d.Tx(ctx, func(tx bun.Tx) error {
		brands := make([]wire.ID, 100)
		for i := range brands {
			cols := base(map[string]any{"brand_code": fmt.Sprintf("B%03d", i), "brand_name": fmt.Sprintf("品牌%d", i)})
			brands[i] = cols["id"].(wire.ID)
			if err := db.InsertRow(ctx, tx, "bb_brand", cols); err != nil {
				return err
			}
		}
		for i := 0; i < n; i++ {
			err := db.InsertRow(ctx, tx, "bb_material", base(map[string]any{
				"material_code": fmt.Sprintf("M%06d", i), "material_name": fmt.Sprintf("物料%d", i), "spec": "M8x20", "unit": "pcs",
				"brand_id": brands[i%len(brands)], "safety_stock": fmt.Sprintf("%d.500000", i%1000), "reference_price": "12.3400",
			}))
			if err != nil {
				return err
			}
		}
		return nil
	})
}
