package app

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
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
	gz := &gzipCache{fsys: dist}
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
				if gz.serve(w, r, clean) {
					return
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

// gzipCache serves text assets gzip-compressed, compressing each file once.
type gzipCache struct {
	fsys fs.FS
	m    sync.Map // name → []byte (nil when not worth compressing)
}

var compressible = map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml", ".json": "application/json", ".html": "text/html; charset=utf-8"}

func (g *gzipCache) serve(w http.ResponseWriter, r *http.Request, name string) bool {
	ctype, ok := compressible[path.Ext(name)]
	if !ok || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		return false
	}
	v, ok := g.m.Load(name)
	if !ok {
		raw, err := fs.ReadFile(g.fsys, name)
		if err != nil {
			return false
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		var out []byte
		if buf.Len() < len(raw) {
			out = buf.Bytes()
		}
		v, _ = g.m.LoadOrStore(name, out)
	}
	body := v.([]byte)
	if body == nil {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", "gzip")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
	return true
}
