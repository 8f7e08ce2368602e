package system

import (
	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

func (s *Service) declareMenu() *resource.Resource[Menu] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "menu", Table: "blade_menu", Label: i18n.T("菜单", "Menu"),
		MenuCode: "menu", Scope: resource.Global, DefaultOrder: "sort ASC, id ASC", Unique: [][]string{{"code"}},
		Routes: []string{"detail", "submit", "remove"},
	}, resource.Hooks[Menu]{})
}

func (s *Service) mountMenu(r chi.Router, env *resource.Env) { s.res.Menu.Mount(r, env) }
