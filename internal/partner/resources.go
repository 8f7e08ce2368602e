package partner

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

// PurchaseHistory is what purchase orders tell about a supplier's materials
// (domain.md §8, supplierdetail/mixList). Purchase orders do not exist yet:
// until the purchasing area sets Service.Purchases, price lines carry no
// lastPurchasePrice.
type PurchaseHistory interface {
	// LastPrices answers, per material of the supplier, the unit price of
	// its latest approved purchase-order line; materials never ordered are
	// left out.
	LastPrices(ctx context.Context, idb bun.IDB, supplierID wire.ID, materialIDs []wire.ID) (map[wire.ID]wire.Decimal, error)
}

// Service declares the partner resources.
type Service struct {
	approval *approval.Service
	// Purchases reads the purchase history of price lines; nil until
	// purchase orders exist.
	Purchases PurchaseHistory
	env       *resource.Env
	Res       *Resources
}

// Resources are the declared partner resources.
type Resources struct {
	Customer       *resource.Resource[Customer]
	Supplier       *resource.Resource[Supplier]
	SupplierDetail *resource.Resource[SupplierDetail]
}

// New returns the partner service; its startProcess commands write their
// records through approvals.
func New(approvals *approval.Service) *Service { return &Service{approval: approvals} }

// Mount routes the partner resources and returns them for the registry,
// where the material master the price lines reference must be too (the
// app's CheckRefs refuses to start otherwise).
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	s.env = env
	s.Res = s.declare()
	s.Res.SupplierDetail.Mount(r, env)
	s.Res.Customer.Mount(r, env)
	s.Res.Supplier.Mount(r, env)
	return []resource.Registered{s.Res.Customer, s.Res.Supplier, s.Res.SupplierDetail}
}

func (s *Service) declare() *Resources {
	res := &Resources{}
	res.Customer = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "customermain", Table: "bb_customer", Label: i18n.T("客户", "Customer"),
		MenuCode: "customer_main", Scope: resource.Tenant, DataScope: true,
		Unique: [][]string{{"customerCode"}}, States: approval.MasterStates(), Import: &resource.Import{Key: "customerCode"},
		Number: &resource.Number{Field: "customerCode", BizType: CustomerCodeRule, Manual: true},
		Lookup: &resource.Lookup{URL: "/api/bluebird-basic/customermain/list", CodeField: "customerCode", LabelField: "customerName"},
	}, resource.Hooks[Customer]{
		Validate: validateCustomer,
		Commands: approval.Commands(s.approval, approval.Lifecycle[Customer]{
			BizType: CustomerBizType,
			No:      func(c *Customer) string { return c.CustomerCode },
			Title:   func(c *Customer) string { return "客户 " + c.CustomerCode + " " + c.CustomerName },
		}),
	})

	// Price lines follow their supplier: they are written only with it (its
	// submit carries them, its removal removes them) and read only where the
	// caller may read the supplier (the engine's parent link, declared by
	// the supplier's Lines). The supplier menu's code names the supplier
	// resource alone, so the lines have none.
	res.SupplierDetail = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "supplierdetail", Table: "bb_supplier_detail",
		Label:  i18n.T("供应商物料价格", "Supplier price line"),
		Scope:  resource.Tenant,
		Routes: []string{"list", "detail"},
		Unique: [][]string{{"supplierId", "materialId"}}, DefaultOrder: "id ASC",
		Views: []resource.View{{
			// domain.md §8: the supplier's price lines with the material
			// master, each with its lastPurchasePrice (PurchaseHistory,
			// through Enrich). Still to come with purchase orders: the
			// materials the supplier has approved order lines for but no
			// price line, as rows with isDerived true. They are not price
			// lines, so they need the view's answer extended, which the
			// engine's views have no hook for yet.
			Name: "mixList", Query: s.linesOfOneSupplier,
			Joins: []resource.Join{{Field: "materialId", Columns: []resource.JoinColumn{
				{Name: "materialCode", Column: "material_code", Label: i18n.T("物料编号", "Material code"), Filter: "like", Sort: true},
				{Name: "materialName", Column: "material_name", Label: i18n.T("物料名称", "Material name"), Filter: "like", Sort: true},
				{Name: "spec", Column: "spec", Label: i18n.T("规格", "Specification")},
				{Name: "unit", Column: "unit", Label: i18n.T("单位", "Unit")},
			}}},
		}},
	}, resource.Hooks[SupplierDetail]{
		Validate:   validatePriceLine,
		BeforeSave: checkValidity,
		Enrich:     s.withLastPurchasePrices,
	})

	res.Supplier = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "suppliermain", Table: "bb_supplier", Label: i18n.T("供应商", "Supplier"),
		MenuCode: "supplier", Scope: resource.Tenant, DataScope: true,
		Unique: [][]string{{"supplierCode"}}, States: approval.MasterStates(), Import: &resource.Import{Key: "supplierCode"},
		Number: &resource.Number{Field: "supplierCode", BizType: SupplierCodeRule, Manual: true},
		Lookup: &resource.Lookup{URL: "/api/bluebird-basic/suppliermain/list", CodeField: "supplierCode", LabelField: "supplierName"},
		Lines:  &resource.Lines{Field: "details", Child: res.SupplierDetail, Parent: "supplierId"},
	}, resource.Hooks[Supplier]{
		Validate: validateSupplier,
		Commands: approval.Commands(s.approval, approval.Lifecycle[Supplier]{
			BizType: SupplierBizType,
			No:      func(p *Supplier) string { return p.SupplierCode },
			Title:   func(p *Supplier) string { return "供应商 " + p.SupplierCode + " " + p.SupplierName },
		}),
	})
	return res
}

