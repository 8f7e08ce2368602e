package resource

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Except hides some of the engine's routes ("METHOD /path" in Skip) so that
// hand-written handlers take their place while the metadata still lists them
// as actions: Mount the resource on it, then route those paths yourself.
type Except struct {
	chi.Router
	Skip map[string]bool
}

func (e Except) Get(pattern string, h http.HandlerFunc) {
	if !e.Skip["GET "+pattern] {
		e.Router.Get(pattern, h)
	}
}

func (e Except) Post(pattern string, h http.HandlerFunc) {
	if !e.Skip["POST "+pattern] {
		e.Router.Post(pattern, h)
	}
}
