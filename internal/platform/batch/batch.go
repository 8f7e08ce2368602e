// Package batch writes rows off the request path. Add queues a row and
// returns at once; one goroutine inserts the queue in batches, when Size
// rows are waiting or Every has passed since the oldest of them arrived.
// Flush writes what was queued before it and returns; Close writes the rest
// and stops. A full queue drops the row (counted in Dropped and logged):
// the request's latency wins over its log line.
//
// Add appends under a mutex and wakes the writer only for the first row of
// a batch (to start its Every timer) and for a full batch: a channel send
// per row woke the writer on every request, a goroutine switch that cost
// the API log a tenth of the user page's time.
package batch

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Writer queues rows of type T and inserts them in batches.
type Writer[T any] struct {
	name   string
	insert func(ctx context.Context, rows []*T) error
	size   int
	every  time.Duration
	limit  int // rows the queue holds

	mu      sync.Mutex
	queue   []*T
	closed  bool
	wake    chan struct{} // capacity 1: the writer has something to look at
	flushes chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	// Dropped counts rows refused because the queue was full or closed, or
	// lost because their batch failed to insert.
	Dropped atomic.Int64
}

// Options size a Writer; zero values take the defaults.
type Options struct {
	Queue int           // rows the queue holds (default 8192)
	Size  int           // rows per insert (default 500)
	Every time.Duration // longest wait of a queued row (default 1s)
}

// New starts a writer; insert writes one batch (in one statement or transaction).
func New[T any](name string, o Options, insert func(ctx context.Context, rows []*T) error) *Writer[T] {
	if o.Queue <= 0 {
		o.Queue = 8192
	}
	if o.Size <= 0 {
		o.Size = 500
	}
	if o.Every <= 0 {
		o.Every = time.Second
	}
	w := &Writer[T]{name: name, insert: insert, size: o.Size, every: o.Every, limit: o.Queue,
		wake: make(chan struct{}, 1), flushes: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// Add queues row without waiting; false when it was dropped.
func (w *Writer[T]) Add(row *T) bool {
	w.mu.Lock()
	if w.closed || len(w.queue) >= w.limit {
		closed := w.closed
		w.mu.Unlock()
		if n := w.Dropped.Add(1); !closed && n&1023 == 1 { // the first drop, then every 1024th
			slog.Warn("batch queue full: rows dropped", "writer", w.name, "dropped", n)
		}
		return false
	}
	w.queue = append(w.queue, row)
	n := len(w.queue)
	w.mu.Unlock()
	if n == 1 || n == w.size {
		select {
		case w.wake <- struct{}{}:
		default: // already woken
		}
	}
	return true
}

// Flush returns once every row queued before the call is written (or ctx ends).
func (w *Writer[T]) Flush(ctx context.Context) error {
	reply := make(chan struct{})
	select {
	case w.flushes <- reply:
	case <-w.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-reply:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close writes what is queued and stops the writer; later rows are dropped.
func (w *Writer[T]) Close() {
	w.mu.Lock()
	already := w.closed
	w.closed = true
	w.mu.Unlock()
	if !already {
		close(w.stop)
	}
	<-w.done
}

func (w *Writer[T]) lost(n int, err error) {
	w.Dropped.Add(int64(n))
	slog.Error("batch insert failed: rows lost", "writer", w.name, "rows", n, "err", err)
}

// take empties the queue into the batch the writer holds.
func (w *Writer[T]) take(batch []*T) []*T {
	w.mu.Lock()
	batch = append(batch, w.queue...)
	clear(w.queue)
	w.queue = w.queue[:0]
	w.mu.Unlock()
	return batch
}

// pending is the number of queued rows.
func (w *Writer[T]) pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue)
}

func (w *Writer[T]) run() {
	defer close(w.done)
	var batch []*T
	timer := time.NewTimer(w.every)
	timer.Stop()
	armed := false
	write := func() {
		batch = w.take(batch)
		if armed {
			timer.Stop()
			armed = false
		}
		for start := 0; start < len(batch); start += w.size {
			rows := batch[start:min(start+w.size, len(batch))]
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := w.insert(ctx, rows); err != nil && len(rows) > 1 {
				// one bad row must not cost the others: try them one by one
				for _, row := range rows {
					if err := w.insert(ctx, []*T{row}); err != nil {
						w.lost(1, err)
					}
				}
			} else if err != nil {
				w.lost(1, err)
			}
			cancel()
		}
		clear(batch)
		batch = batch[:0]
	}
	for {
		select {
		case <-w.wake:
			switch n := w.pending(); {
			case n >= w.size:
				write()
			case n > 0 && !armed:
				timer.Reset(w.every)
				armed = true
			}
		case <-timer.C:
			armed = false
			write()
		case reply := <-w.flushes:
			write()
			close(reply)
		case <-w.stop:
			write()
			return
		}
	}
}
