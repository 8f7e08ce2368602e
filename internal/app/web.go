package app

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/web"
)

// siblingBases are the top-menu apps served by the same build (spec.md §2).
var siblingBases = []string{"/pdm", "/erp", "/scm"}

// mountWeb serves the embedded React build at / and the sibling bases, with
// index.html for any path that is not a file (deep links).
func mountWeb(root chi.Router) {
	dist, err := fs.Sub(web.Dist, "dist")
	if err != nil {
		panic(err)
	}
	index, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		index = []byte("<!doctype html><meta charset=utf-8><title>Bluebird</title><p>The web console is not built. Run <code>make build</code>. The API is at /api.</p>")
	}
	files := http.FileServer(http.FS(dist))
	serve := func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		for _, b := range siblingBases {
			if p == b || strings.HasPrefix(p, b+"/") {
				p = strings.TrimPrefix(p, b)
				break
			}
		}
		clean := strings.TrimPrefix(path.Clean("/"+p), "/")
		if clean != "" && clean != "index.html" {
			if st, err := fs.Stat(dist, clean); err == nil && !st.IsDir() {
				if strings.HasPrefix(clean, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/" + clean
				files.ServeHTTP(w, r2)
				return
			}
			if strings.HasPrefix(clean, "assets/") {
				http.NotFound(w, r) // a missing chunk must fail, not become index.html
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	}
	root.Get("/*", serve)
	root.Head("/*", serve)
}
