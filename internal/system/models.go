// Package system is the platform-administration area (blade-system):
// tenants, packages, clients, menus, top menus, roles, departments, posts,
// dictionaries, parameters, regions, data and API scopes.
package system

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Param is a system parameter (spec.md §3, §5). Its value is a secret in
// the rows secretParams names (default passwords, keys).
type Param struct {
	bun.BaseModel `bun:"table:blade_param"`
	resource.Base
	ParamName  string `bun:"param_name" json:"paramName" f:"label=参数名称|Parameter name;req;max=255;search;sort"`
	ParamKey   string `bun:"param_key" json:"paramKey" f:"label=参数键名|Parameter key;req;max=255;search;sort"`
	ParamValue string `bun:"param_value" json:"paramValue" f:"label=参数键值|Parameter value;type=text;req;max=65535;secret"`
	Remark     string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// Tenant is a customer organisation of the platform.
type Tenant struct {
	bun.BaseModel `bun:"table:blade_tenant"`
	resource.Base
	TenantName    string    `bun:"tenant_name" json:"tenantName" f:"label=租户名称|Tenant name;req;max=50;search;sort"`
	DomainURL     string    `bun:"domain_url" json:"domainUrl" f:"label=域名地址|Domain;max=255"`
	BackgroundURL string    `bun:"background_url" json:"backgroundUrl" f:"label=系统背景|Background image;type=image;max=1000;hide"`
	Linkman       string    `bun:"linkman" json:"linkman" f:"label=联系人|Contact;max=50;search"`
	ContactNumber string    `bun:"contact_number" json:"contactNumber" f:"label=联系电话|Contact phone;max=50"`
	Address       string    `bun:"address" json:"address" f:"label=联系地址|Address;max=255;hide"`
	AccountNumber int       `bun:"account_number" json:"accountNumber" f:"label=账号额度|Account quota;min=-1;hide"`
	ExpireTime    wire.Time `bun:"expire_time" json:"expireTime" f:"label=过期时间|Expires at;sort"`
	PackageID     wire.ID   `bun:"package_id" json:"packageId" f:"label=产品包|Tenant package;hide;select=/api/blade-system/tenant-package/list;selectLabel=packageName;ref=blade-system/tenant-package"`
	DatasourceID  wire.ID   `bun:"datasource_id" json:"datasourceId" f:"label=数据源|Data source;hide;noform"`
	LicenseKey    string    `bun:"license_key" json:"licenseKey" f:"label=授权码|License key;hide;noform;ro"`

	// adminPasswordHash is the new tenant's administrator password, hashed by
	// validateTenant before the creation transaction opens.
	adminPasswordHash string
}

// TenantPackage bounds the menus a tenant's roles can be granted.
type TenantPackage struct {
	bun.BaseModel `bun:"table:blade_tenant_package"`
	resource.Base
	PackageName string `bun:"package_name" json:"packageName" f:"label=产品包名称|Package name;req;max=50;search"`
	MenuID      string `bun:"menu_id" json:"menuId" f:"label=菜单ID|Menus;type=tree;multi;hide;tree=/api/blade-system/menu/tree;nofilter;ref=blade-system/menu"`
	Remark      string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255"`
}

// Client is an OAuth client allowed to request tokens.
type Client struct {
	bun.BaseModel `bun:"table:blade_client"`
	resource.Base
	ClientID             string `bun:"client_id" json:"clientId" f:"label=应用ID|Client ID;req;max=48;search"`
	ClientSecret         string `bun:"client_secret" json:"clientSecret" f:"label=应用密钥|Client secret;req;max=256;secret"`
	Scope                string `bun:"scope" json:"scope" f:"label=授权范围|Scope;req;max=256"`
	AuthorizedGrantTypes string `bun:"authorized_grant_types" json:"authorizedGrantTypes" f:"label=授权类型|Grant types;req;max=256"`
	ResourceIDs          string `bun:"resource_ids" json:"resourceIds" f:"label=资源集合|Resource IDs;max=256;hide"`
	RedirectURI          string `bun:"web_server_redirect_uri" json:"webServerRedirectUri" f:"label=回调地址|Redirect URI;max=256;format=url;hide"`
	Authorities          string `bun:"authorities" json:"authorities" f:"label=权限|Authorities;max=256;hide"`
	AccessTokenValidity  int    `bun:"access_token_validity" json:"accessTokenValidity" f:"label=令牌过期秒数|Access token seconds;req;min=60"`
	RefreshTokenValidity int    `bun:"refresh_token_validity" json:"refreshTokenValidity" f:"label=刷新令牌过期秒数|Refresh token seconds;req;min=60"`
	AdditionalInfo       string `bun:"additional_information" json:"additionalInformation" f:"label=附加说明|Additional information;max=4096;hide"`
	Autoapprove          string `bun:"autoapprove" json:"autoapprove" f:"label=自动授权|Auto-approve;max=256;hide"`
}

// Role is a set of granted menus, buttons and scopes within a tenant.
type Role struct {
	bun.BaseModel `bun:"table:blade_role"`
	resource.Base
	ParentID  wire.ID `bun:"parent_id" json:"parentId" f:"label=上级角色|Parent role;tree=/api/blade-system/role/tree;ref=self"`
	RoleName  string  `bun:"role_name" json:"roleName" f:"label=角色名称|Role name;req;max=255;search"`
	Sort      int     `bun:"sort" json:"sort" f:"label=角色排序|Sort;req;sort"`
	RoleAlias string  `bun:"role_alias" json:"roleAlias" f:"label=角色别名|Role alias;req;max=255;search;pattern=^[A-Za-z][A-Za-z0-9_-]*$"`

	TenantName  string  `bun:"-" json:"tenantName,omitempty"`
	ParentName  string  `bun:"-" json:"parentName,omitempty"`
	Children    []*Role `bun:"-" json:"children,omitempty"`
	HasChildren bool    `bun:"-" json:"hasChildren"`

	// aliasChanged is what validateRole found of a submitted edit, for the
	// save and commit hooks that tell the tenant's sessions.
	aliasChanged bool
}

// Menu is a menu (category 1) or button (category 2); shared by all tenants.
type Menu struct {
	bun.BaseModel `bun:"table:blade_menu"`
	resource.Base
	ParentID  wire.ID `bun:"parent_id" json:"parentId" f:"label=上级菜单|Parent menu;tree=/api/blade-system/menu/tree;ref=self"`
	Code      string  `bun:"code" json:"code" f:"label=菜单编号|Menu code;req;max=255;search"`
	Name      string  `bun:"name" json:"name" f:"label=菜单名称|Menu name;req;max=255;search"`
	NameEn    string  `bun:"name_en" json:"nameEn" f:"label=英文名称|English name;max=255;hide"`
	Alias     string  `bun:"alias" json:"alias" f:"label=菜单别名|Alias;max=255;hide"`
	Path      string  `bun:"path" json:"path" f:"label=路由地址|Route path;max=255"`
	Source    string  `bun:"source" json:"source" f:"label=菜单图标|Icon;max=255"`
	Sort      int     `bun:"sort" json:"sort" f:"label=菜单排序|Sort;req;sort"`
	Category  int     `bun:"category" json:"category" f:"label=菜单类型|Menu type;req;dict=menu_category"`
	Action    int     `bun:"action" json:"action" f:"label=按钮功能|Button function;dict=button_func"`
	IsOpen    int     `bun:"is_open" json:"isOpen" f:"label=新窗口|New window;dict=is_open"`
	Component string  `bun:"component" json:"component" f:"label=组件地址|Component;max=255;hide"`
	Remark    string  `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`

	Children    []*Menu `bun:"-" json:"children,omitempty"`
	HasChildren bool    `bun:"-" json:"hasChildren"`
	ParentName  string  `bun:"-" json:"parentName,omitempty"`
}

// TopMenu groups menus into the header's top-level switch.
type TopMenu struct {
	bun.BaseModel `bun:"table:blade_top_menu"`
	resource.Base
	Code   string `bun:"code" json:"code" f:"label=顶部菜单编号|Code;req;max=255;search"`
	Name   string `bun:"name" json:"name" f:"label=顶部菜单名|Name;req;max=255;search"`
	NameEn string `bun:"name_en" json:"nameEn" f:"label=英文名称|English name;max=255"`
	Source string `bun:"source" json:"source" f:"label=顶部菜单图标|Icon;max=255"`
	Path   string `bun:"path" json:"path" f:"label=路由地址|Path;max=255"`
	Sort   int    `bun:"sort" json:"sort" f:"label=顶部菜单排序|Sort;req;sort"`
}

// Dept is a department; Ancestors is the comma path of parent ids ("0,12,34").
type Dept struct {
	bun.BaseModel `bun:"table:blade_dept"`
	resource.Base
	ParentID     wire.ID `bun:"parent_id" json:"parentId" f:"label=上级机构|Parent department;tree=/api/blade-system/dept/tree;ref=self"`
	Ancestors    string  `bun:"ancestors" json:"ancestors" f:"label=祖级列表|Ancestors;ro;hide;noform"`
	DeptCategory int     `bun:"dept_category" json:"deptCategory" f:"label=机构类型|Category;req;dict=org_category"`
	DeptName     string  `bun:"dept_name" json:"deptName" f:"label=机构名称|Department name;req;max=45;search"`
	FullName     string  `bun:"full_name" json:"fullName" f:"label=机构全称|Full name;req;max=45;search"`
	Sort         int     `bun:"sort" json:"sort" f:"label=排序|Sort;req;sort"`
	Remark       string  `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`

	Children    []*Dept `bun:"-" json:"children,omitempty"`
	HasChildren bool    `bun:"-" json:"hasChildren"`
	ParentName  string  `bun:"-" json:"parentName,omitempty"`
	TenantName  string  `bun:"-" json:"tenantName,omitempty"`
}

// Post is a job position within a tenant.
type Post struct {
	bun.BaseModel `bun:"table:blade_post"`
	resource.Base
	Category int    `bun:"category" json:"category" f:"label=岗位类型|Category;req;dict=post_category;search"`
	PostCode string `bun:"post_code" json:"postCode" f:"label=岗位编号|Post code;req;max=12;search"`
	PostName string `bun:"post_name" json:"postName" f:"label=岗位名称|Post name;req;max=64;search"`
	Sort     int    `bun:"sort" json:"sort" f:"label=岗位排序|Sort;req;sort"`
	Remark   string `bun:"remark" json:"remark" f:"label=岗位描述|Description;max=255;hide"`
}

// Dict is a dictionary row: a root per code (parentId 0, dictKey -1) and its items.
// The same shape serves system (blade_dict) and business (blade_dict_biz) dictionaries.
type Dict struct {
	resource.Base
	ParentID    wire.ID `bun:"parent_id" json:"parentId" f:"label=上级字典|Parent;tree=/api/blade-system/dict/tree;ref=self"`
	Code        string  `bun:"code" json:"code" f:"label=字典编号|Code;req;max=255;search"`
	DictKey     string  `bun:"dict_key" json:"dictKey" f:"label=字典键值|Key;req;max=255"`
	DictValue   string  `bun:"dict_value" json:"dictValue" f:"label=字典名称|Name;req;max=255;search"`
	DictValueEn string  `bun:"dict_value_en" json:"dictValueEn" f:"label=英文名称|English name;max=255;hide"`
	Sort        int     `bun:"sort" json:"sort" f:"label=字典排序|Sort;req;sort"`
	Remark      string  `bun:"remark" json:"remark" f:"label=字典备注|Remark;max=255"`
	IsSealed    int     `bun:"is_sealed" json:"isSealed" f:"label=封存|Sealed;req;dict=yes_no;msg=请选择封存|Please choose whether it is sealed"`

	Children    []*Dict `bun:"-" json:"children,omitempty"`
	HasChildren bool    `bun:"-" json:"hasChildren"`
	ParentName  string  `bun:"-" json:"parentName,omitempty"`
}

// DataScope is a row-visibility rule attached to a menu (api-contract.md §6).
type DataScope struct {
	bun.BaseModel `bun:"table:blade_scope_data"`
	resource.Base
	MenuID       wire.ID `bun:"menu_id" json:"menuId" f:"label=菜单|Menu;req;tree=/api/blade-system/menu/tree;ref=blade-system/menu"`
	ResourceCode string  `bun:"resource_code" json:"resourceCode" f:"label=资源编号|Resource code;req;max=255;search"`
	ScopeName    string  `bun:"scope_name" json:"scopeName" f:"label=数据权限名称|Rule name;req;max=255;search"`
	ScopeField   string  `bun:"scope_field" json:"scopeField" f:"label=可见字段|Visible fields;max=255;hide"`
	ScopeClass   string  `bun:"scope_class" json:"scopeClass" f:"label=权限类名|Class;max=500;hide"`
	ScopeColumn  string  `bun:"scope_column" json:"scopeColumn" f:"label=权限字段|Column;max=255"`
	ScopeType    int     `bun:"scope_type" json:"scopeType" f:"label=规则类型|Rule type;req;dict=data_scope_type"`
	ScopeValue   string  `bun:"scope_value" json:"scopeValue" f:"label=规则值|Rule value;type=text;max=2000;hide"`
	Remark       string  `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// APIScope restricts which paths of a resource a role may call.
type APIScope struct {
	bun.BaseModel `bun:"table:blade_scope_api"`
	resource.Base
	MenuID       wire.ID `bun:"menu_id" json:"menuId" f:"label=菜单|Menu;req;tree=/api/blade-system/menu/tree;ref=blade-system/menu"`
	ResourceCode string  `bun:"resource_code" json:"resourceCode" f:"label=资源编号|Resource code;req;max=255;search"`
	ScopeName    string  `bun:"scope_name" json:"scopeName" f:"label=接口权限名称|Rule name;req;max=255;search"`
	ScopePath    string  `bun:"scope_path" json:"scopePath" f:"label=接口权限地址|Path;req;max=255;format=path"`
	ScopeType    int     `bun:"scope_type" json:"scopeType" f:"label=接口类型|Type;req;dict=api_scope_type"`
	Remark       string  `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// Region is a national administrative division; the code is the key.
type Region struct {
	bun.BaseModel `bun:"table:blade_region"`
	Code          string `bun:"code,pk" json:"code" f:"label=区划编号|Region code;req;max=12;pattern=^[0-9]+$;search;sort"`
	ParentCode    string `bun:"parent_code" json:"parentCode" f:"label=上级区划|Parent region;max=12;filter=equal;sort;once"`
	Ancestors     string `bun:"ancestors" json:"ancestors" f:"label=祖级区划|Ancestors;ro;hide;noform;nofilter"`
	Name          string `bun:"name" json:"name" f:"label=区划名称|Region name;req;max=32;search;sort"`
	RegionLevel   int    `bun:"region_level" json:"regionLevel" f:"label=区划层级|Level;ro;noform;filter=equal;sort"`
	Sort          int    `bun:"sort" json:"sort" f:"label=排序|Sort;nofilter;sort"`
	Remark        string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide;nofilter"`

	HasChildren bool      `bun:"-" json:"hasChildren"`
	Children    []*Region `bun:"-" json:"children,omitempty"`
}
