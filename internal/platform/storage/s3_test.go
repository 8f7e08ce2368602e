package storage_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/platform/storage"
	"github.com/bluebird/console/internal/platform/storage/s3test"
)

func TestS3RoundTrip(t *testing.T) {
	ctx := context.Background()
	srv := s3test.New(t, "files", "AK1")
	s, err := storage.NewS3(storage.S3Config{Endpoint: srv.URL, Bucket: "files", AccessKey: "AK1", SecretKey: "SK1", PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("check: %v", err)
	}
	if _, _, err := s.Open(ctx, "t/a.txt"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("open before put: %v", err)
	}
	body := bytes.Repeat([]byte("hello s3 "), 1000)
	if err := s.Put(ctx, "t/2026/01/a.txt", bytes.NewReader(body), int64(len(body)), "text/plain; charset=utf-8"); err != nil {
		t.Fatalf("put: %v", err)
	}
	obj, err := srv.Backend.HeadObject("files", "t/2026/01/a.txt")
	if err != nil || obj.Size != int64(len(body)) {
		t.Fatalf("the fake holds %v, %v", obj, err)
	}
	rc, info, err := s.Open(ctx, "t/2026/01/a.txt")
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, body) || info.Size != int64(len(body)) || info.ContentType != "text/plain; charset=utf-8" {
		t.Fatalf("read back %d bytes, info %+v", len(got), info)
	}
	if _, ok := rc.(io.ReadSeeker); !ok {
		t.Fatal("an S3 object should seek (range requests)")
	}
	if err := s.Delete(ctx, "t/2026/01/a.txt"); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, _, err := s.Open(ctx, "t/2026/01/a.txt"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("open after delete: %v", err)
	}
	if err := s.Delete(ctx, "t/2026/01/a.txt"); err != nil {
		t.Fatalf("delete of an absent key: %v", err)
	}
	if err := s.Put(ctx, "../x", bytes.NewReader(nil), 0, ""); !errors.Is(err, storage.ErrInvalidKey) {
		t.Fatalf("bad key: %v", err)
	}
}

func TestS3Refusals(t *testing.T) {
	ctx := context.Background()
	srv := s3test.New(t, "files", "AK1")
	wrongKey, _ := storage.NewS3(storage.S3Config{Endpoint: srv.URL, Bucket: "files", AccessKey: "nope", SecretKey: "x", PathStyle: true})
	if err := wrongKey.Put(ctx, "t/a.txt", strings.NewReader("x"), 1, "text/plain"); err == nil {
		t.Fatal("a put with the wrong access key succeeded")
	}
	noBucket, _ := storage.NewS3(storage.S3Config{Endpoint: srv.URL, Bucket: "other", AccessKey: "AK1", SecretKey: "x", PathStyle: true})
	if err := noBucket.Check(ctx); err == nil {
		t.Fatal("check of a missing bucket succeeded")
	}
	for _, e := range []string{"", "ftp://h", "http://h/path", "http://u:p@h", "http://h?x=1"} {
		if _, err := storage.NewS3(storage.S3Config{Endpoint: e, Bucket: "b"}); err == nil {
			t.Errorf("endpoint %q accepted", e)
		}
	}
	if _, err := storage.NewS3(storage.S3Config{Endpoint: "minio.local:9000"}); err == nil {
		t.Error("no bucket accepted")
	}
}
