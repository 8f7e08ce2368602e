package flow

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Engine runs processes. It holds nothing but caches: every state is in
// the tables, read and written inside the caller's transaction.
type Engine struct {
	DB    *db.DB
	ins   *inserters
	procs sync.Map // definition id → *Process (definitions never change)
	mu    sync.RWMutex
	ends  map[string]EndFunc
}

// EndFunc is told, inside the transaction that ended it, that an instance
// of its business table ended: result Approved, Rejected or Deleted.
type EndFunc func(ctx context.Context, tx bun.Tx, inst *Instance, result, comment string) error

// NewEngine returns an engine on d.
func NewEngine(d *db.DB) *Engine {
	return &Engine{DB: d, ins: newInserters(d), ends: map[string]EndFunc{}}
}

// OnEnd registers the callback of a business table's instances.
func (e *Engine) OnEnd(table string, fn EndFunc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ends[table] = fn
}

func (e *Engine) endFunc(table string) EndFunc {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.ends[table]
}

// Actor is who acts: a user of a tenant with their role aliases.
type Actor struct {
	UserID   wire.ID
	TenantID string
	Groups   []string
}

var (
	msgNotDeployed  = i18n.T("流程 %s 未部署到当前租户或已挂起", "The process %s is not deployed to this tenant or is suspended")
	msgSuspended    = i18n.T("流程已挂起, 不能发起", "The process is suspended and cannot be started")
	msgTaskGone     = i18n.T("任务不存在", "No such task")
	msgTaskDone     = i18n.T("任务已被处理, 请刷新列表", "The task has already been completed; reload the list")
	msgTaskTaken    = i18n.T("任务已被他人处理, 请刷新列表", "Someone else has just handled this task; reload the list")
	msgTaskClaimed  = i18n.T("任务已被他人签收", "Someone else has already claimed this task")
	msgNotYours     = i18n.T("您不是该任务的处理人或候选人", "You are neither the assignee nor a candidate of this task")
	msgNotRunning   = i18n.T("流程实例已结束", "The process instance has already ended")
	msgNoInstance   = i18n.T("流程实例不存在", "No such process instance")
	msgNoRoute      = i18n.T("网关 %s (%s) 没有满足条件的出口, 也没有默认连线", "No outgoing flow of gateway %s (%s) matches and it has no default flow")
	msgCondFailed   = i18n.T("连线 %s 的条件 %s 无法计算: %s", "Flow %s: the condition %s cannot be evaluated: %s")
	msgLoop         = i18n.T("流程在自动节点间循环, 已停止", "The process loops between automatic steps and was stopped")
	msgBadAssignee  = i18n.T("任务 %s 的处理人 %s 不是有效的用户", "Task %s: the assignee %s is not a valid user")
	msgBadPerformer = i18n.T("任务 %s 的表达式 %s 无法计算: %s", "Task %s: the expression %s cannot be evaluated: %s")
	msgNoPeople     = i18n.T("任务 %s 没有可处理的人", "Task %s resolves to nobody who could handle it")
	msgBadColl      = i18n.T("多实例任务 %s 的集合 %s 无效", "Multi-instance task %s: the collection %s is not valid")
	msgTooManyTasks = i18n.T("多实例任务 %s 最多200个实例", "Multi-instance task %s: at most 200 instances")
)

var errNotRunning = httpx.BadRequest(msgNotRunning)

// maxSteps bounds the automatic steps of one operation (gateway loops).
const maxSteps = 10000

// Process returns the parsed process of a definition. A deployed
// definition's XML never changes, so the parse is cached by id and the
// row is read only on a miss.
func (e *Engine) Process(ctx context.Context, idb bun.IDB, defID wire.ID) (*Process, error) {
	if p, ok := e.procs.Load(defID); ok {
		return p.(*Process), nil
	}
	var xml string
	if err := idb.NewSelect().Table("bb_flow_definition").Column("xml").Where("id = ?", defID).Scan(ctx, &xml); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.ErrNotFound
		}
		return nil, err
	}
	p, err := Parse([]byte(xml))
	if err != nil {
		return nil, err
	}
	e.procs.Store(defID, p)
	return p, nil
}

