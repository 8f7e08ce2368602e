package flow

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

var (
	msgSaved          = i18n.T("保存成功", "Saved")
	msgRemoved        = i18n.T("删除成功", "Deleted")
	msgDeployed       = i18n.T("部署成功", "Deployed")
	msgStateChanged   = i18n.T("状态变更成功", "State changed")
	msgNoModel        = i18n.T("模型不存在", "No such model")
	msgNoDefinition   = i18n.T("流程定义不存在", "No such process definition")
	msgModelKey       = i18n.T("模型标识只能包含字母、数字、下划线和横线, 以字母开头, 最多64个字符", "The model key may hold only letters, digits, _ and -, start with a letter, and have at most 64 characters")
	msgModelName      = i18n.T("模型名称不能为空, 最多128个字符", "The model name is required, at most 128 characters")
	msgModelText      = i18n.T("描述最多500个字符, 分类最多64个字符", "The description may hold at most 500 characters and the category 64")
	msgKeyMismatch    = i18n.T("流程XML的标识 %s 与模型标识 %s 不一致", "The process id %s in the XML differs from the model key %s")
	msgKeyTaken       = i18n.T("模型标识 %s 已存在", "The model key %s is already used")
	msgBadState       = i18n.T("state 只能是 active 或 suspend", "state must be active or suspend")
	msgOtherTenant    = i18n.T("只能部署到本租户", "You may deploy only to your own tenant")
	msgNoSuchTenant   = i18n.T("租户 %s 不存在", "There is no tenant %s")
	msgNoFiles        = i18n.T("请选择要部署的流程文件", "Choose the process files to deploy")
	msgBadFile        = i18n.T("文件 %s 不是 .bpmn 或 .xml 文件", "The file %s is not a .bpmn or .xml file")
	msgTooManyFiles   = i18n.T("一次最多部署20个文件", "At most 20 files at once")
	msgFileError      = i18n.T("文件 %s: %s", "File %s: %s")
	msgRunningLeft    = i18n.T("流程 %s 还有 %d 个运行中的实例, 请先在流程跟踪中删除", "The process %s still has %d running instances; delete them in process tracking first")
	msgNotOwner       = i18n.T("只能管理本租户部署的流程", "You may manage only the processes your tenant deployed")
	msgReasonRequired = i18n.T("请填写删除原因(最多500字)", "Give a reason for the deletion (at most 500 characters)")
)

// ModelView is a model on the wire.
type ModelView struct {
	ID          wire.ID   `json:"id"`
	ModelKey    string    `json:"modelKey"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Category    string    `json:"category"`
	XML         string    `json:"xml,omitempty"`
	Version     int       `json:"version"`
	CreateTime  wire.Time `json:"createTime"`
	UpdateTime  wire.Time `json:"updateTime"`
	TenantID    string    `json:"tenantId"`
}

func viewOf(m *Model, withXML bool) ModelView {
	v := ModelView{ID: m.ID, ModelKey: m.ModelKey, Name: m.Name, Description: m.Description, Category: m.Category,
		Version: m.Version, CreateTime: m.CreateTime, UpdateTime: m.UpdateTime, TenantID: m.TenantID}
	if withXML {
		v.XML = m.XML
	}
	return v
}

func (s *Service) handleModelList(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_model_view"); err != nil {
		return nil, err
	}
	pg, err := httpx.ParsePaging(r.URL.Query())
	if err != nil {
		return nil, err
	}
	var rows []Model
	q := s.DB.NewSelect().Model(&rows).ExcludeColumn("xml").Where("tenant_id = ? AND is_deleted = 0", authz.From(ctx).TenantID)
	if n := strings.TrimSpace(r.URL.Query().Get("name")); n != "" {
		q = q.Where("name LIKE ? ESCAPE '\\'", "%"+db.EscapeLike(n)+"%")
	}
	total, err := q.OrderExpr("id DESC").Limit(int64(pg.Size)).Offset(int64(pg.Offset())).ScanAndCount(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ModelView, len(rows))
	for i := range rows {
		out[i] = viewOf(&rows[i], false)
	}
	return httpx.NewPage(out, int64(total), pg.Current, pg.Size), nil
}

func (s *Service) model(ctx context.Context, idb bun.IDB, id wire.ID) (*Model, error) {
	m := new(Model)
	err := idb.NewSelect().Model(m).Where("id = ? AND tenant_id = ? AND is_deleted = 0", id, authz.From(ctx).TenantID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &httpx.Error{Status: 404, Msg: msgNoModel}
	}
	return m, err
}

func (s *Service) handleModelDetail(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_model_view", "flow_model_edit"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	m, err := s.model(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	return viewOf(m, true), nil
}

// ModelRequest is the body of model/submit.
type ModelRequest struct {
	ID          wire.ID `json:"id"`
	ModelKey    string  `json:"modelKey"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Category    string  `json:"category"`
	XML         string  `json:"xml"`
}

