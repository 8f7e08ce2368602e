package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/resource"
)

func (s *Service) mountRegion(r chi.Router, env *resource.Env) {}
