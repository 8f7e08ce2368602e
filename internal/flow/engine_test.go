package flow_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/flow"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// bpmn wraps process elements in a BPMN document (camunda namespace).
func bpmn(key, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" id="d1" targetNamespace="http://bpmn.io/schema/bpmn">
<bpmn:process id="` + key + `" name="` + key + ` 流程" isExecutable="true">` + body + `</bpmn:process>
<bpmndi:BPMNDiagram id="dia"><bpmndi:BPMNPlane id="plane" bpmnElement="` + key + `"/></bpmndi:BPMNDiagram>
</bpmn:definitions>`
}

func seq(id, from, to string) string {
	return fmt.Sprintf(`<bpmn:sequenceFlow id="%s" sourceRef="%s" targetRef="%s"/>`, id, from, to)
}

func cond(id, from, to, expr string) string {
	return fmt.Sprintf(`<bpmn:sequenceFlow id="%s" sourceRef="%s" targetRef="%s"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">%s</bpmn:conditionExpression></bpmn:sequenceFlow>`, id, from, to, expr)
}

func task(id, name, attrs string) string {
	return fmt.Sprintf(`<bpmn:userTask id="%s" name="%s" %s/>`, id, name, attrs)
}

const (
	start = `<bpmn:startEvent id="start" name="开始"/>`
	end   = `<bpmn:endEvent id="end" name="结束"/>`
)

// rig is an engine on a fresh database of one kind, tenant T1 and T2.
type rig struct {
	t   *testing.T
	h   *apptest.H
	e   *flow.Engine
	ctx context.Context
}

func newRig(t *testing.T, h *apptest.H) *rig {
	return &rig{t: t, h: h, e: flow.NewEngine(h.App.DB), ctx: context.Background()}
}

func (r *rig) tx(fn func(tx bun.Tx) error) error { return r.h.App.DB.Tx(r.ctx, fn) }

