package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
)

// Local keeps objects as files under a directory. Every access goes through
// an os.Root, so no key (or symlink planted in the tree) can reach outside
// it. The content type lives in a hidden sidecar next to each file
// (".<name>.meta"); hidden names are outside the key space (ValidKey).
// The directory is created on the first Put, not before.
type Local struct {
	Dir string
}

// NewLocal returns a store rooted at dir.
func NewLocal(dir string) *Local { return &Local{Dir: dir} }

var _ Store = (*Local)(nil)

type meta struct {
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
}

func metaName(key string) string {
	dir, name := path.Split(key)
	return dir + "." + name + ".meta"
}

func (l *Local) openRoot(create bool) (*os.Root, error) {
	if l.Dir == "" {
		return nil, errors.New("storage: no directory configured")
	}
	if create {
		if err := os.MkdirAll(l.Dir, 0o750); err != nil {
			return nil, fmt.Errorf("storage: %w", err)
		}
	}
	return os.OpenRoot(l.Dir)
}

// Put writes to a temporary file in the key's directory and renames it into
// place once complete, so readers never see a partial object.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	root, err := l.openRoot(true)
	if err != nil {
		return err
	}
	defer root.Close()
	if dir := path.Dir(key); dir != "." {
		if err := root.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("storage: %w", err)
		}
	}
	m, err := json.Marshal(meta{ContentType: contentType, Size: size})
	if err != nil {
		return err
	}
	if err := writeAtomic(root, metaName(key), func(f *os.File) error { _, err := f.Write(m); return err }); err != nil {
		return err
	}
	return writeAtomic(root, key, func(f *os.File) error {
		n, err := io.Copy(f, io.LimitReader(contextReader{ctx, r}, size+1))
		if err != nil {
			return err
		}
		if n != size {
			return ErrShortWrite
		}
		return nil
	})
}

func writeAtomic(root *os.Root, name string, fill func(*os.File) error) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(name), ".tmp-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		_ = root.Remove(tmp)
		return err
	}
	return nil
}

// Open returns the file; the caller closes it. The reader is an *os.File, so
// it also seeks (http.ServeContent can answer range requests from it).
func (l *Local) Open(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	if !ValidKey(key) {
		return nil, Info{}, ErrInvalidKey
	}
	root, err := l.openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Info{}, ErrNotFound
	}
	if err != nil {
		return nil, Info{}, err
	}
	defer root.Close()
	f, err := root.Open(key)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Info{}, ErrNotFound
	}
	if err != nil {
		return nil, Info{}, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = ErrNotFound
		}
		return nil, Info{}, err
	}
	info := Info{Size: st.Size(), ModTime: st.ModTime(), ContentType: "application/octet-stream"}
	if b, err := root.ReadFile(metaName(key)); err == nil {
		var m meta
		if json.Unmarshal(b, &m) == nil && m.ContentType != "" {
			info.ContentType = m.ContentType
		}
	}
	return f, info, nil
}

// Delete removes the file and its sidecar.
func (l *Local) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return ErrInvalidKey
	}
	root, err := l.openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Remove(key); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: %w", err)
	}
	if err := root.Remove(metaName(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: %w", err)
	}
	return nil
}

// contextReader stops a long copy when the request is cancelled.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