// Neither the customer nor the supplier screen has a void button
// (seeddata/menus.go: crud(opStartProcess)), so neither lifecycle declares
// cancellation: an approved customer or supplier is edited, or set not
// effective, instead.

// --- checks ---

var (
	msgEffective = i18n.T("生效状态应为1(未生效)或2(已生效)", "The effective status is 1 (not effective) or 2 (effective)")
	msgYesNo     = i18n.T("默认供应商应为1(否)或2(是)", "Default supplier is 1 (no) or 2 (yes)")
	msgValidTo   = i18n.T("失效日期不能早于生效日期", "Valid to cannot be before valid from")
)

// checked tells whether a field's value is to be checked: on insert every
// field is (defaults are filled by then), on update the ones sent.
func checked(present map[string]bool, isNew bool, field string) bool {
	return isNew || present[field]
}

func validateCustomer(ctx context.Context, row *Customer, present map[string]bool, isNew bool) error {
	if checked(present, isNew, "isEffective") && row.IsEffective != NotEffective && row.IsEffective != Effective {
		return resource.FieldErrorOf(ctx, "isEffective", msgEffective)
	}
	return nil
}

func validateSupplier(ctx context.Context, row *Supplier, present map[string]bool, isNew bool) error {
	if checked(present, isNew, "isEffective") && row.IsEffective != NotEffective && row.IsEffective != Effective {
		return resource.FieldErrorOf(ctx, "isEffective", msgEffective)
	}
	return nil
}

// validatePriceLine runs for each line of a supplier's submit; the engine
// puts the line number into its message.
func validatePriceLine(ctx context.Context, row *SupplierDetail, present map[string]bool, isNew bool) error {
	if checked(present, isNew, "currency") && row.Currency == "" {
		row.Currency = DefaultCurrency // sent empty: the currency of a line is never blank
	}
	if checked(present, isNew, "isDefault") && row.IsDefault != No && row.IsDefault != Yes {
		return resource.FieldErrorOf(ctx, "isDefault", msgYesNo)
	}
	return nil
}

// checkValidity refuses a price line valid until before it is valid from.
// An edit may send one end only: the other is the stored one.
func checkValidity(ctx context.Context, tx bun.Tx, row *SupplierDetail, isNew bool) error {
	from, to := row.ValidFrom, row.ValidTo
	if !isNew && (!resource.Sent(ctx, "validFrom") || !resource.Sent(ctx, "validTo")) {
		var stored SupplierDetail
		if err := tx.NewSelect().Model(&stored).Column("valid_from", "valid_to").Where("id = ?", row.ID).Scan(ctx); err != nil {
			return err
		}
		if !resource.Sent(ctx, "validFrom") {
			from = stored.ValidFrom
		}
		if !resource.Sent(ctx, "validTo") {
			to = stored.ValidTo
		}
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from.Time) {
		return resource.FieldErrorOf(ctx, "validTo", msgValidTo)
	}
	return nil
}

// --- price lines read through their supplier ---

// linesOfOneSupplier is mixList's own condition: supplierId is required,
// and a supplier the caller may not read (another tenant's, removed,
// outside the data scope) is not found rather than an empty list.
func (s *Service) linesOfOneSupplier(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	id, err := httpx.QueryID(r, "supplierId")
	if err != nil {
		return nil, err
	}
	if _, err := s.Res.Supplier.Get(r.Context(), s.env.DB, id); err != nil {
		return nil, err
	}
	return q.Where("?TableAlias.supplier_id = ?", id), nil
}

// withLastPurchasePrices fills lastPurchasePrice of lines about to be sent
// (lists, mixList, a supplier's detail), once purchase orders exist.
func (s *Service) withLastPurchasePrices(ctx context.Context, idb bun.IDB, lines []SupplierDetail) error {
	if s.Purchases == nil || len(lines) == 0 {
		return nil
	}
	materials := map[wire.ID][]wire.ID{}
	for _, l := range lines {
		materials[l.SupplierID] = append(materials[l.SupplierID], l.MaterialID)
	}
	prices := make(map[wire.ID]map[wire.ID]wire.Decimal, len(materials))
	for supplierID, ids := range materials {
		p, err := s.Purchases.LastPrices(ctx, idb, supplierID, ids)
		if err != nil {
			return err
		}
		prices[supplierID] = p
	}
	for i := range lines {
		lines[i].LastPurchasePrice = prices[lines[i].SupplierID][lines[i].MaterialID]
	}
	return nil
}
