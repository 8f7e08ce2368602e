package stockdoc

import (
	"context"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Service declares the material stock documents.
type Service struct {
	approval *approval.Service
	stock    *stock.Service
	plans    PlanQuantities
	numbers  resource.Numberer
	env      *resource.Env

	ins       *resource.Resource[MaterialIn]
	inDetails *resource.Resource[MaterialInDetail]
	issues    *resource.Resource[MaterialOut]
	backs     *resource.Resource[MaterialBackStock]
	backLines *resource.Resource[MaterialBackStockDetail]
}

// PlanQuantities is what the documents need of production plans
// (internal/production's Go API): whether a material may be picked for a
// plan, and the plan's picked and returned quantities, moved inside the
// document's transaction.
type PlanQuantities interface {
	PickAllowed(ctx context.Context, idb bun.IDB, planID, materialID wire.ID) error
	AddPicked(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error
	AddReturned(ctx context.Context, tx bun.Tx, planID, materialID wire.ID, qty wire.Decimal) error
}

// New returns the documents, approved through approvals, posted through
// the stock core, picking and returning against production plans.
func New(approvals *approval.Service, st *stock.Service, plans PlanQuantities) *Service {
	return &Service{approval: approvals, stock: st, plans: plans}
}

// documents are the declarations of this package's resources, one entry
// per document file (each adds itself in an init): a file's resources are
// declared, and mounted, in the order the entries were added.
var documents []func(s *Service) []resource.Registered

// Mount declares and routes the documents and returns them for the registry.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	s.numbers, s.env = env.Numbers, env
	var all []resource.Registered
	for _, declare := range documents {
		all = append(all, declare(s)...)
	}
	for _, res := range all {
		res.Mount(r, env)
	}
	return all
}
