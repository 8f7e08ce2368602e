package flow

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Mount routes blade-flow (api-contract.md §7 and /work/FLOW-API.md). The
// work lists serve any signed-in user their own tasks; models, the
// manager, deployment and follow need their menus' buttons.
func (s *Service) Mount(r chi.Router) {
	get := func(path string, h httpx.HandlerFunc) { r.Get("/blade-flow/"+path, httpx.Handle(signedIn(h))) }
	post := func(path string, h httpx.HandlerFunc) { r.Post("/blade-flow/"+path, httpx.Handle(signedIn(h))) }
	get("work/start-list", s.handleStartList)
	get("work/claim-list", s.taskList(listClaim))
	get("work/todo-list", s.taskList(listTodo))
	get("work/send-list", s.handleSendList)
	get("work/done-list", s.taskList(listDone))
	get("work/todo-count", s.handleTodoCount)
	get("work/task-detail", s.handleTaskDetail)
	post("work/start-process", s.handleStartProcess)
	post("work/claim-task", s.handleClaim)
	post("work/complete-task", s.handleComplete)
	get("model/list", s.handleModelList)
	get("model/detail", s.handleModelDetail)
	post("model/submit", s.handleModelSubmit)
	post("model/remove", s.handleModelRemove)
	post("model/deploy", s.handleModelDeploy)
	get("manager/list", s.handleManagerList)
	get("manager/definition-xml", s.handleDefinitionXML)
	post("manager/change-state", s.handleChangeState)
	post("manager/deploy-upload", s.handleDeployUpload)
	post("manager/delete-deployment", s.handleDeleteDeployment)
	get("manager/routes", s.handleRoutes)
	post("manager/bind", s.handleBind)
	get("follow/list", s.handleFollowList)
	post("follow/delete-process-instance", s.handleDeleteInstance)
	get("process/history-flow-list", s.handleHistory)
	get("process/diagram", s.handleDiagram)
	r.Post("/blade-desk/process/leave/start-process", httpx.Handle(signedIn(s.handleLeaveStart)))
	r.Get("/blade-desk/process/leave/detail", httpx.Handle(signedIn(s.handleLeaveDetail)))
}

func signedIn(h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(r *http.Request) (any, error) {
		if authz.From(r.Context()) == nil {
			return nil, httpx.ErrUnauthorized
		}
		return h(r)
	}
}

// TaskRow is a row of the work lists (api-contract.md §7).
type TaskRow struct {
	TaskID                   wire.ID        `bun:"task_id" json:"taskId"`
	TaskName                 string         `bun:"task_name" json:"taskName"`
	TaskDefinitionKey        string         `bun:"activity_id" json:"taskDefinitionKey"`
	Assignee                 wire.ID        `bun:"assignee" json:"assignee"`
	AssigneeName             string         `bun:"assignee_name" json:"assigneeName"`
	Category                 string         `bun:"category" json:"category"`
	CategoryName             string         `bun:"-" json:"categoryName"`
	CreateTime               wire.Time      `bun:"create_time" json:"createTime"`
	EndTime                  wire.Time      `bun:"end_time" json:"endTime"`
	ClaimTime                wire.Time      `bun:"claim_time" json:"claimTime"`
	ExecutionID              wire.ID        `bun:"execution_id" json:"executionId"`
	ProcessInstanceID        wire.ID        `bun:"instance_id" json:"processInstanceId"`
	ProcessDefinitionID      wire.ID        `bun:"definition_id" json:"processDefinitionId"`
	ProcessDefinitionKey     string         `bun:"def_key" json:"processDefinitionKey"`
	ProcessDefinitionName    string         `bun:"def_name" json:"processDefinitionName"`
	ProcessDefinitionVersion int            `bun:"def_version" json:"processDefinitionVersion"`
	ProcessIsFinished        string         `bun:"-" json:"processIsFinished"`
	InstanceStatus           string         `bun:"inst_status" json:"processStatus"`
	BusinessTable            string         `bun:"business_table" json:"businessTable"`
	BusinessID               wire.ID        `bun:"business_id" json:"businessId"`
	Status                   string         `bun:"-" json:"status"`
	Comment                  string         `bun:"comment" json:"comment"`
	Pass                     int            `bun:"pass" json:"-"`
	Title                    string         `bun:"title" json:"title"`
	StartUserID              wire.ID        `bun:"initiator" json:"startUserId"`
	StartUserName            string         `bun:"start_user_name" json:"startUserName"`
	StartTime                wire.Time      `bun:"start_time" json:"startTime"`
	Variables                map[string]any `bun:"-" json:"variables"`
}