// handleModelSubmit saves a model; its XML must parse (an unsupported
// element is refused here, not at deploy).
func (s *Service) handleModelSubmit(r *http.Request) (any, error) {
	ctx := r.Context()
	var req ModelRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return nil, err
	}
	codes := []string{"flow_model_add"}
	if req.ID != 0 {
		codes = []string{"flow_model_edit"}
	}
	if err := s.holds(ctx, codes...); err != nil {
		return nil, err
	}
	req.ModelKey, req.Name = strings.TrimSpace(req.ModelKey), strings.TrimSpace(req.Name)
	switch {
	case !validKey(req.ModelKey):
		return nil, httpx.BadRequest(msgModelKey)
	case req.Name == "" || len([]rune(req.Name)) > 128:
		return nil, httpx.BadRequest(msgModelName)
	case len([]rune(req.Description)) > 500 || len(req.Category) > 64:
		return nil, httpx.BadRequest(msgModelText)
	}
	if err := s.checkCategory(ctx, strings.TrimSpace(req.Category)); err != nil {
		return nil, err
	}
	proc, err := Parse([]byte(req.XML))
	if err != nil {
		return nil, err
	}
	if proc.Key != req.ModelKey {
		return nil, httpx.BadRequest(msgKeyMismatch.Format(proc.Key, req.ModelKey))
	}
	p := authz.From(ctx)
	var m *Model
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		now := wire.Now()
		if req.ID == 0 {
			m = &Model{ID: db.NewID(), TenantID: p.TenantID, CreateUser: p.UserID, CreateDept: p.DeptID, CreateTime: now, Status: 1, RowVersion: 1}
		} else {
			var err error
			if m, err = s.model(ctx, tx, req.ID); err != nil {
				return err
			}
		}
		m.UpdateUser, m.UpdateTime = p.UserID, now
		m.ModelKey, m.Name, m.Description, m.Category, m.XML = req.ModelKey, req.Name, req.Description, req.Category, req.XML
		m.Version++
		var err error
		if req.ID == 0 {
			_, err = tx.NewInsert().Model(m).Exec(ctx)
		} else {
			_, err = tx.NewUpdate().Model(m).WherePK().Where("tenant_id = ?", p.TenantID).Exec(ctx)
		}
		if db.IsUniqueViolation(err) {
			return httpx.BadRequest(msgKeyTaken.Format(req.ModelKey))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgSaved, Data: viewOf(m, true)}, nil
}

func (s *Service) handleModelRemove(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_model_delete"); err != nil {
		return nil, err
	}
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		res, err := tx.NewUpdate().Table("bb_flow_model").Set("is_deleted = 1").Set("update_time = ?", wire.Now()).
			Where("id IN (?) AND tenant_id = ? AND is_deleted = 0", bun.In(ids), authz.From(ctx).TenantID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); int(n) != len(ids) {
			return &httpx.Error{Status: 404, Msg: msgNoModel}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgRemoved, Data: true}, nil
}

// deployTenants reads tenantIds: the caller's tenant when empty; other
// tenants only for the super user, and only tenants that exist.
func (s *Service) deployTenants(ctx context.Context, idb bun.IDB, raw string) ([]string, error) {
	p := authz.From(ctx)
	tenants := splitTenants(raw)
	if len(tenants) == 0 {
		return []string{p.TenantID}, nil
	}
	if len(tenants) > 200 {
		return nil, httpx.InvalidParam("tenantIds")
	}
	for _, t := range tenants {
		if t != p.TenantID && !p.IsSuper() {
			return nil, &httpx.Error{Status: 403, Msg: msgOtherTenant}
		}
		if len(t) > 12 {
			return nil, httpx.InvalidParam("tenantIds")
		}
		if s.TenantExists != nil {
			ok, err := s.TenantExists(ctx, idb, t)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, httpx.BadRequest(msgNoSuchTenant.Format(t))
			}
		}
	}
	return tenants, nil
}

