// Package httpx is the HTTP plumbing shared by every area: the response
// envelope, the error table, binding and middleware.
package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"

	"github.com/bluebird/console/internal/platform/i18n"
)

// Envelope is the body of every /api response except login.
type Envelope struct {
	Code    int    `json:"code"`
	Success bool   `json:"success"`
	Msg     string `json:"msg"`
	Data    any    `json:"data"`
}

var msgOK = i18n.T("操作成功", "Success")

// Page is the shape of paged data.
type Page[T any] struct {
	Records []T   `json:"records"`
	Total   int64 `json:"total"`
	Size    int   `json:"size"`
	Current int   `json:"current"`
	Pages   int64 `json:"pages"`
}

// NewPage fills in the page count; neither it nor the total is ever negative.
func NewPage[T any](records []T, total int64, current, size int) Page[T] {
	if records == nil {
		records = []T{}
	}
	total = max(total, 0)
	var pages int64
	if size > 0 {
		pages = (total + int64(size) - 1) / int64(size)
	}
	return Page[T]{Records: records, Total: total, Size: size, Current: current, Pages: pages}
}

// Message is a success result with its own message, e.g. 新增成功, and
// optionally data (true when none).
type Message struct {
	Text i18n.Text
	Data any
}

// Raw is written as-is (login answers raw OAuth2 JSON, not the envelope).
type Raw struct {
	Status int
	Body   any
}

// Streamer writes its own response (file downloads, exports).
type Streamer func(w http.ResponseWriter) error

// HandlerFunc is the shape of every API handler: bind, call a service, return.
type HandlerFunc func(r *http.Request) (any, error)

// Handle adapts a HandlerFunc to net/http and encodes its result.
func Handle(h HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out, err := h(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		switch v := out.(type) {
		case Streamer:
			if err := v(w); err != nil {
				slog.ErrorContext(r.Context(), "stream failed", "err", err, "request_id", RequestID(r.Context()))
			}
		case Raw:
			writeJSON(w, v.Status, v.Body)
		case Message:
			var data any = true
			if v.Data != nil {
				data = v.Data
			}
			writeJSON(w, 200, Envelope{Code: 200, Success: true, Msg: v.Text.In(i18n.FromRequest(r)), Data: data})
		default:
			writeJSON(w, 200, Envelope{Code: 200, Success: true, Msg: msgOK.In(i18n.FromRequest(r)), Data: v})
		}
	}
}

// WriteError encodes err in the envelope with the status of its table entry.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	lang := i18n.FromRequest(r)
	if e, ok := As(err); ok {
		writeJSON(w, e.Status, Envelope{Code: e.Status, Success: false, Msg: e.Msg.In(lang), Data: e.Data})
		return
	}
	id := RequestID(r.Context())
	slog.ErrorContext(r.Context(), "internal error", "err", err, "request_id", id, "path", r.URL.Path)
	msg := i18n.T("服务器内部错误,请联系管理员 (请求号 %s)", "Internal server error; contact the administrator (request %s)").Format(id)
	writeJSON(w, 500, Envelope{Code: 500, Success: false, Msg: msg.In(lang)})
}

var bufPool = sync.Pool{New: func() any { return new([]byte) }}

// checkEncoding (BLUEBIRD_CHECK_JSON=1, for test runs) encodes every response
// with encoding/json too and panics on a difference.
var checkEncoding = os.Getenv("BLUEBIRD_CHECK_JSON") != ""

func compareStd(got []byte, body any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil || !bytes.Equal(buf.Bytes(), got) {
		panic(fmt.Sprintf("httpx: JSON of %T differs from encoding/json (err %v):\n got %s\nwant %s", body, err, got, buf.Bytes()))
	}
}

var jsonContentType = []string{"application/json;charset=UTF-8"}

// writeJSON encodes into a pooled buffer first, so the response goes out in
// one write with a Content-Length instead of chunks. The bytes are what
// json.Encoder (HTML escaping off) writes; appendJSON (jsonenc.go) makes them
// for the types it compiles, encoding/json for the rest.
func writeJSON(w http.ResponseWriter, status int, body any) {
	bp := bufPool.Get().(*[]byte)
	b, err := appendJSON((*bp)[:0], body)
	if err == nil {
		b = append(b, '\n')
		if checkEncoding {
			compareStd(b, body)
		}
	} else {
		buf := bytes.NewBuffer(b[:0])
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(body); err != nil {
			slog.Error("encode response", "err", err)
			status = 500
			buf.Reset()
			buf.WriteString(`{"code":500,"success":false,"msg":"服务器内部错误","data":null}`)
		}
		b = buf.Bytes()
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b)
	if cap(b) <= 1<<20 {
		*bp = b
		bufPool.Put(bp)
	}
}
