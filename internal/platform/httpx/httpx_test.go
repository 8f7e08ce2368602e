package httpx

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A panic or an unexpected error answers 500 with the request id and
// nothing of the error itself.
func TestInternalErrorsHideDetails(t *testing.T) {
	secret := "pq: relation \"blade_user\" password=hunter2"
	handlers := map[string]http.Handler{
		"error": Handle(func(*http.Request) (any, error) { return nil, errors.New(secret) }),
		"panic": Recover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(secret) })),
	}
	for name, h := range handlers {
		rec := httptest.NewRecorder()
		h = RequestIDMiddleware(h)
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
		var env Envelope
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatalf("%s: body %q", name, rec.Body)
		}
		id := rec.Header().Get("X-Request-Id")
		if rec.Code != 500 || env.Code != 500 || env.Success || strings.Contains(rec.Body.String(), "hunter2") || !strings.Contains(env.Msg, id) {
			t.Errorf("%s: %d %s (request id %s)", name, rec.Code, rec.Body, id)
		}
	}
}

func TestErrorLanguage(t *testing.T) {
	h := Handle(func(*http.Request) (any, error) { return nil, ErrUnauthorized })
	for lang, want := range map[string]string{"": "请求未授权", "en-US,en;q=0.9": "Unauthorized", "zh-CN": "请求未授权"} {
		req := httptest.NewRequest("GET", "/", nil)
		if lang != "" {
			req.Header.Set("Accept-Language", lang)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var env Envelope
		_ = json.Unmarshal(rec.Body.Bytes(), &env)
		if rec.Code != 401 || env.Msg != want {
			t.Errorf("%q: %d %q", lang, rec.Code, env.Msg)
		}
	}
}
