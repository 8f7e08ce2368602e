// Package inventory holds the master data of stock (domain.md §5): brands,
// warehouses and their position trees, materials and unit conversions.
// Each is a declaration on the resource engine; the code here is only what
// cannot be declared: a warehouse's root position, a position staying in its
// warehouse, the stock guard on making things not effective, and unit
// conversion.
package inventory

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Effective status, dictionary effective_status.
const (
	NotEffective = 1
	Effective    = 2
)

// Yes/no, dictionary business_yes_no.
const (
	No  = 1
	Yes = 2
)

// Brand is a maker of materials and products.
type Brand struct {
	bun.BaseModel `bun:"table:bb_brand"`
	resource.Base
	BrandCode    string `bun:"brand_code" json:"brandCode" f:"label=品牌编号|Brand code;req;max=32;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	BrandName    string `bun:"brand_name" json:"brandName" f:"label=品牌名称|Brand name;req;max=64;search;sort"`
	ShortName    string `bun:"short_name" json:"shortName" f:"label=简称|Short name;max=64"`
	Manufacturer string `bun:"manufacturer" json:"manufacturer" f:"label=制造商|Manufacturer;max=128;search"`
	Country      string `bun:"country" json:"country" f:"label=国家/地区|Country or region;max=64"`
	LogoURL      string `bun:"logo_url" json:"logoUrl" f:"label=标志|Logo;type=image;max=1000;hide"`
	IsEffective  int    `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;dict=effective_status;search;default=2"`
	Sort         int    `bun:"sort" json:"sort" f:"label=排序|Sort;min=0;sort"`
	Remark       string `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
}

// Warehouse is a place stock is kept; its positions form a tree under it.
type Warehouse struct {
	bun.BaseModel `bun:"table:bb_warehouse"`
	resource.Base
	WarehouseCode string `bun:"warehouse_code" json:"warehouseCode" f:"label=仓库编号|Warehouse code;req;msg=请输入仓库编号|Please enter the warehouse code;max=32;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	// spec.md §5 words the missing-name message 请输入字典名称; kept as worded.
	WarehouseName string  `bun:"warehouse_name" json:"warehouseName" f:"label=仓库名称|Warehouse name;req;msg=请输入字典名称|Please enter the warehouse name;max=64;search;sort"`
	WarehouseType int     `bun:"warehouse_type" json:"warehouseType" f:"label=仓库类型|Warehouse type;req;dict=warehouse_type;search"`
	ManagerID     wire.ID `bun:"manager_id" json:"managerId" f:"label=负责人|Manager;ref=blade-user/user;hide"`
	Phone         string  `bun:"phone" json:"phone" f:"label=电话|Phone;max=32;pattern=^[0-9+() -]*$"`
	Address       string  `bun:"address" json:"address" f:"label=地址|Address;max=255"`
	IsEffective   int     `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;dict=effective_status;noform;search;default=1"`
	Sort          int     `bun:"sort" json:"sort" f:"label=排序|Sort;min=0;sort"`
	Remark        string  `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500"`
	ManagerName   string  `bun:"j_manager_name,scanonly" json:"managerName,omitempty"`
}

// Position is a storage location (库位) of a warehouse: spec.md names its
// code warehouseKey and its name warehouseName.
type Position struct {
	bun.BaseModel `bun:"table:bb_warehouse_position"`
	resource.Base
	WarehouseID   wire.ID      `bun:"warehouse_id" json:"warehouseId" f:"label=所属仓库|Warehouse;req;msg=请选择所属仓库|Please select the warehouse;once;ref=bluebird-basic/warehouse;filter=equal"`
	ParentID      wire.ID      `bun:"parent_id" json:"parentId" f:"label=上级库位|Parent location;filter=equal"`
	Ancestors     string       `bun:"ancestors" json:"ancestors" f:"label=祖级|Ancestors;ro;hide;noform;nofilter"`
	WarehouseKey  string       `bun:"warehouse_key" json:"warehouseKey" f:"label=库位键值|Location key;req;msg=请输入库位键值|Please enter the location key;max=32;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	WarehouseName string       `bun:"warehouse_name" json:"warehouseName" f:"label=库位名称|Location name;req;msg=请输入库位名称|Please enter the location name;max=64;search;sort"`
	IsEffective   int          `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;dict=effective_status;noform;search;default=2"`
	Capacity      wire.Decimal `bun:"capacity" json:"capacity" f:"label=容量|Capacity;scale=6;min=0"`
	Sort          int          `bun:"sort" json:"sort" f:"label=排序|Sort;min=0;sort"`
	Remark        string       `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500"`
	ParentName    string       `bun:"-" json:"parentName,omitempty"`
	WarehouseCode string       `bun:"j_warehouse_code,scanonly" json:"warehouseCode,omitempty"`
	WarehouseMain string       `bun:"j_warehouse_name,scanonly" json:"warehouseMainName,omitempty"`
}

