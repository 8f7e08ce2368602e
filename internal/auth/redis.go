package auth

// The login state several instances share through Redis when BLUEBIRD_REDIS
// is set (docs/scale-out.md): revocations, user and tenant generations,
// captcha answers, SMS codes and the used social-login state nonces. Every key starts with cache.Prefix and
// expires on its own.

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/bluebird/console/internal/platform/cache"
	"github.com/bluebird/console/internal/platform/wire"
)

// redisTimeout bounds the calls that have no request context (captcha).
const redisTimeout = 2 * time.Second

// DefaultRevokedUserTTL is how long a user's "revoked before" time stays in
// Redis after the last revocation. It must outlast every token issued before
// it, that is the longest refresh-token validity of any client (BladeX's
// default is 7 days). The database keeps the record for instances that start later.
const DefaultRevokedUserTTL = 366 * 24 * time.Hour

// RedisRevocations implements Shared.
type RedisRevocations struct {
	r       *cache.Redis
	UserTTL time.Duration
}

// NewRedisRevocations builds the shared revocation list.
func NewRedisRevocations(r *cache.Redis) *RedisRevocations {
	return &RedisRevocations{r: r, UserTTL: DefaultRevokedUserTTL}
}

func (s *RedisRevocations) tokenKey(jti string) string { return s.r.Key("revoked", "jti", jti) }
func (s *RedisRevocations) userKey(id wire.ID) string  { return s.r.Key("revoked", "user", id.String()) }
func (s *RedisRevocations) userGenKey(id wire.ID) string {
	return s.r.Key("gen", "user", id.String())
}
func (s *RedisRevocations) tenantGenKey(id string) string { return s.r.Key("gen", "tenant", id) }

// ttl is how long per-user and per-tenant keys outlive their last change.
func (s *RedisRevocations) ttl() time.Duration {
	if s.UserTTL <= 0 {
		return DefaultRevokedUserTTL
	}
	return s.UserTTL
}

// RevokeToken implements Shared: the key lives as long as the token would have.
func (s *RedisRevocations) RevokeToken(ctx context.Context, jti string, ttl time.Duration) error {
	if ttl <= 0 {
		return nil // already expired: nothing to remember
	}
	return s.r.Client.Set(ctx, s.tokenKey(jti), "1", ttl).Err()
}

// revokeUserScript keeps the later of two "revoked before" times (instances'
// clocks differ a little) and renews the key's lifetime.
var revokeUserScript = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[1])) or 0
if tonumber(ARGV[1]) > cur then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
else
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 1`)

// RevokeUser implements Shared.
func (s *RedisRevocations) RevokeUser(ctx context.Context, userID wire.ID, before time.Time) error {
	return revokeUserScript.Run(ctx, s.r.Client, []string{s.userKey(userID)}, before.Unix(), int64(s.ttl()/time.Second)).Err()
}

// bumpScript moves each key to the time in microseconds (ARGV[1]), or one
// past its value when that is not earlier, and renews its lifetime: values
// never repeat, even after the keys expired or were lost. The arithmetic stays
// in Redis' integers (Lua numbers would print 16 digits in exponent form).
var bumpScript = redis.NewScript(`
for _, k in ipairs(KEYS) do
  local cur = tonumber(redis.call('GET', k)) or 0
  if cur < tonumber(ARGV[1]) then
    redis.call('SET', k, ARGV[1], 'EX', ARGV[2])
  else
    redis.call('INCR', k)
    redis.call('EXPIRE', k, ARGV[2])
  end
