package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/resource"
)

// Mount adds every blade-system route and returns the declared resources.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	res := s.declare()
	s.res = res
	plain := []resource.Registered{res.Param, res.TenantPackage, res.Client, res.Post, res.DataScope, res.APIScope, res.TopMenu}
	for _, p := range plain {
		p.Mount(r, env)
	}
	s.mountTenant(r, env)
	s.mountDict(r, env)
	s.mountMenu(r, env)
	s.mountRole(r, env)
	s.mountDept(r, env)
	res.Region.Mount(r, env)
	s.mountScopes(r, env)
	return append(plain, res.Tenant, res.Dict, res.DictBiz, res.Menu, res.Role, res.Dept, res.Region)
}
