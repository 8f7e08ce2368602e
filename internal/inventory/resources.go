package inventory

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Service declares the inventory master data.
type Service struct {
	approval *approval.Service
	// HeldStock tells whether stock (qty or locked qty) lies in the given
	// warehouses or position subtrees: making them not effective needs
	// none. Nil until the stock ledger exists (issue #11), when no stock
	// can be held.
	HeldStock func(ctx context.Context, tx bun.Tx, warehouseIDs, positionIDs []wire.ID) (bool, error)

	Brands      *resource.Resource[Brand]
	Warehouses  *resource.Resource[Warehouse]
	Positions   *resource.Resource[Position]
	Materials   *resource.Resource[Material]
	Conversions *resource.Resource[UnitComparison]
}

// New returns the inventory master data, their lifecycle kept by approvals.
func New(approvals *approval.Service) *Service { return &Service{approval: approvals} }

// The routes of master data: the list is paged (BladeX's list answers a page).
var masterRoutes = []string{"list", "detail", "submit", "remove", "export"}

func (s *Service) declare() {
	s.Brands = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "brand", Table: "bb_brand", Label: i18n.T("品牌", "Brand"),
		MenuCode: "brand", DataScope: true, Routes: masterRoutes, Unique: [][]string{{"brandCode"}},
		DefaultOrder: "sort ASC, brand_code ASC", Import: &resource.Import{Key: "brandCode"}, States: approval.MasterStates(),
		Views:  []resource.View{{Name: "selectBrandVOPage", Paged: true}, {Name: "selectBrandVOList"}},
		Lookup: &resource.Lookup{URL: "/api/bluebird-basic/brand/selectBrandVOPage", CodeField: "brandCode", LabelField: "brandName"},
	}, resource.Hooks[Brand]{
		Commands: approval.Commands(s.approval, approval.Lifecycle[Brand]{BizType: "BRAND",
			No: func(b *Brand) string { return b.BrandCode }, Title: func(b *Brand) string { return "品牌 " + b.BrandCode + " " + b.BrandName }}),
	})

	s.Warehouses = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "warehouse", Table: "bb_warehouse", Label: i18n.T("仓库", "Warehouse"),
		MenuCode: "warehouse_main", DataScope: true, Routes: masterRoutes, Unique: [][]string{{"warehouseCode"}},
		DefaultOrder: "sort ASC, warehouse_code ASC", Import: &resource.Import{Key: "warehouseCode"}, States: approval.MasterStates(),
		Views: []resource.View{
			{Name: "selectWarehouseVOPage", Paged: true, Joins: managerJoin},
			{Name: "selectWarehouseVOList", Joins: managerJoin},
		},
		ListView: "selectWarehouseVOPage",
		Lookup:   &resource.Lookup{URL: "/api/bluebird-basic/warehouse/selectWarehouseVOPage", CodeField: "warehouseCode", LabelField: "warehouseName"},
	}, resource.Hooks[Warehouse]{
		AfterSave:    s.rootPosition,
		BeforeRemove: s.removePositionsOf,
		Commands: append(approval.Commands(s.approval, approval.Lifecycle[Warehouse]{BizType: "WAREHOUSE",
			No: func(w *Warehouse) string { return w.WarehouseCode }, Title: func(w *Warehouse) string { return "仓库 " + w.WarehouseCode + " " + w.WarehouseName }}),
			effectiveCommands(func(ctx context.Context, tx bun.Tx, rows []*Warehouse) error {
				return s.noStockIn(ctx, tx, ids(rows), nil)
			})...),
	})

	s.Positions = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "warehouseposition", Table: "bb_warehouse_position", Label: i18n.T("库位", "Storage location"),
		MenuCode: "warehouse_position", DataScope: true, Routes: masterRoutes, Unique: [][]string{{"warehouseId", "warehouseKey"}},
		Title: "warehouseKey", DefaultOrder: "sort ASC, warehouse_key ASC",
		Tree: &resource.Tree{Parent: "parentId", Label: "warehouseName", Ancestors: "ancestors", ParentName: "parentName", Lazy: true,
			Filter: positionTreeFilter},
		Views: []resource.View{
			{Name: "selectWarehousePositionVOPage", Paged: true, Joins: warehouseJoin},
			{Name: "selectWarehousePositionVOList", Joins: warehouseJoin},
		},
		ListView: "selectWarehousePositionVOPage",
		Lookup:   &resource.Lookup{URL: "/api/bluebird-basic/warehouseposition/selectWarehousePositionVOPage", CodeField: "warehouseKey", LabelField: "warehouseName"},
	}, resource.Hooks[Position]{
		BeforeSave: s.positionInItsWarehouse,
		Commands: effectiveCommands(func(ctx context.Context, tx bun.Tx, rows []*Position) error {
			return s.noStockIn(ctx, tx, nil, ids(rows))
		}),
	})

	s.Materials = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "material", Table: "bb_material", Label: i18n.T("物料", "Material"),
		MenuCode: "material", DataScope: true, Routes: masterRoutes, Unique: [][]string{{"materialCode"}},
		DefaultOrder: "material_code ASC", Import: &resource.Import{Key: "materialCode"}, States: approval.MasterStates(),
		Number: &resource.Number{Field: "materialCode", BizType: "MAT", Manual: true},
		Views: []resource.View{{Name: "selectMaterialVOListPage", Paged: true, Joins: []resource.Join{
			{Field: "brandId", Columns: []resource.JoinColumn{{Name: "brandName", Column: "brand_name", Label: i18n.T("品牌", "Brand"), Filter: "like", Sort: true}}},
			{Field: "defaultWarehouseId", Columns: []resource.JoinColumn{{Name: "defaultWarehouseName", Column: "warehouse_name", Label: i18n.T("默认仓库", "Default warehouse"), Filter: "like"}}},
		}}},
		ListView: "selectMaterialVOListPage",
		Lookup:   &resource.Lookup{URL: "/api/bluebird-basic/material/selectMaterialVOListPage", CodeField: "materialCode", LabelField: "materialName"},
	}, resource.Hooks[Material]{
		Commands: approval.Commands(s.approval, approval.Lifecycle[Material]{BizType: "MATERIAL", Void: true,
			No: func(m *Material) string { return m.MaterialCode }, Title: func(m *Material) string { return "物料 " + m.MaterialCode + " " + m.MaterialName }}),
	})

	s.Conversions = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "unitcomparison", Table: "bb_unit_comparison", Label: i18n.T("单位换算", "Unit conversion"),
		MenuCode: "unit_comparison", DataScope: true, Routes: masterRoutes, Unique: [][]string{{"itemKind", "itemId", "fromUnit", "toUnit"}},
		Title: "fromUnit", DefaultOrder: "item_kind ASC, item_id ASC, from_unit ASC", States: approval.MasterStates(),
		Views: []resource.View{{Name: "selectUnitComparisonVOPage", Paged: true, Joins: []resource.Join{
			{Field: "itemId", Columns: []resource.JoinColumn{{Name: "itemName", Column: "material_name", Label: i18n.T("物料名称", "Material name"), Filter: "like"}}},
		}}},
		ListView: "selectUnitComparisonVOPage",
	}, resource.Hooks[UnitComparison]{
		Validate:   validateConversion,
		BeforeSave: s.conversionOfItem,
		Commands: approval.Commands(s.approval, approval.Lifecycle[UnitComparison]{BizType: "UNIT_COMPARISON", Void: true,
			No: func(u *UnitComparison) string { return u.FromUnit + "→" + u.ToUnit }}),
	})
}

