package flow

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

var msgInstanceParam = i18n.T("请提供 processInstanceId 或 businessKey", "Give processInstanceId or businessKey")

// visibleInstance reads ?processInstanceId= or ?businessKey= (the latest
// instance of that key) and checks the caller may see it; what they may
// not see is the same 404 as what does not exist.
func (s *Service) visibleInstance(r *http.Request) (*Instance, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	inst := new(Instance)
	q := s.DB.NewSelect().Model(inst).Where("tenant_id = ?", p.TenantID)
	v := r.URL.Query()
	switch {
	case v.Get("processInstanceId") != "":
		id, err := httpx.QueryID(r, "processInstanceId")
		if err != nil {
			return nil, err
		}
		q = q.Where("id = ?", id)
	case strings.TrimSpace(v.Get("businessKey")) != "":
		key := strings.TrimSpace(v.Get("businessKey"))
		if len(key) > 128 || !strings.Contains(key, ":") {
			return nil, httpx.InvalidParam("businessKey")
		}
		q = q.Where("business_key = ?", key).OrderExpr("id DESC").Limit(1)
	default:
		return nil, httpx.BadRequest(msgInstanceParam)
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &httpx.Error{Status: 404, Msg: msgNoInstance}
		}
		return nil, err
	}
	ok, err := s.canSee(ctx, s.DB, inst)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &httpx.Error{Status: 404, Msg: msgNoInstance}
	}
	return inst, nil
}

// HistoryRow is one activity of history-flow-list.
type HistoryRow struct {
	HistoryActivityID           string    `bun:"activity_id" json:"historyActivityId"`
	HistoryActivityName         string    `bun:"activity_name" json:"historyActivityName"`
	HistoryActivityType         string    `bun:"activity_type" json:"historyActivityType"`
	Assignee                    wire.ID   `bun:"assignee" json:"assignee"`
	AssigneeName                string    `bun:"assignee_name" json:"assigneeName"`
	CreateTime                  wire.Time `bun:"start_time" json:"createTime"`
	EndTime                     wire.Time `bun:"end_time" json:"endTime"`
	DurationMS                  int64     `bun:"duration_ms" json:"-"`
	HistoryActivityDurationTime string    `bun:"-" json:"historyActivityDurationTime"`
	Comment                     string    `bun:"comment" json:"comment"`
	PassFlag                    int       `bun:"pass" json:"-"`
	Pass                        *bool     `bun:"-" json:"pass"`
	TaskID                      wire.ID   `bun:"task_id" json:"taskId"`
}

func (s *Service) history(ctx context.Context, inst *Instance) ([]HistoryRow, error) {
	var rows []HistoryRow
	err := s.DB.NewSelect().TableExpr("bb_flow_history AS h").Join("LEFT JOIN blade_user AS u ON u.id = h.assignee").
		ColumnExpr("h.activity_id, h.activity_name, h.activity_type, h.assignee, COALESCE(u.real_name, '') AS assignee_name").
		ColumnExpr("h.start_time, h.end_time, h.duration_ms, h.comment, h.pass, h.task_id").
		Where("h.tenant_id = ? AND h.instance_id = ?", inst.TenantID, inst.ID).OrderExpr("h.seq ASC, h.id ASC").Scan(ctx, &rows)
	lang := i18n.From(ctx)
	for i := range rows {
		r := &rows[i]
		if r.PassFlag >= 0 {
			b := r.PassFlag == 1
			r.Pass = &b
		}
		r.HistoryActivityDurationTime = duration(r.DurationMS, lang)
	}
	if rows == nil {
		rows = []HistoryRow{}
	}
	return rows, err
}

// duration spells milliseconds as 1天2小时3分4秒 / 1d 2h 3m 4s.
func duration(ms int64, lang i18n.Lang) string {
	sec := ms / 1000
	parts := []struct {
		n      int64
		zh, en string
	}{{sec / 86400, "天", "d"}, {sec % 86400 / 3600, "小时", "h"}, {sec % 3600 / 60, "分", "m"}, {sec % 60, "秒", "s"}}
	var b strings.Builder
	for _, p := range parts {
		if p.n == 0 && (b.Len() == 0 || p.en != "s") {
			continue
		}
		if lang == i18n.En {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(wire.ID(p.n).String() + p.en)
		} else {
			b.WriteString(wire.ID(p.n).String() + p.zh)
		}
	}
	if b.Len() == 0 {
		return map[bool]string{true: "0s", false: "0秒"}[lang == i18n.En]
	}
	return b.String()
}

func (s *Service) handleHistory(r *http.Request) (any, error) {
	inst, err := s.visibleInstance(r)
	if err != nil {
		return nil, err
	}
	return s.history(r.Context(), inst)
}

// Diagram is what the screens highlight on the process's diagram.
type Diagram struct {
	ProcessInstanceID wire.ID         `json:"processInstanceId"`
	XML               string          `json:"xml"`
	Finished          bool            `json:"finished"`
	Result            string          `json:"result"`
	Activities        []ActivityState `json:"activities"`
	Flows             []string        `json:"flows"`
}

// ActivityState is one activity's state: done, active or rejected.
type ActivityState struct {
	ActivityID string `json:"activityId"`
	State      string `json:"state"`
}

func (s *Service) handleDiagram(r *http.Request) (any, error) {
	ctx := r.Context()
	inst, err := s.visibleInstance(r)
	if err != nil {
		return nil, err
	}
	var def Definition
	if err := s.DB.NewSelect().Model(&def).Column("xml").Where("id = ?", inst.DefinitionID).Scan(ctx); err != nil {
		return nil, err
	}
	hist, err := s.history(ctx, inst)
	if err != nil {
		return nil, err
	}
	var open []string
	if err := s.DB.NewSelect().Table("bb_flow_task").Column("activity_id").
		Where("tenant_id = ? AND instance_id = ? AND status = ?", inst.TenantID, inst.ID, TaskOpen).Scan(ctx, &open); err != nil {
		return nil, err
	}
	d := &Diagram{ProcessInstanceID: inst.ID, XML: def.XML, Finished: inst.Status != Running, Result: inst.Status, Flows: []string{}}
	state := map[string]string{}
	var order []string
	mark := func(id, st string) {
		if _, ok := state[id]; !ok {
			order = append(order, id)
		}
		if state[id] != "rejected" && state[id] != "active" {
			state[id] = st
		}
	}
	for _, h := range hist {
		switch {
		case h.Pass != nil && !*h.Pass:
			mark(h.HistoryActivityID, "rejected")
		case !h.EndTime.IsZero():
			mark(h.HistoryActivityID, "done")
		}
	}
	for _, a := range open {
		mark(a, "active")
		state[a] = "active"
	}
	for _, id := range order {
		d.Activities = append(d.Activities, ActivityState{ActivityID: id, State: state[id]})
	}
	if d.Activities == nil {
		d.Activities = []ActivityState{}
	}
	if inst.Flows != "" {
		seen := map[string]bool{}
		for _, f := range strings.Split(inst.Flows, ",") {
			if !seen[f] {
				seen[f] = true
				d.Flows = append(d.Flows, f)
			}
		}
	}
	return d, nil
}
