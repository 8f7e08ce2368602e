package stockdoc

import (
	"context"
	"net/http"
	"slices"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// The count: saveCheckResult, the line's own submit and remove, and what a
// counter may see of a blind count.

// countInput is saveCheckResult's body: the check, the counted lines (a
// line by its id, or by material, position and batch: a combination not on
// the check becomes an added line with book quantity 0), and whether the
// count is finished (uncounted lines counted as zero when asked).
type countInput struct {
	ID              wire.ID     `json:"id"`
	Lines           []countLine `json:"lines"`
	Finish          bool        `json:"finish"`
	UncountedAsZero bool        `json:"uncountedAsZero"`
}

type countLine struct {
	DetailID   wire.ID      `json:"detailId"`
	MaterialID wire.ID      `json:"materialId"`
	PositionID wire.ID      `json:"positionId"`
	BatchNo    string       `json:"batchNo"`
	ActualQty  wire.Decimal `json:"actualQty"`
	Reason     *string      `json:"reason"`
}

type checkLineKey struct {
	material, position wire.ID
	batch              string
}

const maxCountLines = 1000

// holds tells whether the caller holds a menu button (the super user holds
// every one; without a ButtonHolder nobody else does).
func (d *checkDoc) holds(ctx context.Context, code string) (bool, error) {
	p := authz.From(ctx)
	if p == nil {
		return false, nil
	}
	if p.IsSuper() {
		return true, nil
	}
	if d.s.env == nil || d.s.env.Buttons == nil {
		return false, nil
	}
	return d.s.env.Buttons.HoldsButton(ctx, p, code)
}

func (d *checkDoc) mustHold(ctx context.Context, code string) error {
	ok, err := d.holds(ctx, code)
	if err != nil {
		return err
	}
	if !ok {
		return httpx.ErrForbidden
	}
	return nil
}

// saveCheckResult records counted quantities of a counting check
// (POST /bluebird-basic/materialstock/saveCheckResult, button 盘点结果).
func (d *checkDoc) saveCheckResult(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	var in countInput
	if err := httpx.DecodeJSON(req, &in); err != nil {
		return nil, err
	}
	if in.ID == 0 {
		return nil, httpx.MissingParam("id")
	}
	if len(in.Lines) > maxCountLines {
		return nil, httpx.BadRequest(msgTooManyCounted.Format(maxCountLines))
	}
	for i, l := range in.Lines {
		if err := checkCount(i, l.ActualQty, l.Reason); err != nil {
			return nil, err
		}
		if l.DetailID == 0 && (l.MaterialID == 0 || l.PositionID == 0) {
			return nil, httpx.BadRequest(msgCountLine.Format(i + 1))
		}
	}
	if err := d.mustHold(ctx, checkButton); err != nil {
		return nil, err
	}
	err := d.s.env.DB.Tx(ctx, func(tx bun.Tx) error {
		m, err := d.lockCheck(ctx, tx, in.ID)
		if err != nil {
			return err
		}
		return d.count(ctx, tx, m, in)
	})
	if err != nil {
		return nil, err
	}
	full, err := d.checks.Detail(ctx, d.s.env.DB, in.ID)
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgCountSaved, Data: full}, nil
}

// checkCount refuses a missing, negative or over-precise count.
func checkCount(i int, actual wire.Decimal, reason *string) error {
	switch {
	case actual.IsNull():
		return httpx.BadRequest(msgNoCount.Format(i + 1))
	case actual.Sign() < 0:
		return httpx.BadRequest(msgNegativeCount.Format(i + 1))
	case actual.Round(6, wire.RoundHalfUp).Cmp(actual) != 0 || actual.Cmp(wire.NewDecimal(100000000000000, 0)) >= 0:
		return httpx.InvalidParam("actualQty")
	case reason != nil && len([]rune(*reason)) > 500:
		return httpx.BadRequest(msgReasonTooLong.Format(i + 1))
	}
	return nil
}

