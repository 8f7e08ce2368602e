package auth

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// Revocations is what decides whether a token still stands: revoked token
// and session ids, per-user "revoked before" times, and the generations of
// users and tenants (see Standing). The database is the record of
// revocations; an in-memory copy answers the per-request check without a
// query. Several instances share revocations and generations through Redis
// when configured (see Shared).
type Revocations struct {
	db *db.DB

	mu       sync.RWMutex
	tokens   map[string]time.Time // jti → expiry
	sessions map[string]time.Time // sid → until
	users    map[wire.ID]time.Time
	// Generations of this process (without a shared store). A subject never
	// changed since start-up is at base, the start time: a token issued by an
	// earlier run carries another value, so its account is read once more.
	userGens   map[wire.ID]int64
	tenantGens map[string]int64
	base       int64
	shared     Shared

	lastWarn        atomic.Int64 // unix second of the last "shared store unavailable" log
	sharedRestUntil atomic.Int64 // unix second until which checks skip the shared store
}

// Shared is an optional cross-instance store (Redis).
type Shared interface {
	RevokeToken(ctx context.Context, jti string, ttl time.Duration) error
	RevokeUser(ctx context.Context, userID wire.ID, before time.Time) error
	// Bump moves the generations of users and tenants on.
	Bump(ctx context.Context, users []wire.ID, tenants []string) error
	// Generations reads a user's and a tenant's current generations.
	Generations(ctx context.Context, userID wire.ID, tenantID string) (user, tenant int64, err error)
	// Check answers everything Check needs in one round trip.
	Check(ctx context.Context, t TokenRef) (SharedAnswer, error)
}

// SharedAnswer is what the shared store knows of a token.
type SharedAnswer struct {
	Revoked            bool // the token or its session
	RevokedBefore      time.Time
	UserGen, TenantGen int64
}

// TokenRef is what a token's standing depends on.
type TokenRef struct {
	JTI, SessionID string
	UserID         wire.ID
	TenantID       string
	Issued         time.Time
}