// Material is an item bought and kept in stock.
type Material struct {
	bun.BaseModel `bun:"table:bb_material"`
	resource.Base
	MaterialCode       string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;req;max=40;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	MaterialName       string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;req;max=128;search;sort"`
	Spec               string       `bun:"spec" json:"spec" f:"label=规格|Specification;max=128;search"`
	Model              string       `bun:"model" json:"model" f:"label=型号|Model;max=128;search"`
	BrandID            wire.ID      `bun:"brand_id" json:"brandId" f:"label=品牌|Brand;ref=bluebird-basic/brand;filter=equal"`
	Unit               string       `bun:"unit" json:"unit" f:"label=单位|Unit;req;msg=请选择单位|Please select the unit;dict=unit;max=32"`
	PurchaseUnit       string       `bun:"purchase_unit" json:"purchaseUnit" f:"label=采购单位|Purchase unit;dict=unit;max=32;hide"`
	BatchManaged       int          `bun:"batch_managed" json:"batchManaged" f:"label=批次管理|Batch managed;dict=business_yes_no;default=1"`
	ShelfLifeDays      int          `bun:"shelf_life_days" json:"shelfLifeDays" f:"label=保质期(天)|Shelf life (days);min=0;hide"`
	SafetyStock        wire.Decimal `bun:"safety_stock" json:"safetyStock" f:"label=安全库存|Safety stock;scale=6;min=0;sort"`
	MinStock           wire.Decimal `bun:"min_stock" json:"minStock" f:"label=最低库存|Minimum stock;scale=6;min=0;hide"`
	MaxStock           wire.Decimal `bun:"max_stock" json:"maxStock" f:"label=最高库存|Maximum stock;scale=6;min=0;hide"`
	DefaultWarehouseID wire.ID      `bun:"default_warehouse_id" json:"defaultWarehouseId" f:"label=默认仓库|Default warehouse;ref=bluebird-basic/warehouse;hide"`
	DefaultPositionID  wire.ID      `bun:"default_position_id" json:"defaultPositionId" f:"label=默认库位|Default location;ref=bluebird-basic/warehouseposition;hide"`
	ReferencePrice     wire.Decimal `bun:"reference_price" json:"referencePrice" f:"label=参考价|Reference price;scale=4;precision=18;min=0"`
	Barcode            string       `bun:"barcode" json:"barcode" f:"label=条码|Barcode;max=128;hide"`
	DrawingNo          string       `bun:"drawing_no" json:"drawingNo" f:"label=图号|Drawing no.;max=64;hide"`
	IsEffective        int          `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;dict=effective_status;search;default=2"`
	Remark             string       `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	BrandName          string       `bun:"j_brand_name,scanonly" json:"brandName,omitempty"`
	DefaultWarehouse   string       `bun:"j_default_warehouse_name,scanonly" json:"defaultWarehouseName,omitempty"`
}

// UnitComparison converts a quantity in one unit into another: 1 fromUnit
// = ratio toUnit. itemKind and itemId 0 make it a rule for every item; an
// item's rule converts into that item's base unit.
type UnitComparison struct {
	bun.BaseModel `bun:"table:bb_unit_comparison"`
	resource.Base
	ItemKind     int          `bun:"item_kind" json:"itemKind" f:"label=物品类别|Item kind;dict=item_kind;search"`
	ItemID       wire.ID      `bun:"item_id" json:"itemId" f:"label=物料|Material;ref=bluebird-basic/material;filter=equal"`
	FromUnit     string       `bun:"from_unit" json:"fromUnit" f:"label=换算单位|From unit;req;msg=请选择换算单位|Please select the unit to convert from;dict=unit;max=32;search"`
	ToUnit       string       `bun:"to_unit" json:"toUnit" f:"label=基本单位|To unit;req;msg=请选择基本单位|Please select the unit to convert to;dict=unit;max=32;search"`
	Ratio        wire.Decimal `bun:"ratio" json:"ratio" f:"label=换算比例|Ratio;req;scale=9;positive"`
	RoundingMode int          `bun:"rounding_mode" json:"roundingMode" f:"label=取整方式|Rounding;dict=rounding_mode;default=1"`
	WholeNumber  int          `bun:"whole_number" json:"wholeNumber" f:"label=须为整数|Whole numbers only;dict=business_yes_no;default=1"`
	IsEffective  int          `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;dict=effective_status;search;default=2"`
	Remark       string       `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	ItemName     string       `bun:"j_item_name,scanonly" json:"itemName,omitempty"`
}