// lockCheck loads a check the caller may see (tenant, data scope), locked
// for the transaction on PostgreSQL, and refuses one that is not counting.
func (d *checkDoc) lockCheck(ctx context.Context, tx bun.Tx, id wire.ID) (*MaterialCheck, error) {
	var rows []*MaterialCheck
	q, err := d.checks.Select(ctx, tx, &rows)
	if err != nil {
		return nil, err
	}
	q = q.Where("?TableAlias.id = ?", id)
	if tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	m := rows[0]
	if m.CheckStatus != CheckCounting {
		return nil, httpx.BadRequest(msgNotCounting.Format(m.DocNo, dictLabel(ctx, tx, d.s.env, "check_status", m.CheckStatus)))
	}
	return m, nil
}

// linesOf reads a check's live lines in id order.
func (d *checkDoc) linesOf(ctx context.Context, tx bun.Tx, m *MaterialCheck) ([]*MaterialCheckDetail, error) {
	var lines []*MaterialCheckDetail
	err := tx.NewSelect().Model(&lines).Where("main_id = ? AND tenant_id = ? AND is_deleted = 0", m.ID, m.TenantID).OrderExpr("id ASC").Scan(ctx)
	return lines, err
}

// count applies the body's counts to a counting check and, when asked,
// finishes it.
func (d *checkDoc) count(ctx context.Context, tx bun.Tx, m *MaterialCheck, in countInput) error {
	p := authz.From(ctx)
	lines, err := d.linesOf(ctx, tx, m)
	if err != nil {
		return err
	}
	byID := map[wire.ID]*MaterialCheckDetail{}
	byKey := map[checkLineKey]*MaterialCheckDetail{}
	for _, l := range lines {
		byID[l.ID] = l
		byKey[checkLineKey{l.MaterialID, l.PositionID, l.BatchNo}] = l
	}
	sc, err := d.scopeOf(ctx, tx, m)
	if err != nil {
		return err
	}
	now := wire.Now()
	touched := map[wire.ID]*MaterialCheckDetail{}
	var order []wire.ID
	for i, c := range in.Lines {
		var l *MaterialCheckDetail
		if c.DetailID != 0 {
			if l = byID[c.DetailID]; l == nil {
				return httpx.BadRequest(msgCountNotOwned.Format(i + 1))
			}
		} else {
			if l, err = d.foundLine(ctx, tx, m, sc, i, c, byKey); err != nil {
				return err
			}
			if byID[l.ID] == nil {
				byID[l.ID] = l
				lines = append(lines, l)
			}
		}
		applyCount(l, c.ActualQty, p.UserID, now)
		if c.Reason != nil {
			l.Reason = *c.Reason
		}
		if touched[l.ID] == nil {
			order = append(order, l.ID)
		}
		touched[l.ID] = l
	}
	if in.Finish {
		var uncounted []*MaterialCheckDetail
		for _, l := range lines {
			if l.ActualQty.IsNull() {
				uncounted = append(uncounted, l)
			}
		}
		if len(uncounted) > 0 && !in.UncountedAsZero {
			return httpx.BadRequest(msgUncounted.Format(len(uncounted)))
		}
		for _, l := range uncounted {
			applyCount(l, wire.NewDecimal(0, 6), p.UserID, now)
			if touched[l.ID] == nil {
				order = append(order, l.ID)
			}
			touched[l.ID] = l
		}
	}
	for _, id := range order {
		if err := d.writeCount(ctx, tx, touched[id]); err != nil {
			return err
		}
	}
	if !in.Finish {
		return nil
	}
	gainQty, lossQty, gainAmount, lossAmount := wire.NewDecimal(0, 6), wire.NewDecimal(0, 6), wire.NewDecimal(0, 4), wire.NewDecimal(0, 4)
	for _, l := range lines {
		switch l.DiffQty.Sign() {
		case 1:
			gainQty = gainQty.Add(l.DiffQty)
			if !l.DiffAmount.IsNull() {
				gainAmount = gainAmount.Add(l.DiffAmount)
			}
		case -1:
			lossQty = lossQty.Add(l.DiffQty.Abs())
			if !l.DiffAmount.IsNull() {
				lossAmount = lossAmount.Add(l.DiffAmount.Abs())
			}
		}
	}
	if err := d.s.stock.Unfreeze(ctx, tx, m.ID); err != nil {
		return err
	}
	return d.checks.SetFields(ctx, tx, []*MaterialCheck{m}, map[string]any{"checkStatus": CheckCounted, "finishTime": now,
		"gainQty": gainQty.Round(6, wire.RoundHalfUp), "lossQty": lossQty.Round(6, wire.RoundHalfUp),
		"gainAmount": gainAmount.Round(4, wire.RoundHalfUp), "lossAmount": lossAmount.Round(4, wire.RoundHalfUp)})
}