// Standing is what the server says of a token now.
type Standing struct {
	Revoked bool
	// The current generations of the token's user and tenant; GensKnown is
	// false when they could not be read (the shared store is down), and the
	// caller must then re-read the account rather than trust the claims.
	UserGen, TenantGen int64
	GensKnown          bool
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

// sessionPrefix marks a session's row among token ids in the same table and
// store (a jti is 32 hex digits, so the two cannot collide).
const sessionPrefix = "s:"

func sessionKey(sid string) string { return sessionPrefix + sid }

// LoadRevocations reads the live revocations and drops expired ones.
func LoadRevocations(ctx context.Context, d *db.DB, shared Shared) (*Revocations, error) {
	r := &Revocations{db: d, tokens: map[string]time.Time{}, sessions: map[string]time.Time{}, users: map[wire.ID]time.Time{}, shared: shared,
		userGens: map[wire.ID]int64{}, tenantGens: map[string]int64{}, base: time.Now().UnixMicro()}
	now := wire.Now()
	if _, err := d.NewDelete().Model((*revokedToken)(nil)).Where("expires_at < ?", now).Exec(ctx); err != nil {
		return nil, err
	}
	var toks []revokedToken
	if err := d.NewSelect().Model(&toks).Scan(ctx); err != nil {
		return nil, err
	}
	for _, t := range toks {
		r.remember(t.JTI, t.ExpiresAt.Time)
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

// RevokeSession revokes every token of a session; until must outlast the
// last token the session issued.
func (r *Revocations) RevokeSession(ctx context.Context, idb bun.IDB, sid string, until time.Time) error {
	_, err := r.revoke(ctx, idb, sessionKey(sid), until)
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
	r.remember(jti, expires)
	r.mu.Unlock()
	if r.shared != nil {
		if err := r.shared.RevokeToken(ctx, jti, time.Until(expires)); err != nil {
			return false, err
		}
	}
	return n == 1, nil
}

// remember puts a revoked token or session (by its key) in memory; the
// per-request check then looks a session up without building its key.
func (r *Revocations) remember(key string, until time.Time) {
	if sid, ok := strings.CutPrefix(key, sessionPrefix); ok {
		r.sessions[sid] = until
		return
	}
	r.tokens[key] = until
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

// UsersChanged moves the users' generations on: their sessions re-read the
// account (roles, departments, status) on their next request. Writers call
// it inside their transaction, so that a store that cannot take it aborts
// the change, and again after the commit, since a request in between may
// have re-read the rows as they were.
func (r *Revocations) UsersChanged(ctx context.Context, ids ...wire.ID) error {
	return r.bump(ctx, ids, nil)
}

// TenantsChanged moves the tenants' generations on: every session of those
// tenants re-reads its account and tenant on its next request.
func (r *Revocations) TenantsChanged(ctx context.Context, ids ...string) error {
	return r.bump(ctx, nil, ids)
}

func (r *Revocations) bump(ctx context.Context, users []wire.ID, tenants []string) error {
	if len(users) == 0 && len(tenants) == 0 {
		return nil
	}
	if r.shared != nil {
		return r.shared.Bump(ctx, users, tenants)
	}
	r.mu.Lock()
	for _, id := range users {
		r.userGens[id] = nextGen(r.genOr(r.userGens[id]))
	}
	for _, id := range tenants {
		r.tenantGens[id] = nextGen(r.genOr(r.tenantGens[id]))
	}
	r.mu.Unlock()
	return nil
}

func (r *Revocations) genOr(g int64) int64 {
	if g == 0 {
		return r.base
	}
	return g
}

// nextGen is a generation after prev: the time in microseconds, so that
// values never repeat even when a store forgets them.
func nextGen(prev int64) int64 {
	if now := time.Now().UnixMicro(); now > prev {
		return now
	}
	return prev + 1
}

// Generations are the current generations of a user and a tenant, for a
// token being issued; -1 when the shared store cannot tell (the token's
// account is then read again on its first request).
func (r *Revocations) Generations(ctx context.Context, userID wire.ID, tenantID string) (user, tenant int64) {
	if r.shared == nil {
		r.mu.RLock()
		defer r.mu.RUnlock()
		return r.genOr(r.userGens[userID]), r.genOr(r.tenantGens[tenantID])
	}
	user, tenant, err := r.shared.Generations(ctx, userID, tenantID)
	if err != nil {
		r.warnShared(err)
		return -1, -1
	}
	return user, tenant
}

// Check tells a token's standing: whether it, its session or its user's
// earlier tokens were revoked, and the current generations.
func (r *Revocations) Check(ctx context.Context, t TokenRef) Standing {
	r.mu.RLock()
	_, tok := r.tokens[t.JTI]
	if !tok && t.SessionID != "" {
		_, tok = r.sessions[t.SessionID]
	}
	before, hasUser := r.users[t.UserID]
	st := Standing{UserGen: r.genOr(r.userGens[t.UserID]), TenantGen: r.genOr(r.tenantGens[t.TenantID]), GensKnown: r.shared == nil}
	r.mu.RUnlock()
	if tok || (hasUser && t.Issued.Before(before)) {
		return Standing{Revoked: true}
	}
	if r.shared == nil {
		return st
	}
	// When the shared store cannot answer (Redis down), ask the database,
	// which every instance writes first, rather than refuse every request; and
	// for a while skip the store, whose client retries for about a second.
	// The generations are then unknown: the caller re-reads the account.
	var err error = errSharedResting
	var ans SharedAnswer
	if time.Now().Unix() >= r.sharedRestUntil.Load() {
		if ans, err = r.shared.Check(ctx, t); err != nil {
			r.sharedRestUntil.Store(time.Now().Add(sharedRest).Unix())
			r.warnShared(err)
		}
	}
	if err != nil {
		if ans.Revoked, ans.RevokedBefore, err = r.dbCheck(ctx, t); err != nil {
			return Standing{Revoked: true} // neither can answer: fail closed
		}
		return Standing{Revoked: ans.Revoked || t.Issued.Before(ans.RevokedBefore)}
	}
	if ans.Revoked || t.Issued.Before(ans.RevokedBefore) {
		return Standing{Revoked: true}
	}
	return Standing{UserGen: ans.UserGen, TenantGen: ans.TenantGen, GensKnown: true}
}

// sharedRest is how long checks bypass a shared store that failed.
const sharedRest = 5 * time.Second

var errSharedResting = errors.New("shared revocation store resting after a failure")

// dbCheck reads the revocation rows of a token, its session and its user.
func (r *Revocations) dbCheck(ctx context.Context, t TokenRef) (bool, time.Time, error) {
	keys := []string{t.JTI}
	if t.SessionID != "" {
		keys = append(keys, sessionKey(t.SessionID))
	}
	n, err := r.db.NewSelect().Model((*revokedToken)(nil)).Where("jti IN (?)", bun.In(keys)).Count(ctx)
	if err != nil || n > 0 {
		return n > 0, time.Time{}, err
	}
	var u userRevocation
	err = r.db.NewSelect().Model(&u).Where("user_id = ?", t.UserID).Limit(1).Scan(ctx)
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
