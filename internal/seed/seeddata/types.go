// Package seeddata holds the data seeded on first start: top menus, the menu tree with its
// permission buttons, system dictionaries, roles and posts (menus.md, api-contract.md §4, §5, §8).
//
// It is pure data on the standard library only; the seeding code elsewhere turns it into rows.
package seeddata

// I18n is a zh/en text pair.
type I18n struct{ Zh, En string }

// TopMenu is a top-menu entry (api-contract.md §4).
type TopMenu struct {
	Code  string // "000".."004"
	Name  I18n
	Icon  string // antd icon name, e.g. "AppstoreOutlined"
	Path  string // "" for in-app codes, "pdm/", "erp/", "scm/" for siblings
	Sort  int
	Menus []string // codes of the top-level menus bound to it (menus.md table "Top menus")
}

// Menu is one menu (category 1) with its buttons and children.
type Menu struct {
	Code     string
	Name     I18n
	Path     string // as in menus.md
	Icon     string // antd icon component name, e.g. "SettingOutlined"
	Sort     int
	Hidden   bool // e.g. a screen reached only by link
	Children []Menu
	Buttons  []Button // leaves of category 2
}

// Button is a permission button under a leaf menu: code "<menuCode>_<op>".
type Button struct {
	Code   string // full code, e.g. "user_add"
	Name   I18n   // 新增/Add ...
	Icon   string
	Action int // 0 none, 1 toolbar, 2 row, 3 both (api-contract.md §4)
	Sort   int
}

// Dict is a system dictionary: a root row (code, name) and its items.
type Dict struct {
	Code  string
	Name  I18n
	Items []DictItem
}

// DictItem is one child row of a dictionary.
type DictItem struct {
	Key    string // dictKey
	Value  I18n   // dictValue
	Remark string
}

// Role is a seeded role of tenant 000000.
type Role struct {
	Alias string
	Name  I18n
	Sort  int
}

// Post is a seeded post.
type Post struct {
	Code     string
	Name     I18n
	Category int
	Sort     int
}
