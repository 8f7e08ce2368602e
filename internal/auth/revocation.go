package auth

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// Revocations remembers revoked token ids and per-user "revoked before"
// times. The database is the record; an in-memory copy answers the per-request
// check without a query. Several instances share revocations through the
// database at start-up and Redis when configured (see Shared).
type Revocations struct {
	db *db.DB

	mu     sync.RWMutex
	tokens map[string]time.Time // jti → expiry
	users  map[wire.ID]time.Time
	shared Shared

	lastWarn        atomic.Int64 // unix second of the last "shared store unavailable" log
	sharedRestUntil atomic.Int64 // unix second until which checks skip the shared store
}

// Shared is an optional cross-instance store (Redis).
type Shared interface {
	RevokeToken(ctx context.Context, jti string, ttl time.Duration) error
	TokenRevoked(ctx context.Context, jti string) (bool, error)
	RevokeUser(ctx context.Context, userID wire.ID, before time.Time) error
	UserRevokedBefore(ctx context.Context, userID wire.ID) (time.Time, error)
}

// SharedChecker is a Shared that answers both questions of Revoked in one
// round trip (RedisRevocations does).
type SharedChecker interface {
	Check(ctx context.Context, jti string, userID wire.ID) (tokenRevoked bool, userRevokedBefore time.Time, err error)
}

type revokedToken struct {
	bun.BaseModel `bun:"table:bb_revoked_token"`
	JTI           string    `bun:"jti,pk"`
	ExpiresAt     wire.Time `bun:"expires_at"`
}

type userRevocation struct {
	bun.BaseModel `bun:"table:bb_user_revocation"`
	UserID        wire.ID   `bun:"user_id,pk"`
	RevokedBefore wire.Time `bun:"revoked_before"`
}

// LoadRevocations reads the live revocations and drops expired ones.
func LoadRevocations(ctx context.Context, d *db.DB, shared Shared) (*Revocations, error) {
	r := &Revocations{db: d, tokens: map[string]time.Time{}, users: map[wire.ID]time.Time{}, shared: shared}
	now := wire.Now()
	if _, err := d.NewDelete().Model((*revokedToken)(nil)).Where("expires_at < ?", now).Exec(ctx); err != nil {
		return nil, err
	}
	var toks []revokedToken
	if err := d.NewSelect().Model(&toks).Scan(ctx); err != nil {
		return nil, err
	}
	for _, t := range toks {
		r.tokens[t.JTI] = t.ExpiresAt.Time
	}
	var users []userRevocation
	if err := d.NewSelect().Model(&users).Scan(ctx); err != nil {
		return nil, err
	}
	for _, u := range users {
		r.users[u.UserID] = u.RevokedBefore.Time
	}
	return r, nil
}

// RevokeToken revokes one token until it would have expired anyway.
func (r *Revocations) RevokeToken(ctx context.Context, idb bun.IDB, jti string, expires time.Time) error {
	_, err := r.revoke(ctx, idb, jti, expires)
	return err
}

// Consume revokes a one-use token (a refresh token) and reports whether this
// call was the one that did: of two concurrent refreshes with the same token,
// exactly one gets true, because the database row is the arbiter.
func (r *Revocations) Consume(ctx context.Context, idb bun.IDB, jti string, expires time.Time) (bool, error) {
	return r.revoke(ctx, idb, jti, expires)
}

func (r *Revocations) revoke(ctx context.Context, idb bun.IDB, jti string, expires time.Time) (bool, error) {
	res, err := idb.NewInsert().Model(&revokedToken{JTI: jti, ExpiresAt: wire.Time{Time: expires.UTC().Truncate(time.Second)}}).
		On("CONFLICT (jti) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	r.mu.Lock()
	r.tokens[jti] = expires
	r.mu.Unlock()
	if r.shared != nil {
		if err := r.shared.RevokeToken(ctx, jti, time.Until(expires)); err != nil {
			return false, err
		}
	}
	return n == 1, nil
}

// RevokeUser revokes every token of a user issued up to now (password change, disable).
func (r *Revocations) RevokeUser(ctx context.Context, idb bun.IDB, userID wire.ID) error {
	// Tokens carry whole seconds; anything issued in this second or before is revoked.
	before := time.Now().UTC().Truncate(time.Second).Add(time.Second)
	if _, err := idb.NewInsert().Model(&userRevocation{UserID: userID, RevokedBefore: wire.Time{Time: before}}).
		On("CONFLICT (user_id) DO UPDATE").Set("revoked_before = EXCLUDED.revoked_before").Exec(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	r.users[userID] = before
	r.mu.Unlock()
	if r.shared != nil {
		return r.shared.RevokeUser(ctx, userID, before)
	}
	return nil
}

// Revoked tells whether a token (id, user, issue time) may no longer be used.
func (r *Revocations) Revoked(ctx context.Context, jti string, userID wire.ID, issued time.Time) bool {
	r.mu.RLock()
	_, tok := r.tokens[jti]
	before, hasUser := r.users[userID]
	r.mu.RUnlock()
	if tok || (hasUser && issued.Before(before)) {
		return true
	}
	if r.shared == nil {
		return false
	}
	// When the shared store cannot answer (Redis down), ask the database,
	// which every instance writes first, rather than refuse every request; and
	// for a while skip the store, whose client retries for about a second.
	var err error = errSharedResting
	if time.Now().Unix() >= r.sharedRestUntil.Load() {
		if tok, before, err = r.sharedCheck(ctx, jti, userID); err != nil {
			r.sharedRestUntil.Store(time.Now().Add(sharedRest).Unix())
			r.warnShared(err)
		}
	}
	if err != nil {
		if tok, before, err = r.dbCheck(ctx, jti, userID); err != nil {
			return true // neither can answer: fail closed
		}
	}
	return tok || issued.Before(before)
}

// sharedRest is how long checks bypass a shared store that failed.
const sharedRest = 5 * time.Second

var errSharedResting = errors.New("shared revocation store resting after a failure")

func (r *Revocations) sharedCheck(ctx context.Context, jti string, userID wire.ID) (bool, time.Time, error) {
	if c, ok := r.shared.(SharedChecker); ok {
		return c.Check(ctx, jti, userID)
	}
	tok, err := r.shared.TokenRevoked(ctx, jti)
	if err != nil || tok {
		return tok, time.Time{}, err
	}
	before, err := r.shared.UserRevokedBefore(ctx, userID)
	return false, before, err
}

// dbCheck reads the revocation rows of a token and a user.
func (r *Revocations) dbCheck(ctx context.Context, jti string, userID wire.ID) (bool, time.Time, error) {
	n, err := r.db.NewSelect().Model((*revokedToken)(nil)).Where("jti = ?", jti).Count(ctx)
	if err != nil || n > 0 {
		return n > 0, time.Time{}, err
	}
	var u userRevocation
	err = r.db.NewSelect().Model(&u).Where("user_id = ?", userID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return false, time.Time{}, nil
	}
	return false, u.RevokedBefore.Time, err
}

// warnShared logs a failing shared store at most once a minute.
func (r *Revocations) warnShared(err error) {
	now := time.Now().Unix()
	if last := r.lastWarn.Load(); now-last < 60 || !r.lastWarn.CompareAndSwap(last, now) {
		return
	}
	slog.Warn("revocation store unavailable; checking tokens against the database", "err", err)
}
