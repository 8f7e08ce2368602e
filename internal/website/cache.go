package website

import (
	"sync"
	"time"
)

// publicCache keeps public answers for a short while: a website's pages are
// read far more often than content changes. Any change to website content
// drops everything (Hooks.Changed), so an edit shows on the next read of
// this instance, and within the TTL on others.
type publicCache struct {
	mu      sync.Mutex
	ttl     time.Duration
	entries map[string]cached
}

type cached struct {
	value   any
	expires time.Time
}

// maxCached bounds the entries: past it the cache starts over (page numbers
// and ids are the caller's choice, so the key space is theirs too).
const maxCached = 5000

func newPublicCache(ttl time.Duration) *publicCache {
	return &publicCache{ttl: ttl, entries: map[string]cached{}}
}

// get answers the kept value of key, or loads, keeps and answers it. Errors
// are not kept.
func (c *publicCache) get(key string, load func() (any, error)) (any, error) {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.value, nil
	}
	v, err := load()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.entries) >= maxCached {
		c.entries = map[string]cached{}
	}
	c.entries[key] = cached{value: v, expires: now.Add(c.ttl)}
	c.mu.Unlock()
	return v, nil
}

func (c *publicCache) invalidate() {
	c.mu.Lock()
	c.entries = map[string]cached{}
	c.mu.Unlock()
}

// Limit is at most Max requests per Window.
type Limit struct {
	Max    int
	Window time.Duration
}

// limiter counts requests per key (a client IP) in fixed windows, in
// process: several instances each allow the limit.
type limiter struct {
	mu    sync.Mutex
	limit Limit
	hits  map[string]*window
	now   func() time.Time
}

type window struct {
	start time.Time
	count int
}

func newLimiter(l Limit) *limiter {
	return &limiter{limit: l, hits: map[string]*window{}, now: time.Now}
}

// allow counts one request of key and tells whether it is within the limit.
func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	w := l.hits[key]
	if w == nil || now.Sub(w.start) >= l.limit.Window {
		if len(l.hits) > 100000 { // forget finished windows before the map grows without bound
			for k, old := range l.hits {
				if now.Sub(old.start) >= l.limit.Window {
					delete(l.hits, k)
				}
			}
		}
		w = &window{start: now}
		l.hits[key] = w
	}
	w.count++
	return w.count <= l.limit.Max
}
