package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

func (s *Service) declareRole() *resource.Resource[Role] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "role", Table: "blade_role", Label: i18n.T("角色", "Role"),
		MenuCode: "role", Scope: resource.TenantAdmin, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"roleAlias"}}, Routes: []string{"detail", "submit", "remove"},
	}, resource.Hooks[Role]{})
}

func (s *Service) mountRole(r chi.Router, env *resource.Env) { s.res.Role.Mount(r, env) }