// foundLine is the line of a material, position and batch named by a count:
// the check's own, or a new added line (book quantity 0) when the place is
// in the check's scope and the material is the tenant's and in scope.
func (d *checkDoc) foundLine(ctx context.Context, tx bun.Tx, m *MaterialCheck, sc checkScope, i int, c countLine, byKey map[checkLineKey]*MaterialCheckDetail) (*MaterialCheckDetail, error) {
	var mats []materialRow
	if err := tx.NewSelect().Table("bb_material").Column("id", "material_code", "material_name", "spec", "model", "unit", "batch_managed", "shelf_life_days", "is_effective").
		Where("tenant_id = ? AND is_deleted = 0 AND id = ?", m.TenantID, c.MaterialID).Scan(ctx, &mats); err != nil {
		return nil, err
	}
	if len(mats) == 0 || (sc.materials != nil && !slices.Contains(sc.materials, c.MaterialID)) {
		return nil, httpx.BadRequest(msgCountMaterial.Format(i + 1))
	}
	mat := mats[0]
	batch := c.BatchNo
	if mat.BatchManaged != inventory.Yes {
		batch = ""
	} else if batch == "" {
		return nil, httpx.BadRequest(msgBatchMissing.Format(i+1, mat.MaterialCode))
	}
	if len([]rune(batch)) > 64 {
		return nil, httpx.InvalidParam("batchNo")
	}
	if l := byKey[checkLineKey{c.MaterialID, c.PositionID, batch}]; l != nil {
		return l, nil
	}
	n, err := tx.NewSelect().Table("bb_warehouse_position").
		Where("tenant_id = ? AND is_deleted = 0 AND warehouse_id = ? AND id = ?", m.TenantID, m.WarehouseID, c.PositionID).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 || !sc.holdsPosition(c.PositionID) {
		return nil, httpx.BadRequest(msgCountPlace.Format(i + 1))
	}
	costs, err := d.avgCosts(ctx, tx, map[wire.ID]materialRow{mat.ID: mat})
	if err != nil {
		return nil, err
	}
	l := &MaterialCheckDetail{MainID: m.ID, MaterialID: mat.ID, MaterialCode: mat.MaterialCode, MaterialName: mat.MaterialName,
		Spec: mat.Spec, Model: mat.Model, Unit: mat.Unit, PositionID: c.PositionID, BatchNo: batch,
		BookQty: wire.NewDecimal(0, 6), UnitCost: costs[mat.ID], IsAdded: inventory.Yes}
	l.TenantID = m.TenantID
	if err := d.details.Insert(ctx, tx, l); err != nil {
		return nil, err
	}
	byKey[checkLineKey{l.MaterialID, l.PositionID, l.BatchNo}] = l
	return l, nil
}

