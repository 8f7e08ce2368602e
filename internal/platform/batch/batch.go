// Package batch writes rows off the request path. Add queues a row and
// returns at once; one goroutine inserts the queue in batches, when Size
// rows are waiting or Every has passed since the oldest of them arrived.
// Flush writes what was queued before it and returns; Close writes the rest
// and stops. A full queue drops the row (counted in Dropped and logged):
// the request's latency wins over its log line.
package batch

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"
)

// Writer queues rows of type T and inserts them in batches.
type Writer[T any] struct {
	name    string
	insert  func(ctx context.Context, rows []*T) error
	size    int
	every   time.Duration
	queue   chan *T
	flushes chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	closed  atomic.Bool
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
	w := &Writer[T]{name: name, insert: insert, size: o.Size, every: o.Every,
		queue: make(chan *T, o.Queue), flushes: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// Add queues row without waiting; false when it was dropped.
func (w *Writer[T]) Add(row *T) bool {
	if w.closed.Load() {
		w.Dropped.Add(1)
		return false
	}
	select {
	case w.queue <- row:
		return true
	default:
		if w.Dropped.Add(1)&1023 == 1 { // the first drop, then every 1024th
			slog.Warn("batch queue full: rows dropped", "writer", w.name, "dropped", w.Dropped.Load())
		}
		return false
	}
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
	if w.closed.Swap(true) {
		<-w.done
		return
	}
	close(w.stop)
	<-w.done
}

func (w *Writer[T]) lost(n int, err error) {
	w.Dropped.Add(int64(n))
	slog.Error("batch insert failed: rows lost", "writer", w.name, "rows", n, "err", err)
}

func (w *Writer[T]) run() {
	defer close(w.done)
	buf := make([]*T, 0, w.size)
	timer := time.NewTimer(w.every)
	timer.Stop()
	write := func() {
		timer.Stop()
		for start := 0; start < len(buf); start += w.size {
			rows := buf[start:min(start+w.size, len(buf))]
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
		clear(buf)
		buf = buf[:0]
	}
	drain := func() {
		for {
			select {
			case row := <-w.queue:
				buf = append(buf, row)
			default:
				return
			}
		}
	}
	for {
		select {
		case row := <-w.queue:
			buf = append(buf, row)
			if len(buf) == 1 {
				timer.Reset(w.every)
			}
			if len(buf) >= w.size {
				write()
			}
		case <-timer.C:
			write()
		case reply := <-w.flushes:
			drain()
			write()
			close(reply)
		case <-w.stop:
			drain()
			write()
			return
		}
	}
}
