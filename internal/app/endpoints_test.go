package app_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// platformServices are the services issue #2 builds; the other lines of
// endpoints.txt belong to later issues.
var platformServices = []string{"/api/blade-auth/", "/api/blade-system/", "/api/blade-user/", "/api/blade-develop/datasource/",
	"/api/website/", "/api/blade-desk/notice", "/api/blade-resource/", "/api/blade-report/", "/api/blade-develop/code",
	"/api/blade-log/", "/api/monitor/", "/api/log-service/"}

func platformEndpoints(t *testing.T) [][2]string {
	f, err := os.Open("testdata/endpoints.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		method, path, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		for _, s := range platformServices {
			if strings.HasPrefix(path, s) {
				out = append(out, [2]string{method, path})
			}
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d platform endpoints read", len(out))
	}
	return out
}

// TestEndpointsRouted proves every platform endpoint of spec.md §7 is routed,
// and that an empty or malformed request to it answers 4xx, never 5xx.
func TestEndpointsRouted(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		for _, ep := range platformEndpoints(t) {
			method, path := ep[0], ep[1]
			if path == "/api/blade-auth/oauth/logout" {
				continue // would end the session the rest of the loop uses; covered in auth tests
			}
			// Empty request.
			r, ok := routed(admin, method, path)
			if !ok {
				t.Errorf("%s %s is not routed (%d)", method, path, r.Status)
				continue
			}
			if r.Status >= 500 {
				t.Errorf("%s %s empty: %d %s", method, path, r.Status, r.Body)
			}
			// Malformed: garbage parameters and, for POST, a broken JSON body.
			mal := path + "?id=x&ids=1,,zz&current=-1&size=abc&parentId=%25&roleIds=q&userIds=q&tenantId=%27"
			var body *strings.Reader
			if method == "POST" {
				body = strings.NewReader(`{"id": [1, 2}`)
			}
			if body != nil {
				r = admin.Do(method, mal, body, nil)
			} else {
				r = admin.Do(method, mal, nil, nil)
			}
			if r.Status >= 500 {
				t.Errorf("%s %s malformed: %d %s", method, path, r.Status, r.Body)
			}
		}
	})
}