// LatestFor is the newest active definition of key deployed to tenant.
func (e *Engine) LatestFor(ctx context.Context, idb bun.IDB, tenantID, key string) (*Definition, error) {
	def := new(Definition)
	err := idb.NewSelect().Model(def).ExcludeColumn("xml").
		Where("is_deleted = 0 AND def_key = ?", key).
		Where("id IN (SELECT definition_id FROM bb_flow_definition_tenant WHERE tenant_id = ? AND def_key = ?)", tenantID, key).
		OrderExpr("def_version DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && def.SuspensionState != Active) {
		return nil, httpx.BadRequest(msgNotDeployed.Format(key))
	}
	return def, err
}

// StartInput starts an instance.
type StartInput struct {
	TenantID      string
	DefinitionID  wire.ID // or Key: the newest active version deployed to the tenant
	Key           string
	BusinessTable string
	BusinessID    wire.ID
	Title         string
	Initiator     wire.ID
	Vars          map[string]any
}

// Start starts an instance in tx and runs it to its first wait states.
func (e *Engine) Start(ctx context.Context, tx bun.Tx, in StartInput) (*Instance, error) {
	var def *Definition
	var err error
	if in.DefinitionID != 0 {
		def = new(Definition)
		err = tx.NewSelect().Model(def).ExcludeColumn("xml").Where("id = ? AND is_deleted = 0", in.DefinitionID).
			Where("id IN (SELECT definition_id FROM bb_flow_definition_tenant WHERE tenant_id = ?)", in.TenantID).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.ErrNotFound
		}
		if err == nil && def.SuspensionState != Active {
			return nil, httpx.BadRequest(msgSuspended)
		}
	} else {
		def, err = e.LatestFor(ctx, tx, in.TenantID, in.Key)
	}
	if err != nil {
		return nil, err
	}
	proc, err := e.Process(ctx, tx, def.ID)
	if err != nil {
		return nil, err
	}
	// the instance row is inserted by save, with where the start led
	inst := &Instance{ID: db.NewID(), TenantID: in.TenantID, DefinitionID: def.ID, DefKey: def.Key, DefName: def.Name,
		DefVersion: def.Version, Category: def.Category, BusinessTable: in.BusinessTable, BusinessID: in.BusinessID,
		Title: in.Title, Initiator: in.Initiator, Status: Running, StartTime: wire.Now(), Version: 1}
	if in.BusinessTable != "" {
		inst.BusinessKey = in.BusinessTable + ":" + in.BusinessID.String()
	}
	o := &op{e: e, ctx: ctx, tx: tx, inst: inst, proc: proc, vars: map[string]any{}, dirty: map[string]bool{}, now: wire.Now()}
	for k, v := range in.Vars {
		o.set(k, v)
	}
	o.set("initiator", in.Initiator.String())
	o.history(proc.Start, Actor{UserID: in.Initiator}, "", -1)
	if err := o.leave(proc.Start); err != nil {
		return nil, err
	}
	return inst, o.finish("")
}

// CompleteInput completes a task: Pass approves, otherwise it rejects.
type CompleteInput struct {
	TaskID  wire.ID
	Pass    bool
	Comment string
	Vars    map[string]any
}

