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
		Columns: []resource.PickerColumn{
			{Fields: []string{"positionKey", "positionName"}, Label: i18n.T("库位", "Location"), Width: 200},
			{Fields: []string{"batchNo"}, Label: i18n.T("批次号", "Batch no."), Width: 140},
			{Fields: []string{"productionDate"}, Label: i18n.T("生产日期", "Production date"), Width: 120},
			{Fields: []string{"expiryDate"}, Label: i18n.T("有效期至", "Expiry date"), Width: 120},
			{Fields: []string{"availableQty"}, Label: i18n.T("可用数量", "Available"), Scale: 6, Unit: "unit", Width: 150},
		},
		When: when,
	}
}

// returnPicker is the picker of a return's lines: the issue lines of the
// return's production plan (or, for another return, of any issue) that may
// still give something back; each ticked becomes a line with the issue
// line's material, batch and returnable quantity, in the material's base
// unit (the returnable quantity's), shown by its issue's number.
func returnPicker() *resource.LinePicker {
	return &resource.LinePicker{
		Kind:     "lines",
		URL:      "/api" + FromPlanPath,
		Header:   map[string]string{"backType": "backType"},
		Optional: map[string]string{"producePlanId": "producePlanId"},
		Key:      "sourceOutDetailId",
		Search:   "keyword",
		Fill: map[string]string{"sourceOutDetailId": "sourceOutDetailId", "materialId": "materialId", "batchNo": "batchNo",
			"unit": "baseUnit", "qty": "returnableQty"},
		Shown:     map[string]string{"sourceOutDetailId": "sourceDocNo"},
		Qty:       "qty",
		Available: "returnableQty",
		Unit:      "unit",
		Columns: []resource.PickerColumn{
			{Fields: []string{"sourceDocNo"}, Label: i18n.T("出库单号", "Issue no."), Width: 170},
			{Fields: []string{"materialCode", "materialName"}, Label: i18n.T("物料", "Material"), Width: 220},
			{Fields: []string{"spec"}, Label: i18n.T("规格", "Specification"), Width: 110},
			{Fields: []string{"batchNo"}, Label: i18n.T("批次号", "Batch no."), Width: 130},
			{Fields: []string{"baseQty"}, Label: i18n.T("出库数量", "Issued"), Scale: 6, Unit: "baseUnit", Width: 130},
			{Fields: []string{"returnableQty"}, Label: i18n.T("可退数量", "Returnable"), Scale: 6, Unit: "baseUnit", Width: 130},
		},
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
