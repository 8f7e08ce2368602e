package db

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"

	"github.com/bluebird/console/internal/platform/wire"
)

// Ids are snowflake-style: 41 bits of milliseconds since 2024-01-01, 10 bits
// of node, 12 bits of sequence. The node is random per process, so several
// instances can share a database without coordination.
var idGen = newGenerator()

type generator struct {
	mu    sync.Mutex
	epoch int64
	node  int64
	last  int64
	seq   int64
}

func newGenerator() *generator {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return &generator{epoch: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), node: int64(binary.BigEndian.Uint16(b[:]) & 0x3FF)}
}

// NewID returns a fresh unique id.
func NewID() wire.ID { return idGen.next() }

func (g *generator) next() wire.ID {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now().UnixMilli() - g.epoch
	if now < g.last {
		now = g.last // clock went back: keep counting on the last millisecond
	}
	if now == g.last {
		g.seq = (g.seq + 1) & 0xFFF
		if g.seq == 0 {
			now++ // sequence exhausted within this millisecond: borrow the next one
		}
	} else {
		g.seq = 0
	}
	g.last = now
	return wire.ID(now<<22 | g.node<<12 | g.seq)
}