type listKind int

const (
	listClaim listKind = iota
	listTodo
	listDone
)

var msgBadDate = i18n.T("日期格式错误: %s", "The date %s is not valid")

// taskFilter is the lists' filters: category, processDefinitionName,
// beginDate, endDate (on the task's creation, or its end for done tasks).
type taskFilter struct {
	category, name string
	from, to       wire.Time
}

// parseTaskFilter reads the filters of a list request once, for its rows
// and its total.
func parseTaskFilter(r *http.Request) (taskFilter, error) {
	v := r.URL.Query()
	f := taskFilter{category: strings.TrimSpace(v.Get("category")), name: strings.TrimSpace(v.Get("processDefinitionName"))}
	for _, d := range []struct {
		name string
		at   *wire.Time
	}{{"beginDate", &f.from}, {"endDate", &f.to}} {
		s := strings.TrimSpace(v.Get(d.name))
		if s == "" {
			continue
		}
		t, err := wire.ParseTime(s)
		if err != nil {
			return f, httpx.BadRequest(msgBadDate.Format(d.name))
		}
		if d.name == "endDate" && len(s) == 10 {
			t.Time = t.AddDate(0, 0, 1).Add(-1)
		}
		*d.at = t
	}
	return f, nil
}

// onInstance: a filter reads the instance (alias i).
func (f taskFilter) onInstance() bool { return f.category != "" || f.name != "" }

// empty: no filter at all.
func (f taskFilter) empty() bool { return !f.onInstance() && f.from.IsZero() && f.to.IsZero() }

// apply restricts q (task alias t, instance alias i) to the filters, the
// dates on timeCol.
func (f taskFilter) apply(q *bun.SelectQuery, timeCol string) *bun.SelectQuery {
	if f.category != "" {
		q = q.Where("i.category = ?", f.category)
	}
	if f.name != "" {
		q = q.Where("i.def_name LIKE ? ESCAPE '\\'", "%"+db.EscapeLike(f.name)+"%")
	}
	if !f.from.IsZero() {
		q = q.Where(timeCol+" >= ?", f.from)
	}
	if !f.to.IsZero() {
		q = q.Where(timeCol+" <= ?", f.to)
	}
	return q
}

// taskSelect is the task row query (alias t for the task, i the instance).
func (s *Service) taskSelect(idb bun.IDB, tenantID string) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("bb_flow_task AS t").
		Join("JOIN bb_flow_instance AS i ON i.id = t.instance_id AND i.tenant_id = t.tenant_id").
		Join("LEFT JOIN blade_user AS u ON u.id = t.assignee").
		Join("LEFT JOIN blade_user AS su ON su.id = i.initiator").
		ColumnExpr("t.id AS task_id, t.name AS task_name, t.activity_id, t.assignee, COALESCE(u.real_name, '') AS assignee_name").
		ColumnExpr("i.category, t.create_time, t.end_time, t.claim_time, t.execution_id, t.instance_id, i.definition_id, i.def_key, i.def_name, i.def_version").
		ColumnExpr("i.status AS inst_status, i.business_table, i.business_id, t.comment, t.pass, i.title, i.initiator, COALESCE(su.real_name, '') AS start_user_name, i.start_time").
		Where("t.tenant_id = ?", tenantID)
}

