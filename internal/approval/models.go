// Package approval keeps the approval records of business rows (domain.md
// §3: tgprocess and its log) and gives resources their startProcess and
// cancellation commands. Where the tenant binds a process to the row type
// (flow_route dictionary) the workflow engine runs it (workflow.go);
// elsewhere a submission is approved at once and its record says so.
package approval

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Audit status, dictionary audit_status: the Base status of every row with
// an approval lifecycle.
const (
	Draft      = 1
	InApproval = 2
	Approved   = 3
	Rejected   = 4
	Voided     = 5
)

// Process status, dictionary tgprocess_status.
const (
	ProcessRunning    = 1
	ProcessApproved   = 2
	ProcessRejected   = 3
	ProcessWithdrawn  = 4
	ProcessTerminated = 5
)

// Log actions, dictionary approval_action.
const (
	ActionSubmit    = 1
	ActionApprove   = 2
	ActionReject    = 3
	ActionWithdraw  = 4
	ActionTerminate = 5
)

// Process is one submission of a row for approval.
type Process struct {
	bun.BaseModel `bun:"table:bb_tgprocess"`
	resource.Base
	ProcessNo     string    `bun:"process_no" json:"processNo" f:"label=流程编号|Process no.;ro;search;sort"`
	BizType       string    `bun:"biz_type" json:"bizType" f:"label=业务类型|Business type;ro;search;filter=equal;sort"`
	BizID         wire.ID   `bun:"biz_id" json:"bizId" f:"label=业务ID|Record ID;type=id;ro;hide"`
	BizNo         string    `bun:"biz_no" json:"bizNo" f:"label=业务单号|Record no.;ro;search;sort"`
	Title         string    `bun:"title" json:"title" f:"label=标题|Title;ro;max=200;search"`
	InitiatorID   wire.ID   `bun:"initiator_id" json:"initiatorId" f:"label=发起人|Initiator;type=id;ro;hide"`
	StartTime     wire.Time `bun:"start_time" json:"startTime" f:"label=开始时间|Started at;ro;sort"`
	EndTime       wire.Time `bun:"end_time" json:"endTime" f:"label=结束时间|Ended at;ro;sort"`
	ProcessStatus int       `bun:"process_status" json:"processStatus" f:"label=流程状态|Process status;ro;dict=tgprocess_status;search"`
	CurrentNode   string    `bun:"current_node" json:"currentNode" f:"label=当前节点|Current step;ro"`
	// ProcessInstanceID is the workflow instance (0 when approved at once).
	ProcessInstanceID wire.ID      `bun:"process_instance_id" json:"processInstanceId" f:"label=流程实例|Process instance;type=id;ro;hide"`
	Remark            string       `bun:"remark" json:"remark" f:"label=备注|Remark;max=500;type=text"`
	Logs              []ProcessLog `bun:"-" json:"details"`
}

// ProcessLog is one step of a process.
type ProcessLog struct {
	bun.BaseModel `bun:"table:bb_tgprocess_log"`
	resource.Base
	ProcessID  wire.ID   `bun:"process_id" json:"processId" f:"label=流程|Process;type=id;ro;hide"`
	NodeName   string    `bun:"node_name" json:"nodeName" f:"label=节点|Step;ro"`
	Action     int       `bun:"action" json:"action" f:"label=动作|Action;ro;dict=approval_action"`
	OperatorID wire.ID   `bun:"operator_id" json:"operatorId" f:"label=操作人|Operator;type=id;ro;hide"`
	Comment    string    `bun:"comment" json:"comment" f:"label=意见|Comment;ro;max=500"`
	ActedAt    wire.Time `bun:"acted_at" json:"actedAt" f:"label=时间|At;ro"`
}
