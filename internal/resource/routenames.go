package resource

import (
	"fmt"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/httpx"
)

// Route names: BladeX serves some resources' routes under names of their
// own (the website client's select, submit and delete). Spec.RouteNames
// maps an engine route to the further name it is also served under, like
// SubmitAliases does for submit: the same handler (or the route's
// override), the same guard, parameters and answer. The engine's own name
// stays, so the generic screen, the metadata and the conformance loops,
// which speak the engine's names, serve and cover these resources unchanged.

// renamable are the routes a RouteNames entry may name, with their method.
var renamable = map[string]string{
	"list": "GET", "page": "GET", "detail": "GET", "export": "GET",
	"submit": "POST", "remove": "POST",
}

// initRouteNames refuses a name for a route the resource does not mount,
// and a name that is already one of the resource's routes: either would
// serve something other than what the declaration says.
func (r *Resource[T]) initRouteNames() {
	for route, name := range r.spec.RouteNames {
		if renamable[route] == "" || !r.spec.has(route) {
			panic(fmt.Sprintf("resource %s: RouteNames[%q]: not a route the resource mounts", r.spec.Key(), route))
		}
		if name == "" || renamable[name] != "" || name == "tree" || name == "lazy-tree" || name == "import" || name == "import-template" {
			panic(fmt.Sprintf("resource %s: RouteNames[%q] = %q: empty or one of the engine's route names", r.spec.Key(), route, name))
		}
		for _, alias := range r.spec.SubmitAliases {
			if alias == name {
				panic(fmt.Sprintf("resource %s: RouteNames[%q] = %q is also a submit alias", r.spec.Key(), route, name))
			}
		}
	}
}

// mountRouteNames serves each named route under its further name too.
func (r *Resource[T]) mountRouteNames(router chi.Router, read, write func(httpx.HandlerFunc) httpx.HandlerFunc) {
	own := map[string]httpx.HandlerFunc{
		"list": r.handleList, "page": r.handleList, "detail": r.handleDetail,
		"submit": r.handleSubmit, "remove": r.handleRemove, "export": r.handleExport,
	}
	for route, name := range r.spec.RouteNames {
		guard := read
		if renamable[route] == "POST" {
			guard = write
		}
		router.Method(renamable[route], r.spec.Path()+"/"+name, httpx.Handle(guard(r.handler(route, own[route]))))
	}
}