// Complete completes a task as actor in tx. Of two completing one task at
// once exactly one wins: the task moves from open by a conditional update
// whose affected rows are checked, after the instance row is locked.
func (e *Engine) Complete(ctx context.Context, tx bun.Tx, actor Actor, in CompleteInput) (*Instance, error) {
	task, err := e.task(ctx, tx, actor.TenantID, in.TaskID)
	if err != nil {
		return nil, err
	}
	if task.Status != TaskOpen {
		return nil, httpx.BadRequest(msgTaskDone)
	}
	o, err := e.open(ctx, tx, actor.TenantID, task.InstanceID)
	if err == errNotRunning { // ended while we waited for its lock: by this very task, or a rejection
		return nil, httpx.BadRequest(msgTaskTaken)
	}
	if err != nil {
		return nil, err
	}
	if task.Assignee != 0 && task.Assignee != actor.UserID {
		return nil, &httpx.Error{Status: 403, Msg: msgNotYours}
	}
	pass := 0
	if in.Pass {
		pass = 1
	}
	args := []any{TaskDone, actor.UserID, o.now, in.Comment, pass, task.ID, actor.TenantID, TaskOpen, task.Version}
	if task.Assignee == 0 { // a candidate's: checked in the same statement
		args = append(args, actor.TenantID, actor.UserID)
		for _, g := range actor.Groups {
			args = append(args, g)
		}
	}
	res, err := completeTask(task.Assignee == 0, len(actor.Groups)).Exec(ctx, e.DB, tx, args...)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		// the task moved on meanwhile, or the actor is not its candidate
		now, err := e.task(ctx, tx, actor.TenantID, task.ID)
		if err != nil {
			return nil, err
		}
		if now.Status == TaskOpen && now.Version == task.Version {
			return nil, &httpx.Error{Status: 403, Msg: msgNotYours}
		}
		return nil, httpx.BadRequest(msgTaskTaken)
	}
	if task.Assignee == 0 { // candidates are kept only while nobody holds the task (Claim deletes them)
		task.ClaimTime = o.now
		if _, err := stmtDropCands.Exec(ctx, e.DB, tx, task.ID); err != nil {
			return nil, err
		}
	}
	task.Assignee = actor.UserID
	if err := o.closeHistory(task, actor.UserID, in.Comment, pass); err != nil {
		return nil, err
	}
	for k, v := range in.Vars {
		o.set(k, v)
	}
	if !in.Pass {
		return o.inst, o.end(Rejected, in.Comment)
	}
	node := o.proc.Nodes[task.ActivityID]
	if node == nil {
		return nil, fmt.Errorf("flow: task %d: activity %s not in definition %d", task.ID, task.ActivityID, o.inst.DefinitionID)
	}
	if task.ExecutionID != 0 {
		done, err := o.multiDone(node, task)
		if err != nil || !done {
			if err != nil {
				return nil, err
			}
			return o.inst, o.finish("")
		}
	}
	if err := o.leave(node); err != nil {
		return nil, err
	}
	return o.inst, o.finish(in.Comment)
}

// Claim makes actor the assignee of a task they are a candidate of.
func (e *Engine) Claim(ctx context.Context, tx bun.Tx, actor Actor, taskID wire.ID) error {
	now := wire.Now()
	q := tx.NewUpdate().Table("bb_flow_task").Set("assignee = ?", actor.UserID).Set("claim_time = ?", now).Set("version = version + 1").
		Where("id = ? AND tenant_id = ? AND status = ? AND assignee = 0", taskID, actor.TenantID, TaskOpen)
	q = q.Where("EXISTS (?)", candidateMatch(tx, actor, "1").Where("c.task_id = bb_flow_task.id"))
	res, err := q.Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		_, err = tx.NewDelete().Table("bb_flow_task_candidate").Where("task_id = ?", taskID).Exec(ctx)
		return err
	}
	task, err := e.task(ctx, tx, actor.TenantID, taskID)
	switch {
	case err != nil:
		return err
	case task.Status != TaskOpen:
		return httpx.BadRequest(msgTaskDone)
	case task.Assignee == actor.UserID:
		return nil // claimed already: nothing to do
	case task.Assignee != 0:
		return httpx.BadRequest(msgTaskClaimed)
	}
	return &httpx.Error{Status: 403, Msg: msgNotYours}
}

// Delete ends a running instance as deleted, with a reason. notify tells
// the business table's callback (a deletion from the follow screen); a
// business row voiding its own approval does not need to hear back.
func (e *Engine) Delete(ctx context.Context, tx bun.Tx, tenantID string, instanceID wire.ID, reason string, notify bool) (*Instance, error) {
	o, err := e.open(ctx, tx, tenantID, instanceID)
	if err != nil {
		return nil, err
	}
	o.inst.DeleteReason = reason
	o.quiet = !notify
	return o.inst, o.end(Deleted, reason)
}

func (e *Engine) task(ctx context.Context, tx bun.Tx, tenantID string, id wire.ID) (*Task, error) {
	t := new(Task)
	if err := stmtTask.Get(ctx, e.DB, tx, t, id, tenantID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &httpx.Error{Status: 404, Msg: msgTaskGone}
		}
		return nil, err
	}
	return t, nil
}

// candidateMatch selects the candidate rows of actor (alias c).
// column is what it selects ("1" for EXISTS, "c.task_id" for IN).
func candidateMatch(idb bun.IDB, actor Actor, column string) *bun.SelectQuery {
	q := idb.NewSelect().TableExpr("bb_flow_task_candidate AS c").ColumnExpr(column).Where("c.tenant_id = ?", actor.TenantID)
	if len(actor.Groups) == 0 {
		return q.Where("c.user_id = ?", actor.UserID)
	}
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("c.user_id = ?", actor.UserID).WhereOr("c.group_alias IN (?)", bun.In(actor.Groups))
	})
}

