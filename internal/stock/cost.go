package stock

import "github.com/bluebird/console/internal/platform/wire"

// Moving-average cost per item (domain.md §2). The item's cost row holds
// qty and amount, the sums of its ledger rows, and avgCost = amount / qty
// (six places, half up). Every ledger row's amount is exactly the change it
// made to the item's amount, so the sums always equal the ledger:
//
//   - an incoming line at price p: amount += q·p, and the average follows;
//     when the item held nothing (or less than nothing), the average
//     restarts at p and the amount at qty·p;
//   - an outgoing line goes at the average: amount += q·avg;
//   - whenever qty ends at or below zero, amount is qty·avg, so an empty
//     item carries no rounding residue into its next receipt;
//   - an amount below zero while stock remains (a reversal after prices
//     moved) is set to zero rather than give a negative average;
//   - a transfer goes at the average and leaves qty, amount and average as
//     they are: its two halves cancel.
//
// The average is never backdated (no posting carries another time than
// now), so it is replayable from the ledger in seq order.

func mulRound(a, b wire.Decimal) wire.Decimal {
	return a.Mul(b).Round(amountScale, wire.RoundHalfUp)
}

// settle moves the item to newQty and newAmount (subject to the rules
// above) and returns the row's amount: the change it made.
func settle(c *costRow, newQty, newAmount wire.Decimal) wire.Decimal {
	switch {
	case newQty.Sign() <= 0:
		newAmount = mulRound(newQty, c.AvgCost)
	case newAmount.Sign() < 0:
		newAmount = wire.NewDecimal(0, amountScale)
	}
	change := newAmount.Sub(c.Amount).Round(amountScale, wire.RoundHalfUp)
	c.Qty = newQty.Round(qtyScale, wire.RoundHalfUp)
	c.Amount = newAmount.Round(amountScale, wire.RoundHalfUp)
	if c.Qty.Sign() > 0 {
		c.AvgCost = c.Amount.Div(c.Qty, costScale, wire.RoundHalfUp)
	}
	return change
}

// applyCost prices a posting's line against its item's cost and moves the
// cost; it returns the ledger row with UnitCost and Amount set.
func applyCost(c *costRow, l Line) *LedgerRow {
	r := &LedgerRow{}
	if isTransfer(l.TxType) {
		r.UnitCost = c.AvgCost
		r.Amount = mulRound(l.Qty, c.AvgCost)
		return r
	}
	newQty := c.Qty.Add(l.Qty)
	if l.Qty.Sign() > 0 {
		price := l.UnitCost
		if price.IsNull() {
			price = c.AvgCost
		}
		price = price.Round(costScale, wire.RoundHalfUp)
		r.UnitCost = price
		if c.Qty.Sign() <= 0 {
			c.AvgCost = price
			r.Amount = settle(c, newQty, mulRound(newQty, price))
		} else {
			r.Amount = settle(c, newQty, c.Amount.Add(mulRound(l.Qty, price)))
		}
		return r
	}
	r.UnitCost = c.AvgCost
	r.Amount = settle(c, newQty, c.Amount.Add(mulRound(l.Qty, c.AvgCost)))
	return r
}

// reverseCost prices a reversal of the row orig: the negated quantity at
// the original cost, taking back the amount the original added.
func reverseCost(c *costRow, l Line, orig *LedgerRow) *LedgerRow {
	r := &LedgerRow{UnitCost: orig.UnitCost}
	if isTransfer(l.TxType) {
		r.Amount = orig.Amount.Neg()
		return r
	}
	r.Amount = settle(c, c.Qty.Add(l.Qty), c.Amount.Sub(orig.Amount))
	return r
}
