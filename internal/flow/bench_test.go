package flow_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/flow"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

// Benchmarks (not run in CI): go test ./internal/flow -run x -bench . -benchtime 2000x

func benchRig(b *testing.B) *rig {
	h := apptest.New(b, "sqlite")
	r := &rig{t: &testing.T{}, h: h, e: flow.NewEngine(h.App.DB), ctx: context.Background()}
	return r
}

func benchDeploy(b *testing.B, r *rig, xml string) {
	if err := r.tx(func(tx bun.Tx) error {
		_, err := r.e.Deploy(r.ctx, tx, flow.DeployInput{XML: xml, TenantIDs: []string{"000000"}, Owner: "000000"})
		return err
	}); err != nil {
		b.Fatal(err)
	}
}

func benchStart(b *testing.B, r *rig, key string) *flow.Instance {
	var inst *flow.Instance
	if err := r.tx(func(tx bun.Tx) error {
		var err error
		inst, err = r.e.Start(r.ctx, tx, flow.StartInput{TenantID: "000000", Key: key, Initiator: 1, BusinessTable: "bb_bench", BusinessID: 1})
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return inst
}

func benchOpenTask(b *testing.B, r *rig, inst *flow.Instance) wire.ID {
	var id wire.ID
	if err := r.h.App.DB.NewSelect().Table("bb_flow_task").Column("id").Where("tenant_id = ? AND instance_id = ? AND status = 1", inst.TenantID, inst.ID).Limit(1).Scan(r.ctx, &id); err != nil {
		b.Fatal(err)
	}
	return id
}

// BenchmarkCompleteTask: one complete-task (its own transaction).
func BenchmarkCompleteTask(b *testing.B) {
	r := benchRig(b)
	benchDeploy(b, r, bpmn("one", start+task("t1", "审批", `camunda:assignee="7"`)+end+seq("f1", "start", "t1")+seq("f2", "t1", "end")))
	ids := make([]wire.ID, b.N)
	for i := range ids {
		ids[i] = benchOpenTask(b, r, benchStart(b, r, "one"))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.complete(user(7), ids[i], true, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartComplete2Step: start a two-step process and complete both steps (three transactions).
func BenchmarkStartComplete2Step(b *testing.B) {
	r := benchRig(b)
	benchDeploy(b, r, bpmn("two", start+task("t1", "一", `camunda:assignee="7"`)+task("t2", "二", `camunda:candidateGroups="admin"`)+end+
		seq("f1", "start", "t1")+seq("f2", "t1", "t2")+seq("f3", "t2", "end")))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		inst := benchStart(b, r, "two")
		if _, err := r.complete(user(7), benchOpenTask(b, r, inst), true, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := r.complete(user(8, "admin"), benchOpenTask(b, r, inst), true, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "instances/s")
}

// BenchmarkTodoList100k: todo-list and claim-list of the super user with
// 100,000 open tasks in the tenant (assigned to them, and claimable by
// their role), through the HTTP API.
func BenchmarkTodoList100k(b *testing.B) {
	r := benchRig(b)
	admin := r.h.Admin()
	uid, _ := wire.ParseID(admin.Login["user_id"].(string))
	const n = 100_000
	err := r.tx(func(tx bun.Tx) error {
		inst := &flow.Instance{ID: db.NewID(), TenantID: "000000", DefinitionID: 1, DefKey: "bench", DefName: "bench", Status: flow.Running, StartTime: wire.Now()}
		if _, err := tx.NewInsert().Model(inst).Exec(r.ctx); err != nil {
			return err
		}
		for lo := 0; lo < n; lo += 500 {
			tasks := make([]flow.Task, 0, 500)
			cands := make([]flow.Candidate, 0, 250)
			for i := lo; i < lo+500; i++ {
				t := flow.Task{ID: db.NewID(), TenantID: "000000", InstanceID: inst.ID, ActivityID: "t1", Name: "审批", Status: flow.TaskOpen, CreateTime: wire.Now(), Version: 1}
				if i%2 == 0 {
					t.Assignee = uid
				} else {
					cands = append(cands, flow.Candidate{ID: db.NewID(), TenantID: "000000", TaskID: t.ID, GroupAlias: "administrator"})
				}
				tasks = append(tasks, t)
			}
			if _, err := tx.NewInsert().Model(&tasks).Exec(r.ctx); err != nil {
				return err
			}
			if _, err := tx.NewInsert().Model(&cands).Exec(r.ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, list := range []string{"todo-list", "claim-list"} {
		b.Run(list, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if resp := admin.Get("/api/blade-flow/work/"+list, nil); resp.Status != 200 {
					b.Fatal(string(resp.Body))
				}
			}
		})
	}
}
