// Package authn handles credentials: password hashes and signed tokens.
package authn

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// The client sends md5(plain) as BladeX does; we store argon2id of that value.
const (
	argonTime    = 1
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

// HashPassword returns the encoded argon2id hash of the client's md5 hex.
func HashPassword(md5hex string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(strings.ToLower(md5hex)), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// VerifyPassword checks md5hex against a stored hash. It accepts argon2id and
// the legacy BladeX form sha1(md5) (40 hex chars); upgrade tells the caller to
// re-hash and store the argon2id form.
func VerifyPassword(stored, md5hex string) (ok, upgrade bool) {
	md5hex = strings.ToLower(md5hex)
	if strings.HasPrefix(stored, "$argon2id$") {
		return verifyArgon(stored, md5hex), false
	}
	if len(stored) == 40 {
		sum := sha1.Sum([]byte(md5hex))
		if subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(strings.ToLower(stored))) == 1 {
			return true, true
		}
	}
	return false, false
}

func verifyArgon(stored, md5hex string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 6 {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return false
	}
	got := argon2.IDKey([]byte(md5hex), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// IsMD5Hex tells whether s looks like what the client must send.
func IsMD5Hex(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// MD5Hex is what the login page sends for a plain password.
func MD5Hex(plain string) string {
	sum := md5.Sum([]byte(plain))
	return hex.EncodeToString(sum[:])
}