func (s *Service) taskList(kind listKind) httpx.HandlerFunc {
	return func(r *http.Request) (any, error) {
		ctx := r.Context()
		p := authz.From(ctx)
		pg, err := httpx.ParsePaging(r.URL.Query())
		if err != nil {
			return nil, err
		}
		timeCol, status := "t.create_time", "todo"
		switch kind {
		case listClaim:
			status = "claim"
		case listDone:
			timeCol, status = "t.end_time", "finish"
		}
		f, err := parseTaskFilter(r)
		if err != nil {
			return nil, err
		}
		q := f.apply(kind.where(s.taskSelect(s.DB, p.TenantID), actorOf(p)), timeCol)
		var rows []TaskRow
		if err := q.OrderExpr("t.id DESC").Limit(int64(pg.Size)).Offset(int64(pg.Offset())).Scan(ctx, &rows); err != nil {
			return nil, err
		}
		total, err := s.countTasks(ctx, kind, actorOf(p), f, timeCol)
		if err != nil {
			return nil, err
		}
		names := s.categoryNames(ctx)
		for i := range rows {
			rows[i].finish(names, status)
		}
		return httpx.NewPage(rows, total, pg.Current, pg.Size), nil
	}
}

// where restricts a query on tasks (alias t) to the list's tasks. The claim
// list asks, task by task in id order, whether the caller is a candidate,
// so a page stops at its size (ix_flow_task_list) instead of first
// collecting every task the caller's roles may claim.
func (kind listKind) where(q *bun.SelectQuery, a Actor) *bun.SelectQuery {
	switch kind {
	case listTodo:
		return q.Where("t.assignee = ? AND t.status = ?", a.UserID, TaskOpen)
	case listClaim:
		return q.Where("t.assignee = 0 AND t.status = ?", TaskOpen).
			Where("EXISTS (?)", candidateMatch(q.DB(), a, "1").Where("c.task_id = t.id"))
	default:
		return q.Where("t.assignee = ? AND t.status = ?", a.UserID, TaskDone)
	}
}

// claimTotal counts the tasks a may claim from the candidate rows. A task
// has one row per candidate user and one per group, so the rows of one of
// a's keys (the user, or one role) are distinct tasks: when at most one key
// has rows, their count (an index range) is the total. Only when two keys
// have rows can a task be met twice, and then the rows are counted DISTINCT,
// which costs a temporary B-tree over all of them.
func claimTotal(ctx context.Context, idb bun.IDB, a Actor) (int64, error) {
	var total int64
	keysWithRows := 0
	count := func(column string, key any) error {
		n, err := idb.NewSelect().TableExpr("bb_flow_task_candidate AS c").Where("c.tenant_id = ?", a.TenantID).
			Where("c."+column+" = ?", key).Count(ctx)
		if n > 0 {
			total += int64(n)
			keysWithRows++
		}
		return err
	}
	if err := count("user_id", a.UserID); err != nil {
		return 0, err
	}
	for _, g := range a.Groups {
		if err := count("group_alias", g); err != nil {
			return 0, err
		}
	}
	if keysWithRows <= 1 {
		return total, nil
	}
	var n int64
	err := candidateMatch(idb, a, "COUNT(DISTINCT c.task_id)").Scan(ctx, &n)
	return n, err
}

// countTasks is a list's total, counted without the joins of its rows: the
// instance only when a filter is on it, and an unfiltered claim list from
// the candidates alone (a task has candidates only while it is open and
// unclaimed, see bb_flow_task_candidate).
func (s *Service) countTasks(ctx context.Context, kind listKind, a Actor, f taskFilter, timeCol string) (int64, error) {
	if kind == listClaim && f.empty() {
		return claimTotal(ctx, s.DB, a)
	}
	q := s.DB.NewSelect().TableExpr("bb_flow_task AS t").Where("t.tenant_id = ?", a.TenantID)
	if f.onInstance() {
		q = q.Join("JOIN bb_flow_instance AS i ON i.id = t.instance_id AND i.tenant_id = t.tenant_id")
	}
	return f.apply(kind.where(q, a), timeCol).Count(ctx)
}

