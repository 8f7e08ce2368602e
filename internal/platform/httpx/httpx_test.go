package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
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

// FuzzCheckJSON: checkJSON refuses exactly the documents with a control
// character (tab, CR, LF allowed in values) or invalid UTF-8 in a string, as
// encoding/json would decode them, and never panics.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"a":"\u0000"}`, `["\t\n\r"]`, `{"k\u0001":1}`, "{\"a\":\"\xff\"}",
		`{"a":"\ud83d\ude00"}`, `{"a":"\ud800"}`, `{"a":"\udc00\ud800"}`, `[{"b":[1,{"c":"\u007f"}]}]`, `"\u0085"`, `{"a":"\b"}`,
		`{"a":"\\u0000"}`, `{"a":`, "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := checkJSON(body)
		if err != nil {
			if e, ok := As(err); !ok || e.Status != 400 {
				t.Fatalf("checkJSON(%q) = %v", body, err)
			}
		}
		if !json.Valid(body) {
			return
		}
		// The reference: decoded strings, and whether the source was clean UTF-8
		// (encoding/json turns invalid bytes and lone surrogates into U+FFFD).
		type frame struct{ object, wantKey bool }
		var stack []frame
		bad := false
		dec := json.NewDecoder(bytes.NewReader(body))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			isKey := len(stack) > 0 && stack[len(stack)-1].wantKey
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].wantKey = !isKey
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					stack = append(stack, frame{object: v == '{', wantKey: v == '{'})
				} else {
					stack = stack[:len(stack)-1]
				}
			case string:
				bad = bad || badText(v, !isKey) != "" || strings.ContainsRune(v, utf8.RuneError)
			}
		}
		hasFFFD := bytes.Contains(body, []byte("\uFFFD")) || bytes.Contains(bytes.ToLower(body), []byte(`\ufffd`))
		if err == nil && bad && !hasFFFD {
			t.Fatalf("checkJSON(%q) let a bad string through", body)
		}
		if err != nil && !bad {
			t.Fatalf("checkJSON(%q) refused a clean document: %v", body, err)
		}
	})
}
