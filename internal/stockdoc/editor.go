package stockdoc

import (
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// What the stock documents' editor shows besides their fields (resource
// document.go), declared here once for every document: the FEFO bucket
// picker of an outbound document's lines, the document's ledger rows once
// it is posted, and its printout.

// stockPicker is the picker of lines taking stock out of the header's
// warehouse field: the available buckets of the line's material (and
// batch, when typed) in FEFO order (query.go's allDetail); picking fills
// the line's position field and batch. when limits it to some documents
// of the table (a borrow, not a return).
func stockPicker(warehouseField, positionField string, when *resource.States) *resource.LinePicker {
	return &resource.LinePicker{
		Kind:   "stock",
		URL:    "/api" + stockPath + "/allDetail",
		Header: map[string]string{"warehouseId": warehouseField},
		Match: []resource.PickerParam{
			{Param: "materialId", Field: "materialId"},
			{Param: "batchNo", Field: "batchNo"},
		},
		Fill:      map[string]string{positionField: "positionId", "batchNo": "batchNo"},
		Qty:       "qty",
		Available: "availableQty",
		Unit:      "unit",
		When:      when,
	}
}

var msgLedgerRows = i18n.T("库存流水", "Stock ledger")

// ledgerRows lists a document's stock ledger rows (bizType and bizId) on
// its detail view, for documents whose field is in one of the states that
// have posted.
func ledgerRows(bizType, field string, posted ...int) []resource.Related {
	return []resource.Related{{
		Label: msgLedgerRows, Resource: "bluebird-basic/stockledger", Path: "/api/bluebird-basic/stockledger/selectStockLedgerVOPage",
		Params: map[string]string{"bizType": bizType}, Key: "bizId",
		When: &resource.States{Field: field, Values: posted},
	}}
}

// postedStates are the stock statuses of a document that has ledger rows.
var postedStates = []int{Posted, Reversed}

var (
	signPrepared = i18n.T("制单", "Prepared by")
	signApproved = i18n.T("审核", "Approved by")
	signKeeper   = i18n.T("仓管", "Storekeeper")
	signReceiver = i18n.T("领料人", "Received by")
	signDeliver  = i18n.T("交货人", "Delivered by")
	signCounter  = i18n.T("盘点人", "Counted by")
)

// printouts: the signature boxes of documents handing stock out (issues,
// transfers, borrows), taking it in (receipts) and counting it.
var (
	printOutbound = &resource.Print{Signatures: []i18n.Text{signPrepared, signApproved, signKeeper, signReceiver}}
	printInbound  = &resource.Print{Signatures: []i18n.Text{signPrepared, signApproved, signKeeper, signDeliver}}
	printCount    = &resource.Print{Signatures: []i18n.Text{signPrepared, signApproved, signKeeper, signCounter}}
)
