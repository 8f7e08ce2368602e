package seeddata

// Button actions (api-contract.md §4: 0 none, 1 toolbar, 2 row, 3 both).
const (
	actionNone    = 0
	actionToolbar = 1
	actionRow     = 2
	actionBoth    = 3
)

// op is one button operation; the button code is "<menuCode>_<suffix>".
type op struct {
	suffix string
	name   I18n
	icon   string
	action int
}

// named returns a copy of o with another display name (same code suffix).
func (o op) named(zh, en string) op {
	o.name = I18n{zh, en}
	return o
}

// Standard operations of a CRUD screen.
var (
	opAdd    = op{"add", I18n{"新增", "Add"}, "PlusOutlined", actionToolbar}
	opEdit   = op{"edit", I18n{"修改", "Edit"}, "EditOutlined", actionRow}
	opDelete = op{"delete", I18n{"删除", "Delete"}, "DeleteOutlined", actionBoth}
	opView   = op{"view", I18n{"查看", "View"}, "EyeOutlined", actionRow}
	opExport = op{"export", I18n{"导出", "Export"}, "DownloadOutlined", actionToolbar}
)

// opImport is the Excel import of master data (template download and
// import), on the screens whose resource declares an Import.
var opImport = op{"import", I18n{"导入", "Import"}, "UploadOutlined", actionToolbar}

// ImportMenus are the screens with an Import button (seed upgrade 5 adds
// it to databases seeded before).
var ImportMenus = []string{"material", "brand", "warehouse_main", "customer_main", "supplier"}

// Extra operations (spec.md §4, §7).
var (
	opStartProcess = op{"start_process", I18n{"提交审批", "Submit for approval"}, "SendOutlined", actionBoth}
	opCancellation = op{"cancellation", I18n{"作废", "Void"}, "StopOutlined", actionBoth}
	opEffective    = op{"effective", I18n{"生效", "Set effective"}, "CheckCircleOutlined", actionBoth}
	opInStock      = op{"in_stock", I18n{"入库", "Stock in"}, "ImportOutlined", actionRow}
	opOutbound     = op{"outbound", I18n{"出库", "Stock out"}, "ExportOutlined", actionRow}
	opEnable       = op{"enable", I18n{"启用", "Enable"}, "PlayCircleOutlined", actionRow}
	opCopy         = op{"copy", I18n{"复制", "Copy"}, "CopyOutlined", actionRow}
	opGrant        = op{"grant", I18n{"权限设置", "Permissions"}, "SafetyCertificateOutlined", actionToolbar}
	opReset        = op{"reset", I18n{"密码重置", "Reset password"}, "UnlockOutlined", actionToolbar}
	opRole         = op{"role", I18n{"角色配置", "Assign roles"}, "UserAddOutlined", actionToolbar}
	opPlatform     = op{"platform", I18n{"平台配置", "Platform settings"}, "ControlOutlined", actionToolbar}
	opEnabled      = op{"enabled", I18n{"启用/禁用", "Enable/Disable"}, "PoweroffOutlined", actionBoth}
	opAudit        = op{"audit", I18n{"注册审核", "Approve registrations"}, "AuditOutlined", actionBoth}
	opSetting      = op{"setting", I18n{"租户配置", "Tenant settings"}, "SettingOutlined", actionToolbar}
	opDatasource   = op{"datasource", I18n{"数据源配置", "Data source settings"}, "DatabaseOutlined", actionToolbar}
	opDeploy       = op{"deploy", I18n{"部署", "Deploy"}, "CloudUploadOutlined", actionRow}
	opState        = op{"state", I18n{"变更状态", "Change state"}, "SwapOutlined", actionRow}
	opBind         = op{"bind", I18n{"绑定单据", "Bind documents"}, "LinkOutlined", actionRow}
	opSend         = op{"send", I18n{"发送", "Send"}, "SendOutlined", actionRow}
	opDebug        = op{"debug", I18n{"调试", "Debug"}, "BugOutlined", actionRow}
	opGen          = op{"gen", I18n{"代码生成", "Generate code"}, "CodeOutlined", actionBoth}
	opCheck        = op{"check", I18n{"盘点结果", "Count results"}, "FormOutlined", actionRow}
	opPrint        = op{"print", I18n{"打印", "Print"}, "PrinterOutlined", actionBoth}
	opUpload       = op{"upload", I18n{"上传", "Upload"}, "UploadOutlined", actionToolbar}
	opDownload     = op{"download", I18n{"下载", "Download"}, "DownloadOutlined", actionRow}

	// Workflow task lists (my tasks).
	opStart  = op{"start", I18n{"发起", "Start"}, "PlayCircleOutlined", actionRow}
	opClaim  = op{"claim", I18n{"签收", "Claim"}, "CarryOutOutlined", actionRow}
	opHandle = op{"handle", I18n{"办理", "Handle"}, "FormOutlined", actionRow}
	opFollow = op{"follow", I18n{"跟踪", "Track"}, "NodeIndexOutlined", actionRow}
)

