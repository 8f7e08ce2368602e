// Package develop is blade-develop: data sources (and, later, code generation).
package develop

import (
	"context"
	"net/url"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// Datasource is a database a tenant's data can live in.
type Datasource struct {
	bun.BaseModel `bun:"table:blade_datasource"`
	resource.Base
	Name        string `bun:"name" json:"name" f:"label=名称|Name;req;max=100;search"`
	DriverClass string `bun:"driver_class" json:"driverClass" f:"label=驱动类|Driver;req;max=100"`
	URL         string `bun:"url" json:"url" f:"label=连接地址|URL;req;max=500"`
	Username    string `bun:"username" json:"username" f:"label=用户名|User name;max=45"`
	Password    string `bun:"password" json:"password,omitempty" f:"label=密码|Password;type=password;max=255;hide"`
	Remark      string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255"`
}

// NewDatasource declares the data-source resource (super user only: it holds credentials).
func NewDatasource() *resource.Resource[Datasource] {
	return resource.New(resource.Spec{
		Service: "blade-develop", Name: "datasource", Table: "blade_datasource", Label: i18n.T("数据源", "Data source"),
		MenuCode: "datasource", Scope: resource.Global, Read: resource.Super, Write: resource.Super,
		Unique: [][]string{{"name"}},
	}, resource.Hooks[Datasource]{Validate: validateDatasource})
}

// Only PostgreSQL data sources can be used by this server; refuse others up front.
func validateDatasource(_ context.Context, d *Datasource, present map[string]bool, isNew bool) error {
	if !isNew && !present["url"] {
		return nil
	}
	u, err := url.Parse(d.URL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql" && !strings.HasPrefix(d.URL, "jdbc:postgresql://")) {
		return httpx.BadRequest(i18n.T("连接地址应为 postgres:// 或 jdbc:postgresql:// 开头", "The URL must start with postgres:// or jdbc:postgresql://"))
	}
	return nil
}