func (e *Engine) isCandidate(ctx context.Context, idb bun.IDB, actor Actor, taskID wire.ID) (bool, error) {
	return candidateMatch(idb, actor, "1").Where("c.task_id = ?", taskID).Exists(ctx)
}

// open loads a running instance for an operation, locked on PostgreSQL
// (SQLite has one writer), with its process and variables.
func (e *Engine) open(ctx context.Context, tx bun.Tx, tenantID string, id wire.ID) (*op, error) {
	inst, read := new(Instance), stmtInstance
	if e.DB.Postgres {
		read = stmtInstanceLock
	}
	if err := read.Get(ctx, e.DB, tx, inst, id, tenantID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &httpx.Error{Status: 404, Msg: msgNoInstance}
		}
		return nil, err
	}
	if inst.Status != Running {
		return nil, errNotRunning
	}
	proc, err := e.Process(ctx, tx, inst.DefinitionID)
	if err != nil {
		return nil, err
	}
	o := &op{e: e, ctx: ctx, tx: tx, inst: inst, proc: proc, vars: map[string]any{}, dirty: map[string]bool{}, now: wire.Now(), version: inst.Version}
	if proc.UsesVars { // otherwise nothing reads them, and save writes what is set without reading
		if o.vars, err = loadVars(ctx, tx, inst.ID); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Variables returns an instance's variables.
func (e *Engine) Variables(ctx context.Context, idb bun.IDB, instanceID wire.ID) (map[string]any, error) {
	return loadVars(ctx, idb, instanceID)
}

func loadVars(ctx context.Context, idb bun.IDB, instanceID wire.ID) (map[string]any, error) {
	var rows []struct {
		Name  string `bun:"name"`
		Value string `bun:"value"`
	}
	if err := idb.NewSelect().Table("bb_flow_variable").Column("name", "value").Where("instance_id = ?", instanceID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	vars := make(map[string]any, len(rows))
	for _, r := range rows {
		vars[r.Name] = decodeValue(r.Value)
	}
	return vars, nil
}

// decodeValue reads a stored JSON value with numbers as int or float64,
// which expr compares with each other.
func decodeValue(s string) any {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return s
	}
	return normalize(v)
}

func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x)
		}
		return x
	case []any:
		for i := range x {
			x[i] = normalize(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalize(x[k])
		}
	}
	return v
}

// op is one operation on one instance, inside one transaction.
type op struct {
	e       *Engine
	ctx     context.Context
	tx      bun.Tx
	inst    *Instance
	proc    *Process
	vars    map[string]any // all of them when the process reads them (UsesVars), else only those set now
	dirty   map[string]bool
	now     wire.Time
	version int // 0: started by this operation, its row not yet inserted
	seq     int
	steps   int
	created int  // tasks this operation created
	quiet   bool // no callback (Delete for a business row)
	ended   bool
	pending []*History // written together by save
}

func (o *op) set(name string, v any) {
	if name == "" || len(name) > 64 {
		return
	}
	o.vars[name] = normalize(v)
	o.dirty[name] = true
}

// leave takes every outgoing flow of n (a plain node; gateways choose in enter).
func (o *op) leave(n *Node) error {
	for _, f := range n.Out {
		if err := o.take(f); err != nil {
			return err
		}
	}
	return nil
}

func (o *op) take(f *Flow) error {
	if o.steps++; o.steps > maxSteps {
		return httpx.BadRequest(msgLoop)
	}
	if o.inst.Flows != "" {
		o.inst.Flows += ","
	}
	o.inst.Flows += f.ID
	return o.enter(f.Target)
}

func (o *op) enter(n *Node) error {
	switch n.Type {
	case EndEvent:
		o.history(n, Actor{}, "", -1)
		return nil
	case UserTask:
		return o.createTasks(n)
	case ExclusiveGateway:
		o.history(n, Actor{}, "", -1)
		f, err := o.choose(n)
		if err != nil {
			return err
		}
		return o.take(f)
	case ParallelGateway:
		if len(n.In) > 1 {
			all, err := o.arrive(n)
			if err != nil || !all {
				return err
			}
		}
		o.history(n, Actor{}, "", -1)
		return o.leave(n)
	}
	return fmt.Errorf("flow: cannot enter %s %s", n.Type, n.ID)
}

