package app_test

import (
	"crypto/sha1"
	"encoding/hex"
)

func sha1Hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}
