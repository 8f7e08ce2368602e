// Package production holds the production plans (domain.md §6.8): the
// plan, its product lines (details), the required materials entered by hand
// (until product BOMs exist, issue #11) and the material requirement frozen
// when the plan is approved, against which material issues (production
// picking) and returns count their quantities through this package's Go API
// (ledger.go).
package production

import (
	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Plan statuses (dictionary produce_plan_status): the first three derived
// from the quantities, CLOSED set by closePlan.
const (
	PlanNotStarted   = 1
	PlanInProduction = 2
	PlanCompleted    = 3
	PlanClosed       = 4
)

// Detail statuses (dictionary produce_detail_status).
const (
	DetailNotStarted   = 1
	DetailInProduction = 2
	DetailFinished     = 3
	DetailStocked      = 4
)

// BizType names plans in approval records and ledger rows.
const BizType = "PRODUCE_PLAN"

// Plan is a production plan (spec.md §3 names; domain.md §6.8 meanings).
type Plan struct {
	bun.BaseModel `bun:"table:bb_produce_plan"`
	resource.Base
	ProducePlanCode   string    `bun:"produce_plan_code" json:"producePlanCode" f:"label=计划单号|Plan no.;max=40;search;sort"`
	ProduceOrderCode  string    `bun:"produce_order_code" json:"produceOrderCode" f:"label=订单号|Order no.;max=64;search"`
	WorkShopID        wire.ID   `bun:"work_shop_id" json:"workShopId" f:"label=生产车间|Workshop;req;msg=请选择生产车间|Please select the workshop;ref=blade-system/dept;filter=equal"`
	ProjectName       string    `bun:"project_name" json:"projectName" f:"label=项目名称|Project name;req;msg=请输入项目名称|Please enter the project name;max=128;search"`
	BatchCode         string    `bun:"batch_code" json:"batchCode" f:"label=生产批次|Batch;max=64;search"`
	CustomerID        wire.ID   `bun:"customer_id" json:"customerId" f:"label=客户|Customer;ref=bluebird-basic/customermain;filter=equal;hide"`
	CustomerName      string    `bun:"customer_name" json:"customerName" f:"label=客户名称|Customer;ro;noform;search"`
	ProducePlanStatus int       `bun:"produce_plan_status" json:"producePlanStatus" f:"label=计划状态|Plan status;dict=produce_plan_status;ro;noform;search"`
	DeliveryTime      wire.Time `bun:"delivery_time" json:"deliveryTime" f:"label=交货时间|Delivery time;type=datetime;req;msg=请选择交货时间|Please select the delivery time;sort"`
	PlanStartDate     wire.Time `bun:"plan_start_date" json:"planStartDate" f:"label=计划开始|Planned start;type=date;hide"`
	PlanEndDate       wire.Time `bun:"plan_end_date" json:"planEndDate" f:"label=计划完成|Planned end;type=date;hide"`
	CreateUserName    string    `bun:"create_user_name" json:"createUserName" f:"label=创建人|Created by;ro;noform;search"`
	ClosedAt          wire.Time `bun:"closed_at" json:"closedAt" f:"label=关闭时间|Closed at;ro;noform;hide"`
	CloseReason       string    `bun:"close_reason" json:"closeReason" f:"label=关闭原因|Close reason;ro;noform;hide"`
	Remark            string    `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	// Details are the product lines (the engine's Lines).
	Details []PlanDetail `bun:"-" json:"details"`
	// Materials are the required materials entered by hand, saved with the
	// plan like its details (a second line set, kept by this package).
	Materials    []RequiredMaterial `bun:"-" json:"materials"`
	WorkShopName string             `bun:"j_work_shop_name,scanonly" json:"workShopName,omitempty"`
}

// PlanDetail is a product line of a plan. Products are not a resource yet:
// productId is a plain id and the code, name and model are typed in.
type PlanDetail struct {
	bun.BaseModel `bun:"table:bb_produce_plan_detail"`
	resource.Base
	PlanID              wire.ID      `bun:"plan_id" json:"planId" f:"label=生产计划|Production plan;ref=bluebird-basic/produceplanmain;ro;hide;noform;filter=equal"`
	ProductID           wire.ID      `bun:"product_id" json:"productId" f:"label=产品|Product;type=id;hide;filter=equal"`
	ProductCode         string       `bun:"product_code" json:"productCode" f:"label=产品编号|Product code;req;msg=请输入产品编号|Please enter the product code;max=40;search"`
	ProductName         string       `bun:"product_name" json:"productName" f:"label=产品名称|Product name;req;msg=请输入产品名称|Please enter the product name;max=128;search"`
	ProductModel        string       `bun:"product_model" json:"productModel" f:"label=产品型号|Model;max=128;search"`
	Count               wire.Decimal `bun:"count" json:"count" f:"label=数量|Quantity;req;msg=请输入数量|Please enter the quantity;scale=6;positive"`
	TestType            int          `bun:"test_type" json:"testType" f:"label=试验类型|Test type;dict=test_type"`
	IsBatch             int          `bun:"is_batch" json:"isBatch" f:"label=批次生产|Batch production;dict=business_yes_no;default=1"`
	ProduceCount        wire.Decimal `bun:"produce_count" json:"produceCount" f:"label=生产数量|Produced;scale=6;ro;noform"`
	ProduceDetailStatus int          `bun:"produce_detail_status" json:"produceDetailStatus" f:"label=生产状态|Production status;dict=produce_detail_status;ro;noform"`
	InStockCount        wire.Decimal `bun:"in_stock_count" json:"inStockCount" f:"label=入库数量|In stock;scale=6;ro;noform"`
	AttachCount         int          `bun:"attach_count" json:"attachCount" f:"label=附件数|Attachments;ro;noform"`
	DeliveryTime        wire.Time    `bun:"delivery_time" json:"deliveryTime" f:"label=交货时间|Delivery time;type=datetime;hide"`
	Remark              string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
	ProducePlanCode     string       `bun:"j_produce_plan_code,scanonly" json:"producePlanCode,omitempty"`
	ProjectName         string       `bun:"j_project_name,scanonly" json:"projectName,omitempty"`
}

// RequiredMaterial is a material the plan needs, entered by hand while
// product BOMs do not exist: for the whole plan (detailNo 0) or for its
// detailNo-th product line (1-based, as the lines are listed). Approval
// freezes these into PlanMaterial rows.
type RequiredMaterial struct {
	bun.BaseModel `bun:"table:bb_produce_plan_required"`
	resource.Base
	PlanID       wire.ID      `bun:"plan_id" json:"planId" f:"label=生产计划|Production plan;type=id;ro;hide;noform"`
	DetailNo     int          `bun:"detail_no" json:"detailNo" f:"label=产品行号|Product line;min=0"`
	MaterialID   wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;ref=bluebird-basic/material"`
	MaterialCode string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;noform"`
	MaterialName string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;noform"`
	Spec         string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro;noform"`
	Unit         string       `bun:"unit" json:"unit" f:"label=单位|Unit;ro;noform"`
	RequiredQty  wire.Decimal `bun:"required_qty" json:"requiredQty" f:"label=需求数量|Required quantity;scale=6;positive"`
	Remark       string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500"`
}

// PlanMaterial is the frozen material requirement of an approved plan
// (domain.md §6.8 producePlanMaterial), in the material's base unit.
// pickedQty and returnedQty move only through AddPicked and AddReturned.
type PlanMaterial struct {
	bun.BaseModel `bun:"table:bb_produce_plan_material"`
	resource.Base
	PlanID       wire.ID      `bun:"plan_id" json:"planId" f:"label=生产计划|Production plan;ref=bluebird-basic/produceplanmain;ro;filter=equal"`
	PlanDetailID wire.ID      `bun:"plan_detail_id" json:"planDetailId" f:"label=产品明细|Product line;type=id;ro;hide;filter=equal"`
	MaterialID   wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;ref=bluebird-basic/material;ro;filter=equal"`
	MaterialCode string       `bun:"material_code" json:"materialCode" f:"label=物料编号|Material code;ro;search"`
	MaterialName string       `bun:"material_name" json:"materialName" f:"label=物料名称|Material name;ro;search"`
	Spec         string       `bun:"spec" json:"spec" f:"label=规格|Specification;ro"`
	Model        string       `bun:"model" json:"model" f:"label=型号|Model;ro"`
	Unit         string       `bun:"unit" json:"unit" f:"label=单位|Unit;ro"`
	RequiredQty  wire.Decimal `bun:"required_qty" json:"requiredQty" f:"label=需求数量|Required quantity;scale=6;ro"`
	PickedQty    wire.Decimal `bun:"picked_qty" json:"pickedQty" f:"label=已领数量|Picked;scale=6;ro"`
	ReturnedQty  wire.Decimal `bun:"returned_qty" json:"returnedQty" f:"label=已退数量|Returned;scale=6;ro"`
}

// Service declares the production plans.
type Service struct {
	approval  *approval.Service
	plans     *resource.Resource[Plan]
	details   *resource.Resource[PlanDetail]
	required  *resource.Resource[RequiredMaterial]
	materials *resource.Resource[PlanMaterial]
}

// New returns the plans, approved through approvals.
func New(approvals *approval.Service) *Service {
	s := &Service{approval: approvals}
	s.declare()
	return s
}

// Mount routes the plans and returns them for the registry. The required
// materials have no routes: they are read and written with their plan.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	all := []resource.Registered{s.details, s.plans, s.materials}
	for _, res := range all {
		res.Mount(r, env)
	}
	return all
}
