package resource

import (
	"fmt"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/httpx"
)

// Route overrides (Hooks.Routes): a resource whose answer on one of the
// engine's routes has a shape of its own (BladeX's nested menu, role and
// department lists, a menu tree bounded by the tenant's package) or whose
// writes need checks the hooks cannot hold (user removal: privilege rules
// read before the transaction opens) declares a handler for that route by
// name. The engine mounts it in place of its own, at the same URL and behind
// the same access guard (Spec.Read or Spec.Write), and the metadata lists
// the route as before. The handler builds on the store API (Select, Get,
// List, Save, Remove, TreeRows...), which applies the same predicates.

// overridable is each route an override may name, and whether the resource has it.
var overridable = map[string]func(s *Spec) bool{
	"list":      func(s *Spec) bool { return s.has("list") },
	"page":      func(s *Spec) bool { return s.has("page") },
	"detail":    func(s *Spec) bool { return s.has("detail") },
	"submit":    func(s *Spec) bool { return s.has("submit") },
	"remove":    func(s *Spec) bool { return s.has("remove") },
	"export":    func(s *Spec) bool { return s.has("export") },
	"tree":      func(s *Spec) bool { return s.Tree != nil },
	"lazy-tree": func(s *Spec) bool { return s.Tree != nil && s.Tree.Lazy },
}

// initRoutes refuses an override of a route the resource does not mount: it
// would never be called, and the route it meant would stay the engine's.
func (r *Resource[T]) initRoutes() {
	for name, h := range r.hooks.Routes {
		mounted := overridable[name]
		if mounted == nil || !mounted(&r.spec) || h == nil {
			names := make([]string, 0, len(overridable))
			for n := range overridable {
				names = append(names, n)
			}
			slices.Sort(names)
			panic(fmt.Sprintf("resource %s: Routes[%q] overrides no route of the resource (one of %v it mounts, with a handler)", r.spec.Key(), name, names))
		}
	}
}

// handler is the declared override of route, or the engine's own handler.
func (r *Resource[T]) handler(route string, own httpx.HandlerFunc) httpx.HandlerFunc {
	if h := r.hooks.Routes[route]; h != nil {
		return h
	}
	return own
}

// WithRoutes is a resource plus routes of its own that the engine does not
// make, mounted with it (a path under another resource's, as the spec puts
// materialstock/saveCheckResult; a hand-written grouped read). The registry,
// the metadata and the conformance loops see the resource alone.
type WithRoutes[T any] struct {
	*Resource[T]
	Extra func(r chi.Router, env *Env)
}

// Mount mounts the resource, then its extra routes.
func (w WithRoutes[T]) Mount(r chi.Router, env *Env) {
	w.Resource.Mount(r, env)
	w.Extra(r, env)
}