func (s *Service) handleModelDeploy(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_model_deploy"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "modelId")
	if err != nil {
		return nil, err
	}
	category := strings.TrimSpace(r.URL.Query().Get("category"))
	if err := s.checkCategory(ctx, category); err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	var def *Definition
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		m, err := s.model(ctx, tx, id)
		if err != nil {
			return err
		}
		tenants, err := s.deployTenants(ctx, tx, r.URL.Query().Get("tenantIds"))
		if err != nil {
			return err
		}
		if category == "" {
			category = m.Category
		}
		def, err = s.Engine.Deploy(ctx, tx, DeployInput{XML: m.XML, ResourceName: m.ModelKey + ".bpmn20.xml", Category: category,
			TenantIDs: tenants, Owner: p.TenantID, User: p.UserID})
		return err
	})
	if err != nil {
		return nil, err
	}
	view, err := s.definitionView(ctx, def)
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgDeployed, Data: view}, nil
}

// DefinitionView is a definition on the wire (start-list and manager/list).
type DefinitionView struct {
	ID              wire.ID   `json:"id"`
	TenantID        string    `json:"tenantId"`
	Name            string    `json:"name"`
	Key             string    `json:"key"`
	Category        string    `json:"category"`
	CategoryName    string    `json:"categoryName"`
	Version         int       `json:"version"`
	DeploymentID    wire.ID   `json:"deploymentId"`
	ResourceName    string    `json:"resourceName"`
	SuspensionState int       `json:"suspensionState"`
	DeploymentTime  wire.Time `json:"deploymentTime"`
	TenantIDs       string    `json:"tenantIds"`
}

func (s *Service) definitionView(ctx context.Context, d *Definition) (DefinitionView, error) {
	views, err := s.definitionViews(ctx, []Definition{*d})
	if err != nil {
		return DefinitionView{}, err
	}
	return views[0], nil
}

// definitionViews are the definitions as the screens show them. Their
// tenants are read from the deployment links, which also hold the tenants
// made after the deployment (Provision), less removed tenants; a tenant's
// own caller sees only itself among them.
func (s *Service) definitionViews(ctx context.Context, defs []Definition) ([]DefinitionView, error) {
	out := make([]DefinitionView, len(defs))
	if len(defs) == 0 {
		return out, nil
	}
	ids := make([]wire.ID, len(defs))
	for i := range defs {
		ids[i] = defs[i].ID
	}
	var links []struct {
		DefinitionID wire.ID `bun:"definition_id"`
		TenantID     string  `bun:"tenant_id"`
	}
	q := s.DB.NewSelect().Table("bb_flow_definition_tenant").Column("definition_id", "tenant_id").
		Where("definition_id IN (?)", bun.In(ids)).
		Where("tenant_id IN (SELECT tenant_id FROM blade_tenant WHERE is_deleted = 0)").OrderExpr("tenant_id")
	if p := authz.From(ctx); !p.IsSuper() {
		q = q.Where("tenant_id = ?", p.TenantID)
	}
	if err := q.Scan(ctx, &links); err != nil {
		return nil, err
	}
	tenants := make(map[wire.ID][]string, len(defs))
	for _, l := range links {
		tenants[l.DefinitionID] = append(tenants[l.DefinitionID], l.TenantID)
	}
	names := s.categoryNames(ctx)
	for i, d := range defs {
		out[i] = DefinitionView{ID: d.ID, TenantID: d.TenantID, Name: d.Name, Key: d.Key, Category: d.Category, CategoryName: names[d.Category],
			Version: d.Version, DeploymentID: d.DeploymentID, ResourceName: d.ResourceName, SuspensionState: d.SuspensionState,
			DeploymentTime: d.DeployTime, TenantIDs: strings.Join(tenants[d.ID], ",")}
	}
	return out, nil
}

