package resource

import (
	"fmt"
	"reflect"

	"github.com/go-chi/chi/v5"
)

// Described is a resource whose routes are written by hand because the
// engine cannot serve its table: keyed by something other than an id, or
// without the base columns (regions). Its fields are declared with the same
// tags, so it has metadata, an OpenAPI schema and a place in the registry
// like any other; mount adds its routes, which must match Spec.Routes and
// follow the generic ones' contract (list, detail?id=, submit, remove?ids=).
type Described struct {
	spec  Spec
	meta  *Meta
	mount func(chi.Router, *Env)
}

// Describe declares a hand-written resource of row type T. It panics on a bad
// declaration, as New does.
func Describe[T any](spec Spec, mount func(chi.Router, *Env)) *Described {
	meta, err := newMeta(&spec, reflect.TypeFor[T]())
	if err != nil {
		panic(fmt.Sprintf("resource %s: %v", spec.Key(), err))
	}
	return &Described{spec: spec, meta: meta, mount: mount}
}

func (d *Described) Spec() *Spec                  { return &d.spec }
func (d *Described) Meta() *Meta                  { return d.meta }
func (d *Described) Mount(r chi.Router, env *Env) { d.mount(r, env) }
