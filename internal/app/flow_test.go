package app_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"slices"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

const flowAPI = "/api/blade-flow/"

// flowTask is a row of the work lists.
type flowTask struct {
	TaskID            string `json:"taskId"`
	TaskName          string `json:"taskName"`
	TaskDefinitionKey string `json:"taskDefinitionKey"`
	Assignee          string `json:"assignee"`
	ProcessInstanceID string `json:"processInstanceId"`
	ProcessIsFinished string `json:"processIsFinished"`
	Status            string `json:"status"`
	BusinessTable     string `json:"businessTable"`
	BusinessID        string `json:"businessId"`
	Comment           string `json:"comment"`
}

// flowUpload deploys BPMN documents through manager/deploy-upload.
func flowUpload(t *testing.T, c *apptest.Client, tenants string, docs map[string]string) *apptest.Resp {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for name, xml := range docs {
		f, err := w.CreateFormFile("files", name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(xml))
	}
	w.WriteField("category", "3") // 单据审批 in the flow dictionary
	w.WriteField("tenantIds", tenants)
	w.Close()
	return c.Do("POST", flowAPI+"manager/deploy-upload", &body, map[string]string{"Content-Type": w.FormDataContentType()})
}

// flowDoc is a BPMN document of the given process body (camunda attributes).
func flowDoc(key, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
<bpmn:process id="` + key + `" name="` + key + `" isExecutable="true">` + body + `</bpmn:process></bpmn:definitions>`
}

// flowChain is start → tasks in order → end.
func flowChain(key string, tasks ...string) string {
	var b strings.Builder
	b.WriteString(`<bpmn:startEvent id="start"/><bpmn:endEvent id="end"/>`)
	prev := "start"
	for i, attrs := range tasks {
		id := fmt.Sprintf("t%d", i+1)
		fmt.Fprintf(&b, `<bpmn:userTask id="%s" name="步骤%d" %s/><bpmn:sequenceFlow id="f%d" sourceRef="%s" targetRef="%s"/>`, id, i+1, attrs, i, prev, id)
		prev = id
	}
	fmt.Fprintf(&b, `<bpmn:sequenceFlow id="fend" sourceRef="%s" targetRef="end"/>`, prev)
	return flowDoc(key, b.String())
}

func flowList(t *testing.T, c *apptest.Client, list string) []flowTask {
	t.Helper()
	var page apptest.Page[flowTask]
	c.Get(flowAPI+"work/"+list, nil).OK(t, &page)
	if int(page.Total) != len(page.Records) {
		t.Fatalf("%s: total %d, %d records", list, page.Total, len(page.Records))
	}
	return page.Records
}

func flowComplete(c *apptest.Client, taskID, flag, comment string) *apptest.Resp {
	return c.PostJSON(flowAPI+"work/complete-task", map[string]any{"taskId": taskID, "flag": flag, "comment": comment})
}

// flowTenant is a tenant with its admin and two clerks (role alias clerk).
type flowTenant struct {
	id             string
	admin          *apptest.Client
	clerk1, clerk2 *apptest.Client
	ids            map[string]string // account → user id
}

func newFlowTenant(t *testing.T, h *apptest.H, name string) *flowTenant {
	t.Helper()
	id, admin := h.NewTenant(name)
	_, dept := adminIDs(t, admin)
	role := newRole(t, admin, "办事员", "clerk")
	ft := &flowTenant{id: id, admin: admin, ids: map[string]string{"admin": admin.Login["user_id"].(string)}}
	for _, acc := range []string{"clerk1", "clerk2"} {
		ft.ids[acc] = newUser(t, admin, acc, castPassword, role, dept)
	}
	ft.clerk1, ft.clerk2 = h.Login(id, "clerk1", castPassword), h.Login(id, "clerk2", castPassword)
	return ft
}

// TestFlowClaimTotal: the claim list's total counts a task once when the
// caller is its candidate twice (by name and by role), also beside tasks of
// their role alone (the total is counted from candidate rows, not the page).
func TestFlowClaimTotal(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		a := newFlowTenant(t, h, "Flow claim total")
		var defs []struct{ ID string }
		flowUpload(t, h.Admin(), a.id, map[string]string{"both.bpmn": flowChain("both", `camunda:candidateUsers="${candidate}" camunda:candidateGroups="clerk"`)}).OK(t, &defs)
		start := func(candidate string) {
			a.admin.PostJSON(flowAPI+"work/start-process", map[string]any{"processDefinitionId": defs[0].ID,
				"variables": map[string]any{"candidate": candidate}}).OK(t, nil)
		}
		start(a.ids["clerk1"]) // clerk1 by name and by role
		start(a.ids["admin"])  // clerk1 and clerk2 by role
		start(a.ids["clerk1"])
		if got := flowList(t, a.clerk1, "claim-list"); len(got) != 3 {
			t.Fatalf("clerk1 (name and role) claims %d tasks, want 3", len(got))
		}
		if got := flowList(t, a.clerk2, "claim-list"); len(got) != 3 {
			t.Fatalf("clerk2 (role) claims %d tasks, want 3", len(got))
		}
		if got := flowList(t, a.admin, "claim-list"); len(got) != 1 {
			t.Fatalf("the admin (name) claims %d tasks, want 1", len(got))
		}
	})
}

// TestFlowManagerTenants: the process manager lists each definition's
// tenants as they are now: a tenant made after the built-in processes were
// deployed is among them, a removed one is not, and a tenant administrator
// sees only their own tenant there.
func TestFlowManagerTenants(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		a := newFlowTenant(t, h, "Manager A")
		b := newFlowTenant(t, h, "Manager B")
		tenantsOf := func(c *apptest.Client) []string {
			t.Helper()
			var defs apptest.Page[struct{ TenantIDs string }]
			c.Get(flowAPI+"manager/list", apptest.Q("key", "approval", "size", "100")).OK(t, &defs)
			if len(defs.Records) != 1 {
				t.Fatalf("approval definitions: %+v", defs.Records)
			}
			return strings.Split(defs.Records[0].TenantIDs, ",")
		}
		if got := tenantsOf(super); !slices.Contains(got, a.id) || !slices.Contains(got, b.id) || !slices.Contains(got, "000000") {
			t.Fatalf("the super user sees tenants %v, want 000000, %s and %s among them", got, a.id, b.id)
		}
		if got := tenantsOf(a.admin); !slices.Equal(got, []string{a.id}) {
			t.Fatalf("tenant A's administrator sees tenants %v, want only %s", got, a.id)
		}
		var page apptest.Page[map[string]any]
		super.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", b.id)).OK(t, &page)
		super.Post("/api/blade-system/tenant/remove", apptest.Q("ids", page.Records[0]["id"].(string))).OK(t, nil)
		if got := tenantsOf(super); slices.Contains(got, b.id) || !slices.Contains(got, a.id) {
			t.Fatalf("after B's removal the super user sees tenants %v", got)
		}
	})
}

// TestFlowWorkLists: the five work lists for an assignee, a candidate
// user and a candidate group, with the same process deployed to two
// tenants whose users never see each other's tasks.
func TestFlowWorkLists(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		a, b := newFlowTenant(t, h, "Flow A"), newFlowTenant(t, h, "Flow B")
		super := h.Admin()
		doc := flowChain("lists", `camunda:assignee="${taskUser}"`, `camunda:candidateUsers="${candidate}"`, `camunda:candidateGroups="clerk"`)
		var defs []struct{ ID, Key string }
		flowUpload(t, super, a.id+","+b.id, map[string]string{"lists.bpmn": doc}).OK(t, &defs)
		// a tenant admin deploys only to their own tenant
		flowUpload(t, a.admin, b.id, map[string]string{"lists.bpmn": doc}).Fail(t, 403)

		var starts apptest.Page[struct{ ID, Key string }]
		a.clerk1.Get(flowAPI+"work/start-list", nil).OK(t, &starts)
		var listsDef string
		for _, d := range starts.Records {
			if d.Key == "lists" {
				listsDef = d.ID
			}
		}
		if listsDef == "" {
			t.Fatalf("start list of A: %+v", starts.Records)
		}
		// clerk1 starts: step 1 assigned to clerk2, step 2 to admin as candidate user, step 3 to the clerk group
		var started struct{ ProcessInstanceID string }
		a.clerk1.PostJSON(flowAPI+"work/start-process", map[string]any{"processDefinitionId": listsDef,
			"variables": map[string]any{"taskUser": a.ids["clerk2"], "candidate": a.ids["admin"]}}).OK(t, &started)
		// the same in B, so B's lists hold tasks too
		b.clerk1.PostJSON(flowAPI+"work/start-process", map[string]any{"processDefinitionId": listsDef,
			"variables": map[string]any{"taskUser": b.ids["clerk2"], "candidate": b.ids["admin"]}}).OK(t, nil)

		if got := flowList(t, a.clerk1, "send-list"); len(got) != 1 || got[0].ProcessInstanceID != started.ProcessInstanceID || got[0].TaskName != "步骤1" {
			t.Fatalf("send list: %+v", got)
		}
		todo := flowList(t, a.clerk2, "todo-list")
		if len(todo) != 1 || todo[0].Status != "todo" || todo[0].Assignee != a.ids["clerk2"] {
			t.Fatalf("todo of the assignee: %+v", todo)
		}
		for _, c := range []*apptest.Client{a.clerk1, a.admin} {
			if got := flowList(t, c, "todo-list"); len(got) != 0 {
				t.Fatalf("todo of someone else: %+v", got)
			}
		}
		// B's users cannot act on A's task
		flowComplete(b.clerk2, todo[0].TaskID, "ok", "").Fail(t, 404)
		b.admin.Get(flowAPI+"process/history-flow-list", apptest.Q("processInstanceId", started.ProcessInstanceID)).Fail(t, 404)
		b.admin.Get(flowAPI+"work/task-detail", apptest.Q("taskId", todo[0].TaskID)).Fail(t, 404)
		// a rejection needs a comment; then clerk2 approves
		flowComplete(a.clerk2, todo[0].TaskID, "reject", "").Fail(t, 400)
		flowComplete(a.clerk2, todo[0].TaskID, "ok", "").OK(t, nil)
		flowComplete(a.clerk2, todo[0].TaskID, "ok", "").Fail(t, 400)
		if done := flowList(t, a.clerk2, "done-list"); len(done) != 1 || done[0].Status != "finish" || done[0].Comment != "同意" {
			t.Fatalf("done list: %+v", done)
		}
		// step 2: the admin is a candidate user
		claim := flowList(t, a.admin, "claim-list")
		if len(claim) != 1 || claim[0].Status != "claim" || claim[0].TaskDefinitionKey != "t2" {
			t.Fatalf("claim list of the candidate user: %+v", claim)
		}
		if got := flowList(t, a.clerk1, "claim-list"); len(got) != 0 {
			t.Fatalf("claim list of a non-candidate: %+v", got)
		}
		var count struct{ Todo, Claim int }
		a.admin.Get(flowAPI+"work/todo-count", nil).OK(t, &count)
		if count.Todo != 0 || count.Claim != 1 {
			t.Fatalf("todo-count %+v", count)
		}
		a.clerk1.Post(flowAPI+"work/claim-task", apptest.Q("taskId", claim[0].TaskID)).Fail(t, 403)
		a.admin.Post(flowAPI+"work/claim-task", apptest.Q("taskId", claim[0].TaskID)).OK(t, nil)
		if got := flowList(t, a.admin, "todo-list"); len(got) != 1 || got[0].TaskID != claim[0].TaskID {
			t.Fatalf("claimed task not on the todo list: %+v", got)
		}
		flowComplete(a.admin, claim[0].TaskID, "ok", "可以").OK(t, nil)
		// step 3: the clerk group, in A only
		for _, c := range []*apptest.Client{a.clerk1, a.clerk2} {
			if got := flowList(t, c, "claim-list"); len(got) != 1 || got[0].TaskDefinitionKey != "t3" {
				t.Fatalf("claim list of the group: %+v", got)
			}
		}
		if got := flowList(t, b.clerk1, "claim-list"); len(got) != 0 {
			t.Fatalf("B's clerk sees A's group task: %+v", got)
		}
		group := flowList(t, a.clerk1, "claim-list")[0]
		var detail struct {
			TaskID    string         `json:"taskId"`
			Variables map[string]any `json:"variables"`
		}
		a.clerk1.Get(flowAPI+"work/task-detail", apptest.Q("taskId", group.TaskID)).OK(t, &detail)
		if detail.Variables["taskUser"] != a.ids["clerk2"] {
			t.Fatalf("task detail: %+v", detail)
		}
		flowComplete(a.clerk1, group.TaskID, "ok", "").OK(t, nil)
		if got := flowList(t, a.clerk2, "claim-list"); len(got) != 0 {
			t.Fatalf("completed group task still claimable: %+v", got)
		}
		if got := flowList(t, a.clerk1, "send-list"); len(got) != 1 || got[0].ProcessIsFinished != "finished" {
			t.Fatalf("send list after the end: %+v", got)
		}
		var hist []struct {
			HistoryActivityID, HistoryActivityType, AssigneeName, Comment string
			Pass                                                          *bool
		}
		a.clerk1.Get(flowAPI+"process/history-flow-list", apptest.Q("processInstanceId", started.ProcessInstanceID)).OK(t, &hist)
		var ids []string
		for _, h := range hist {
			ids = append(ids, h.HistoryActivityID)
		}
		if strings.Join(ids, ",") != "start,t1,t2,t3,end" || hist[2].Comment != "可以" || hist[2].Pass == nil || !*hist[2].Pass {
			t.Fatalf("history: %+v", hist)
		}
		var dia struct {
			Finished   bool
			Result     string
			Activities []struct{ ActivityID, State string }
			Flows      []string
		}
		a.clerk2.Get(flowAPI+"process/diagram", apptest.Q("processInstanceId", started.ProcessInstanceID)).OK(t, &dia)
		if !dia.Finished || dia.Result != "approved" || len(dia.Flows) != 4 || len(dia.Activities) != 5 {
			t.Fatalf("diagram: %+v", dia)
		}
		// B's instance is untouched: its step 1 waits for B's clerk2
		if got := flowList(t, b.clerk2, "todo-list"); len(got) != 1 {
			t.Fatalf("B's todo: %+v", got)
		}
	})
}

// TestFlowManagement: models saved (unsupported elements refused naming
// them), deployed, suspended, followed and deleted; every screen needs its
// menu button.
func TestFlowManagement(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		a := newFlowTenant(t, h, "Flow M")
		admin := a.admin
		bad := flowDoc("m1", `<bpmn:startEvent id="s"/><bpmn:scriptTask id="script9"/>`)
		msg := admin.PostJSON(flowAPI+"model/submit", map[string]any{"modelKey": "m1", "name": "模型", "xml": bad}).Fail(t, 400)
		if !strings.Contains(msg, "scriptTask") || !strings.Contains(msg, "script9") {
			t.Fatalf("refusal does not name the element: %s", msg)
		}
		var m struct{ ID string }
		admin.PostJSON(flowAPI+"model/submit", map[string]any{"modelKey": "m1", "name": "模型", "category": "3",
			"xml": flowChain("m1", `camunda:candidateGroups="admin"`)}).OK(t, &m)
		a.clerk1.Get(flowAPI+"model/list", nil).Fail(t, 403)
		var models apptest.Page[struct{ ID, ModelKey string }]
		admin.Get(flowAPI+"model/list", nil).OK(t, &models)
		if models.Total != 1 || models.Records[0].ModelKey != "m1" {
			t.Fatalf("models: %+v", models)
		}
		var def struct{ ID, Key string }
		admin.Post(flowAPI+"model/deploy", apptest.Q("modelId", m.ID, "category", "document")).Fail(t, 400) // a key of the flow dictionary, not its remark
		admin.Post(flowAPI+"model/deploy", apptest.Q("modelId", m.ID, "category", "3")).OK(t, &def)
		var started struct{ ProcessInstanceID string }
		a.clerk1.PostJSON(flowAPI+"work/start-process", map[string]any{"processDefinitionId": def.ID}).OK(t, &started)
		admin.Post(flowAPI+"manager/change-state", apptest.Q("state", "suspend", "processId", def.ID)).OK(t, nil)
		a.clerk1.PostJSON(flowAPI+"work/start-process", map[string]any{"processDefinitionId": def.ID}).Fail(t, 400)
		admin.Post(flowAPI+"manager/change-state", apptest.Q("state", "active", "processId", def.ID)).OK(t, nil)
		a.clerk1.Post(flowAPI+"manager/change-state", apptest.Q("state", "suspend", "processId", def.ID)).Fail(t, 403)
		var follow apptest.Page[struct{ ProcessInstanceID, TaskNames string }]
		admin.Get(flowAPI+"follow/list", nil).OK(t, &follow)
		if follow.Total != 1 || follow.Records[0].TaskNames != "步骤1" {
			t.Fatalf("follow: %+v", follow)
		}
		var defs apptest.Page[struct{ ID, DeploymentID string }]
		admin.Get(flowAPI+"manager/list", apptest.Q("key", "m1")).OK(t, &defs)
		admin.Post(flowAPI+"manager/delete-deployment", apptest.Q("deploymentIds", defs.Records[0].DeploymentID)).Fail(t, 400)
		admin.Post(flowAPI+"follow/delete-process-instance", apptest.Q("processInstanceId", started.ProcessInstanceID)).Fail(t, 400)
		admin.Post(flowAPI+"follow/delete-process-instance", apptest.Q("processInstanceId", started.ProcessInstanceID, "deleteReason", "测试")).OK(t, nil)
		admin.Post(flowAPI+"manager/delete-deployment", apptest.Q("deploymentIds", defs.Records[0].DeploymentID)).OK(t, nil)
		admin.Get(flowAPI+"manager/definition-xml", apptest.Q("processId", def.ID)).Fail(t, 404)
		admin.Post(flowAPI+"model/remove", apptest.Q("ids", m.ID)).OK(t, nil)
	})
}

// TestFlowEndpointsRefuse: every blade-flow and blade-desk process endpoint
// is routed and refuses an empty or malformed request with a 4xx.
func TestFlowEndpointsRefuse(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		eps := append(endpointsOf(t, "/api/blade-flow/"), endpointsOf(t, "/api/blade-desk/process/")...)
		for _, ep := range []string{"GET model/detail", "POST model/submit", "GET manager/definition-xml", "GET process/diagram",
			"GET work/task-detail", "POST work/start-process"} {
			method, path, _ := strings.Cut(ep, " ")
			eps = append(eps, [2]string{method, flowAPI + path})
		}
		if len(eps) < 23 {
			t.Fatalf("only %d endpoints", len(eps))
		}
		lists := map[string]bool{"start-list": true, "claim-list": true, "todo-list": true, "send-list": true, "done-list": true, "list": true}
		checkEndpointsRefuse(t, h.Admin(), eps, lists, "&taskId=zz&processInstanceId=zz&businessId=zz&processId=zz&modelId=zz&deploymentIds=,x&state=x")
		h.Admin().Get(flowAPI+"work/todo-count", nil).OK(t, nil)
	})
}

// flowBind binds a document type (flow_route key) to a process key in
// the system dictionary, as the super user.
func flowBind(t *testing.T, super *apptest.Client, route, key string) {
	t.Helper()
	var items []struct{ ID, DictKey string }
	super.Get("/api/blade-system/dict/dictionary", apptest.Q("code", "flow_route")).OK(t, &items)
	for _, it := range items {
		if it.DictKey == route {
			super.Edit("/api/blade-system/dict/submit", map[string]any{"id": it.ID, "remark": key}).OK(t, nil)
			return
		}
	}
	t.Fatalf("no flow_route entry %s", route)
}

// TestFlowMaterialApproval: a material submitted with a bound process goes
// into approval, is claimed and approved by a second user; another is
// rejected by a third, edited and submitted again; a third is voided while
// in approval, which deletes its process; a tenant without the process
// deployed is refused, one left unbound would approve at once.
func TestFlowMaterialApproval(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		a := newFlowTenant(t, h, "Flow Mat")
		flowUpload(t, super, a.id, map[string]string{"mat.bpmn": flowChain("matflow", `camunda:candidateGroups="clerk"`)}).OK(t, nil)
		flowBind(t, super, "material", "matflow")
		type material struct {
			ID     string `json:"id"`
			Status int    `json:"status"`
		}
		newMat := func(code string) material {
			var m material
			a.admin.PostJSON(basic+"material/submit", map[string]any{"materialCode": code, "materialName": "物料" + code, "unit": "pcs"}).OK(t, &m)
			return m
		}
		status := func(id string) int {
			var m material
			a.admin.Get(basic+"material/detail", apptest.Q("id", id)).OK(t, &m)
			return m.Status
		}
		m1 := newMat("F1")
		a.admin.Post(basic+"material/startProcess", apptest.Q("ids", m1.ID)).OK(t, nil)
		if s := status(m1.ID); s != 2 {
			t.Fatalf("material in approval: status %d", s)
		}
		a.admin.Edit(basic+"material/submit", map[string]any{"id": m1.ID, "materialName": "改名"}).Fail(t, 400)
		claim := flowList(t, a.clerk1, "claim-list")
		if len(claim) != 1 || claim[0].BusinessTable != "bb_material" || claim[0].BusinessID != m1.ID {
			t.Fatalf("claim list: %+v", claim)
		}
		var detail struct {
			Resource struct{ Service, Name string }
		}
		a.clerk1.Get(flowAPI+"work/task-detail", apptest.Q("taskId", claim[0].TaskID)).OK(t, &detail)
		if detail.Resource.Service != "bluebird-basic" || detail.Resource.Name != "material" {
			t.Fatalf("task detail resource: %+v", detail)
		}
		a.clerk1.Post(flowAPI+"work/claim-task", apptest.Q("taskId", claim[0].TaskID)).OK(t, nil)
		flowComplete(a.clerk1, claim[0].TaskID, "ok", "").OK(t, nil)
		if s := status(m1.ID); s != 3 {
			t.Fatalf("approved material: status %d", s)
		}
		var procs apptest.Page[struct {
			ProcessStatus     int    `json:"processStatus"`
			ProcessInstanceID string `json:"processInstanceId"`
		}]
		a.admin.Get(basic+"tgprocess/page", apptest.Q("bizId", m1.ID)).OK(t, &procs)
		if len(procs.Records) == 0 || procs.Records[0].ProcessStatus != 2 || procs.Records[0].ProcessInstanceID == "" {
			t.Fatalf("approval record: %+v", procs.Records)
		}

		// rejected by a third user, edited, submitted again
		m2 := newMat("F2")
		a.admin.Post(basic+"material/startProcess", apptest.Q("ids", m2.ID)).OK(t, nil)
		task := flowList(t, a.clerk2, "claim-list")[0]
		flowComplete(a.clerk2, task.TaskID, "reject", "规格不对").OK(t, nil)
		if s := status(m2.ID); s != 4 {
			t.Fatalf("rejected material: status %d", s)
		}
		var hist []struct{ HistoryActivityID, Comment string }
		a.admin.Get(flowAPI+"process/history-flow-list", apptest.Q("businessKey", "bb_material:"+m2.ID)).OK(t, &hist)
		if len(hist) != 2 || hist[1].Comment != "规格不对" {
			t.Fatalf("history of the rejection: %+v", hist)
		}
		a.admin.Edit(basic+"material/submit", map[string]any{"id": m2.ID, "materialName": "改好了"}).OK(t, nil)
		a.admin.Post(basic+"material/startProcess", apptest.Q("ids", m2.ID)).OK(t, nil)
		if s := status(m2.ID); s != 2 {
			t.Fatalf("resubmitted material: status %d", s)
		}

		// voided while in approval: its process is deleted
		m3 := newMat("F3")
		a.admin.Post(basic+"material/startProcess", apptest.Q("ids", m3.ID)).OK(t, nil)
		a.admin.Post(basic+"material/cancellation", apptest.Q("ids", m3.ID)).OK(t, nil)
		if s := status(m3.ID); s != 5 {
			t.Fatalf("voided material: status %d", s)
		}
		var follow apptest.Page[struct{ BusinessKey string }]
		a.admin.Get(flowAPI+"follow/list", nil).OK(t, &follow)
		for _, f := range follow.Records {
			if f.BusinessKey == "bb_material:"+m3.ID {
				t.Fatal("the voided material's process still runs")
			}
		}
		if got := flowList(t, a.clerk1, "claim-list"); len(got) != 1 || got[0].BusinessID != m2.ID {
			t.Fatalf("claim list after the void: %+v", got)
		}

		// a tenant the bound process is not deployed to cannot submit
		_, other := h.NewTenant("Flow Other")
		var m4 material
		other.PostJSON(basic+"material/submit", map[string]any{"materialCode": "O1", "materialName": "物料", "unit": "pcs"}).OK(t, &m4)
		if msg := other.Post(basic+"material/startProcess", apptest.Q("ids", m4.ID)).Fail(t, 400); !strings.Contains(msg, "matflow") {
			t.Fatalf("refusal: %s", msg)
		}
		// unbound: approved at once
		flowBind(t, super, "material", "")
		other.Post(basic+"material/startProcess", apptest.Q("ids", m4.ID)).OK(t, nil)
	})
}

// TestFlowBindings: a tenant administrator binds document types to a
// process deployed to their tenant from the process manager; the binding
// holds in that tenant only, an unknown type or a process deployed
// elsewhere is refused without writing anything, a clerk may not bind, and
// unbinding overrides a default the system dictionary names.
func TestFlowBindings(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		a, b := newFlowTenant(t, h, "Bind A"), newFlowTenant(t, h, "Bind B")
		var defs []struct{ ID, Key string }
		flowUpload(t, super, a.id+","+b.id, map[string]string{"bind.bpmn": flowChain("bindflow", `camunda:candidateGroups="clerk"`)}).OK(t, &defs)
		var onlyA []struct{ ID, Key string }
		flowUpload(t, super, a.id, map[string]string{"onlya.bpmn": flowChain("onlyaflow", `camunda:candidateGroups="clerk"`)}).OK(t, &onlyA)
		if len(defs) != 1 || len(onlyA) != 1 {
			t.Fatalf("deployed: %+v %+v", defs, onlyA)
		}
		type binding struct {
			Route, Label, ProcessKey string
			Bound                    bool
		}
		routes := func(c *apptest.Client, def string) map[string]binding {
			var list []binding
			c.Get(flowAPI+"manager/routes", apptest.Q("processId", def)).OK(t, &list)
			out := map[string]binding{}
			for _, r := range list {
				out[r.Route] = r
			}
			return out
		}
		if m := routes(a.admin, defs[0].ID)["material"]; m.Label != "物料" || m.Bound || m.ProcessKey != "" {
			t.Fatalf("material before binding: %+v", m)
		}
		a.admin.Post(flowAPI+"manager/bind", apptest.Q("processId", defs[0].ID, "routes", "material,customer")).OK(t, nil)
		if r := routes(a.admin, defs[0].ID); !r["material"].Bound || !r["customer"].Bound || r["supplier"].Bound {
			t.Fatalf("after binding: %+v %+v %+v", r["material"], r["customer"], r["supplier"])
		}
		// the other tenant, with the same process deployed, is unchanged
		if m := routes(b.admin, defs[0].ID)["material"]; m.Bound || m.ProcessKey != "" {
			t.Fatalf("tenant B sees A's binding: %+v", m)
		}
		submit := func(c *apptest.Client, code string) int {
			var m struct {
				ID     string `json:"id"`
				Status int    `json:"status"`
			}
			c.PostJSON(basic+"material/submit", map[string]any{"materialCode": code, "materialName": "物料" + code, "unit": "pcs"}).OK(t, &m)
			c.Post(basic+"material/startProcess", apptest.Q("ids", m.ID)).OK(t, nil)
			c.Get(basic+"material/detail", apptest.Q("id", m.ID)).OK(t, &m)
			return m.Status
		}
		if s := submit(a.admin, "BA1"); s != 2 {
			t.Fatalf("bound tenant: material status %d, want 2 (in approval)", s)
		}
		if s := submit(b.admin, "BB1"); s != 3 {
			t.Fatalf("unbound tenant: material status %d, want 3 (approved at once)", s)
		}
		if got := flowList(t, a.clerk1, "claim-list"); len(got) != 1 {
			t.Fatalf("A's clerk claim list: %+v", got)
		}

		// refused, and nothing written
		a.admin.Post(flowAPI+"manager/bind", apptest.Q("processId", defs[0].ID, "routes", "supplier,nosuchtype")).Fail(t, 400)
		if r := routes(a.admin, defs[0].ID); r["supplier"].Bound || !r["material"].Bound {
			t.Fatal("a refused binding changed the bindings")
		}
		b.admin.Post(flowAPI+"manager/bind", apptest.Q("processId", onlyA[0].ID, "routes", "material")).Fail(t, 404)
		b.admin.Get(flowAPI+"manager/routes", apptest.Q("processId", onlyA[0].ID)).Fail(t, 404)
		super.Post(flowAPI+"manager/bind", apptest.Q("processId", onlyA[0].ID, "routes", "material")).Fail(t, 400)
		a.clerk1.Post(flowAPI+"manager/bind", apptest.Q("processId", defs[0].ID, "routes", "supplier")).Fail(t, 403)
		a.clerk1.Get(flowAPI+"manager/routes", apptest.Q("processId", defs[0].ID)).Fail(t, 403)

		// another process takes material over; then A unbinds everything from it, which
		// also overrides a default in the system dictionary
		a.admin.Post(flowAPI+"manager/bind", apptest.Q("processId", onlyA[0].ID, "routes", "material")).OK(t, nil)
		if r := routes(a.admin, defs[0].ID); r["material"].Bound || r["material"].ProcessKey != "onlyaflow" || !r["customer"].Bound {
			t.Fatalf("material moved to onlyaflow: %+v %+v", r["material"], r["customer"])
		}
		flowBind(t, super, "material", "bindflow")
		a.admin.Post(flowAPI+"manager/bind", apptest.Q("processId", onlyA[0].ID, "routes", "")).OK(t, nil)
		if s := submit(a.admin, "BA2"); s != 3 {
			t.Fatalf("unbound in A over a dictionary default: status %d, want 3", s)
		}
		if s := submit(b.admin, "BB2"); s != 2 {
			t.Fatalf("B follows the dictionary default: status %d, want 2", s)
		}

		// a tenant's own business dictionary names a default over the system's: B sends
		// suppliers through bindflow, while A (with the same process) stays unbound
		var root map[string]any
		b.admin.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"code": "flow_route", "dictKey": "-1", "dictValue": "审批路由", "sort": 1, "isSealed": 0}).OK(t, &root)
		b.admin.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"parentId": root["id"], "code": "flow_route", "dictKey": "supplier",
			"dictValue": "供应商", "remark": "bindflow", "sort": 1, "isSealed": 0}).OK(t, nil)
		if r := routes(b.admin, defs[0].ID); !r["supplier"].Bound || r["supplier"].ProcessKey != "bindflow" || !r["material"].Bound {
			t.Fatalf("B's business dictionary default: %+v %+v", r["supplier"], r["material"])
		}
		if r := routes(a.admin, defs[0].ID); r["supplier"].Bound || r["supplier"].ProcessKey != "" {
			t.Fatalf("A sees B's business dictionary default: %+v", r["supplier"])
		}
	})
}