// definitions lists definitions deployed to the caller's tenant (every
// tenant's for the super user), with the lists' filters.
func (s *Service) definitions(r *http.Request, latestActive bool) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	pg, err := httpx.ParsePaging(r.URL.Query())
	if err != nil {
		return nil, err
	}
	var rows []Definition
	q := s.DB.NewSelect().Model(&rows).ExcludeColumn("xml").Where("is_deleted = 0")
	if latestActive || !p.IsSuper() {
		q = q.Where("id IN (SELECT definition_id FROM bb_flow_definition_tenant WHERE tenant_id = ?)", p.TenantID)
	}
	if latestActive {
		q = q.Where("suspension_state = ?", Active).
			Where(`def_version = (SELECT MAX(d2.def_version) FROM bb_flow_definition AS d2 JOIN bb_flow_definition_tenant AS dt2
				ON dt2.definition_id = d2.id AND dt2.tenant_id = ? WHERE d2.def_key = definition.def_key AND d2.is_deleted = 0 AND d2.suspension_state = ?)`, p.TenantID, Active)
	}
	v := r.URL.Query()
	if c := strings.TrimSpace(v.Get("category")); c != "" {
		q = q.Where("category = ?", c)
	}
	if k := strings.TrimSpace(v.Get("key")); k != "" {
		q = q.Where("def_key LIKE ? ESCAPE '\\'", "%"+db.EscapeLike(k)+"%")
	}
	if n := strings.TrimSpace(v.Get("name")); n != "" {
		q = q.Where("name LIKE ? ESCAPE '\\'", "%"+db.EscapeLike(n)+"%")
	}
	total, err := q.OrderExpr("def_key ASC, def_version DESC").Limit(int64(pg.Size)).Offset(int64(pg.Offset())).ScanAndCount(ctx)
	if err != nil {
		return nil, err
	}
	views, err := s.definitionViews(ctx, rows)
	if err != nil {
		return nil, err
	}
	return httpx.NewPage(views, int64(total), pg.Current, pg.Size), nil
}

func (s *Service) handleStartList(r *http.Request) (any, error) { return s.definitions(r, true) }

func (s *Service) handleManagerList(r *http.Request) (any, error) {
	if err := s.holds(r.Context(), "flow_manager_view", "flow_deploy_view"); err != nil {
		return nil, err
	}
	return s.definitions(r, false)
}

// definition loads a definition visible to the caller (deployed to their tenant, or any for the super user).
func (s *Service) definition(ctx context.Context, idb bun.IDB, id wire.ID) (*Definition, error) {
	p := authz.From(ctx)
	d := new(Definition)
	q := idb.NewSelect().Model(d).Where("id = ? AND is_deleted = 0", id)
	if !p.IsSuper() {
		q = q.Where("(tenant_id = ? OR id IN (SELECT definition_id FROM bb_flow_definition_tenant WHERE tenant_id = ?))", p.TenantID, p.TenantID)
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, &httpx.Error{Status: 404, Msg: msgNoDefinition}
		}
		return nil, err
	}
	return d, nil
}

