package auth

import (
	"context"
	"errors"
	"sync"

	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
)

// A session outlives changes to its account: the token's claims (roles,
// departments) are trusted only while the user's and the tenant's
// generations are those it was issued at. After a change the next request
// reads the account and the tenant again and runs with what it finds, or is
// refused (401) when the user is disabled or removed, or the tenant expired
// or removed (docs/security.md, "Sessions").

// principalCache remembers, per token and instance, the principal re-read at
// given generations, so that a changed account is read once, not per request.
type principalCache struct {
	mu sync.Mutex
	m  map[string]rereadPrincipal // jti →
}

type rereadPrincipal struct {
	userGen, tenantGen int64
	p                  *authz.Principal
	err                error // the refusal, when the session may no longer be used
}

// principalCacheSize bounds the cache; hot tokens come straight back.
const principalCacheSize = 10000

func (c *principalCache) get(jti string, st Standing) (rereadPrincipal, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[jti]
	return e, ok && e.userGen == st.UserGen && e.tenantGen == st.TenantGen
}

func (c *principalCache) put(jti string, e rereadPrincipal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= principalCacheSize {
		c.m = map[string]rereadPrincipal{}
	}
	c.m[jti] = e
}

// current is the principal of a token whose claims may be stale: re-read at
// the current generations (and remembered), or refused. When the
// generations are unknown (shared store down) it reads every time.
func (s *Service) current(ctx context.Context, c *authn.Claims, uid wire.ID, st Standing) (*authz.Principal, error) {
	if st.GensKnown {
		if e, ok := s.principals.get(c.ID, st); ok {
			return e.p, e.err
		}
	}
	// The tenant is read past the cache only when its generation moved (the
	// change may come from an instance whose invalidation has not arrived).
	p, err := s.reread(ctx, c, uid, st.GensKnown && st.TenantGen != c.TenantGen)
	var refused *httpx.Error
	if err != nil && !(errors.As(err, &refused) && refused.Status == 401) {
		return nil, err // a failure to read, not an answer: try again next time
	}
	if st.GensKnown {
		s.principals.put(c.ID, rereadPrincipal{userGen: st.UserGen, tenantGen: st.TenantGen, p: p, err: err})
	}
	return p, err
}

// reread builds the principal of a session from its account and tenant as
// they are now, keeping the role and department chosen at login.
func (s *Service) reread(ctx context.Context, c *authn.Claims, uid wire.ID, freshTenant bool) (*authz.Principal, error) {
	tenant := s.Platform.Tenant
	if freshTenant {
		tenant = s.Platform.TenantNow
	}
	t, err := tenant(ctx, c.TenantID)
	if err != nil {
		return nil, err
	}
	if err := tenantState(t, c.TenantID); err != nil {
		return nil, sessionRefused(err)
	}
	now, _, err := s.claimsFor(ctx, uid, c.TenantID, c.RolePick, c.DeptPick)
	if err != nil {
		return nil, sessionRefused(err)
	}
	now.ID, now.SessionID, now.ClientID = c.ID, c.SessionID, c.ClientID
	return principalOf(now, uid), nil
}

// sessionRefused turns a login refusal (account disabled, tenant expired...)
// into the 401 of a request, with the same message; other errors pass.
func sessionRefused(err error) error {
	var oe *OAuthError
	if !errors.As(err, &oe) {
		return err
	}
	if oe == errBadCredentials {
		return httpx.ErrTokenInvalid // the account is gone
	}
	return &httpx.Error{Status: 401, Msg: oe.Description}
}