// applyCount sets a line's count and its difference from the book (valued
// at the snapshot cost; the posting values it at the average then).
func applyCount(l *MaterialCheckDetail, actual wire.Decimal, user wire.ID, now wire.Time) {
	if actual.IsNull() {
		l.ActualQty, l.DiffQty, l.DiffAmount, l.CountedBy, l.CountedAt = wire.Decimal{}, wire.Decimal{}, wire.Decimal{}, 0, wire.Time{}
		return
	}
	l.ActualQty = actual.Round(6, wire.RoundHalfUp)
	l.DiffQty = l.ActualQty.Sub(l.BookQty).Round(6, wire.RoundHalfUp)
	l.DiffAmount = wire.Decimal{}
	if !l.UnitCost.IsNull() {
		l.DiffAmount = l.DiffQty.Mul(l.UnitCost).Round(4, wire.RoundHalfUp)
	}
	l.CountedBy, l.CountedAt = user, now
}

// writeCount stores a line's count.
func (d *checkDoc) writeCount(ctx context.Context, tx bun.Tx, l *MaterialCheckDetail) error {
	var countedAt any
	if !l.CountedAt.IsZero() {
		countedAt = l.CountedAt
	}
	_, err := tx.NewUpdate().Table("bb_material_check_detail").
		Set("actual_qty = ?", l.ActualQty).Set("diff_qty = ?", l.DiffQty).Set("diff_amount = ?", l.DiffAmount).
		Set("counted_by = ?", l.CountedBy).Set("counted_at = ?", countedAt).Set("reason = ?", l.Reason).
		Set("update_user = ?", authz.From(ctx).UserID).Set("update_time = ?", wire.Now()).Set("version = version + 1").
		Where("id = ? AND tenant_id = ?", l.ID, l.TenantID).Exec(ctx)
	return err
}

// lineSubmit is the line's own submit: it records the line's count
// (actualQty, reason) while its check is counting, with the 盘点结果
// button. Without an id it is saveCheckResult of one line: mainId,
// materialId, positionId and batchNo name the line, which is added (book
// quantity 0) when the check has none there. The button is read before
// the transaction (the menu cache reads beside it).
func (d *checkDoc) lineSubmit(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	row, present, err := d.details.Decode(req)
	if err != nil {
		return nil, err
	}
	id := resource.BaseOf(row).ID
	// the line's place is read-only on the line (the engine's Check may
	// drop read-only values of a new row): a new count names it here
	found := countLine{MaterialID: row.MaterialID, PositionID: row.PositionID, BatchNo: row.BatchNo}
	mainID := row.MainID
	if err := d.details.Check(ctx, row, present, id == 0); err != nil {
		return nil, err
	}
	if present["actualQty"] || id == 0 {
		if err := checkCount(0, row.ActualQty, nil); err != nil {
			return nil, err
		}
	}
	if id == 0 && (mainID == 0 || found.MaterialID == 0 || found.PositionID == 0) {
		return nil, httpx.BadRequest(msgCountLine.Format(1))
	}
	if err := d.mustHold(ctx, checkButton); err != nil {
		return nil, err
	}
	if id == 0 {
		// a count of something found: the check's line of that material,
		// position and batch, or a new added line
		err = d.s.env.DB.Tx(ctx, func(tx bun.Tx) error {
			m, err := d.lockCheck(ctx, tx, mainID)
			if err != nil {
				return err
			}
			sc, err := d.scopeOf(ctx, tx, m)
			if err != nil {
				return err
			}
			lines, err := d.linesOf(ctx, tx, m)
			if err != nil {
				return err
			}
			byKey := map[checkLineKey]*MaterialCheckDetail{}
			for _, l := range lines {
				byKey[checkLineKey{l.MaterialID, l.PositionID, l.BatchNo}] = l
			}
			l, err := d.foundLine(ctx, tx, m, sc, 0, found, byKey)
			if err != nil {
				return err
			}
			applyCount(l, row.ActualQty, authz.From(ctx).UserID, wire.Now())
			if present["reason"] {
				l.Reason = row.Reason
			}
			id = l.ID
			return d.writeCount(ctx, tx, l)
		})
		if err != nil {
			return nil, err
		}
		return d.details.Detail(ctx, d.s.env.DB, id)
	}
	err = d.s.env.DB.Tx(ctx, func(tx bun.Tx) error {
		cur, err := d.details.Get(ctx, tx, id)
		if err != nil {
			return err
		}
		if !present["version"] || row.Version <= 0 {
			return httpx.BadRequest(msgCheckLineVersion)
		}
		if cur.Version != row.Version {
			return httpx.ErrStale
		}
		if _, err := d.lockCheck(ctx, tx, cur.MainID); err != nil {
			return err
		}
		if present["actualQty"] {
			applyCount(cur, row.ActualQty, authz.From(ctx).UserID, wire.Now())
		}
		if present["reason"] {
			cur.Reason = row.Reason
		}
		return d.writeCount(ctx, tx, cur)
	})
	if err != nil {
		return nil, err
	}
	return d.details.Detail(ctx, d.s.env.DB, id)
}