func (s *Service) handleDefinitionXML(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_manager_view", "flow_deploy_view", "flow_model_view"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "processId")
	if err != nil {
		return nil, err
	}
	d, err := s.definition(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	return map[string]string{"xml": d.XML}, nil
}

// handleChangeState suspends or activates a definition the caller's tenant deployed.
func (s *Service) handleChangeState(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_manager_state"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "processId")
	if err != nil {
		return nil, err
	}
	state := map[string]int{"active": Active, "suspend": Suspended}[r.URL.Query().Get("state")]
	if state == 0 {
		return nil, httpx.BadRequest(msgBadState)
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		d, err := s.owned(ctx, tx, id)
		if err != nil {
			return err
		}
		_, err = tx.NewUpdate().Table("bb_flow_definition").Set("suspension_state = ?", state).Set("update_time = ?", wire.Now()).
			Set("version = version + 1").Where("id = ?", d.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgStateChanged, Data: true}, nil
}

// owned loads a definition the caller may change: deployed by their tenant.
func (s *Service) owned(ctx context.Context, idb bun.IDB, id wire.ID) (*Definition, error) {
	d, err := s.definition(ctx, idb, id)
	if err != nil {
		return nil, err
	}
	if p := authz.From(ctx); !p.IsSuper() && d.TenantID != p.TenantID {
		return nil, &httpx.Error{Status: 403, Msg: msgNotOwner}
	}
	return d, nil
}

var msgNoCategory = i18n.T("流程分类 %s 不存在", "There is no process category %s")

// checkCategory accepts no category or a key of the flow dictionary (a
// definition filed under anything else would show no category name).
func (s *Service) checkCategory(ctx context.Context, category string) error {
	if category == "" {
		return nil
	}
	if _, ok := s.categoryNames(ctx)[category]; !ok {
		return httpx.BadRequest(msgNoCategory.Format(category))
	}
	return nil
}

// maxUpload bounds one upload's files.
const maxUpload = 8 << 20

// handleDeployUpload deploys uploaded BPMN files (multipart files,
// category, tenantIds) as one deployment: all or none.
func (s *Service) handleDeployUpload(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_deploy_upload"); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return nil, httpx.BadRequest(msgNoFiles)
	}
	if err := r.ParseMultipartForm(maxUpload); err != nil {
		return nil, httpx.BadRequest(msgNoFiles)
	}
	files := r.MultipartForm.File["files"]
	if len(files) == 0 {
		files = r.MultipartForm.File["file"]
	}
	switch {
	case len(files) == 0:
		return nil, httpx.BadRequest(msgNoFiles)
	case len(files) > 20:
		return nil, httpx.BadRequest(msgTooManyFiles)
	}
	category := strings.TrimSpace(r.FormValue("category"))
	if err := s.checkCategory(ctx, category); err != nil {
		return nil, err
	}
	type upload struct{ name, xml string }
	var ups []upload
	for _, fh := range files {
		name := path.Base(strings.ReplaceAll(fh.Filename, "\\", "/"))
		if ext := strings.ToLower(path.Ext(name)); ext != ".bpmn" && ext != ".xml" {
			return nil, httpx.BadRequest(msgBadFile.Format(name))
		}
		f, err := fh.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(f, maxXML+1))
		f.Close()
		if err != nil {
			return nil, err
		}
		if _, err := Parse(b); err != nil {
			if he, ok := httpx.As(err); ok {
				return nil, httpx.BadRequest(msgFileError.Format(name, he.Msg.In(i18n.From(ctx))))
			}
			return nil, err
		}
		ups = append(ups, upload{name, string(b)})
	}
	p := authz.From(ctx)
	var defs []Definition
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		tenants, err := s.deployTenants(ctx, tx, r.FormValue("tenantIds"))
		if err != nil {
			return err
		}
		deployment := db.NewID()
		for _, u := range ups {
			d, err := s.Engine.Deploy(ctx, tx, DeployInput{XML: u.xml, ResourceName: u.name, Category: category, TenantIDs: tenants,
				Owner: p.TenantID, User: p.UserID, DeploymentID: deployment})
			if err != nil {
				return err
			}
			defs = append(defs, *d)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	views, err := s.definitionViews(ctx, defs)
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgDeployed, Data: views}, nil
}

// handleDeleteDeployment removes deployments the caller's tenant made;
// one with running instances is refused (they are deleted first, with a reason).
func (s *Service) handleDeleteDeployment(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_manager_delete"); err != nil {
		return nil, err
	}
	ids, err := httpx.FormIDs(r, "deploymentIds")
	if err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		var defs []Definition
		q := tx.NewSelect().Model(&defs).ExcludeColumn("xml").Where("deployment_id IN (?) AND is_deleted = 0", bun.In(ids))
		if !p.IsSuper() {
			q = q.Where("tenant_id = ?", p.TenantID)
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		found := map[wire.ID]bool{}
		defIDs := make([]wire.ID, 0, len(defs))
		for _, d := range defs {
			found[d.DeploymentID] = true
			defIDs = append(defIDs, d.ID)
		}
		if len(found) != len(dedupe(append([]wire.ID(nil), ids...))) {
			return &httpx.Error{Status: 404, Msg: msgNoDefinition}
		}
		for _, d := range defs {
			n, err := tx.NewSelect().Table("bb_flow_instance").Where("definition_id = ? AND status = ?", d.ID, Running).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return httpx.BadRequest(msgRunningLeft.Format(d.Name, n))
			}
		}
		if _, err := tx.NewUpdate().Table("bb_flow_definition").Set("is_deleted = 1").Set("update_time = ?", wire.Now()).
			Where("id IN (?)", bun.In(defIDs)).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewDelete().Table("bb_flow_definition_tenant").Where("definition_id IN (?)", bun.In(defIDs)).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgRemoved, Data: true}, nil
}

