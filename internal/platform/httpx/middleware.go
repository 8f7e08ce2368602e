package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"
)

type requestIDKey struct{}

var requestSeq atomic.Uint64
var requestPrefix = func() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// RequestID returns the id given to the request by the RequestID middleware.
func RequestID(ctx context.Context) string {
	if v, ok := ctx.Value(requestIDKey{}).(string); ok {
		return v
	}
	return "-"
}

// RequestID gives each request an id (kept from X-Request-Id when sane) and echoes it.
func RequestIDMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = requestPrefix + "-" + strconv.FormatUint(requestSeq.Add(1), 10)
		}
		w.Header()["X-Request-Id"] = []string{id}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// Recover turns a panic into a 500 envelope with the request id; the stack goes to the log only.
func Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic", "value", fmt.Sprint(v), "request_id", RequestID(r.Context()), "stack", string(debug.Stack()))
				WriteError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// LimitBody caps every request body; handlers see a MaxBytesError past it.
func LimitBody(limit int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > limit {
				WriteError(w, r, ErrBodyTooLarge)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			next.ServeHTTP(w, r)
		})
	}
}

// StatusRecorder remembers the status a handler wrote.
type StatusRecorder struct {
	http.ResponseWriter
	Status int
	Bytes  int
}

func (s *StatusRecorder) WriteHeader(code int) {
	if s.Status == 0 {
		s.Status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *StatusRecorder) Write(b []byte) (int, error) {
	if s.Status == 0 {
		s.Status = 200
	}
	n, err := s.ResponseWriter.Write(b)
	s.Bytes += n
	return n, err
}

func (s *StatusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush lets streamed exports flush through the recorder.
func (s *StatusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// AccessLog writes one structured line per request. Observe, when set, gets
// the route pattern, status and duration (metrics).
func AccessLog(logger *slog.Logger, observe func(r *http.Request, status int, d time.Duration)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &StatusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			d := time.Since(start)
			if rec.Status == 0 {
				rec.Status = 200
			}
			if observe != nil {
				observe(r, rec.Status, d)
			}
			if logger.Enabled(r.Context(), slog.LevelInfo) {
				logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
					slog.String("method", r.Method), slog.String("path", r.URL.Path),
					slog.Int("status", rec.Status), slog.Int("bytes", rec.Bytes),
					slog.Duration("dur", d), slog.String("request_id", RequestID(r.Context())))
			}
		})
	}
}
