package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bus tells the other instances that a cache went stale. The instance that
// changed something drops its own cache and publishes the topic; every other
// instance runs the topic's subscribers, which drop their copy without
// publishing again (no echo, no loop).
type Bus interface {
	// Publish announces that the topic's caches are stale. It does not fail:
	// a message Redis does not take is retried in the background.
	Publish(ctx context.Context, topic string)
	// Subscribe runs fn when another instance publishes topic, and once after
	// every (re)subscription, since messages sent while disconnected are lost.
	Subscribe(topic string, fn func())
	Close() error
}

// Nop is the bus of a single process: nothing to tell, nothing to hear.
type Nop struct{}

func (Nop) Publish(context.Context, string) {}
func (Nop) Subscribe(string, func())        {}
func (Nop) Close() error                    { return nil }

// publishTimeout bounds one PUBLISH; retryEvery paces the background retries.
const (
	publishTimeout = 2 * time.Second
	retryEvery     = time.Second
)

// RedisBus is the Bus over Redis pub/sub. One connection carries every
// topic; go-redis reconnects it and subscribes again after a failure, and the
// server confirms each channel anew. Every confirmation fires that topic's
// subscribers, so an invalidation missed while the connection was down
// cannot leave a cache stale.
type RedisBus struct {
	r      *Redis
	ps     *redis.PubSub
	id     string // payload of our messages, to skip our own echo
	logger *slog.Logger

	mu   sync.RWMutex
	subs map[string][]func() // channel → subscribers

	pmu     sync.Mutex
	pending map[string]bool // channels whose PUBLISH failed, retried in the background
	kick    chan struct{}

	done chan struct{}
	wg   sync.WaitGroup
}

// NewBus starts the bus on r.
func NewBus(r *Redis, logger *slog.Logger) *RedisBus {
	if logger == nil {
		logger = slog.Default()
	}
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	b := &RedisBus{r: r, id: hex.EncodeToString(id), logger: logger, subs: map[string][]func(){},
		pending: map[string]bool{}, kick: make(chan struct{}, 1), done: make(chan struct{})}
	b.ps = r.Client.Subscribe(context.Background())
	msgs := b.ps.ChannelWithSubscriptions(redis.WithChannelSize(256))
	b.wg.Add(2)
	go b.receive(msgs)
	go b.retry()
	return b
}

// Publish implements Bus.
func (b *RedisBus) Publish(ctx context.Context, topic string) {
	ch := b.r.Channel(topic)
	if err := b.publish(ctx, ch); err != nil {
		b.logger.WarnContext(ctx, "cache invalidation not published; retrying", "channel", ch, "err", err)
		b.pmu.Lock()
		b.pending[ch] = true
		b.pmu.Unlock()
		select {
		case b.kick <- struct{}{}:
		default:
		}
	}
}

func (b *RedisBus) publish(ctx context.Context, ch string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publishTimeout)
	defer cancel()
	return b.r.Client.Publish(ctx, ch, b.id).Err()
}

// Subscribe implements Bus.
func (b *RedisBus) Subscribe(topic string, fn func()) {
	ch := b.r.Channel(topic)
	b.mu.Lock()
	first := len(b.subs[ch]) == 0
	b.subs[ch] = append(b.subs[ch], fn)
	b.mu.Unlock()
	if !first {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), publishTimeout)
	defer cancel()
	// On failure go-redis still remembers the channel and subscribes it on
	// reconnect; the confirmation then fires the subscribers.
	if err := b.ps.Subscribe(ctx, ch); err != nil {
		b.logger.Warn("cache invalidation: subscribe failed; will retry on reconnect", "channel", ch, "err", err)
	}
}

func (b *RedisBus) receive(msgs <-chan any) {
	defer b.wg.Done()
	for m := range msgs {
		switch m := m.(type) {
		case *redis.Subscription:
			if m.Kind == "subscribe" {
				b.fire(m.Channel) // (re)subscribed: whatever was missed meanwhile is dropped now
			}
		case *redis.Message:
			if m.Payload != b.id {
				b.fire(m.Channel)
			}
		}
	}
}

func (b *RedisBus) fire(ch string) {
	b.mu.RLock()
	fns := b.subs[ch]
	b.mu.RUnlock()
	for _, fn := range fns {
		func() {
			defer func() {
				if p := recover(); p != nil {
					b.logger.Error("cache invalidation subscriber panicked", "channel", ch, "panic", p)
				}
			}()
			fn()
		}()
	}
}

// retry publishes again what Redis did not take, until it does.
func (b *RedisBus) retry() {
	defer b.wg.Done()
	t := time.NewTicker(retryEvery)
	defer t.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-b.kick:
			select { // give a failing server a moment
			case <-b.done:
				return
			case <-time.After(retryEvery):
			}
		case <-t.C:
		}
		b.pmu.Lock()
		chs := make([]string, 0, len(b.pending))
		for ch := range b.pending {
			chs = append(chs, ch)
		}
		b.pmu.Unlock()
		for _, ch := range chs {
			b.pmu.Lock()
			delete(b.pending, ch) // before publishing: a failure meanwhile marks it again
			b.pmu.Unlock()
			if err := b.publish(context.Background(), ch); err != nil {
				b.pmu.Lock()
				b.pending[ch] = true
				b.pmu.Unlock()
				break // still down; try again on the next tick
			}
		}
	}
}

// Close stops the bus (the Redis client stays open).
func (b *RedisBus) Close() error {
	close(b.done)
	err := b.ps.Close()
	b.wg.Wait()
	return err
}