func (row *TaskRow) finish(names map[string]string, status string) {
	row.CategoryName = names[row.Category]
	row.ProcessIsFinished = "unfinished"
	if row.InstanceStatus != Running {
		row.ProcessIsFinished = "finished"
	}
	row.Status = status
	if row.Variables == nil {
		row.Variables = map[string]any{}
	}
}

// categoryNames are the labels of the flow dictionary in the caller's language.
func (s *Service) categoryNames(ctx context.Context) map[string]string {
	var rows []struct {
		Key   string `bun:"dict_key"`
		Value string `bun:"dict_value"`
		En    string `bun:"dict_value_en"`
	}
	_ = s.DB.NewSelect().Table("blade_dict").Column("dict_key", "dict_value", "dict_value_en").
		Where("code = 'flow' AND parent_id <> 0 AND is_deleted = 0").Scan(ctx, &rows)
	out := make(map[string]string, len(rows))
	en := i18n.From(ctx) == i18n.En
	for _, r := range rows {
		out[r.Key] = r.Value
		if en && r.En != "" {
			out[r.Key] = r.En
		}
	}
	return out
}

// handleSendList: the instances the caller started, as task rows whose
// taskName is the open tasks' names.
func (s *Service) handleSendList(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	pg, err := httpx.ParsePaging(r.URL.Query())
	if err != nil {
		return nil, err
	}
	q := s.DB.NewSelect().TableExpr("bb_flow_instance AS i").
		Join("LEFT JOIN blade_user AS su ON su.id = i.initiator").
		ColumnExpr("i.id AS instance_id, i.category, i.start_time AS create_time, i.end_time, i.definition_id, i.def_key, i.def_name, i.def_version").
		ColumnExpr("i.status AS inst_status, i.business_table, i.business_id, i.title, i.initiator, COALESCE(su.real_name, '') AS start_user_name, i.start_time").
		Where("i.tenant_id = ? AND i.initiator = ?", p.TenantID, p.UserID)
	f, err := parseTaskFilter(r)
	if err != nil {
		return nil, err
	}
	q = f.apply(q, "i.start_time")
	var rows []TaskRow
	total, err := q.OrderExpr("i.id DESC").Limit(int64(pg.Size)).Offset(int64(pg.Offset())).ScanAndCount(ctx, &rows)
	if err != nil {
		return nil, err
	}
	if err := s.openTaskNames(ctx, p.TenantID, rows); err != nil {
		return nil, err
	}
	names := s.categoryNames(ctx)
	for i := range rows {
		status := "todo"
		if rows[i].InstanceStatus != Running {
			status = "finish"
		}
		rows[i].finish(names, status)
	}
	return httpx.NewPage(rows, int64(total), pg.Current, pg.Size), nil
}

// openTaskNames fills the rows' taskName with their instances' open tasks.
func (s *Service) openTaskNames(ctx context.Context, tenantID string, rows []TaskRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = rows[i].ProcessInstanceID
	}
	var open []struct {
		InstanceID wire.ID `bun:"instance_id"`
		Name       string  `bun:"name"`
	}
	if err := s.DB.NewSelect().Table("bb_flow_task").Column("instance_id", "name").
		Where("tenant_id = ? AND instance_id IN (?) AND status = ?", tenantID, bun.In(ids), TaskOpen).OrderExpr("id").Scan(ctx, &open); err != nil {
		return err
	}
	by := map[wire.ID][]string{}
	for _, o := range open {
		if names := by[o.InstanceID]; len(names) == 0 || names[len(names)-1] != o.Name {
			by[o.InstanceID] = append(names, o.Name)
		}
	}
	for i := range rows {
		rows[i].TaskName = strings.Join(by[rows[i].ProcessInstanceID], ",")
	}
	return nil
}

