package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/resource"
)

// mountScopes adds what the data-scope and API-scope screens need beyond CRUD.
func (s *Service) mountScopes(r chi.Router, env *resource.Env) {}
