package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/cache"
	"github.com/bluebird/console/internal/platform/config"
)

// Scale-out (docs/scale-out.md): with BLUEBIRD_REDIS several instances share
// one database and keep their login state in Redis, and every in-process
// cache that a write drops is dropped on the other instances too, through
// the invalidation bus. Without Redis the bus is cache.Nop and the stores
// stay in memory, exactly as in a single process.

// Topics of the invalidation bus.
const (
	topicSystem = "system" // system.Service: parameters, clients, tenants, menus and role grants
	topicScopes = "scopes" // system.Scopes: data and API scope grants
)

// shared is the cross-instance state of an App.
type shared struct {
	redis *cache.Redis // nil without BLUEBIRD_REDIS
	bus   cache.Bus
}

// openShared connects to Redis when configured; an unreachable server fails start-up.
func openShared(ctx context.Context, cfg config.Config, logger *slog.Logger) (*shared, error) {
	if cfg.RedisURL == "" {
		return &shared{bus: cache.Nop{}}, nil
	}
	cache.UseLogger(logger)
	r, err := cache.Open(ctx, cfg.RedisURL)
	if err != nil {
		return nil, err
	}
	logger.Info("redis: shared revocation, captcha, SMS codes and cache invalidation", "url", cache.Redact(cfg.RedisURL))
	return &shared{redis: r, bus: cache.NewBus(r, logger)}, nil
}

// revocations is the shared revocation list, nil without Redis.
func (s *shared) revocations() auth.Shared {
	if s.redis == nil {
		return nil
	}
	return auth.NewRedisRevocations(s.redis)
}

// wire moves the login stores to Redis and connects the caches to the bus:
// a local invalidation publishes, a message from another instance
// invalidates locally without publishing again. key is the server secret.
func (s *shared) wire(a *App, key []byte) {
	if s.redis != nil {
		a.Auth.Captcha = auth.NewRedisCaptcha(s.redis)
		a.Auth.SMS.(*auth.SMSCodes).UseStore(auth.NewRedisSMS(s.redis), auth.DeriveKey(key, "sms-code"))
		a.Auth.Social.(*auth.OIDCSocial).Nonces = auth.NewRedisNonces(s.redis)
	}
	a.System.OnInvalidate = func() { s.bus.Publish(context.Background(), topicSystem) }
	a.Scopes.OnInvalidate = func() { s.bus.Publish(context.Background(), topicScopes) }
	s.bus.Subscribe(topicSystem, a.System.InvalidateLocal)
	s.bus.Subscribe(topicScopes, a.Scopes.InvalidateLocal)
}

// ping tells whether Redis answers (readiness); nil without Redis.
func (s *shared) ping(ctx context.Context) error {
	if s == nil || s.redis == nil {
		return nil
	}
	return s.redis.Ping(ctx)
}

// close stops the bus and the Redis client.
func (s *shared) close() error {
	if s == nil {
		return nil
	}
	err := s.bus.Close()
	if s.redis != nil {
		err = errors.Join(err, s.redis.Close())
	}
	return err
}