// handleTodoCount: the top bar's badge.
func (s *Service) handleTodoCount(r *http.Request) (any, error) {
	ctx, a := r.Context(), actorOf(authz.From(r.Context()))
	f, err := parseTaskFilter(r)
	if err != nil {
		return nil, err
	}
	todo, err := s.countTasks(ctx, listTodo, a, f, "t.create_time")
	if err != nil {
		return nil, err
	}
	claim, err := s.countTasks(ctx, listClaim, a, f, "t.create_time")
	if err != nil {
		return nil, err
	}
	return map[string]int64{"todo": todo, "claim": claim}, nil
}

// TaskDetail is a task with what the screen needs to open its document.
type TaskDetail struct {
	TaskRow
	TaskStatus int               `json:"taskStatus"`
	Resource   *BusinessResource `json:"resource"`
}

// BusinessResource names the resource of a business table.
type BusinessResource struct {
	Service  string `json:"service"`
	Name     string `json:"name"`
	MenuCode string `json:"menuCode"`
	MenuPath string `json:"menuPath"`
}

var msgNoTask = i18n.T("任务不存在", "No such task")

// handleTaskDetail: a task the caller may act on or has done, or any task
// of an instance they may see.
func (s *Service) handleTaskDetail(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	id, err := httpx.QueryID(r, "taskId")
	if err != nil {
		return nil, err
	}
	var rows []TaskRow
	var st struct {
		Status int `bun:"status"`
	}
	if err := s.taskSelect(s.DB, p.TenantID).Where("t.id = ?", id).Limit(1).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, &httpx.Error{Status: 404, Msg: msgNoTask}
	}
	if err := s.DB.NewSelect().Table("bb_flow_task").Column("status").Where("id = ? AND tenant_id = ?", id, p.TenantID).Scan(ctx, &st); err != nil {
		return nil, err
	}
	inst, err := s.instance(ctx, p.TenantID, rows[0].ProcessInstanceID)
	if err != nil {
		return nil, err
	}
	row := rows[0]
	mine := row.Assignee == p.UserID
	if !mine && row.Assignee == 0 && st.Status == TaskOpen {
		if mine, err = s.Engine.isCandidate(ctx, s.DB, actorOf(p), id); err != nil {
			return nil, err
		}
	}
	if !mine {
		if ok, err := s.canSee(ctx, s.DB, inst); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			return nil, &httpx.Error{Status: 404, Msg: msgNoTask}
		}
	}
	status := map[int]string{TaskOpen: "todo", TaskDone: "finish", TaskCancelled: "finish"}[st.Status]
	if st.Status == TaskOpen && row.Assignee == 0 {
		status = "claim"
	}
	row.finish(s.categoryNames(ctx), status)
	if row.Variables, err = s.Engine.Variables(ctx, s.DB, inst.ID); err != nil {
		return nil, err
	}
	out := &TaskDetail{TaskRow: row, TaskStatus: st.Status}
	if b := s.business(row.BusinessTable); b != nil {
		out.Resource = &BusinessResource{Service: b.Service, Name: b.Name, MenuCode: b.MenuCode}
		_ = s.DB.NewSelect().Table("blade_menu").Column("path").Where("code = ? AND is_deleted = 0", b.MenuCode).Limit(1).Scan(ctx, &out.Resource.MenuPath)
	}
	return out, nil
}

func (s *Service) instance(ctx context.Context, tenantID string, id wire.ID) (*Instance, error) {
	inst := new(Instance)
	if err := s.DB.NewSelect().Model(inst).Where("id = ? AND tenant_id = ?", id, tenantID).Scan(ctx); err != nil {
		return nil, &httpx.Error{Status: 404, Msg: msgNoInstance}
	}
	return inst, nil
}

func (s *Service) handleClaim(r *http.Request) (any, error) {
	ctx := r.Context()
	id, err := httpx.FormIDs(r, "taskId")
	if err != nil {
		return nil, err
	}
	if len(id) != 1 {
		return nil, httpx.InvalidParam("taskId")
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error { return s.Engine.Claim(ctx, tx, actorOf(authz.From(ctx)), id[0]) })
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgClaimed, Data: true}, nil
}

