package batch

import (
	"context"
	"sync"
	"testing"
	"time"
)

type sink struct {
	mu      sync.Mutex
	rows    []int
	batches int
}

func (s *sink) insert(_ context.Context, rows []*int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches++
	for _, r := range rows {
		s.rows = append(s.rows, *r)
	}
	return nil
}

func (s *sink) count() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rows), s.batches
}

func ints(n int) []*int {
	out := make([]*int, n)
	for i := range out {
		v := i
		out[i] = &v
	}
	return out
}

// Flush writes what was queued, in batches of Size, without waiting for Every.
func TestFlushWritesQueued(t *testing.T) {
	s := &sink{}
	w := New("test", Options{Size: 10, Every: time.Hour}, s.insert)
	defer w.Close()
	for _, r := range ints(25) {
		if !w.Add(r) {
			t.Fatal("row dropped")
		}
	}
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	n, batches := s.count()
	if n != 25 || batches != 3 {
		t.Fatalf("flushed %d rows in %d batches, want 25 in 3", n, batches)
	}
	for i, v := range s.rows {
		if v != i {
			t.Fatalf("row %d is %d: order lost", i, v)
		}
	}
}

// The time trigger writes a partial batch without a Flush.
func TestEveryWritesPartialBatch(t *testing.T) {
	s := &sink{}
	w := New("test", Options{Size: 100, Every: 20 * time.Millisecond}, s.insert)
	defer w.Close()
	w.Add(ints(1)[0])
	deadline := time.Now().Add(5 * time.Second)
	for {
		if n, _ := s.count(); n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("a queued row was not written after Every")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Close writes everything still queued; later rows are refused and counted.
func TestCloseLosesNothing(t *testing.T) {
	s := &sink{}
	w := New("test", Options{Queue: 10000, Size: 64, Every: time.Hour}, s.insert)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range ints(1000) {
				w.Add(r)
			}
		}()
	}
	wg.Wait()
	w.Close()
	if n, _ := s.count(); n != 4000 {
		t.Fatalf("Close wrote %d of 4000 rows", n)
	}
	if w.Add(ints(1)[0]) || w.Dropped.Load() != 1 {
		t.Fatalf("a row added after Close was taken (dropped %d)", w.Dropped.Load())
	}
	w.Close() // twice is harmless
}

// A full queue drops instead of blocking the caller.
func TestFullQueueDrops(t *testing.T) {
	block := make(chan struct{})
	w := New("test", Options{Queue: 2, Size: 1, Every: time.Hour}, func(context.Context, []*int) error { <-block; return nil })
	for _, r := range ints(10) {
		w.Add(r)
	}
	if w.Dropped.Load() == 0 {
		t.Fatal("a full queue blocked or took every row")
	}
	close(block)
	w.Close()
}

// Rows added from many goroutines are written in full batches as they
// fill, without a Flush or the timer: no wake-up is lost between Add and
// the writer.
func TestConcurrentAddsWriteFullBatches(t *testing.T) {
	s := &sink{}
	w := New("test", Options{Queue: 1 << 20, Size: 10, Every: time.Hour}, s.insert)
	defer w.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, r := range ints(1003) {
				if !w.Add(r) {
					t.Error("row dropped")
				}
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, _ := s.count()
		if n >= 8*1003-10 { // what is left is less than a batch, waiting for the timer
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d rows written without a flush: a full batch waits", n, 8*1003)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := w.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.count(); n != 8*1003 {
		t.Fatalf("%d rows written, want %d", n, 8*1003)
	}
}