var managerJoin = []resource.Join{{Field: "managerId", Columns: []resource.JoinColumn{
	{Name: "managerName", Column: "real_name", Label: i18n.T("负责人", "Manager"), Filter: "like"},
}}}

var warehouseJoin = []resource.Join{{Field: "warehouseId", Columns: []resource.JoinColumn{
	{Name: "warehouseCode", Column: "warehouse_code", Label: i18n.T("仓库编号", "Warehouse code"), Filter: "equal", Sort: true},
	{Name: "warehouseMainName", Column: "warehouse_name", Label: i18n.T("仓库名称", "Warehouse name"), Filter: "like"},
}}}

// Mount declares and routes the inventory master data.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	s.declare()
	all := []resource.Registered{s.Brands, s.Warehouses, s.Positions, s.Materials, s.Conversions}
	for _, res := range all {
		res.Mount(r, env)
	}
	return all
}

func ids[T any](rows []*T) []wire.ID {
	out := make([]wire.ID, len(rows))
	for i, row := range rows {
		out[i] = resource.BaseOf(row).ID
	}
	return out
}

// positionTreeFilter narrows tree and lazy-tree to one warehouse when
// warehouseId is given and, with onlyEffective=true, to effective positions.
// Without warehouseId the tree holds every warehouse: each warehouse's root
// position is named after it (rootPosition), so the roots read as the
// warehouses themselves.
func positionTreeFilter(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	if r.URL.Query().Get("warehouseId") != "" {
		id, err := httpx.QueryID(r, "warehouseId")
		if err != nil {
			return nil, err
		}
		q = q.Where("?TableAlias.warehouse_id = ?", id)
	}
	if r.URL.Query().Get("onlyEffective") == "true" {
		q = q.Where("?TableAlias.is_effective = ?", Effective)
	}
	return q, nil
}