var (
	msgClaimed     = i18n.T("签收成功", "Claimed")
	msgCompleted   = i18n.T("办理成功", "Done")
	msgAgree       = i18n.T("同意", "Agreed")
	msgBadFlag     = i18n.T("flag 只能是 ok 或 reject", "flag must be ok or reject")
	msgCommentLong = i18n.T("审批意见最多500字", "The comment may hold at most 500 characters")
	msgNeedComment = i18n.T("驳回时请填写审批意见", "Give a comment when rejecting")
	msgBadVars     = i18n.T("流程变量最多50个, 名称最多64个字符", "At most 50 variables, with names of at most 64 characters")
	msgWrongInst   = i18n.T("任务不属于该流程实例", "The task does not belong to that process instance")
)

// CompleteRequest is the body of complete-task.
type CompleteRequest struct {
	TaskID            wire.ID        `json:"taskId"`
	ProcessInstanceID wire.ID        `json:"processInstanceId"`
	Flag              string         `json:"flag"`
	Comment           string         `json:"comment"`
	Variables         map[string]any `json:"variables"`
}

func (s *Service) handleComplete(r *http.Request) (any, error) {
	ctx := r.Context()
	var req CompleteRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return nil, err
	}
	if req.TaskID <= 0 {
		return nil, httpx.MissingParam("taskId")
	}
	pass := req.Flag == "ok"
	switch {
	case req.Flag != "ok" && req.Flag != "reject":
		return nil, httpx.BadRequest(msgBadFlag)
	case len([]rune(req.Comment)) > 500:
		return nil, httpx.BadRequest(msgCommentLong)
	case !pass && strings.TrimSpace(req.Comment) == "":
		return nil, httpx.BadRequest(msgNeedComment)
	}
	if err := checkVars(req.Variables); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Comment) == "" {
		req.Comment = msgAgree.In(i18n.From(ctx))
	}
	p := authz.From(ctx)
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		if req.ProcessInstanceID != 0 {
			ok, err := tx.NewSelect().Table("bb_flow_task").Where("id = ? AND tenant_id = ? AND instance_id = ?", req.TaskID, p.TenantID, req.ProcessInstanceID).Exists(ctx)
			if err != nil {
				return err
			}
			if !ok {
				return httpx.BadRequest(msgWrongInst)
			}
		}
		_, err := s.Engine.Complete(ctx, tx, actorOf(p), CompleteInput{TaskID: req.TaskID, Pass: pass, Comment: strings.TrimSpace(req.Comment), Vars: req.Variables})
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgCompleted, Data: true}, nil
}

// StartRequest is the body of work/start-process: a process of the
// start list started without a business document.
type StartRequest struct {
	ProcessDefinitionID wire.ID        `json:"processDefinitionId"`
	Variables           map[string]any `json:"variables"`
}

var msgStarted = i18n.T("流程已发起", "The process was started")

func (s *Service) handleStartProcess(r *http.Request) (any, error) {
	ctx := r.Context()
	var req StartRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return nil, err
	}
	if req.ProcessDefinitionID <= 0 {
		return nil, httpx.MissingParam("processDefinitionId")
	}
	if err := checkVars(req.Variables); err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	var inst *Instance
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		var err error
		inst, err = s.Engine.Start(ctx, tx, StartInput{TenantID: p.TenantID, DefinitionID: req.ProcessDefinitionID, Initiator: p.UserID, Vars: req.Variables})
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgStarted, Data: map[string]any{"processInstanceId": inst.ID, "status": inst.Status}}, nil
}

// checkVars bounds the variables a request sets; initiator is the engine's.
func checkVars(vars map[string]any) error {
	if len(vars) > 50 {
		return httpx.BadRequest(msgBadVars)
	}
	for k := range vars {
		if k == "" || len(k) > 64 || k == "initiator" {
			return httpx.BadRequest(msgBadVars)
		}
	}
	return nil
}
