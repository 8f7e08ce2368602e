package cache

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

func open(t *testing.T, url string) *Redis {
	t.Helper()
	r, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOpenUnreachable(t *testing.T) {
	_, err := Open(context.Background(), "redis://:secret@127.0.0.1:1/0")
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("want a clear error without the password, got %v", err)
	}
	if _, err := Open(context.Background(), "http://x"); err == nil {
		t.Fatal("a non-redis URL must be refused")
	}
}

func TestChannelNames(t *testing.T) {
	mr := miniredis.RunT(t)
	if got := open(t, "redis://"+mr.Addr()+"/0").Channel("system"); got != "bluebird:system" {
		t.Errorf("db 0 channel %q", got)
	}
	if got := open(t, "redis://"+mr.Addr()+"/3").Channel("system"); got != "bluebird:3:system" {
		t.Errorf("db 3 channel %q", got)
	}
}

// Another instance's message fires the subscribers; our own does not come back.
func TestBusDeliversToOthersOnly(t *testing.T) {
	mr := miniredis.RunT(t)
	a, b := NewBus(open(t, "redis://"+mr.Addr()), quiet()), NewBus(open(t, "redis://"+mr.Addr()), quiet())
	defer a.Close()
	defer b.Close()
	var na, nb, other atomic.Int32
	a.Subscribe("system", func() { na.Add(1) })
	b.Subscribe("system", func() { nb.Add(1) })
	b.Subscribe("scopes", func() { other.Add(1) })
	// the subscription itself fires once (nothing can have been missed before it, but it is harmless)
	eventually(t, "initial subscriptions", func() bool { return na.Load() == 1 && nb.Load() == 1 && other.Load() == 1 })

	a.Publish(context.Background(), "system")
	eventually(t, "b hears a", func() bool { return nb.Load() == 2 })
	time.Sleep(50 * time.Millisecond)
	if na.Load() != 1 || other.Load() != 1 {
		t.Fatalf("a heard itself (%d) or another topic fired (%d)", na.Load(), other.Load())
	}
}

// After the connection drops, the resubscription fires every subscriber, and
// a publish that failed meanwhile is sent again once Redis is back.
func TestBusAfterReconnect(t *testing.T) {
	mr := miniredis.RunT(t)
	a, b := NewBus(open(t, "redis://"+mr.Addr()), quiet()), NewBus(open(t, "redis://"+mr.Addr()), quiet())
	defer a.Close()
	defer b.Close()
	var sys, scopes atomic.Int32
	b.Subscribe("system", func() { sys.Add(1) })
	b.Subscribe("scopes", func() { scopes.Add(1) })
	eventually(t, "initial subscriptions", func() bool { return sys.Load() == 1 && scopes.Load() == 1 })

	mr.Close()
	a.Publish(context.Background(), "system") // lost: the server is down
	time.Sleep(200 * time.Millisecond)
	if err := mr.Restart(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "resubscription fires every subscriber", func() bool { return sys.Load() >= 2 && scopes.Load() >= 2 })
	// the publish that failed is retried until Redis takes it
	eventually(t, "retried publish", func() bool {
		a.pmu.Lock()
		defer a.pmu.Unlock()
		return len(a.pending) == 0
	})
}

func TestNop(t *testing.T) {
	var n Nop
	n.Subscribe("system", func() { t.Fatal("nop fired") })
	n.Publish(context.Background(), "system")
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
}