// crud is add, edit, delete, view, export followed by the extra operations.
func crud(extra ...op) []op {
	return append([]op{opAdd, opEdit, opDelete, opView, opExport}, extra...)
}

// readOnly is view and export: list screens that change nothing (logs, stock balances).
func readOnly(extra ...op) []op {
	return append([]op{opView, opExport}, extra...)
}

func ops(list ...op) []op { return list }

// leaf builds a screen with its buttons, numbered 10, 20, ... in the given order.
func leaf(code, zh, en, path, icon string, list []op) Menu {
	m := Menu{Code: code, Name: I18n{zh, en}, Path: path, Icon: icon}
	for i, o := range list {
		m.Buttons = append(m.Buttons, Button{
			Code:   code + "_" + o.suffix,
			Name:   o.name,
			Icon:   o.icon,
			Action: o.action,
			Sort:   (i + 1) * 10,
		})
	}
	return m
}

// group builds a menu with children.
func group(code, zh, en, path, icon string, children ...Menu) Menu {
	return Menu{Code: code, Name: I18n{zh, en}, Path: path, Icon: icon, Children: children}
}

// numbered sets Sort to 10, 20, 30 ... in order among siblings, at every level.
func numbered(menus []Menu) []Menu {
	for i := range menus {
		menus[i].Sort = (i + 1) * 10
		menus[i].Children = numbered(menus[i].Children)
	}
	return menus
}

// TopMenus are the top-menu entries (menus.md "Top menus"). 000 and 001 open in this app;
// 002-004 send the browser to the sibling builds under pdm/, erp/ and scm/.
var TopMenus = []TopMenu{
	{Code: "000", Name: I18n{"平台管理", "Platform"}, Icon: "AppstoreOutlined", Path: "", Sort: 1,
		Menus: []string{"desk", "work", "flow", "system", "authority", "monitor", "resource", "tool", "report", "base"}},
	{Code: "001", Name: I18n{"官网管理", "Website"}, Icon: "GlobalOutlined", Path: "", Sort: 2,
		Menus: []string{"office", "website"}},
	{Code: "002", Name: I18n{"产品数据", "Product Data"}, Icon: "ProductOutlined", Path: "pdm/", Sort: 3,
		Menus: []string{"basic", "product", "bom", "quotation"}},
	{Code: "003", Name: I18n{"生产仓储", "Production & Warehousing"}, Icon: "ShopOutlined", Path: "erp/", Sort: 4,
		Menus: []string{"warehouse", "stock", "production", "cost", "customer"}},
	{Code: "004", Name: I18n{"供应链", "Supply Chain"}, Icon: "ShoppingCartOutlined", Path: "scm/", Sort: 5,
		Menus: []string{"supplier", "purchase"}},
}

