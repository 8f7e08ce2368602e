package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

func (s *Service) declareDept() *resource.Resource[Dept] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "dept", Table: "blade_dept", Label: i18n.T("部门", "Department"),
		MenuCode: "dept", Scope: resource.TenantAdmin, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		Routes: []string{"detail", "submit", "remove"},
	}, resource.Hooks[Dept]{})
}

func (s *Service) mountDept(r chi.Router, env *resource.Env) { s.res.Dept.Mount(r, env) }