end
return 1`)

// Bump implements Shared.
func (s *RedisRevocations) Bump(ctx context.Context, users []wire.ID, tenants []string) error {
	keys := make([]string, 0, len(users)+len(tenants))
	for _, id := range users {
		keys = append(keys, s.userGenKey(id))
	}
	for _, id := range tenants {
		keys = append(keys, s.tenantGenKey(id))
	}
	return bumpScript.Run(ctx, s.r.Client, keys, time.Now().UnixMicro(), int64(s.ttl()/time.Second)).Err()
}

// Generations implements Shared; a subject never changed is at 0.
func (s *RedisRevocations) Generations(ctx context.Context, userID wire.ID, tenantID string) (int64, int64, error) {
	vs, err := s.r.Client.MGet(ctx, s.userGenKey(userID), s.tenantGenKey(tenantID)).Result()
	if err != nil {
		return 0, 0, err
	}
	user, err := intOf(vs[0])
	if err != nil {
		return 0, 0, err
	}
	tenant, err := intOf(vs[1])
	return user, tenant, err
}

// Check implements Shared with one MGET.
func (s *RedisRevocations) Check(ctx context.Context, t TokenRef) (SharedAnswer, error) {
	vs, err := s.r.Client.MGet(ctx, s.tokenKey(t.JTI), s.tokenKey(sessionKey(t.SessionID)), s.userKey(t.UserID),
		s.userGenKey(t.UserID), s.tenantGenKey(t.TenantID)).Result()
	if err != nil {
		return SharedAnswer{}, err
	}
	a := SharedAnswer{Revoked: vs[0] != nil || (t.SessionID != "" && vs[1] != nil)}
	before, err := intOf(vs[2])
	if err != nil {
		return SharedAnswer{}, err
	}
	if before != 0 {
		a.RevokedBefore = time.Unix(before, 0)
	}
	if a.UserGen, err = intOf(vs[3]); err != nil {
		return SharedAnswer{}, err
	}
	if a.TenantGen, err = intOf(vs[4]); err != nil {
		return SharedAnswer{}, err
	}
	return a, nil
}

// intOf reads an MGET value: nil (no key) is 0.
func intOf(v any) (int64, error) {
	sv, ok := v.(string)
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(sv, 10, 64)
}

// RedisCaptcha implements CaptchaStore in Redis: an answer lives CaptchaTTL
// and is taken with GETDEL, so it can be used once, on any instance.
type RedisCaptcha struct {
	r *cache.Redis
}

// NewRedisCaptcha builds the shared captcha store.
func NewRedisCaptcha(r *cache.Redis) *RedisCaptcha {
	return &RedisCaptcha{r: r}
}

// captchaKeyMax bounds the client-sent key used in a Redis key (ours are UUIDs).
const captchaKeyMax = 64

func (c *RedisCaptcha) key(k string) string { return c.r.Key("captcha", k) }

// New implements CaptchaStore.
func (c *RedisCaptcha) New() (string, string, error) {
	answer, image, err := drawCaptcha()
	if err != nil {
		return "", "", err
	}
	key := uuid.NewString()
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	if err := c.r.Client.Set(ctx, c.key(key), answer, CaptchaTTL).Err(); err != nil {
		return "", "", err
	}
	return key, image, nil
}

// Verify implements CaptchaStore: case-insensitive, and the key is gone either way.
func (c *RedisCaptcha) Verify(key, answer string) bool {
	if key == "" || answer == "" || len(key) > captchaKeyMax {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	want, err := c.r.Client.GetDel(ctx, c.key(key)).Result()
	return err == nil && want != "" && strings.EqualFold(strings.TrimSpace(answer), want)
}

// Peek returns the answer without consuming it (tests).
func (c *RedisCaptcha) Peek(key string) string {
	ctx, cancel := context.WithTimeout(context.Background(), redisTimeout)
	defer cancel()
	v, _ := c.r.Client.Get(ctx, c.key(key)).Result()
	return v
}

// RedisSMS implements SMSStore: a code is a hash {h: HMAC, t: wrong tries}
// that expires with the code; a resend mark is a key set NX for the interval.
type RedisSMS struct{ r *cache.Redis }

// NewRedisSMS builds the shared SMS code store.
func NewRedisSMS(r *cache.Redis) *RedisSMS { return &RedisSMS{r: r} }

func (s *RedisSMS) markKey(phone string) string { return s.r.Key("sms", "sent", phone) }
func (s *RedisSMS) codeKey(key string) string   { return s.r.Key("sms", "code", key) }

// Reserve implements SMSStore.
func (s *RedisSMS) Reserve(ctx context.Context, phone string, interval time.Duration) (string, error) {
	mark := uuid.NewString()
	ok, err := s.r.Client.SetNX(ctx, s.markKey(phone), mark, interval).Result()
	if err != nil || !ok {
		return "", err
	}
	return mark, nil
}

// releaseScript deletes a key only while it still holds the given value.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// Release implements SMSStore.
func (s *RedisSMS) Release(ctx context.Context, phone, mark string) {
	_ = releaseScript.Run(context.WithoutCancel(ctx), s.r.Client, []string{s.markKey(phone)}, mark).Err()
}

// Put implements SMSStore.
func (s *RedisSMS) Put(ctx context.Context, key string, hash []byte, ttl time.Duration) error {
	k := s.codeKey(key)
	_, err := s.r.Client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		p.HSet(ctx, k, "h", hash, "t", 0)
		p.PExpire(ctx, k, ttl)
		return nil
	})
	return err
}

// checkScript uses a code up on a match and counts a wrong try otherwise,
// burning the code at ARGV[2] tries; one script, so two instances cannot
// both accept the same code.
var checkScript = redis.NewScript(`
local h = redis.call('HGET', KEYS[1], 'h')
if not h then return 0 end
if h == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
if redis.call('HINCRBY', KEYS[1], 't', 1) >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
return 0`)

// Check implements SMSStore.
func (s *RedisSMS) Check(ctx context.Context, key string, hash []byte, maxTries int) (bool, error) {
	n, err := checkScript.Run(ctx, s.r.Client, []string{s.codeKey(key)}, hash, maxTries).Int()
	return n == 1, err
}

// RedisNonces implements NonceStore with SET NX.
type RedisNonces struct{ r *cache.Redis }

// NewRedisNonces builds the shared one-use set of social-login states.
func NewRedisNonces(r *cache.Redis) *RedisNonces { return &RedisNonces{r: r} }

// Use implements NonceStore.
func (n *RedisNonces) Use(ctx context.Context, nonce string, until time.Time) (bool, error) {
	ttl := time.Until(until)
	if ttl < time.Second {
		ttl = time.Second
	}
	return n.r.Client.SetNX(ctx, n.r.Key("social", "nonce", nonce), "1", ttl).Result()
}
