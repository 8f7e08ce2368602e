package stockdoc

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/approval"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/stock"
)

// The check's approval and adjustment. The kit's Flow posts an approved
// document by a separate command (入库 / 出库) and voids by the audit
// status; a check moves by its own state instead, so it takes approval's
// startProcess and cancellation and changes what they start from and do:
// startProcess runs on a COUNTED check, and when the check is approved (at
// once, or at the end of its bound process) the adjustment is posted in
// that transaction (Lifecycle.AfterApprove), making the check ADJUSTED; a
// failed posting (a loss the stock no longer holds) leaves the check
// COUNTED and unapproved. cancellation unfreezes a check not yet
// adjusted and reverses the adjustment of one that is.

var (
	msgCheckAudit = i18n.T("盘点单 %s 的审核状态为 %s, 不能提交审批", "Check %s is %s: it cannot be submitted for approval")
)

func (d *checkDoc) lifecycle() []resource.Command[MaterialCheck] {
	cmds := approval.Commands(d.s.approval, approval.Lifecycle[MaterialCheck]{BizType: bizMaterialCheck, Void: true,
		No:    func(m *MaterialCheck) string { return m.DocNo },
		Title: func(m *MaterialCheck) string { return "物料盘点 " + m.DocNo },
		// the adjustment is posted when the check is approved: at once, or
		// at the end of its process
		AfterApprove: func(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialCheck], rows []*MaterialCheck) error {
			for _, m := range rows {
				if err := d.postAdjustment(ctx, tx, res, m); err != nil {
					return err
				}
			}
			return nil
		},
	})
	for i := range cmds {
		c := &cmds[i]
		run := c.Run
		switch c.Name {
		case "startProcess":
			c.From = &resource.States{Field: "checkStatus", Values: []int{CheckCounted}}
			c.Run = func(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialCheck], rows []*MaterialCheck, req *resource.CommandRequest) (any, error) {
				for _, m := range rows {
					if m.Status != approval.Draft && m.Status != approval.Rejected {
						return nil, httpx.BadRequest(msgCheckAudit.Format(m.DocNo, stateLabel(ctx, tx, res, m.Status)))
					}
				}
				return run(ctx, tx, res, rows, req)
			}
		case "cancellation":
			c.From = &resource.States{Field: "checkStatus", Values: []int{CheckDraft, CheckCounting, CheckCounted, CheckAdjusted}}
			c.Run = func(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialCheck], rows []*MaterialCheck, req *resource.CommandRequest) (any, error) {
				for _, m := range rows {
					if m.Status == approval.InApproval {
						return nil, httpx.BadRequest(msgCheckInAudit.Format(m.DocNo))
					}
					if m.CheckStatus != CheckAdjusted {
						if err := d.s.stock.Unfreeze(ctx, tx, m.ID); err != nil {
							return nil, err
						}
						continue
					}
					posted, err := tx.NewSelect().Table("bb_stock_ledger").
						Where("tenant_id = ? AND biz_type = ? AND biz_id = ? AND is_reversal = 0", authz.From(ctx).TenantID, bizMaterialCheck, m.ID).Exists(ctx)
					if err != nil {
						return nil, err
					}
					if posted {
						if _, err := d.s.stock.Reverse(ctx, tx, bizMaterialCheck, m.ID, m.DocNo); err != nil {
							return nil, err
						}
					}
				}
				if err := res.SetFields(ctx, tx, rows, map[string]any{"checkStatus": CheckVoided}); err != nil {
					return nil, err
				}
				return run(ctx, tx, res, rows, req)
			}
		}
	}
	return cmds
}

// postAdjustment posts a counted check's differences against the snapshot
// (domain.md §6.6: movements after the count are kept): a gain comes in as
// CHECK_GAIN at the item's current average (no unit cost given), a loss
// goes out as CHECK_LOSS.
func (d *checkDoc) postAdjustment(ctx context.Context, tx bun.Tx, res *resource.Resource[MaterialCheck], m *MaterialCheck) error {
	lines, err := d.linesOf(ctx, tx, m)
	if err != nil {
		return err
	}
	p := stock.Posting{BizType: bizMaterialCheck, BizID: m.ID, BizNo: m.DocNo}
	for _, l := range lines {
		if l.DiffQty.IsNull() || l.DiffQty.IsZero() {
			continue
		}
		tt := stock.CheckGain
		if l.DiffQty.Sign() < 0 {
			tt = stock.CheckLoss
		}
		p.Lines = append(p.Lines, stock.Line{
			Bucket:   stock.Bucket{Kind: stock.Material, ItemID: l.MaterialID, WarehouseID: m.WarehouseID, PositionID: l.PositionID, BatchNo: l.BatchNo},
			ItemCode: l.MaterialCode, DetailID: l.ID, TxType: tt, Qty: l.DiffQty,
		})
	}
	if len(p.Lines) > 0 {
		if _, err := d.s.stock.Post(ctx, tx, p); err != nil {
			return err
		}
	}
	return res.SetFields(ctx, tx, []*MaterialCheck{m}, map[string]any{"checkStatus": CheckAdjusted, "adjustedAt": wire.Now()})
}
