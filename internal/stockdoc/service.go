package stockdoc

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// Service declares the material stock documents.
type Service struct {
	approval *approval.Service
	stock    *stock.Service
	numbers  resource.Numberer
	env      *resource.Env

	ins       *resource.Resource[MaterialIn]
	inDetails *resource.Resource[MaterialInDetail]
}

// New returns the documents, approved through approvals and posted through
// the stock core.
func New(approvals *approval.Service, st *stock.Service) *Service {
	return &Service{approval: approvals, stock: st}
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