// FollowRow is a running instance on the follow screen.
type FollowRow struct {
	ProcessInstanceID        wire.ID   `bun:"id" json:"processInstanceId"`
	ProcessDefinitionID      wire.ID   `bun:"definition_id" json:"processDefinitionId"`
	ProcessDefinitionKey     string    `bun:"def_key" json:"processDefinitionKey"`
	ProcessDefinitionName    string    `bun:"def_name" json:"processDefinitionName"`
	ProcessDefinitionVersion int       `bun:"def_version" json:"processDefinitionVersion"`
	BusinessKey              string    `bun:"business_key" json:"businessKey"`
	StartUserID              wire.ID   `bun:"initiator" json:"startUserId"`
	StartUserName            string    `bun:"start_user_name" json:"startUserName"`
	StartTime                wire.Time `bun:"start_time" json:"startTime"`
	TaskNames                string    `bun:"-" json:"taskNames"`
	SuspensionState          int       `bun:"suspension_state" json:"suspensionState"`
	Title                    string    `bun:"title" json:"title"`
	TenantID                 string    `bun:"tenant_id" json:"tenantId"`
}

func (s *Service) handleFollowList(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_follow_view"); err != nil {
		return nil, err
	}
	pg, err := httpx.ParsePaging(r.URL.Query())
	if err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	q := s.DB.NewSelect().TableExpr("bb_flow_instance AS i").
		Join("LEFT JOIN blade_user AS su ON su.id = i.initiator").
		Join("LEFT JOIN bb_flow_definition AS d ON d.id = i.definition_id").
		ColumnExpr("i.id, i.definition_id, i.def_key, i.def_name, i.def_version, i.business_key, i.initiator, i.start_time, i.title, i.tenant_id").
		ColumnExpr("COALESCE(su.real_name, '') AS start_user_name, COALESCE(d.suspension_state, 1) AS suspension_state").
		Where("i.tenant_id = ? AND i.status = ?", p.TenantID, Running)
	v := r.URL.Query()
	if k := strings.TrimSpace(v.Get("processDefinitionKey")); k != "" {
		q = q.Where("i.def_key = ?", k)
	}
	if b := strings.TrimSpace(v.Get("businessKey")); b != "" {
		q = q.Where("i.business_key LIKE ? ESCAPE '\\'", "%"+db.EscapeLike(b)+"%")
	}
	var rows []FollowRow
	total, err := q.OrderExpr("i.id DESC").Limit(int64(pg.Size)).Offset(int64(pg.Offset())).ScanAndCount(ctx, &rows)
	if err != nil {
		return nil, err
	}
	tasks := make([]TaskRow, len(rows))
	for i := range rows {
		tasks[i].ProcessInstanceID = rows[i].ProcessInstanceID
	}
	if err := s.openTaskNames(ctx, p.TenantID, tasks); err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].TaskNames = tasks[i].TaskName
	}
	return httpx.NewPage(rows, int64(total), pg.Current, pg.Size), nil
}

// handleDeleteInstance deletes a running instance with a reason; its
// business row hears of it (it goes back to a draft).
func (s *Service) handleDeleteInstance(r *http.Request) (any, error) {
	ctx := r.Context()
	if err := s.holds(ctx, "flow_follow_delete"); err != nil {
		return nil, err
	}
	id, err := httpx.QueryID(r, "processInstanceId")
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(r.URL.Query().Get("deleteReason"))
	if reason == "" || len([]rune(reason)) > 500 {
		return nil, httpx.BadRequest(msgReasonRequired)
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		_, err := s.Engine.Delete(ctx, tx, authz.From(ctx).TenantID, id, reason, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgRemoved, Data: true}, nil
}
