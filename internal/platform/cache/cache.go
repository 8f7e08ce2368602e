// Package cache is the state several instances share: a Redis client made
// from BLUEBIRD_REDIS, and a small invalidation bus over Redis pub/sub that
// tells the other instances to drop an in-process cache. Without Redis the
// bus is Nop: a single process has nobody to tell.
package cache

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Prefix starts every key and channel Bluebird uses in Redis.
const Prefix = "bluebird:"

// Redis is a connected client.
type Redis struct {
	Client *redis.Client
	db     int
}

// Open connects to a redis:// (or rediss://) URL and checks that the server
// answers, so that a misconfigured deployment fails at start-up rather than
// on the first login.
func Open(ctx context.Context, rawURL string) (*Redis, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redis: bad URL %s: %w", Redact(rawURL), err)
	}
	c := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.Ping(pctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("redis %s is unreachable: %w", Redact(rawURL), err)
	}
	return &Redis{Client: c, db: opt.DB}, nil
}

// Key builds a key: Prefix followed by the parts joined with ":".
func (r *Redis) Key(parts ...string) string { return Prefix + strings.Join(parts, ":") }

// Channel is the pub/sub channel of a topic. Channels are server-wide, not
// per database, so a deployment on another database number of the same
// server gets channels of its own: "bluebird:<topic>" on database 0,
// "bluebird:<db>:<topic>" elsewhere.
func (r *Redis) Channel(topic string) string {
	if r.db == 0 {
		return Prefix + topic
	}
	return Prefix + strconv.Itoa(r.db) + ":" + topic
}

// Ping checks that the server answers (readiness).
func (r *Redis) Ping(ctx context.Context) error { return r.Client.Ping(ctx).Err() }

// Close releases the connections.
func (r *Redis) Close() error { return r.Client.Close() }

// UseLogger sends go-redis's own messages (dial failures, reconnects) to l
// as warnings instead of the standard logger. It is process-wide.
func UseLogger(l *slog.Logger) { redis.SetLogger(redisLogger{l}) }

type redisLogger struct{ l *slog.Logger }

func (r redisLogger) Printf(ctx context.Context, format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if !strings.HasPrefix(msg, "redis: ") {
		msg = "redis: " + msg
	}
	r.l.WarnContext(ctx, msg)
}

// Redact hides the password of a URL for messages and logs.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
