// Package partner holds the business partners of master data (domain.md
// §5): customers, suppliers and the suppliers' material price lines. Each is
// a declaration on the resource engine and the approval lifecycle; the code
// here is only what cannot be declared: the checks of dictionary flags and
// ranges, a price line's validity period, and price lines read through the
// supplier they belong to.
package partner

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

// Business types of the approval records and of the code rules that number
// the rows.
const (
	CustomerBizType  = "CUSTOMER"
	SupplierBizType  = "SUPPLIER"
	CustomerCodeRule = "CUS"
	SupplierCodeRule = "SUP"
)

// DefaultCurrency is a price line's currency when none is given (domain.md §5).
const DefaultCurrency = "CNY"

// Customer is a party the company sells to. Its status (resource.Base) is
// the audit status, dictionary audit_status, moved only by its commands.
//
// The contact patterns are loose enough for the ways people write a phone
// number ("+86 (21) 5555-0100") and strict enough to catch a name typed into
// the wrong box; a mismatch answers "<field> is not in a valid format".
// They use bracket classes because a struct tag holds a backslash only
// escaped.
type Customer struct {
	bun.BaseModel `bun:"table:bb_customer"`
	resource.Base
	CustomerCode string       `bun:"customer_code" json:"customerCode" f:"label=客户编号|Customer code;req;msg=请输入客户编号|Please enter the customer code;max=32;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	CustomerName string       `bun:"customer_name" json:"customerName" f:"label=客户名称|Customer name;req;msg=请输入客户名称|Please enter the customer name;max=128;search;sort"`
	ShortName    string       `bun:"short_name" json:"shortName" f:"label=简称|Short name;max=64"`
	CustomerType int          `bun:"customer_type" json:"customerType" f:"label=客户类型|Customer type;dict=customer_type;search"`
	Industry     string       `bun:"industry" json:"industry" f:"label=行业|Industry;max=64;search"`
	Region       string       `bun:"region" json:"region" f:"label=地区|Region;max=64;search"`
	Address      string       `bun:"address" json:"address" f:"label=地址|Address;max=255;hide"`
	ContactName  string       `bun:"contact_name" json:"contactName" f:"label=联系人|Contact;max=64"`
	ContactPhone string       `bun:"contact_phone" json:"contactPhone" f:"label=联系电话|Contact phone;max=32;pattern=^[+]?[0-9() -]{5,31}$"`
	Email        string       `bun:"email" json:"email" f:"label=邮箱|Email;max=128;format=email;hide"`
	TaxNo        string       `bun:"tax_no" json:"taxNo" f:"label=税号|Tax number;max=32;pattern=^[A-Za-z0-9]+$;hide"`
	BankName     string       `bun:"bank_name" json:"bankName" f:"label=开户银行|Bank;max=128;hide"`
	BankAccount  string       `bun:"bank_account" json:"bankAccount" f:"label=银行账号|Bank account;max=64;pattern=^[A-Za-z0-9 -]+$;hide"`
	SalesmanID   wire.ID      `bun:"salesman_id" json:"salesmanId" f:"label=业务员|Salesperson;ref=blade-user/user;filter=equal"`
	CreditLimit  wire.Decimal `bun:"credit_limit" json:"creditLimit" f:"label=信用额度|Credit limit;scale=4;precision=18;min=0;sort"`
	IsEffective  int          `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;req;msg=请选择生效状态|Please select the effective status;dict=effective_status;search;default=2"`
	Remark       string       `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
}

// Supplier is a party the company buys from; its price lines are its details.
type Supplier struct {
	bun.BaseModel `bun:"table:bb_supplier"`
	resource.Base
	SupplierCode string           `bun:"supplier_code" json:"supplierCode" f:"label=供应商编号|Supplier code;req;msg=请输入供应商编号|Please enter the supplier code;max=32;pattern=^[A-Za-z0-9_.-]+$;search;sort"`
	SupplierName string           `bun:"supplier_name" json:"supplierName" f:"label=供应商名称|Supplier name;req;msg=请输入供应商名称|Please enter the supplier name;max=128;search;sort"`
	ShortName    string           `bun:"short_name" json:"shortName" f:"label=简称|Short name;max=64"`
	SupplierType int              `bun:"supplier_type" json:"supplierType" f:"label=供应商类型|Supplier type;dict=supplier_type;search"`
	ContactName  string           `bun:"contact_name" json:"contactName" f:"label=联系人|Contact;max=64"`
	ContactPhone string           `bun:"contact_phone" json:"contactPhone" f:"label=联系电话|Contact phone;max=32;pattern=^[+]?[0-9() -]{5,31}$"`
	Address      string           `bun:"address" json:"address" f:"label=地址|Address;max=255;hide"`
	TaxNo        string           `bun:"tax_no" json:"taxNo" f:"label=税号|Tax number;max=32;pattern=^[A-Za-z0-9]+$;hide"`
	BankName     string           `bun:"bank_name" json:"bankName" f:"label=开户银行|Bank;max=128;hide"`
	BankAccount  string           `bun:"bank_account" json:"bankAccount" f:"label=银行账号|Bank account;max=64;pattern=^[A-Za-z0-9 -]+$;hide"`
	PaymentTerms string           `bun:"payment_terms" json:"paymentTerms" f:"label=付款条件|Payment terms;max=255;hide"`
	Rating       int              `bun:"rating" json:"rating" f:"label=评级(0为不评级)|Rating (0: none);min=0;max=5;sort"`
	IsEffective  int              `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;req;msg=请选择生效状态|Please select the effective status;dict=effective_status;search;default=2"`
	Remark       string           `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	Details      []SupplierDetail `bun:"-" json:"details"`
}

// SupplierDetail is one material a supplier offers, at its price: saved
// with the supplier (Lines), one line per material.
type SupplierDetail struct {
	bun.BaseModel `bun:"table:bb_supplier_detail"`
	resource.Base
	// SupplierID is set from the supplier the line is saved with.
	SupplierID           wire.ID      `bun:"supplier_id" json:"supplierId" f:"label=供应商|Supplier;ro;hide;filter=equal"`
	MaterialID           wire.ID      `bun:"material_id" json:"materialId" f:"label=物料|Material;req;msg=请选择物料|Please select the material;ref=bluebird-basic/material;filter=equal"`
	SupplierMaterialCode string       `bun:"supplier_material_code" json:"supplierMaterialCode" f:"label=供应商物料编号|Supplier's material code;max=64;search"`
	SupplierMaterialName string       `bun:"supplier_material_name" json:"supplierMaterialName" f:"label=供应商物料名称|Supplier's material name;max=128;search"`
	UnitPrice            wire.Decimal `bun:"unit_price" json:"unitPrice" f:"label=单价|Unit price;scale=4;precision=18;min=0;sort"`
	TaxRate              wire.Decimal `bun:"tax_rate" json:"taxRate" f:"label=税率(%)|Tax rate (%);scale=4;precision=9;min=0;max=100"`
	Currency             string       `bun:"currency" json:"currency" f:"label=币种|Currency;dict=currency;max=8;pattern=^[A-Z]{3}$;default=CNY"`
	MinOrderQty          wire.Decimal `bun:"min_order_qty" json:"minOrderQty" f:"label=最小起订量|Minimum order quantity;scale=6;precision=20;min=0"`
	LeadTimeDays         int          `bun:"lead_time_days" json:"leadTimeDays" f:"label=交货周期(天)|Lead time (days);min=0"`
	IsDefault            int          `bun:"is_default" json:"isDefault" f:"label=默认供应商|Default supplier;dict=business_yes_no;default=1"`
	ValidFrom            wire.Time    `bun:"valid_from" json:"validFrom" f:"label=生效日期|Valid from;type=date"`
	ValidTo              wire.Time    `bun:"valid_to" json:"validTo" f:"label=失效日期|Valid to;type=date"`
	Remark               string       `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	// Read from the material by the mixList view.
	MaterialCode string `bun:"j_material_code,scanonly" json:"materialCode,omitempty"`
	MaterialName string `bun:"j_material_name,scanonly" json:"materialName,omitempty"`
	MaterialSpec string `bun:"j_material_spec,scanonly" json:"spec,omitempty"`
	MaterialUnit string `bun:"j_material_unit,scanonly" json:"unit,omitempty"`
	// LastPurchasePrice is the unit price of the latest approved purchase
	// order line of this supplier and material (PurchaseHistory); null until
	// purchase orders exist.
	LastPurchasePrice wire.Decimal `bun:"-" json:"lastPurchasePrice"`
	// IsDerived marks a mixList row that is not a price line but a material
	// the supplier has purchase history for; price lines are never derived.
	IsDerived bool `bun:"-" json:"isDerived"`
}
