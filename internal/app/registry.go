package app

import (
	"net/http"
	"sort"
	"strings"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/resource"
)

// Registry is every declared resource, for metadata, OpenAPI, the API-scope
// resource lookup and the conformance tests.
type Registry struct {
	list  []resource.Registered
	byKey map[string]resource.Registered
}

// Add registers resources; a duplicate key is a programming error.
func (g *Registry) Add(rs ...resource.Registered) {
	if g.byKey == nil {
		g.byKey = map[string]resource.Registered{}
	}
	for _, r := range rs {
		k := r.Spec().Key()
		if _, dup := g.byKey[k]; dup {
			panic("duplicate resource " + k)
		}
		g.byKey[k] = r
		g.list = append(g.list, r)
	}
}

// All returns the resources sorted by key.
func (g *Registry) All() []resource.Registered {
	out := append([]resource.Registered(nil), g.list...)
	sort.Slice(out, func(i, j int) bool { return out[i].Spec().Key() < out[j].Spec().Key() })
	return out
}

// Get finds a resource by "service/name".
func (g *Registry) Get(key string) resource.Registered { return g.byKey[key] }

// CodeForPath maps an /api path to the resource code (menu code) that owns it.
func (g *Registry) CodeForPath(path string) string {
	best, code := 0, ""
	for _, r := range g.list {
		prefix := "/api" + r.Spec().Path() + "/"
		if strings.HasPrefix(path, prefix) && len(prefix) > best {
			best, code = len(prefix), r.Spec().MenuCode
		}
	}
	return code
}

func (g *Registry) handleMetaList(r *http.Request) (any, error) {
	out := make([]*resource.Meta, 0, len(g.list))
	for _, res := range g.All() {
		out = append(out, res.Meta())
		if s, ok := res.(interface{ ScreenMetas() []*resource.Meta }); ok {
			out = append(out, s.ScreenMetas()...)
		}
	}
	return out, nil
}

func (g *Registry) handleMeta(r *http.Request) (any, error) {
	name, err := httpx.QueryString(r, "name")
	if err != nil {
		return nil, err
	}
	res := g.Get(strings.Trim(name, "/"))
	if res == nil {
		return nil, httpx.Badf("资源%s不存在", "No resource named %s", name)
	}
	return res.Meta(), nil
}