// choose picks an exclusive gateway's flow: the first whose condition
// holds, in document order, else the default.
func (o *op) choose(n *Node) (*Flow, error) {
	var def *Flow
	for _, f := range n.Out {
		if f.ID == n.Default {
			def = f
			continue
		}
		if f.conditionPrg == nil {
			if def == nil && n.Default == "" && len(n.Out) == 1 {
				return f, nil
			}
			continue
		}
		ok, err := o.eval(f.conditionPrg, nil)
		if err != nil {
			return nil, httpx.BadRequest(msgCondFailed.Format(f.ID, f.Condition, firstLine(err.Error())))
		}
		if ok {
			return f, nil
		}
	}
	if def != nil {
		return def, nil
	}
	for _, f := range n.Out { // a flow without condition and no default: taken last
		if f.conditionPrg == nil {
			return f, nil
		}
	}
	return nil, httpx.BadRequest(msgNoRoute.Format(n.Name, n.ID))
}

func (o *op) env(extra map[string]any) map[string]any {
	env := make(map[string]any, len(o.vars)+len(extra))
	for k, v := range o.vars {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

func (o *op) eval(prg *vm.Program, extra map[string]any) (bool, error) {
	out, err := expr.Run(prg, o.env(extra))
	if err != nil {
		return false, err
	}
	b, _ := out.(bool)
	return b, nil
}

// arrive counts a token at a parallel join; true when every incoming flow has arrived.
func (o *op) arrive(n *Node) (bool, error) {
	ex := new(Execution)
	err := o.tx.NewSelect().Model(ex).Where("tenant_id = ? AND instance_id = ? AND activity_id = ? AND kind = 'join'", o.inst.TenantID, o.inst.ID, n.ID).Limit(1).Scan(o.ctx)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		ex = &Execution{ID: db.NewID(), TenantID: o.inst.TenantID, InstanceID: o.inst.ID, ActivityID: n.ID, Kind: "join", Arrived: 1, Total: len(n.In), Collection: ""}
		if len(n.In) <= 1 {
			return true, nil
		}
		_, err = o.tx.NewInsert().Model(ex).Exec(o.ctx)
		return false, err
	case err != nil:
		return false, err
	}
	if ex.Arrived+1 >= len(n.In) {
		_, err = o.tx.NewDelete().Model((*Execution)(nil)).Where("id = ?", ex.ID).Exec(o.ctx)
		return true, err
	}
	_, err = o.tx.NewUpdate().Model((*Execution)(nil)).Set("arrived = arrived + 1").Where("id = ?", ex.ID).Exec(o.ctx)
	return false, err
}

// createTasks creates a user task's task (or its multi-instance tasks).
func (o *op) createTasks(n *Node) error {
	if n.Multi == nil {
		return o.createTask(n, 0, 0, nil)
	}
	items, err := o.collection(n)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		o.history(n, Actor{}, "", -1)
		return o.leave(n)
	}
	if len(items) > 200 {
		return httpx.BadRequest(msgTooManyTasks.Format(n.ID))
	}
	coll, _ := json.Marshal(items)
	ex := &Execution{ID: db.NewID(), TenantID: o.inst.TenantID, InstanceID: o.inst.ID, ActivityID: n.ID, Kind: "multi",
		Total: len(items), Collection: string(coll)}
	count := len(items)
	if n.Multi.Sequential {
		count, ex.NextIndex = 1, 1
	}
	if _, err := o.tx.NewInsert().Model(ex).Exec(o.ctx); err != nil {
		return err
	}
	for i := 0; i < count; i++ {
		if err := o.createTask(n, ex.ID, i, o.loopVars(n, items, i)); err != nil {
			return err
		}
	}
	return nil
}

func (o *op) loopVars(n *Node, items []any, i int) map[string]any {
	extra := map[string]any{"loopCounter": i}
	if n.Multi.ElementVar != "" {
		extra[n.Multi.ElementVar] = items[i]
	}
	return extra
}