var (
	msgLineRemoved      = i18n.T("删除成功", "Removed")
	msgCheckLineVersion = i18n.T("缺少数据版本号(version),请刷新后重试", "The record's version is missing; reload it and try again")
)

// lineRemove removes lines added during the count, while the check is
// counting, with the 盘点结果 button.
func (d *checkDoc) lineRemove(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	ids, err := httpx.FormIDs(req, "ids")
	if err != nil {
		return nil, err
	}
	ids = uniqueIDs(ids)
	if len(ids) > maxCountLines {
		return nil, httpx.BadRequest(msgTooManyCounted.Format(maxCountLines))
	}
	if err := d.mustHold(ctx, checkButton); err != nil {
		return nil, err
	}
	err = d.s.env.DB.Tx(ctx, func(tx bun.Tx) error {
		var lines []*MaterialCheckDetail
		q, err := d.details.Select(ctx, tx, &lines)
		if err != nil {
			return err
		}
		if err := q.Where("?TableAlias.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		if len(lines) != len(ids) {
			return httpx.ErrNotFound
		}
		for _, l := range lines {
			if _, err := d.lockCheck(ctx, tx, l.MainID); err != nil {
				return err
			}
			if l.IsAdded != inventory.Yes {
				return httpx.BadRequest(msgAddedOnly)
			}
		}
		_, err = d.details.Remove(ctx, tx, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgLineRemoved}, nil
}

// hideBook: while a blind check is counting, its counters do not see the
// book quantity, nor the difference that would give it away. A counter is
// anyone who may not set checks up and start them (the 修改 button of the
// stocktaking menu, held by whoever runs the count; the super user sees all).
func (d *checkDoc) hideBook(ctx context.Context, idb bun.IDB, rows []MaterialCheckDetail) error {
	mains := make([]wire.ID, 0, 1)
	for _, r := range rows {
		if len(mains) == 0 || mains[len(mains)-1] != r.MainID {
			mains = append(mains, r.MainID)
		}
	}
	var blind []wire.ID
	if err := idb.NewSelect().Table("bb_material_check").Column("id").
		Where("id IN (?) AND blind_count = ? AND check_status = ?", bun.In(uniqueIDs(mains)), inventory.Yes, CheckCounting).Scan(ctx, &blind); err != nil {
		return err
	}
	if len(blind) == 0 {
		return nil
	}
	sees, err := d.holds(ctx, editButton)
	if err != nil || sees {
		return err
	}
	for i := range rows {
		if slices.Contains(blind, rows[i].MainID) {
			rows[i].BookQty, rows[i].DiffQty, rows[i].DiffAmount = wire.Decimal{}, wire.Decimal{}, wire.Decimal{}
		}
	}
	return nil
}
