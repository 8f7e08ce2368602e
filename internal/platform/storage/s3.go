package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config names an S3-compatible bucket (MinIO, AWS S3, Ceph, OSS/COS in
// S3 mode). Endpoint is host[:port], or a URL whose scheme picks http or
// https (no scheme means https).
type S3Config struct {
	Endpoint  string
	Bucket    string
	AccessKey string
	SecretKey string
	// Region defaults to us-east-1: with a region set, minio-go does not ask
	// the bucket's location before every first request.
	Region string
	// PathStyle puts the bucket in the path (http://host/bucket/key), as
	// MinIO and most self-hosted stores want; otherwise the bucket is a
	// virtual host (http://bucket.host/key) when the endpoint allows it.
	PathStyle bool
	// Transport, when set, carries the requests (tests); nil is the default.
	Transport http.RoundTripper
}

// S3 keeps objects in one bucket of an S3-compatible store through minio-go.
type S3 struct {
	client *minio.Client
	bucket string
	host   string // scheme://host of the endpoint, for display
}

var _ Store = (*S3)(nil)

// s3Timeout bounds a request that has no deadline of its own: a
// misconfigured endpoint must not hold an upload for minutes.
const s3Timeout = 30 * time.Second

// ParseEndpoint splits an endpoint into host[:port] and whether it is https.
func ParseEndpoint(endpoint string) (host string, secure bool, err error) {
	endpoint = strings.TrimSpace(endpoint)
	if !strings.Contains(endpoint, "://") {
		endpoint = "https://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", false, fmt.Errorf("storage: endpoint %q is not host[:port] or http(s)://host[:port]", endpoint)
	}
	return u.Host, u.Scheme == "https", nil
}

// NewS3 builds the store; it makes no request (Check does).
func NewS3(c S3Config) (*S3, error) {
	host, secure, err := ParseEndpoint(c.Endpoint)
	if err != nil {
		return nil, err
	}
	if c.Bucket == "" {
		return nil, errors.New("storage: no bucket")
	}
	region := c.Region
	if region == "" {
		region = "us-east-1"
	}
	lookup := minio.BucketLookupAuto
	if c.PathStyle {
		lookup = minio.BucketLookupPath
	}
	transport := c.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.ResponseHeaderTimeout = s3Timeout
		transport = t
	}
	client, err := minio.New(host, &minio.Options{
		Creds: credentials.NewStaticV4(c.AccessKey, c.SecretKey, ""), Secure: secure,
		Region: region, BucketLookup: lookup, Transport: transport,
	})
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	scheme := "http"
	if secure {
		scheme = "https"
	}
	return &S3{client: client, bucket: c.Bucket, host: scheme + "://" + host}, nil
}

// Domain is where the bucket lives, for display: scheme://host/bucket.
func (s *S3) Domain() string { return s.host + "/" + s.bucket }

// Check asks whether the bucket exists and the keys may see it.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if !ok {
		return fmt.Errorf("storage: bucket %q does not exist", s.bucket)
	}
	return nil
}

// Put uploads exactly size bytes.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	info, err := s.client.PutObject(ctx, s.bucket, key, io.LimitReader(r, size), size, minio.PutObjectOptions{ContentType: contentType})
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if info.Size != size {
		return ErrShortWrite
	}
	return nil
}

// Open returns the object; the reader seeks (http.ServeContent can answer
// range requests from it with ranged GETs).
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	if !ValidKey(key) {
		return nil, Info{}, ErrInvalidKey
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Info{}, s3Error(err)
	}
	st, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, Info{}, s3Error(err)
	}
	ct := st.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	return obj, Info{Size: st.Size, ContentType: ct, ModTime: st.LastModified}, nil
}

// Delete removes the object; S3 answers an absent key with success.
func (s *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return s3Error(err)
	}
	return nil
}

func s3Error(err error) error {
	switch minio.ToErrorResponse(err).Code {
	case "NoSuchKey", "NotFound":
		return ErrNotFound
	}
	return fmt.Errorf("storage: %w", err)
}
