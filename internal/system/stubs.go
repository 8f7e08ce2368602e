package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/resource"
)

func (s *Service) mountMenu(r chi.Router, env *resource.Env)   { s.res.Menu.Mount(r, env) }
func (s *Service) mountRole(r chi.Router, env *resource.Env)   { s.res.Role.Mount(r, env) }
func (s *Service) mountDept(r chi.Router, env *resource.Env)   { s.res.Dept.Mount(r, env) }
func (s *Service) mountRegion(r chi.Router, env *resource.Env) {}
func (s *Service) mountScopes(r chi.Router, env *resource.Env) {}
