package files

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bluebird/console/internal/platform/storage"
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

// Sign re-signs a stored link of ours with a fresh expiry, so that a stored
// link (a user's avatar) keeps working past LinkTTL, but only when the file
// belongs to tenantID, the tenant of the row that holds the link: a row must
// not be able to turn another tenant's file key into a working link. A link
// to another tenant's file comes back empty; other URLs pass unchanged. The
// expiry is rounded to the day so a signed link stays cacheable.
func (s *Service) Sign(tenantID, link string) string {
	key, ours := keyOf(link)
	if !ours {
		return link
	}
	if key == "" || !ownedKey(tenantID, key) {
		return ""
	}
	day := s.now().UTC().Truncate(24 * time.Hour)
	return s.Link(key, day.Add(s.ttl()+24*time.Hour))
}

// keyOf returns the storage key of a link to our file route (ours), with
// or without its signature.
func keyOf(link string) (key string, ours bool) {
	if !strings.HasPrefix(link, FilePrefix) {
		return "", false
	}
	key, _, _ = strings.Cut(strings.TrimPrefix(link, FilePrefix), "?")
	return key, true
}

// ownedKey: every key is generated as <tenant>/<yyyy>/<mm>/<128 random bits>.<ext>,
// so the first segment names the owner and the rest cannot be guessed.
func ownedKey(tenantID, key string) bool {
	return tenantID != "" && strings.HasPrefix(key, tenantID+"/") && storage.ValidKey(key)
}
