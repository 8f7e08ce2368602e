package app_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.golden.json")

// TestOpenAPIGolden keeps the served OpenAPI document under review: a route
// or field change shows up as a diff of testdata/openapi.golden.json.
// Regenerate with: go test ./internal/app -run TestOpenAPIGolden -update
func TestOpenAPIGolden(t *testing.T) {
	h := apptest.New(t, "sqlite")
	r := h.Anon().Get("/api/openapi.json", nil)
	if r.Status != 200 {
		t.Fatalf("openapi.json: %d", r.Status)
	}
	var doc map[string]any
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(doc, "", "  ")
	got = append(got, '\n')
	const golden = "testdata/openapi.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the OpenAPI document changed; review and run: go test ./internal/app -run TestOpenAPIGolden -update")
	}
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/api/blade-system/param/list", "/api/blade-auth/oauth/token", "/api/blade-user/page"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("openapi lacks %s", p)
		}
	}
}
