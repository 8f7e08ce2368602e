package flow

import (
	"strings"

	"github.com/bluebird/console/internal/platform/db"
)

// The statements of a start and a task's completion, the engine's hot path
// (issue #10: at least 500 two-step instances a second on SQLite), as
// db.Statements: prepared once per connection instead of parsed per call.
// Everything else goes through bun's builder.
var (
	stmtTask         = db.NewStatement("SELECT * FROM bb_flow_task WHERE id = ? AND tenant_id = ?")
	stmtInstance     = db.NewStatement("SELECT * FROM bb_flow_instance WHERE id = ? AND tenant_id = ?")
	stmtInstanceLock = db.NewStatement("SELECT * FROM bb_flow_instance WHERE id = ? AND tenant_id = ? FOR UPDATE")
	stmtDropCands    = db.NewStatement("DELETE FROM bb_flow_task_candidate WHERE task_id = ?")
	stmtCloseHistory = db.NewStatement("UPDATE bb_flow_history SET end_time = ?, duration_ms = ?, assignee = ?, comment = ?, pass = ? " +
		"WHERE task_id = ? AND tenant_id = ?")
	stmtSaveInstance = db.NewStatement("UPDATE bb_flow_instance SET flows = ?, status = ?, end_time = ?, delete_reason = ?, version = version + 1 " +
		"WHERE id = ? AND version = ?")
)

// completeTask is the conditional update of a task's completion. A task
// nobody holds is completed only by a candidate, checked in the same
// statement; its text depends on the number of the actor's groups.
func completeTask(candidate bool, groups int) db.Statement {
	q := "UPDATE bb_flow_task SET status = ?, assignee = ?, end_time = ?, comment = ?, pass = ?, version = version + 1 " +
		"WHERE id = ? AND tenant_id = ? AND status = ? AND version = ?"
	if candidate {
		q += " AND EXISTS (SELECT 1 FROM bb_flow_task_candidate AS c WHERE c.task_id = bb_flow_task.id AND c.tenant_id = ? AND (c.user_id = ?"
		if groups > 0 {
			q += " OR c.group_alias IN (" + strings.TrimSuffix(strings.Repeat("?, ", groups), ", ") + ")"
		}
		q += "))"
	}
	return db.NewStatement(q)
}

// inserters are the engine's inserts, built for its database.
type inserters struct {
	task      *db.Inserter[Task]
	candidate *db.Inserter[Candidate]
	history   *db.Inserter[History]
	instance  *db.Inserter[Instance]
	variable  *db.Inserter[Variable] // an upsert: a variable set again replaces its value
}

func newInserters(d *db.DB) *inserters {
	return &inserters{
		task:      db.NewInserter[Task](d, ""),
		candidate: db.NewInserter[Candidate](d, ""),
		history:   db.NewInserter[History](d, ""),
		instance:  db.NewInserter[Instance](d, ""),
		variable:  db.NewInserter[Variable](d, "ON CONFLICT (instance_id, name) DO UPDATE SET value = EXCLUDED.value"),
	}
}
