package develop

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Code is one code-generator definition: a table of a data source and the
// names the resource generated from it takes.
type Code struct {
	bun.BaseModel `bun:"table:blade_code"`
	resource.Base
	CodeName string `bun:"code_name" json:"codeName" f:"label=模块名|Module name;req;max=100;search;sort"`
	// DatasourceID 0 is the console's own database.
	DatasourceID wire.ID `bun:"datasource_id" json:"datasourceId" f:"label=数据源|Data source;type=select;select=/api/blade-develop/datasource/list?size=1000;selectLabel=name;ref=blade-develop/datasource"`
	TableName    string  `bun:"table_name" json:"tableName" f:"label=表名|Table;req;max=64;search;pattern=^[A-Za-z_][A-Za-z0-9_]*$;patternMsg=表名只能包含字母、数字和下划线|A table name holds letters, digits and underscores only"`
	TablePrefix  string  `bun:"table_prefix" json:"tablePrefix" f:"label=表前缀|Table prefix;max=20;pattern=^[a-z0-9_]*$;patternMsg=表前缀只能包含小写字母、数字和下划线|A table prefix holds lower-case letters, digits and underscores only"`
	ServiceName  string  `bun:"service_name" json:"serviceName" f:"label=服务名|Service;req;max=64;pattern=^[a-z][a-z0-9-]*$;patternMsg=服务名只能包含小写字母、数字和连字符|A service name holds lower-case letters, digits and hyphens only"`
	PackageName  string  `bun:"package_name" json:"packageName" f:"label=Go包名|Go package;req;max=32;pattern=^[a-z][a-z0-9]*$;patternMsg=包名只能包含小写字母和数字|A package name holds lower-case letters and digits only"`
	ParentMenu   string  `bun:"parent_menu" json:"parentMenu" f:"label=上级菜单编号|Parent menu code;max=64;pattern=^[a-z0-9_]*$;patternMsg=菜单编号只能包含小写字母、数字和下划线|A menu code holds lower-case letters, digits and underscores only"`
	Remark       string  `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// Generator is blade-develop/code: the definitions, the schema reader and
// the generator.
type Generator struct {
	DB    *db.DB
	Codes *resource.Resource[Code]
}

// CodePath is where the generator's routes sit.
const CodePath = "/blade-develop/code"

var (
	msgSystem  = i18n.T("不支持的目标系统%s(可选: bluebird)", "Target system %s is not supported (choose: bluebird)")
	msgNoTable = i18n.T("数据表%s不存在", "Table %s does not exist")
)

// NewCode declares the code-generator definitions (super user only: they
// read any table of any data source).
func NewCode(d *db.DB) *Generator {
	g := &Generator{DB: d}
	g.Codes = resource.New(resource.Spec{
		Service: "blade-develop", Name: "code", Table: "blade_code", Label: i18n.T("代码生成", "Code generator"),
		MenuCode: "code", Scope: resource.Global, Read: resource.Super, Write: resource.Super,
		Routes: []string{"list", "detail", "submit", "remove"},
	}, resource.Hooks[Code]{
		Commands: []resource.Command[Code]{{
			Name: "copy", Label: i18n.T("复制", "Copy"), Button: "copy", Row: true,
			Run: copyCodes, Done: i18n.T("复制成功", "Copied"),
		}},
	})
	return g
}

// A definition's table is read when the code is generated (or the screen
// previews its columns), not when it is saved: a data source may be down.

// Mount routes the definitions, gen-code (a zip of the generated files) and
// the schema reader the screen picks tables and previews columns with.
func (g *Generator) Mount(r chi.Router, env *resource.Env) *resource.Resource[Code] {
	g.Codes.Mount(r, env)
	super := resource.Guard(resource.Super)
	r.Post(CodePath+"/gen-code", httpx.Handle(super(g.handleGenCode)))
	r.Get(CodePath+"/tables", httpx.Handle(super(g.handleTables)))
	r.Get(CodePath+"/columns", httpx.Handle(super(g.handleColumns)))
	return g.Codes
}

// copyCodes saves a copy of each definition, named "<name> copy".
func copyCodes(ctx context.Context, tx bun.Tx, res *resource.Resource[Code], rows []*Code, _ *resource.CommandRequest) (any, error) {
	var ids []wire.ID
	for _, row := range rows {
		cp := *row
		cp.Base = resource.Base{}
		cp.CodeName = truncate(row.CodeName, 95) + " copy"
		present := map[string]bool{"codeName": true, "datasourceId": true, "tableName": true, "tablePrefix": true,
			"serviceName": true, "packageName": true, "parentMenu": true, "remark": true}
		if err := res.Save(ctx, tx, &cp, present); err != nil {
			return nil, err
		}
		ids = append(ids, cp.ID)
	}
	return ids, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

func (g *Generator) handleTables(req *http.Request) (any, error) {
	id, err := optionalID(req, "datasourceId")
	if err != nil {
		return nil, err
	}
	return g.tables(req.Context(), id)
}

func (g *Generator) handleColumns(req *http.Request) (any, error) {
	id, err := optionalID(req, "datasourceId")
	if err != nil {
		return nil, err
	}
	table, err := httpx.QueryString(req, "tableName")
	if err != nil {
		return nil, err
	}
	return g.tableColumns(req.Context(), id, table)
}

func optionalID(req *http.Request, name string) (wire.ID, error) {
	if req.URL.Query().Get(name) == "" {
		return 0, nil
	}
	return httpx.QueryID(req, name)
}

// handleGenCode answers the generated files of the definitions ids as one
// zip: for each, the resource declaration, its migration and its menu seed
// lines, and a README saying where each goes.
func (g *Generator) handleGenCode(req *http.Request) (any, error) {
	ids, err := httpx.QueryIDs(req, "ids")
	if err != nil {
		return nil, err
	}
	if sys := req.URL.Query().Get("system"); sys != "" && sys != "bluebird" {
		return nil, httpx.Badf(msgSystem.Zh, msgSystem.En, sys)
	}
	ctx := req.Context()
	var units []*unit
	next := nextMigration()
	for _, id := range ids {
		c, err := g.Codes.Get(ctx, g.DB, id)
		if err != nil {
			return nil, err
		}
		cols, err := g.tableColumns(ctx, c.DatasourceID, c.TableName)
		if err != nil {
			return nil, err
		}
		u := newUnit(c, cols, next)
		next++
		units = append(units, u)
	}
	files, err := render(units)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("bluebird-code-%s.zip", time.Now().Format("20060102150405"))
	return httpx.Streamer(func(w http.ResponseWriter) error {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", "attachment; filename="+name)
		return writeZip(w, files)
	}), nil
}
