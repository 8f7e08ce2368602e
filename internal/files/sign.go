package files

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Links are capabilities: whoever holds a signed link can fetch the file
// until it expires, whatever their tenant or session (an <img src> sends no
// token). The signature covers the key and the expiry; nothing else in the
// URL matters.

func (s *Service) mac(key string, expires int64) []byte {
	m := hmac.New(sha256.New, s.signKey)
	m.Write([]byte("bluebird-file-link/v1\n"))
	m.Write([]byte(key))
	m.Write([]byte{'\n'})
	m.Write([]byte(strconv.FormatInt(expires, 10)))
	return m.Sum(nil)
}

// Link is the signed URL of key, valid until exp.
func (s *Service) Link(key string, exp time.Time) string {
	e := exp.Unix()
	q := url.Values{"expires": {strconv.FormatInt(e, 10)}, "sig": {base64.RawURLEncoding.EncodeToString(s.mac(key, e))}}
	return FilePrefix + key + "?" + q.Encode()
}

// verify checks the signature and the expiry of a request for key.
func (s *Service) verify(key string, q url.Values) bool {
	e, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil || e <= 0 {
		return false
	}
	sig, err := base64.RawURLEncoding.DecodeString(q.Get("sig"))
	if err != nil || !hmac.Equal(sig, s.mac(key, e)) {
		return false
	}
	return s.now().Unix() <= e
}

// Refresh re-signs a link of ours with a fresh expiry, so that a stored link
// (a user's avatar) keeps working past LinkTTL; other URLs pass unchanged.
// The expiry is rounded to the day so a refreshed link stays cacheable.
func (s *Service) Refresh(link string) string {
	if !strings.HasPrefix(link, FilePrefix) {
		return link
	}
	key, _, _ := strings.Cut(strings.TrimPrefix(link, FilePrefix), "?")
	if key == "" {
		return link
	}
	day := s.now().UTC().Truncate(24 * time.Hour)
	return s.Link(key, day.Add(s.ttl()+24*time.Hour))
}