func (r *rig) deploy(xml string, tenants ...string) *flow.Definition {
	r.t.Helper()
	var def *flow.Definition
	if err := r.tx(func(tx bun.Tx) error {
		var err error
		def, err = r.e.Deploy(r.ctx, tx, flow.DeployInput{XML: xml, TenantIDs: tenants, Owner: "000000", Category: "test"})
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return def
}

func (r *rig) start(tenant, key string, initiator wire.ID, vars map[string]any) *flow.Instance {
	r.t.Helper()
	var inst *flow.Instance
	if err := r.tx(func(tx bun.Tx) error {
		var err error
		inst, err = r.e.Start(r.ctx, tx, flow.StartInput{TenantID: tenant, Key: key, Initiator: initiator, Vars: vars,
			BusinessTable: "bb_test", BusinessID: 1})
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return inst
}

// open lists the open tasks of an instance: activity id → tasks.
func (r *rig) open(inst *flow.Instance) map[string][]flow.Task {
	r.t.Helper()
	var tasks []flow.Task
	if err := r.h.App.DB.NewSelect().Model(&tasks).Where("instance_id = ? AND status = ?", inst.ID, flow.TaskOpen).OrderExpr("loop_index, id").Scan(r.ctx); err != nil {
		r.t.Fatal(err)
	}
	out := map[string][]flow.Task{}
	for _, t := range tasks {
		out[t.ActivityID] = append(out[t.ActivityID], t)
	}
	return out
}

func (r *rig) complete(actor flow.Actor, taskID wire.ID, pass bool, vars map[string]any) (*flow.Instance, error) {
	var inst *flow.Instance
	err := r.tx(func(tx bun.Tx) error {
		var err error
		inst, err = r.e.Complete(r.ctx, tx, actor, flow.CompleteInput{TaskID: taskID, Pass: pass, Comment: "ok", Vars: vars})
		return err
	})
	return inst, err
}

func (r *rig) mustComplete(actor flow.Actor, taskID wire.ID, pass bool) *flow.Instance {
	r.t.Helper()
	inst, err := r.complete(actor, taskID, pass, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return inst
}

func (r *rig) status(inst *flow.Instance) string {
	r.t.Helper()
	var s string
	if err := r.h.App.DB.NewSelect().Table("bb_flow_instance").Column("status").Where("id = ?", inst.ID).Scan(r.ctx, &s); err != nil {
		r.t.Fatal(err)
	}
	return s
}

func user(id int64, groups ...string) flow.Actor {
	return flow.Actor{UserID: wire.ID(id), TenantID: "000000", Groups: groups}
}

func msg(err error) string {
	if e, ok := httpx.As(err); ok {
		return e.Msg.In(i18n.En)
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestParseRefusesWhatItCannotRun(t *testing.T) {
	cases := map[string]struct{ xml, want string }{
		"service task": {bpmn("p", start+`<bpmn:serviceTask id="svc1" name="x"/>`+end+seq("f1", "start", "svc1")+seq("f2", "svc1", "end")),
			"Unsupported process element serviceTask (id: svc1)"},
		"timer start": {bpmn("p", `<bpmn:startEvent id="s"><bpmn:timerEventDefinition id="tm"/></bpmn:startEvent>`+end+seq("f", "s", "end")),
			"Unsupported event definition timerEventDefinition (id: s)"},
		"bad condition": {bpmn("p", start+`<bpmn:exclusiveGateway id="g"/>`+end+seq("f1", "start", "g")+cond("f2", "g", "end", "${days >}")),
			"f2: the expression days > is wrong"},
		"no performer": {bpmn("p", start+task("t1", "审批", "")+end+seq("f1", "start", "t1")+seq("f2", "t1", "end")),
			"The user task 审批 (t1) has no assignee"},
		"unreachable": {bpmn("p", start+task("t1", "审批", `camunda:assignee="1"`)+task("t2", "孤立", `camunda:assignee="1"`)+end+
			seq("f1", "start", "t1")+seq("f2", "t1", "end")+seq("f3", "t2", "end")), "no incoming flow"},
		"malformed": {"<bpmn:definitions><bpmn:process", "malformed"},
		"empty":     {"  ", "empty"},
		"doctype":   {`<!DOCTYPE x [<!ENTITY a "b">]><definitions/>`, "malformed"},
		"two starts": {bpmn("p", start+`<bpmn:startEvent id="s2"/>`+end+seq("f1", "start", "end")+seq("f2", "s2", "end")),
			"exactly one start event"},
		"sub process": {bpmn("p", start+`<bpmn:subProcess id="sub1"/>`+end+seq("f1", "start", "end")), "subProcess (id: sub1)"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := flow.Parse([]byte(c.xml))
			if err == nil || !strings.Contains(msg(err), c.want) {
				t.Fatalf("got %q, want it to contain %q", msg(err), c.want)
			}
			if e, ok := httpx.As(err); !ok || e.Status != 400 || e.Msg.Zh == "" {
				t.Fatalf("want a 400 with a zh message, got %v", err)
			}
		})
	}
}

func TestEngine(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		r := newRig(t, h)
		t.Run("assignee and candidate group", func(t *testing.T) {
			r.deploy(bpmn("two", start+task("t1", "提交", `camunda:assignee="${initiator}"`)+
				task("t2", "审批", `camunda:candidateGroups="admin"`)+end+
				seq("f1", "start", "t1")+seq("f2", "t1", "t2")+seq("f3", "t2", "end")), "000000")
			inst := r.start("000000", "two", 7, nil)
			tasks := r.open(inst)
			if len(tasks["t1"]) != 1 || tasks["t1"][0].Assignee != 7 {
				t.Fatalf("t1 = %+v", tasks)
			}
			if _, err := r.complete(user(8), tasks["t1"][0].ID, true, nil); !strings.Contains(msg(err), "neither the assignee") {
				t.Fatalf("a stranger completed t1: %v", err)
			}
			r.mustComplete(user(7), tasks["t1"][0].ID, true)
			t2 := r.open(inst)["t2"]
			if len(t2) != 1 || t2[0].Assignee != 0 {
				t.Fatalf("t2 = %+v", t2)
			}
			if err := r.tx(func(tx bun.Tx) error { return r.e.Claim(r.ctx, tx, user(9, "user"), t2[0].ID) }); !strings.Contains(msg(err), "neither") {
				t.Fatalf("a user outside the group claimed: %v", err)
			}
			if _, err := r.complete(user(9, "user"), t2[0].ID, true, nil); !strings.Contains(msg(err), "neither") {
				t.Fatalf("a user outside the group completed an unclaimed task: %v", err)
			}
			if left := r.open(inst)["t2"]; len(left) != 1 || left[0].Version != t2[0].Version {
				t.Fatalf("the refused complete changed t2: %+v", left)
			}
			if err := r.tx(func(tx bun.Tx) error { return r.e.Claim(r.ctx, tx, user(9, "admin"), t2[0].ID) }); err != nil {
				t.Fatal(err)
			}
			if err := r.tx(func(tx bun.Tx) error { return r.e.Claim(r.ctx, tx, user(10, "admin"), t2[0].ID) }); !strings.Contains(msg(err), "already claimed") {
				t.Fatalf("second claim: %v", err)
			}
			if _, err := r.complete(user(10, "admin"), t2[0].ID, true, nil); err == nil {
				t.Fatal("a candidate completed a task claimed by another")
			}
			r.mustComplete(user(9, "admin"), t2[0].ID, true)
			if s := r.status(inst); s != flow.Approved {
				t.Fatalf("status %s", s)
			}
			if _, err := r.complete(user(9, "admin"), t2[0].ID, true, nil); !strings.Contains(msg(err), "already been completed") {
				t.Fatalf("completing twice: %v", err)
			}
		})
		t.Run("exclusive gateway on days", func(t *testing.T) {
			r.deploy(bpmn("days", start+task("t1", "经理", `camunda:assignee="${taskUser}"`)+`<bpmn:exclusiveGateway id="g" default="short"/>`+
				task("t2", "总监", `camunda:candidateUsers="taskUser_21,22"`)+end+
				seq("f1", "start", "t1")+seq("f2", "t1", "g")+cond("long", "g", "t2", "${days > 3}")+seq("short", "g", "end")+seq("f4", "t2", "end")), "000000")
			short := r.start("000000", "days", 1, map[string]any{"days": 2, "taskUser": "taskUser_20"})
			t1 := r.open(short)["t1"]
			if len(t1) != 1 || t1[0].Assignee != 20 {
				t.Fatalf("t1 = %+v", t1)
			}
			r.mustComplete(user(20), t1[0].ID, true)
			if s := r.status(short); s != flow.Approved {
				t.Fatalf("2 days: %s", s)
			}
			long := r.start("000000", "days", 1, map[string]any{"days": 3.5, "taskUser": 20})
			r.mustComplete(user(20), r.open(long)["t1"][0].ID, true)
			t2 := r.open(long)["t2"]
			if len(t2) != 1 || r.status(long) != flow.Running {
				t.Fatalf("3.5 days should reach t2: %+v", t2)
			}
			r.mustComplete(user(22), t2[0].ID, true)
			if s := r.status(long); s != flow.Approved {
				t.Fatalf("3.5 days: %s", s)
			}
		})
		t.Run("gateway without match", func(t *testing.T) {
			r.deploy(bpmn("nomatch", start+`<bpmn:exclusiveGateway id="g"/>`+end+seq("f1", "start", "g")+cond("f2", "g", "end", "${x == 1}")), "000000")
			err := r.tx(func(tx bun.Tx) error {
				_, err := r.e.Start(r.ctx, tx, flow.StartInput{TenantID: "000000", Key: "nomatch", Initiator: 1, Vars: map[string]any{"x": 2}})
				return err
			})
			if !strings.Contains(msg(err), "No outgoing flow of gateway") {
				t.Fatalf("got %v", err)
			}
		})
		t.Run("parallel join and rejection in a branch", func(t *testing.T) {
			r.deploy(bpmn("par", start+`<bpmn:parallelGateway id="fork"/>`+task("a", "财务", `camunda:assignee="31"`)+
				task("b", "法务", `camunda:assignee="32"`)+`<bpmn:parallelGateway id="join"/>`+task("c", "总经理", `camunda:assignee="33"`)+end+
				seq("f1", "start", "fork")+seq("fa", "fork", "a")+seq("fb", "fork", "b")+seq("ja", "a", "join")+seq("jb", "b", "join")+
				seq("fc", "join", "c")+seq("fe", "c", "end")), "000000")
			inst := r.start("000000", "par", 1, nil)
			open := r.open(inst)
			if len(open["a"]) != 1 || len(open["b"]) != 1 {
				t.Fatalf("fork: %+v", open)
			}
			r.mustComplete(user(31), open["a"][0].ID, true)
			if open := r.open(inst); len(open["c"]) != 0 || len(open["b"]) != 1 {
				t.Fatalf("join passed with one branch: %+v", open)
			}
			r.mustComplete(user(32), open["b"][0].ID, true)
			c := r.open(inst)["c"]
			if len(c) != 1 {
				t.Fatal("join did not pass with both branches")
			}
			r.mustComplete(user(33), c[0].ID, true)
			if s := r.status(inst); s != flow.Approved {
				t.Fatalf("status %s", s)
			}
			// a rejection in one branch ends the whole instance
			rej := r.start("000000", "par", 1, nil)
			open = r.open(rej)
			r.mustComplete(user(32), open["b"][0].ID, false)
			if s := r.status(rej); s != flow.Rejected {
				t.Fatalf("status %s", s)
			}
			if left := r.open(rej); len(left) != 0 {
				t.Fatalf("tasks left open after rejection: %+v", left)
			}
			if _, err := r.complete(user(31), open["a"][0].ID, true, nil); err == nil {
				t.Fatal("the other branch's task was still completable")
			}
		})
		t.Run("countersign all and any", func(t *testing.T) {
			multi := func(key, extra string) string {
				return bpmn(key, start+`<bpmn:userTask id="sign" name="会签" camunda:assignee="${approver}">`+
					`<bpmn:multiInstanceLoopCharacteristics camunda:collection="approvers" camunda:elementVariable="approver"`+extra+`</bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>`+
					end+seq("f1", "start", "sign")+seq("f2", "sign", "end"))
			}
			r.deploy(multi("all", `>`), "000000")
			r.deploy(multi("any", `><bpmn:completionCondition>${nrOfCompletedInstances >= 1}</bpmn:completionCondition>`), "000000")
			r.deploy(multi("seqsign", ` isSequential="true">`), "000000")
			approvers := map[string]any{"approvers": []any{"41", "42", "43"}}

			all := r.start("000000", "all", 1, approvers)
			sign := r.open(all)["sign"]
			if len(sign) != 3 || sign[2].Assignee != 43 {
				t.Fatalf("all: %+v", sign)
			}
			r.mustComplete(user(41), sign[0].ID, true)
			r.mustComplete(user(42), sign[1].ID, true)
			if s := r.status(all); s != flow.Running {
				t.Fatalf("all after 2 of 3: %s", s)
			}
			r.mustComplete(user(43), sign[2].ID, true)
			if s := r.status(all); s != flow.Approved {
				t.Fatalf("all: %s", s)
			}

			anyOne := r.start("000000", "any", 1, approvers)
			sign = r.open(anyOne)["sign"]
			r.mustComplete(user(42), sign[1].ID, true)
			if s := r.status(anyOne); s != flow.Approved || len(r.open(anyOne)) != 0 {
				t.Fatalf("any: %s %+v", s, r.open(anyOne))
			}

			// countersign all: one rejection rejects
			rej := r.start("000000", "all", 1, approvers)
			r.mustComplete(user(41), r.open(rej)["sign"][0].ID, false)
			if s := r.status(rej); s != flow.Rejected {
				t.Fatalf("all rejected: %s", s)
			}

			sq := r.start("000000", "seqsign", 1, approvers)
			for i, want := range []wire.ID{41, 42, 43} {
				sign := r.open(sq)["sign"]
				if len(sign) != 1 || sign[0].Assignee != want {
					t.Fatalf("sequential step %d: %+v", i, sign)
				}
				r.mustComplete(user(int64(want)), sign[0].ID, true)
			}
			if s := r.status(sq); s != flow.Approved {
				t.Fatalf("sequential: %s", s)
			}
		})
		t.Run("tenants", func(t *testing.T) {
			r.deploy(bpmn("only1", start+task("t1", "审批", `camunda:assignee="1"`)+end+seq("f1", "start", "t1")+seq("f2", "t1", "end")), "T1")
			err := r.tx(func(tx bun.Tx) error {
				_, err := r.e.Start(r.ctx, tx, flow.StartInput{TenantID: "T2", Key: "only1", Initiator: 1})
				return err
			})
			if !strings.Contains(msg(err), "not deployed to this tenant") {
				t.Fatalf("started in a tenant it was not deployed to: %v", err)
			}
			inst := r.start("T1", "only1", 1, nil)
			t1 := r.open(inst)["t1"][0]
			if _, err := r.complete(flow.Actor{UserID: 1, TenantID: "T2"}, t1.ID, true, nil); !strings.Contains(msg(err), "No such task") {
				t.Fatalf("another tenant's user completed the task: %v", err)
			}
		})
	})
}

// TestConcurrentComplete: 50 people complete one task at once; exactly
// one wins, the others are told someone else handled it.
func TestConcurrentComplete(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		r := newRig(t, h)
		r.deploy(bpmn("race", start+task("t1", "审批", `camunda:candidateGroups="admin"`)+end+seq("f1", "start", "t1")+seq("f2", "t1", "end")), "000000")
		inst := r.start("000000", "race", 1, nil)
		id := r.open(inst)["t1"][0].ID
		var ok, lost atomic.Int32
		var wg sync.WaitGroup
		var mu sync.Mutex
		var other []string
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := r.complete(user(int64(100+i), "admin"), id, true, nil)
				switch m := msg(err); {
				case err == nil:
					ok.Add(1)
				case strings.Contains(m, "Someone else has just handled") || strings.Contains(m, "already been completed"):
					lost.Add(1)
				default:
					mu.Lock()
					other = append(other, m)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 || lost.Load() != 49 {
			t.Fatalf("won %d, lost %d, other errors %v", ok.Load(), lost.Load(), other)
		}
		if s := r.status(inst); s != flow.Approved {
			t.Fatalf("status %s", s)
		}
		var done int
		if err := h.App.DB.NewSelect().Table("bb_flow_history").ColumnExpr("COUNT(*)").Where("instance_id = ? AND activity_type = 'userTask' AND pass = 1", inst.ID).Scan(r.ctx, &done); err != nil || done != 1 {
			t.Fatalf("history rows of the task: %d %v", done, err)
		}
	})
}