// collection resolves a multi-instance task's items: a variable, an
// expression, a comma list of literals, or a cardinality.
func (o *op) collection(n *Node) ([]any, error) {
	m := n.Multi
	if m.Collection == "" {
		v, err := o.value(n, m.Cardinality, nil)
		if err != nil {
			return nil, err
		}
		k, err := strconv.Atoi(fmt.Sprint(v))
		if err != nil || k < 0 {
			return nil, httpx.BadRequest(msgBadColl.Format(n.ID, m.Cardinality))
		}
		out := make([]any, k)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var v any
	if isExpr(m.Collection) {
		var err error
		if v, err = o.value(n, m.Collection, nil); err != nil {
			return nil, err
		}
	} else if vv, ok := o.vars[m.Collection]; ok {
		v = vv
	} else {
		v = m.Collection
	}
	switch x := v.(type) {
	case []any:
		return x, nil
	case []string:
		out := make([]any, len(x))
		for i := range x {
			out[i] = x[i]
		}
		return out, nil
	case string:
		var out []any
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return nil, httpx.BadRequest(msgBadColl.Format(n.ID, m.Collection))
}

// value evaluates s: an expression's result, or the literal itself.
func (o *op) value(n *Node, s string, extra map[string]any) (any, error) {
	if !isExpr(s) {
		return strings.TrimSpace(s), nil
	}
	src := unwrap(s)
	out, err := expr.Eval(src, o.env(extra))
	if err != nil {
		return nil, httpx.BadRequest(msgBadPerformer.Format(n.ID, s, firstLine(err.Error())))
	}
	return out, nil
}

// createTask inserts one task with its candidates and its history row.
func (o *op) createTask(n *Node, execID wire.ID, index int, extra map[string]any) error {
	t := &Task{ID: db.NewID(), TenantID: o.inst.TenantID, InstanceID: o.inst.ID, ExecutionID: execID, ActivityID: n.ID,
		Name: n.Name, Status: TaskOpen, LoopIndex: index, CreateTime: o.now, Version: 1}
	if n.Assignee != "" {
		v, err := o.value(n, n.Assignee, extra)
		if err != nil {
			return err
		}
		ids, err := userIDs(n, v)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			t.Assignee = ids[0]
		}
	}
	var users []wire.ID
	var groups []string
	if t.Assignee == 0 {
		for _, part := range splitList(n.CandidateUsers) {
			v, err := o.value(n, part, extra)
			if err != nil {
				return err
			}
			ids, err := userIDs(n, v)
			if err != nil {
				return err
			}
			users = append(users, ids...)
		}
		for _, part := range splitList(n.CandidateGroups) {
			v, err := o.value(n, part, extra)
			if err != nil {
				return err
			}
			for _, g := range strs(v) {
				if g = strings.TrimSpace(g); g != "" && len(g) <= 64 && !slices.Contains(groups, g) {
					groups = append(groups, g)
				}
			}
		}
		if len(users) == 0 && len(groups) == 0 {
			return httpx.BadRequest(msgNoPeople.Format(n.Name))
		}
	}
	if err := o.e.ins.task.Insert(o.ctx, o.e.DB, o.tx, t); err != nil {
		return err
	}
	o.created++
	if len(users)+len(groups) > 0 {
		rows := make([]Candidate, 0, len(users)+len(groups))
		for _, u := range dedupe(users) {
			rows = append(rows, Candidate{ID: db.NewID(), TenantID: t.TenantID, TaskID: t.ID, UserID: u})
		}
		for _, g := range groups {
			rows = append(rows, Candidate{ID: db.NewID(), TenantID: t.TenantID, TaskID: t.ID, GroupAlias: g})
		}
		for i := range rows {
			if err := o.e.ins.candidate.Insert(o.ctx, o.e.DB, o.tx, &rows[i]); err != nil {
				return err
			}
		}
	}
	h := o.newHistory(n, t.Assignee, "", -1)
	h.TaskID, h.EndTime = t.ID, wire.Time{}
	o.pending = append(o.pending, h)
	return nil
}

// splitList splits a comma list, keeping ${...} expressions whole.
func splitList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	out = append(out, s[start:])
	res := out[:0]
	for _, p := range out {
		if p = strings.TrimSpace(p); p != "" {
			res = append(res, p)
		}
	}
	return res
}

func strs(v any) []string {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, strs(e)...)
		}
		return out
	case []string:
		return x
	case string:
		return splitList(x)
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}
	default:
		return []string{fmt.Sprint(x)}
	}
}

