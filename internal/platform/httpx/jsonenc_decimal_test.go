package httpx

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
	"unsafe"

	"github.com/bluebird/console/internal/platform/wire"
)

type decimalRow struct {
	ID   wire.ID       `json:"id"`
	Qty  wire.Decimal  `json:"qty"`
	Cost wire.Decimal  `json:"cost,omitempty"` // a struct: omitempty never drops it, as in encoding/json
	Ptr  *wire.Decimal `json:"ptr"`
	List []wire.Decimal
}

// TestWireDecimalLikeMarshalJSON: the in-place encoder writes what
// MarshalJSON writes, alone and inside rows, and takes the fast path.
func TestWireDecimalLikeMarshalJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 10000 {
		var v wire.Decimal
		if i%50 != 0 {
			text := strconv.FormatInt(rng.Int64()-1<<62, 10)
			if i%3 == 0 {
				text += "123456789012" // past int64
			}
			v = wire.NewDecimal(0, rng.IntN(12)).Add(wire.MustParseDecimal(text)).Round(rng.IntN(20), wire.RoundHalfUp)
		}
		want, _ := v.MarshalJSON()
		got, _ := encodeWireDecimal(nil, unsafe.Pointer(&v), 0)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: got %s want %s", v, got, want)
		}
	}
	big := wire.MustParseDecimal("-99999999999999.999999")
	for _, v := range []any{
		wire.Decimal{}, wire.MustParseDecimal("12.500000"), &big,
		decimalRow{}, decimalRow{ID: 1, Qty: wire.MustParseDecimal("0.000001"), Cost: big, Ptr: &big, List: []wire.Decimal{{}, big}},
	} {
		if !sameAsStd(t, v) {
			t.Errorf("%T went to encoding/json", v)
		}
	}
}
