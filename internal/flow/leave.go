package flow

import (
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// The leave request of blade-desk: the reference process (api-contract.md
// §7). It starts the leave process (key leave) with the days and the first
// approver; over 3 days a tenant administrator approves too.

// LeaveTable is the leave requests' table and business-key prefix.
const LeaveTable = "bb_leave"

// Leave is a leave request.
type Leave struct {
	bun.BaseModel       `bun:"table:bb_leave"`
	ID                  wire.ID      `bun:"id,pk" json:"id"`
	TenantID            string       `bun:"tenant_id" json:"tenantId"`
	CreateUser          wire.ID      `bun:"create_user" json:"createUser"`
	CreateDept          wire.ID      `bun:"create_dept" json:"createDept"`
	CreateTime          wire.Time    `bun:"create_time" json:"createTime"`
	UpdateUser          wire.ID      `bun:"update_user" json:"-"`
	UpdateTime          wire.Time    `bun:"update_time" json:"-"`
	Status              int          `bun:"status" json:"status"`
	IsDeleted           int          `bun:"is_deleted" json:"-"`
	Version             int          `bun:"version" json:"-"`
	ProcessDefinitionID wire.ID      `bun:"process_definition_id" json:"processDefinitionId"`
	ProcessInstanceID   wire.ID      `bun:"process_instance_id" json:"processInstanceId"`
	StartTime           wire.Time    `bun:"start_time" json:"startTime"`
	EndTime             wire.Time    `bun:"end_time" json:"endTime"`
	Days                wire.Decimal `bun:"days" json:"days"`
	Reason              string       `bun:"reason" json:"reason"`
	TaskUser            wire.ID      `bun:"task_user" json:"taskUser"`
	TaskUserName        string       `bun:"-" json:"taskUserName"`
	ApplyTime           wire.Time    `bun:"apply_time" json:"applyTime"`
	ProcessStatus       string       `bun:"-" json:"processStatus"`
}

var (
	msgLeaveDates   = i18n.T("请填写开始时间和结束时间, 结束时间不能早于开始时间", "Give a start and an end time; the end cannot be before the start")
	msgLeaveDays    = i18n.T("请假天数必须大于0且不超过365, 最多2位小数", "The days must be more than 0 and at most 365, with at most 2 decimals")
	msgLeaveReason  = i18n.T("请填写请假理由(最多500字)", "Give a reason (at most 500 characters)")
	msgLeaveUser    = i18n.T("请选择本租户的审批人", "Choose an approver of your tenant")
	msgLeaveStarted = i18n.T("请假流程已发起", "The leave request was submitted")
	msgNoLeave      = i18n.T("请假单不存在", "No such leave request")
)

// LeaveRequest is the body of start-process.
type LeaveRequest struct {
	StartTime wire.Time    `json:"startTime"`
	EndTime   wire.Time    `json:"endTime"`
	Days      wire.Decimal `json:"days"`
	Reason    string       `json:"reason"`
	TaskUser  string       `json:"taskUser"`
}

func (s *Service) handleLeaveStart(r *http.Request) (any, error) {
	ctx := r.Context()
	var req LeaveRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return nil, err
	}
	req.Reason = strings.TrimSpace(req.Reason)
	if req.StartTime.IsZero() || req.EndTime.IsZero() || req.EndTime.Before(req.StartTime.Time) {
		return nil, httpx.BadRequest(msgLeaveDates)
	}
	days, ok := req.Days.Rescale(2)
	if req.Days.IsNull() || !ok || days.Sign() <= 0 || days.Cmp(wire.DecimalFromInt(365)) > 0 {
		return nil, httpx.BadRequest(msgLeaveDays)
	}
	if req.Reason == "" || len([]rune(req.Reason)) > 500 {
		return nil, httpx.BadRequest(msgLeaveReason)
	}
	taskUser, err := wire.ParseID(strings.TrimPrefix(strings.TrimSpace(req.TaskUser), "taskUser_"))
	if err != nil || taskUser <= 0 {
		return nil, httpx.BadRequest(msgLeaveUser)
	}
	p := authz.From(ctx)
	now := wire.Now()
	leave := &Leave{ID: db.NewID(), TenantID: p.TenantID, CreateUser: p.UserID, CreateDept: p.DeptID, CreateTime: now,
		UpdateUser: p.UserID, UpdateTime: now, Status: 1, Version: 1, StartTime: req.StartTime, EndTime: req.EndTime,
		Days: days, Reason: req.Reason, TaskUser: taskUser, ApplyTime: now}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		ok, err := tx.NewSelect().Table("blade_user").Where("id = ? AND tenant_id = ? AND is_deleted = 0", taskUser, p.TenantID).Exists(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return httpx.BadRequest(msgLeaveUser)
		}
		if _, err := tx.NewInsert().Model(leave).Exec(ctx); err != nil {
			return err
		}
		n, _ := days.Rescale(2)
		inst, err := s.Engine.Start(ctx, tx, StartInput{TenantID: p.TenantID, Key: "leave", BusinessTable: LeaveTable, BusinessID: leave.ID,
			Title: "请假 " + n.String() + " 天", Initiator: p.UserID,
			Vars: map[string]any{"days": decimalVar(days), "taskUser": taskUser.String(), "reason": req.Reason}})
		if err != nil {
			return err
		}
		leave.ProcessInstanceID, leave.ProcessDefinitionID = inst.ID, inst.DefinitionID
		_, err = tx.NewUpdate().Model(leave).Column("process_instance_id", "process_definition_id").WherePK().Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgLeaveStarted, Data: leave}, nil
}

// decimalVar is a decimal as a number variable (expr compares numbers).
func decimalVar(d wire.Decimal) any {
	return decodeValue(d.String())
}

func (s *Service) handleLeaveDetail(r *http.Request) (any, error) {
	ctx := r.Context()
	id, err := httpx.QueryID(r, "businessId")
	if err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	leave := new(Leave)
	if err := s.DB.NewSelect().Model(leave).Where("id = ? AND tenant_id = ? AND is_deleted = 0", id, p.TenantID).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &httpx.Error{Status: 404, Msg: msgNoLeave}
		}
		return nil, err
	}
	inst, err := s.instance(ctx, p.TenantID, leave.ProcessInstanceID)
	if err != nil {
		return nil, err
	}
	if leave.CreateUser != p.UserID {
		if ok, err := s.canSee(ctx, s.DB, inst); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			return nil, &httpx.Error{Status: 404, Msg: msgNoLeave}
		}
	}
	leave.ProcessStatus = inst.Status
	_ = s.DB.NewSelect().Table("blade_user").Column("real_name").Where("id = ?", leave.TaskUser).Scan(ctx, &leave.TaskUserName)
	return leave, nil
}
