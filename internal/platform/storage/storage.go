// Package storage keeps uploaded files by key. The local-disk store is the
// default; an S3-compatible store can take its place behind the same
// interface. Keys are chosen by the caller (never by a client) and are
// slash-separated paths of plain segments such as "000000/2025/01/ab12.png".
package storage

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// Info describes a stored object.
type Info struct {
	Size        int64
	ContentType string
	ModTime     time.Time
}

// Store puts, opens and deletes objects by key.
type Store interface {
	// Put stores exactly size bytes of r under key with the given content type,
	// replacing any object already there. A reader that ends early is an error.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Open returns the object's content and info; ErrNotFound when absent.
	Open(ctx context.Context, key string) (io.ReadCloser, Info, error)
	// Delete removes the object; deleting an absent key is not an error.
	Delete(ctx context.Context, key string) error
}

var (
	// ErrNotFound is returned by Open for a key with no object.
	ErrNotFound = errors.New("storage: object not found")
	// ErrInvalidKey is returned for a key that is not a clean relative path.
	ErrInvalidKey = errors.New("storage: invalid key")
	// ErrShortWrite is returned by Put when the reader holds fewer or more bytes than announced.
	ErrShortWrite = errors.New("storage: content length does not match size")
)

// MaxKeyLen bounds a key's length.
const MaxKeyLen = 512

// ValidKey tells whether key is usable: 1 to MaxKeyLen bytes of segments made
// of ASCII letters, digits, '.', '_' and '-', joined by single slashes, with
// no segment starting with a dot (so no ".", "..", or hidden names).
func ValidKey(key string) bool {
	if key == "" || len(key) > MaxKeyLen {
		return false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg[0] == '.' {
			return false
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			default:
				return false
			}
		}
	}
	return true
}
