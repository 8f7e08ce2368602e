package db

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// Generation counts writes to the database made by this process. Caches of
// derived read results (page totals) are keyed by it, so any insert, update or
// delete — through a model, a raw statement or a committed transaction —
// invalidates them. It is only sound when this process is the only writer,
// which is what the embedded SQLite deployment is; on PostgreSQL (several
// instances may share it) the caches that use it are off.
type Generation struct{ n atomic.Uint64 }

// Current is the current generation.
func (g *Generation) Current() uint64 { return g.n.Load() }

// Bump marks a write.
func (g *Generation) Bump() { g.n.Add(1) }

// BeforeQuery implements bun.QueryHook.
func (g *Generation) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context { return ctx }

// AfterQuery implements bun.QueryHook: every statement but a SELECT bumps.
func (g *Generation) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	if op := e.Operation(); op != "SELECT" {
		g.Bump()
	}
}

// CountCache remembers page totals by query text within a generation.
type CountCache struct {
	gen *Generation
	mu  sync.Mutex
	at  uint64
	m   map[string]int64
}

// NewCountCache makes a cache tied to gen; a nil gen disables it.
func NewCountCache(gen *Generation) *CountCache { return &CountCache{gen: gen, m: map[string]int64{}} }

// Count returns the cached total for key, or runs count and caches its result
// if no write happened while it ran.
func (c *CountCache) Count(key string, count func() (int64, error)) (int64, error) {
	if c == nil || c.gen == nil {
		return count()
	}
	start := c.gen.Current()
	c.mu.Lock()
	if c.at == start {
		if n, ok := c.m[key]; ok {
			c.mu.Unlock()
			return n, nil
		}
	}
	c.mu.Unlock()
	n, err := count()
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if now := c.gen.Current(); now == start {
		if c.at != now {
			c.at, c.m = now, map[string]int64{}
		}
		if len(c.m) < 10000 {
			c.m[key] = n
		}
	}
	c.mu.Unlock()
	return n, nil
}

// Memo caches small derived read results (labels of ids, lookups) within a
// generation, like CountCache. Nil gen means no caching (PostgreSQL).
type Memo struct {
	gen *Generation
	mu  sync.Mutex
	at  uint64
	m   map[string]any
}

// NewMemo makes a memo tied to gen.
func NewMemo(gen *Generation) *Memo { return &Memo{gen: gen, m: map[string]any{}} }

// Get returns the value cached for key or loads it.
func (c *Memo) Get(key string, load func() (any, error)) (any, error) {
	if c == nil || c.gen == nil {
		return load()
	}
	start := c.gen.Current()
	c.mu.Lock()
	if c.at == start {
		if v, ok := c.m[key]; ok {
			c.mu.Unlock()
			return v, nil
		}
	}
	c.mu.Unlock()
	v, err := load()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if now := c.gen.Current(); now == start {
		if c.at != now {
			c.at, c.m = now, map[string]any{}
		}
		if len(c.m) < 10000 {
			c.m[key] = v
		}
	}
	c.mu.Unlock()
	return v, nil
}