// Menus is the whole menu tree of menus.md, every row, in table order.
var Menus = numbered([]Menu{
	// ---------------------------------------------------------------- 000 平台管理
	group("desk", "工作台", "Workbench", "/desk", "DesktopOutlined",
		leaf("notice", "通知公告", "Notices", "/desk/notice", "NotificationOutlined", crud()),
	),
	group("work", "我的事务", "My Tasks", "/work", "SolutionOutlined",
		leaf("work_start", "发起事务", "Start a Process", "/work/start", "PlayCircleOutlined",
			ops(opStart, opView)),
		leaf("work_claim", "待签事务", "Tasks to Claim", "/work/claim", "FileProtectOutlined",
			ops(opClaim, opView, opFollow)),
		leaf("work_todo", "待办事务", "To-do Tasks", "/work/todo", "ScheduleOutlined",
			ops(opHandle, opView, opFollow)),
		leaf("work_send", "已发事务", "Sent Tasks", "/work/send", "SendOutlined",
			ops(opView, opFollow)),
		leaf("work_done", "办结事务", "Done Tasks", "/work/done", "FileDoneOutlined",
			ops(opView, opFollow)),
	),
	group("flow", "流程管理", "Workflow", "/flow", "ApartmentOutlined",
		leaf("flow_model", "模型管理", "Process Models", "/flow/model", "BranchesOutlined",
			crud(opDeploy)),
		leaf("flow_deploy", "流程部署", "Process Deployment", "/flow/deploy", "CloudUploadOutlined",
			ops(opUpload.named("上传部署", "Upload & deploy"), opView)),
		leaf("flow_manager", "流程管理", "Process Manager", "/flow/manager", "ControlOutlined",
			ops(opView, opState, opBind, opDelete)),
		// The delete button of the follow screen is flow_follow_delete (delete process instance).
		leaf("flow_follow", "流程跟踪", "Process Tracking", "/flow/follow", "NodeIndexOutlined",
			ops(opView, opDelete)),
	),
	group("system", "系统管理", "System", "/system", "SettingOutlined",
		leaf("user", "用户管理", "Users", "/system/user", "UserOutlined",
			crud(opReset, opRole, opPlatform, opEnabled, opAudit)),
		leaf("user_monitor", "阈值监控", "Threshold Monitoring", "/system/user/monitor/index", "AlertOutlined",
			readOnly()),
		leaf("user_log", "在线时长统计", "Online Duration", "/system/user/log/index", "FieldTimeOutlined",
			readOnly()),
		leaf("dept", "部门管理", "Departments", "/system/dept", "ClusterOutlined", crud()),
		leaf("post", "岗位管理", "Posts", "/system/post", "IdcardOutlined", crud()),
		leaf("dict", "系统字典", "System Dictionary", "/system/dict", "BookOutlined", crud()),
		leaf("dictbiz", "业务字典", "Business Dictionary", "/system/dictbiz", "ReadOutlined", crud()),
		leaf("menu", "菜单管理", "Menus", "/system/menu", "MenuOutlined", crud()),
		leaf("topmenu", "顶部菜单", "Top Menus", "/system/topmenu", "AppstoreOutlined",
			crud(opGrant.named("菜单配置", "Menu settings"))),
		leaf("param", "参数管理", "Parameters", "/system/param", "SlidersOutlined", crud()),
		leaf("tenant", "租户管理", "Tenants", "/system/tenant", "BankOutlined",
			crud(opSetting, opDatasource)),
		leaf("tenant_package", "租户套餐", "Tenant Packages", "/system/tenantpackage", "GiftOutlined", crud()),
		leaf("client", "应用管理", "Clients", "/system/client", "LaptopOutlined", crud()),
		// blade-auth/social-provider: each tenant's OpenID Connect providers for social login
		leaf("social_provider", "第三方登录", "Social Login", "/system/social-provider", "LoginOutlined",
			ops(opAdd, opEdit, opDelete, opView)),
	),
	group("authority", "权限管理", "Authority", "/authority", "SafetyCertificateOutlined",
		leaf("role", "角色管理", "Roles", "/authority/role", "TeamOutlined", crud(opGrant)),
		leaf("data_scope", "数据权限", "Data Scope", "/authority/datascope", "FilterOutlined",
			crud(opSetting.named("权限配置", "Scope settings"))),
		leaf("api_scope", "接口权限", "API Scope", "/authority/apiscope", "ApiOutlined",
			crud(opSetting.named("权限配置", "Scope settings"))),
	),
	group("monitor", "系统监控", "Monitoring", "/monitor", "MonitorOutlined",
		leaf("log_usual", "通用日志", "Usual Logs", "/monitor/log/usual", "FileTextOutlined", readOnly()),
		leaf("log_api", "接口日志", "API Logs", "/monitor/log/api", "FileSearchOutlined", readOnly()),
		leaf("log_error", "错误日志", "Error Logs", "/monitor/log/error", "BugOutlined", readOnly()),
		leaf("goods_download", "货物下载监控", "Goods Download Monitor", "/monitor/goods-download", "CloudDownloadOutlined",
			ops(opEdit, opView, opExport)),
	),
	group("resource", "资源管理", "Resources", "/resource", "CloudServerOutlined",
		leaf("oss", "对象存储", "Object Storage", "/resource/oss", "CloudOutlined",
			crud(opEnable, opDebug)),
		leaf("sms", "短信配置", "SMS Settings", "/resource/sms", "MessageOutlined",
			crud(opEnable, opSend)),
		leaf("attach", "附件管理", "Attachments", "/resource/attach", "PaperClipOutlined",
			ops(opUpload, opDownload, opDelete, opView)),
	),
	group("tool", "研发工具", "Dev Tools", "/tool", "ToolOutlined",
		leaf("code", "代码生成", "Code Generator", "/tool/code", "CodeOutlined",
			ops(opAdd, opEdit, opDelete, opView, opCopy, opGen)),
		leaf("datasource", "数据源管理", "Data Sources", "/tool/datasource", "DatabaseOutlined",
			ops(opAdd, opEdit, opDelete, opView)),
	),
	leaf("report", "报表管理", "Reports", "/report/reportlist", "BarChartOutlined", crud()),
	group("base", "基础配置", "Basic Settings", "/base", "ProfileOutlined",
		leaf("region", "行政区划", "Regions", "/base/region", "EnvironmentOutlined", crud()),
	),

	// ---------------------------------------------------------------- 001 官网管理
	group("office", "官网内容", "Website Content", "/office-manage", "LayoutOutlined",
		leaf("team_member", "团队成员", "Team Members", "/office-manage/team-member", "UsergroupAddOutlined", crud()),
		leaf("news", "新闻动态", "News", "/office-manage/news", "ContainerOutlined", crud()),
		leaf("cases", "案例展示", "Cases", "/office-manage/cases", "TrophyOutlined", crud()),
		leaf("training_videos", "培训视频", "Training Videos", "/office-manage/training-videos", "VideoCameraOutlined", crud()),
		leaf("offers", "招聘职位", "Job Openings", "/office-manage/offers", "ContactsOutlined", crud()),
		leaf("message", "应聘留言", "Applications", "/office-manage/message", "CommentOutlined",
			ops(opDelete, opView, opExport)),
	),
	group("website", "客户网站", "Client Website", "/website", "GlobalOutlined",
		leaf("website_customer", "网站客户", "Website Customers", "/website/customer", "CustomerServiceOutlined", crud()),
		leaf("website_user", "网站用户", "Website Users", "/website/user", "UserSwitchOutlined", readOnly()),
		leaf("website_job", "网站职位", "Website Jobs", "/website/job", "ReconciliationOutlined", crud()),
	),

	// ---------------------------------------------------------------- 002 产品数据 (pdm/)
	group("basic", "基础资料", "Master Data", "/basic", "HddOutlined",
		leaf("material", "物料管理", "Materials", "/basic/material", "GoldOutlined",
			crud(opImport, opStartProcess, opCancellation)),
		leaf("unit_comparison", "单位换算", "Unit Conversions", "/basic/unit-comparison", "SwapOutlined",
			crud(opStartProcess, opCancellation)),
		leaf("brand", "品牌管理", "Brands", "/basic/brand", "CrownOutlined",
			crud(opImport, opStartProcess)),
		leaf("code_rule", "编码规则", "Code Rules", "/basic/code-rule", "NumberOutlined",
			crud(opStartProcess, opCancellation)),
	),
	group("product", "产品管理", "Products", "/product", "ProductOutlined",
		leaf("product_main", "产品信息", "Product Info", "/product/product", "ShoppingOutlined",
			crud(opStartProcess, opCancellation)),
		leaf("product_section", "产品分类", "Product Categories", "/product/section", "PartitionOutlined", crud()),
		leaf("product_barcode", "产品条码", "Product Barcodes", "/product/barcode", "BarcodeOutlined",
			crud(opPrint)),
		leaf("print_tag", "标签打印", "Tag Printing", "/product/print-tag", "PrinterOutlined",
			crud(opPrint)),
	),
	group("bom", "物料清单", "Bills of Materials", "/bom", "BlockOutlined",
		leaf("product_bom", "产品BOM", "Product BOM", "/bom/product-bom", "BuildOutlined",
			crud(opStartProcess, opEnable, opCopy)),
		leaf("project_bom", "项目BOM", "Project BOM", "/bom/project-bom", "ProjectOutlined",
			crud(opStartProcess, opEnable, opCopy)),
	),
	group("quotation", "报价管理", "Quotations", "/quotation", "AccountBookOutlined",
		leaf("quotation_template", "报价模板", "Quotation Templates", "/quotation/template", "SnippetsOutlined", crud()),
		leaf("quotation_bom", "报价BOM", "Quotation BOM", "/quotation/bom", "CalculatorOutlined",
			crud(opStartProcess)),
	),

	// ---------------------------------------------------------------- 003 生产仓储 (erp/)
	group("warehouse", "仓库管理", "Warehouses", "/warehouse", "HomeOutlined",
		leaf("warehouse_main", "仓库信息", "Warehouse Info", "/warehouse/warehouse", "BankOutlined",
			crud(opImport, opStartProcess, opEffective)),
		leaf("warehouse_position", "库位管理", "Storage Locations", "/warehouse/position", "AimOutlined",
			crud(opEffective)),
	),
	group("stock", "库存管理", "Inventory", "/stock", "InboxOutlined",
		leaf("material_stock", "物料库存", "Material Stock", "/stock/material-stock", "DatabaseOutlined", readOnly()),
		leaf("material_in", "物料入库", "Material Receipts", "/stock/material-in", "ImportOutlined",
			crud(opStartProcess, opCancellation, opInStock)),
		leaf("material_in_other", "其他入库", "Other Receipts", "/stock/material-in-other", "LoginOutlined",
			crud(opStartProcess, opCancellation, opInStock)),
		leaf("material_out", "物料出库", "Material Issues", "/stock/material-out", "ExportOutlined",
			crud(opStartProcess, opCancellation, opOutbound)),
		leaf("material_out_other", "其他出库", "Other Issues", "/stock/material-out-other", "LogoutOutlined",
			crud(opStartProcess, opCancellation, opOutbound)),
		leaf("production_picking", "生产领料", "Production Picking", "/stock/production-picking", "SelectOutlined",
			crud(opStartProcess, opCancellation, opOutbound)),
		leaf("back_stock", "物料退库", "Material Returns", "/stock/back-stock", "RollbackOutlined",
			crud(opStartProcess, opCancellation, opInStock)),
		leaf("material_transfer", "物料调拨", "Material Transfers", "/stock/material-transfer", "RetweetOutlined",
			crud(opStartProcess, opCancellation, opOutbound.named("调拨", "Transfer"))),
		leaf("borrow_repay", "物料借还", "Borrow & Return", "/stock/borrow-repay", "InteractionOutlined",
			crud(opStartProcess, opCancellation, opOutbound.named("借出", "Lend out"), opInStock.named("归还入库", "Return to stock"))),
		leaf("material_check", "物料盘点", "Stocktaking", "/stock/material-check", "ScanOutlined",
			crud(opCheck, opStartProcess, opCancellation)),
		leaf("product_stock", "产品库存", "Product Stock", "/stock/product-stock", "CodeSandboxOutlined", readOnly()),
		leaf("product_in", "产品入库", "Product Receipts", "/stock/product-in", "VerticalAlignBottomOutlined",
			crud(opStartProcess, opCancellation, opInStock)),
		leaf("product_out", "产品出库", "Product Deliveries", "/stock/product-out", "TruckOutlined",
			crud(opStartProcess, opCancellation, opOutbound)),
		leaf("product_transfer", "产品调拨", "Product Transfers", "/stock/product-transfer", "SyncOutlined",
			crud(opStartProcess, opCancellation, opOutbound.named("调拨", "Transfer"))),
	),
	group("production", "生产管理", "Production", "/production", "DeploymentUnitOutlined",
		leaf("produce_plan", "生产计划", "Production Plans", "/production/plan", "CalendarOutlined",
			crud(opStartProcess, opCancellation)),
		leaf("tgprocess", "审批记录", "Approval Records", "/production/tgprocess", "AuditOutlined",
			crud(opStartProcess, opCancellation)),
	),
	leaf("cost", "成本核算", "Cost Accounting", "/cost/account", "MoneyCollectOutlined",
		crud(opStartProcess, opCancellation)),
	group("customer", "客户管理", "Customers", "/customer", "TeamOutlined",
		leaf("customer_main", "客户信息", "Customer Info", "/customer/customer", "ContactsOutlined",
			crud(opImport, opStartProcess)),
		leaf("customer_product_cabinet", "客户产品柜", "Customer Product Cabinet", "/customer/product-cabinet", "TableOutlined", crud()),
	),

	// ---------------------------------------------------------------- 004 供应链 (scm/)
	leaf("supplier", "供应商管理", "Suppliers", "/supplier/supplier", "ShopOutlined",
		crud(opImport, opStartProcess)),
	leaf("purchase", "采购管理", "Purchasing", "/purchase/order", "ShoppingCartOutlined",
		crud(opStartProcess, opCancellation)),
})
