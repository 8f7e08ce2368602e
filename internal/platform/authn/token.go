package authn

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Claims are the contents of access and refresh tokens.
type Claims struct {
	jwt.RegisteredClaims
	Kind     string `json:"kind"` // "access" or "refresh"
	TenantID string `json:"tenant_id"`
	UserID   string `json:"user_id"`
	Account  string `json:"account"`
	UserName string `json:"user_name"`
	RealName string `json:"real_name"`
	DeptID   string `json:"dept_id"`
	PostID   string `json:"post_id"`
	RoleID   string `json:"role_id"`
	RoleName string `json:"role_name"`
	ClientID string `json:"client_id"`
	// SessionID is shared by the access and refresh tokens of one login and
	// kept across refreshes: logout revokes it, ending the whole session.
	SessionID string `json:"sid,omitempty"`
	// UserGen and TenantGen are the user's and the tenant's generations when
	// the token was issued; a change of roles, status or tenant moves them
	// on, and the server then re-reads the account instead of trusting the claims.
	UserGen   int64 `json:"ugen,omitempty"`
	TenantGen int64 `json:"tgen,omitempty"`
	// RolePick and DeptPick are the role and department chosen at login
	// (Role-Id, Dept-Id), empty when the session holds all of the user's.
	RolePick string `json:"role_pick,omitempty"`
	DeptPick string `json:"dept_pick,omitempty"`
}

// Signer issues and verifies HS256 tokens with the server's key.
type Signer struct {
	key []byte
	// verified remembers tokens whose signature and claims were checked, so
	// the per-request cost is a map lookup; expiry is still checked each time
	// and revocation is the caller's separate check.
	mu       sync.RWMutex
	verified map[string]*Claims
}

const verifiedCacheSize = 10000

// NewSigner uses key (at least 32 bytes).
func NewSigner(key []byte) (*Signer, error) {
	if len(key) < 32 {
		return nil, errors.New("signing key too short")
	}
	return &Signer{key: key, verified: map[string]*Claims{}}, nil
}

// NewKey makes a random signing key.
func NewKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// Issue signs claims valid for ttl from now, with a fresh token id.
func (s *Signer) Issue(c Claims, ttl time.Duration) (string, *Claims, error) {
	now := time.Now()
	c.IssuedAt = jwt.NewNumericDate(now)
	c.ExpiresAt = jwt.NewNumericDate(now.Add(ttl))
	c.Issuer = "bluebird"
	c.ID = newJTI()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, &c).SignedString(s.key)
	return tok, &c, err
}

var parser = jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("bluebird"), jwt.WithExpirationRequired())

// Verify checks the signature, algorithm, issuer and expiry.
func (s *Signer) Verify(token string) (*Claims, error) {
	s.mu.RLock()
	c, ok := s.verified[token]
	s.mu.RUnlock()
	if ok {
		if time.Now().Before(c.ExpiresAt.Time) {
			return c, nil
		}
		s.mu.Lock()
		delete(s.verified, token)
		s.mu.Unlock()
		return nil, errors.New("verify token: token is expired")
	}
	c, err := s.verify(token)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.verified) >= verifiedCacheSize {
		clear(s.verified) // crude but bounded; hot tokens come straight back
	}
	s.verified[token] = c
	s.mu.Unlock()
	return c, nil
}

// lenient checks the signature and algorithm only.
var lenient = jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}), jwt.WithoutClaimsValidation())

// VerifyIgnoringExpiry checks the signature, algorithm and issuer but not the
// expiry: logout ends the session of an access token that has just expired.
func (s *Signer) VerifyIgnoringExpiry(token string) (*Claims, error) {
	c := &Claims{}
	if _, err := lenient.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return s.key, nil }); err != nil {
		return nil, fmt.Errorf("verify token: %w", err)
	}
	if c.Issuer != "bluebird" || c.ExpiresAt == nil {
		return nil, errors.New("verify token: not one of ours")
	}
	return c, nil
}

func (s *Signer) verify(token string) (*Claims, error) {
	c := &Claims{}
	_, err := parser.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return s.key, nil })
	if err != nil {
		return nil, fmt.Errorf("verify token: %w", err)
	}
	return c, nil
}

func newJTI() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// NewSessionID makes the id of a new login session.
func NewSessionID() string { return newJTI() }
