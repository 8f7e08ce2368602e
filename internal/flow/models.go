package flow

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
)

// Instance statuses.
const (
	Running  = "running"
	Approved = "approved"
	Rejected = "rejected"
	Deleted  = "deleted"
)

// Task statuses.
const (
	TaskOpen      = 1
	TaskDone      = 2
	TaskCancelled = 3
)

// Definition suspension states (dictionary suspension_state).
const (
	Active    = 1
	Suspended = 2
)

// Model is a process being drawn.
type Model struct {
	bun.BaseModel `bun:"table:bb_flow_model"`
	ID            wire.ID   `bun:"id,pk" json:"id"`
	TenantID      string    `bun:"tenant_id" json:"tenantId"`
	CreateUser    wire.ID   `bun:"create_user" json:"createUser"`
	CreateDept    wire.ID   `bun:"create_dept" json:"-"`
	CreateTime    wire.Time `bun:"create_time" json:"createTime"`
	UpdateUser    wire.ID   `bun:"update_user" json:"updateUser"`
	UpdateTime    wire.Time `bun:"update_time" json:"updateTime"`
	Status        int       `bun:"status" json:"-"`
	IsDeleted     int       `bun:"is_deleted" json:"-"`
	RowVersion    int       `bun:"version" json:"-"`
	ModelKey      string    `bun:"model_key" json:"modelKey"`
	Name          string    `bun:"name" json:"name"`
	Description   string    `bun:"description" json:"description"`
	Category      string    `bun:"category" json:"category"`
	Version       int       `bun:"model_version" json:"version"`
	XML           string    `bun:"xml" json:"xml,omitempty"`
}

// Definition is one deployed version of a process.
type Definition struct {
	bun.BaseModel   `bun:"table:bb_flow_definition"`
	ID              wire.ID   `bun:"id,pk"`
	TenantID        string    `bun:"tenant_id"`
	CreateUser      wire.ID   `bun:"create_user"`
	CreateDept      wire.ID   `bun:"create_dept"`
	CreateTime      wire.Time `bun:"create_time"`
	UpdateUser      wire.ID   `bun:"update_user"`
	UpdateTime      wire.Time `bun:"update_time"`
	Status          int       `bun:"status"`
	IsDeleted       int       `bun:"is_deleted"`
	RowVersion      int       `bun:"version"`
	DeploymentID    wire.ID   `bun:"deployment_id"`
	Key             string    `bun:"def_key"`
	Name            string    `bun:"name"`
	Version         int       `bun:"def_version"`
	Category        string    `bun:"category"`
	ResourceName    string    `bun:"resource_name"`
	SuspensionState int       `bun:"suspension_state"`
	TenantIDs       string    `bun:"tenant_ids"`
	DeployTime      wire.Time `bun:"deploy_time"`
	XML             string    `bun:"xml"`
}

// Instance is one run of a definition.
type Instance struct {
	bun.BaseModel `bun:"table:bb_flow_instance"`
	ID            wire.ID   `bun:"id,pk"`
	TenantID      string    `bun:"tenant_id"`
	DefinitionID  wire.ID   `bun:"definition_id"`
	DefKey        string    `bun:"def_key"`
	DefName       string    `bun:"def_name"`
	DefVersion    int       `bun:"def_version"`
	Category      string    `bun:"category"`
	BusinessKey   string    `bun:"business_key"`
	BusinessTable string    `bun:"business_table"`
	BusinessID    wire.ID   `bun:"business_id"`
	Title         string    `bun:"title"`
	Initiator     wire.ID   `bun:"initiator"`
	Status        string    `bun:"status"`
	StartTime     wire.Time `bun:"start_time"`
	EndTime       wire.Time `bun:"end_time,nullzero"`
	DeleteReason  string    `bun:"delete_reason"`
	Flows         string    `bun:"flows"`
	Version       int       `bun:"version"`
}

// Task is one user task.
type Task struct {
	bun.BaseModel `bun:"table:bb_flow_task"`
	ID            wire.ID   `bun:"id,pk"`
	TenantID      string    `bun:"tenant_id"`
	InstanceID    wire.ID   `bun:"instance_id"`
	ExecutionID   wire.ID   `bun:"execution_id"`
	ActivityID    string    `bun:"activity_id"`
	Name          string    `bun:"name"`
	Assignee      wire.ID   `bun:"assignee"`
	Status        int       `bun:"status"`
	LoopIndex     int       `bun:"loop_index"`
	CreateTime    wire.Time `bun:"create_time"`
	ClaimTime     wire.Time `bun:"claim_time,nullzero"`
	EndTime       wire.Time `bun:"end_time,nullzero"`
	Comment       string    `bun:"comment"`
	Pass          int       `bun:"pass"`
	Version       int       `bun:"version"`
}

// Execution is a join counting arrivals or a multi-instance task counting completions.
type Execution struct {
	bun.BaseModel `bun:"table:bb_flow_execution"`
	ID            wire.ID `bun:"id,pk"`
	TenantID      string  `bun:"tenant_id"`
	InstanceID    wire.ID `bun:"instance_id"`
	ActivityID    string  `bun:"activity_id"`
	Kind          string  `bun:"kind"`
	Arrived       int     `bun:"arrived"`
	Total         int     `bun:"total"`
	Completed     int     `bun:"completed"`
	Approved      int     `bun:"approved"`
	NextIndex     int     `bun:"next_index"`
	Collection    string  `bun:"collection"`
}

// Variable is one process variable, its value as JSON.
type Variable struct {
	bun.BaseModel `bun:"table:bb_flow_variable"`
	ID            wire.ID `bun:"id,pk"`
	TenantID      string  `bun:"tenant_id"`
	InstanceID    wire.ID `bun:"instance_id"`
	Name          string  `bun:"name"`
	Value         string  `bun:"value"`
}

// History is one activity an instance passed.
type History struct {
	bun.BaseModel `bun:"table:bb_flow_history"`
	ID            wire.ID   `bun:"id,pk"`
	TenantID      string    `bun:"tenant_id"`
	InstanceID    wire.ID   `bun:"instance_id"`
	TaskID        wire.ID   `bun:"task_id"`
	ActivityID    string    `bun:"activity_id"`
	ActivityName  string    `bun:"activity_name"`
	ActivityType  string    `bun:"activity_type"`
	Assignee      wire.ID   `bun:"assignee"`
	StartTime     wire.Time `bun:"start_time"`
	EndTime       wire.Time `bun:"end_time,nullzero"`
	DurationMS    int64     `bun:"duration_ms"`
	Comment       string    `bun:"comment"`
	Pass          int       `bun:"pass"`
	Seq           int       `bun:"seq"`
}

// Candidate is a candidate user or group of a task nobody has claimed.
type Candidate struct {
	bun.BaseModel `bun:"table:bb_flow_task_candidate"`
	ID            wire.ID `bun:"id,pk"`
	TenantID      string  `bun:"tenant_id"`
	TaskID        wire.ID `bun:"task_id"`
	UserID        wire.ID `bun:"user_id"`
	GroupAlias    string  `bun:"group_alias"`
}
