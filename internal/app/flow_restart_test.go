package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/config"
)

// TestFlowRestart: a process started by one console goes on in a new
// console on the same database file: the engine keeps nothing in memory.
func TestFlowRestart(t *testing.T) {
	dir := t.TempDir()
	open := func() (*apptest.H, func()) {
		a, err := app.New(context.Background(), config.Config{DataDir: dir}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(a.Handler)
		return &apptest.H{T: t, App: a, Server: srv, Kind: "sqlite"}, func() { srv.Close(); a.Close() }
	}
	h, stop := open()
	admin := h.Admin()
	var leave struct{ ProcessInstanceID string }
	admin.PostJSON("/api/blade-desk/process/leave/start-process", map[string]any{"startTime": "2026-12-01 09:00:00",
		"endTime": "2026-12-02 18:00:00", "days": "2", "reason": "探亲", "taskUser": admin.Login["user_id"]}).OK(t, &leave)
	if todo := flowList(t, admin, "todo-list"); len(todo) != 1 {
		t.Fatalf("todo before the restart: %+v", todo)
	}
	stop()

	h, stop = open()
	defer stop()
	admin = h.Admin()
	todo := flowList(t, admin, "todo-list")
	if len(todo) != 1 || todo[0].ProcessInstanceID != leave.ProcessInstanceID || todo[0].BusinessTable != "bb_leave" {
		t.Fatalf("todo after the restart: %+v", todo)
	}
	flowComplete(admin, todo[0].TaskID, "ok", "").OK(t, nil)
	var detail struct{ ProcessStatus string }
	admin.Get("/api/blade-desk/process/leave/detail", apptest.Q("businessId", todo[0].BusinessID)).OK(t, &detail)
	if detail.ProcessStatus != "approved" {
		t.Fatalf("leave after approval: %+v", detail)
	}
}
