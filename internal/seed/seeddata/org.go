package seeddata

// Roles are the seeded roles of tenant 000000 (api-contract.md §8, architecture.md §5):
// administrator is the platform super user, admin a tenant administrator.
var Roles = []Role{
	{Alias: "administrator", Name: I18n{"超级管理员", "Super administrator"}, Sort: 1},
	{Alias: "admin", Name: I18n{"管理员", "Administrator"}, Sort: 2},
	{Alias: "user", Name: I18n{"用户", "User"}, Sort: 3},
}

// Posts are typical posts; Category is a key of the post_category dictionary
// (1 senior, 2 middle, 3 staff, 4 other).
var Posts = []Post{
	{Code: "chairman", Name: I18n{"董事长", "Chairman"}, Category: 1, Sort: 1},
	{Code: "gm", Name: I18n{"总经理", "General manager"}, Category: 1, Sort: 2},
	{Code: "cto", Name: I18n{"技术总监", "Technical director"}, Category: 1, Sort: 3},
	{Code: "cfo", Name: I18n{"财务总监", "Finance director"}, Category: 1, Sort: 4},
	{Code: "pm", Name: I18n{"项目经理", "Project manager"}, Category: 2, Sort: 5},
	{Code: "hrm", Name: I18n{"人事经理", "HR manager"}, Category: 2, Sort: 6},
	{Code: "prod_mgr", Name: I18n{"生产主管", "Production supervisor"}, Category: 2, Sort: 7},
	{Code: "wh_mgr", Name: I18n{"仓库主管", "Warehouse supervisor"}, Category: 2, Sort: 8},
	{Code: "buyer", Name: I18n{"采购员", "Buyer"}, Category: 3, Sort: 9},
	{Code: "keeper", Name: I18n{"仓管员", "Warehouse keeper"}, Category: 3, Sort: 10},
	{Code: "staff", Name: I18n{"普通员工", "Staff"}, Category: 3, Sort: 11},
	{Code: "other", Name: I18n{"其他", "Other"}, Category: 4, Sort: 12},
}