// userIDs reads user ids: numbers, "123", "taskUser_123".
func userIDs(n *Node, v any) ([]wire.ID, error) {
	var out []wire.ID
	for _, s := range strs(v) {
		s = strings.TrimPrefix(strings.TrimSpace(s), "taskUser_")
		if s == "" {
			continue
		}
		id, err := wire.ParseID(s)
		if err != nil || id <= 0 {
			return nil, httpx.BadRequest(msgBadAssignee.Format(n.Name, s))
		}
		out = append(out, id)
	}
	return out, nil
}

func dedupe(ids []wire.ID) []wire.ID {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// multiDone counts a completed multi-instance task: true when the loop is
// over (all done, or the completion condition holds), after cancelling
// the tasks left; a sequential loop creates its next task otherwise.
func (o *op) multiDone(n *Node, task *Task) (bool, error) {
	ex := new(Execution)
	if err := o.tx.NewSelect().Model(ex).Where("id = ? AND tenant_id = ?", task.ExecutionID, o.inst.TenantID).Scan(o.ctx); err != nil {
		return false, err
	}
	ex.Completed++
	ex.Approved++
	var items []any
	if err := json.Unmarshal([]byte(ex.Collection), &items); err != nil {
		// written by start (multiStart) and never edited: a sequential loop
		// read without its users would stop with no task left
		return false, fmt.Errorf("multi-instance %s: its users as stored: %w", n.ID, err)
	}
	active := ex.Total - ex.Completed
	if n.Multi.Sequential {
		active = 0
	}
	done := ex.Completed >= ex.Total
	if !done && n.Multi.completionProg != nil {
		ok, err := o.eval(n.Multi.completionProg, map[string]any{"nrOfInstances": ex.Total, "nrOfCompletedInstances": ex.Completed,
			"nrOfActiveInstances": active, "nrOfApproved": ex.Approved})
		if err != nil {
			return false, httpx.BadRequest(msgBadPerformer.Format(n.ID, n.Multi.Completion, firstLine(err.Error())))
		}
		done = ok
	}
	if done {
		if err := o.cancelTasks("execution_id = ?", ex.ID); err != nil {
			return false, err
		}
		_, err := o.tx.NewDelete().Model((*Execution)(nil)).Where("id = ?", ex.ID).Exec(o.ctx)
		return true, err
	}
	if n.Multi.Sequential && ex.NextIndex < len(items) {
		if err := o.createTask(n, ex.ID, ex.NextIndex, o.loopVars(n, items, ex.NextIndex)); err != nil {
			return false, err
		}
		ex.NextIndex++
	}
	_, err := o.tx.NewUpdate().Model((*Execution)(nil)).Set("completed = ?", ex.Completed).Set("approved = ?", ex.Approved).
		Set("next_index = ?", ex.NextIndex).Where("id = ?", ex.ID).Exec(o.ctx)
	return false, err
}

// cancelTasks closes the open tasks matching where (within the instance).
func (o *op) cancelTasks(where string, args ...any) error {
	if err := o.writeHistory(); err != nil { // the rows closed below may be pending
		return err
	}
	base := append([]any{o.inst.TenantID, o.inst.ID, TaskOpen}, args...)
	ids := []wire.ID{}
	if err := o.tx.NewSelect().Table("bb_flow_task").Column("id").Where("tenant_id = ? AND instance_id = ? AND status = ? AND "+where, base...).Scan(o.ctx, &ids); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	if _, err := o.tx.NewUpdate().Table("bb_flow_task").Set("status = ?", TaskCancelled).Set("end_time = ?", o.now).Set("version = version + 1").
		Where("id IN (?)", bun.In(ids)).Exec(o.ctx); err != nil {
		return err
	}
	if _, err := o.tx.NewDelete().Table("bb_flow_task_candidate").Where("task_id IN (?)", bun.In(ids)).Exec(o.ctx); err != nil {
		return err
	}
	_, err := o.tx.NewUpdate().Model((*History)(nil)).Set("end_time = ?", o.now).
		Where("task_id IN (?) AND end_time IS NULL", bun.In(ids)).Exec(o.ctx)
	return err
}

// newHistory builds a history row for n.
func (o *op) newHistory(n *Node, assignee wire.ID, comment string, pass int) *History {
	o.seq++
	return &History{ID: db.NewID(), TenantID: o.inst.TenantID, InstanceID: o.inst.ID, ActivityID: n.ID, ActivityName: n.Name,
		ActivityType: n.Type, Assignee: assignee, StartTime: o.now, EndTime: o.now, Comment: comment, Pass: pass,
		Seq: o.version*1000 + o.seq}
}

// history records a passed (instant) activity.
func (o *op) history(n *Node, actor Actor, comment string, pass int) {
	o.pending = append(o.pending, o.newHistory(n, actor.UserID, comment, pass))
}

// closeHistory closes a task's history row (it started with the task).
func (o *op) closeHistory(task *Task, assignee wire.ID, comment string, pass int) error {
	dur := o.now.Sub(task.CreateTime.Time).Milliseconds()
	_, err := stmtCloseHistory.Exec(o.ctx, o.e.DB, o.tx, o.now, dur, assignee, comment, pass, task.ID, o.inst.TenantID)
	return err
}

// end ends the instance: rejected or deleted (tasks cancelled, waits
// dropped) or approved.
func (o *op) end(status, comment string) error {
	if err := o.cancelTasks("1 = 1"); err != nil {
		return err
	}
	if _, err := o.tx.NewDelete().Model((*Execution)(nil)).Where("tenant_id = ? AND instance_id = ?", o.inst.TenantID, o.inst.ID).Exec(o.ctx); err != nil {
		return err
	}
	o.inst.Status, o.inst.EndTime, o.ended = status, o.now, true
	return o.save(comment)
}

// finish saves the operation; an instance with no open task and no
// waiting execution has run to its end: approved. A task made now is open;
// a linear process that made none has reached its end.
func (o *op) finish(comment string) error {
	open := o.created > 0
	if !open && !o.proc.Linear {
		var err error
		open, err = o.tx.NewSelect().Table("bb_flow_task").Where("tenant_id = ? AND instance_id = ? AND status = ?", o.inst.TenantID, o.inst.ID, TaskOpen).Exists(o.ctx)
		if err != nil {
			return err
		}
		if !open {
			open, err = o.tx.NewSelect().Model((*Execution)(nil)).Where("tenant_id = ? AND instance_id = ?", o.inst.TenantID, o.inst.ID).Exists(o.ctx)
			if err != nil {
				return err
			}
		}
	}
	if !open {
		o.inst.Status, o.inst.EndTime, o.ended = Approved, o.now, true
	}
	return o.save(comment)
}

// writeHistory inserts the pending history rows.
func (o *op) writeHistory() error {
	if len(o.pending) == 0 {
		return nil
	}
	for _, h := range o.pending {
		if err := o.e.ins.history.Insert(o.ctx, o.e.DB, o.tx, h); err != nil {
			return err
		}
	}
	o.pending = nil
	return nil
}

// save writes the history, the variables and the instance (version checked).
func (o *op) save(comment string) error {
	if err := o.writeHistory(); err != nil {
		return err
	}
	if len(o.dirty) > 0 {
		rows := make([]Variable, 0, len(o.dirty))
		for name := range o.dirty {
			b, err := json.Marshal(o.vars[name])
			if err != nil {
				return err
			}
			rows = append(rows, Variable{ID: db.NewID(), TenantID: o.inst.TenantID, InstanceID: o.inst.ID, Name: name, Value: string(b)})
		}
		for i := range rows {
			if err := o.e.ins.variable.Insert(o.ctx, o.e.DB, o.tx, &rows[i]); err != nil {
				return err
			}
		}
	}
	if o.version == 0 { // started now
		o.version = 1
		if err := o.e.ins.instance.Insert(o.ctx, o.e.DB, o.tx, o.inst); err != nil {
			return err
		}
	} else {
		res, err := stmtSaveInstance.Exec(o.ctx, o.e.DB, o.tx, o.inst.Flows, o.inst.Status, o.inst.EndTime, o.inst.DeleteReason, o.inst.ID, o.version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return httpx.BadRequest(msgTaskTaken)
		}
		o.inst.Version = o.version + 1
	}
	if !o.ended || o.quiet || o.inst.BusinessTable == "" {
		return nil
	}
	if fn := o.e.endFunc(o.inst.BusinessTable); fn != nil {
		return fn(o.ctx, o.tx, o.inst, o.inst.Status, comment)
	}
	return nil
}
