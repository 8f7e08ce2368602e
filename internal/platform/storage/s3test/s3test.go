// Package s3test runs an in-process S3 server (gofakes3) for tests.
package s3test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Server is a fake S3 endpoint with one bucket. gofakes3 checks no
// signature, so the server refuses any request not signed with AccessKey:
// a test sees that the configured keys are the ones used.
type Server struct {
	URL       string
	AccessKey string
	Backend   *s3mem.Backend
}

// New starts the server; it stops with the test.
func New(t testing.TB, bucket, accessKey string) *Server {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	h := gofakes3.New(backend).Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Authorization"), "Credential="+accessKey+"/") {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>unknown key</Message></Error>`))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, AccessKey: accessKey, Backend: backend}
}

// Has tells whether the bucket holds key.
func (s *Server) Has(bucket, key string) bool {
	_, err := s.Backend.HeadObject(bucket, key)
	return err == nil
}
