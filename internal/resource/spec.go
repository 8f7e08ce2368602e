// Package resource is the declare-once engine (architecture.md §3). A
// resource is a Go struct (bun and json tags plus an `f` tag of metadata) and
// one Spec; from them come the routes, the scoped SQL, the filters and sorts,
// validation, the UI metadata, the Excel export and the OpenAPI paths.
package resource

import (
	"errors"

	"github.com/bluebird/console/internal/platform/i18n"
)

// Scope says how rows belong to tenants.
type Scope int

const (
	// Tenant rows are visible only inside their tenant.
	Tenant Scope = iota
	// TenantAdmin rows are tenant rows the platform super user may see and
	// manage across tenants (users, roles, departments, posts).
	TenantAdmin
	// Global rows are shared by every tenant (menus, system dictionaries,
	// tenants, clients); reading needs a login, writing the super user.
	Global
)

// Access is who may call a group of routes.
type Access int

const (
	AnyUser Access = iota // any signed-in user
	Admin                 // a tenant administrator or the super user
	Super                 // only the platform super user
	// Granted is a caller granted the resource's menu (MenuCode) through their
	// roles, within the tenant's package; the super user always. For writes,
	// the button of the action: <MenuCode>_add to insert, _edit to update,
	// _delete to remove (notices: read by those the 通知公告 menu is granted to).
	Granted
)

// Spec declares a resource once.
type Spec struct {
	Service  string    // URL service segment: "blade-system"
	Name     string    // URL resource segment: "param"; with Service, the metadata name
	Table    string    // "blade_param"
	Label    i18n.Text // what one row is called
	MenuCode string    // the menu whose buttons guard it; also the data/API scope resource code
	Scope    Scope
	Read     Access // list, page, detail, export
	Write    Access // submit, remove
	// DataScope applies the role's data-scope rules (create_user / create_dept columns).
	DataScope bool
	// Routes: which generic routes to mount. Empty means list, detail, submit, remove, export.
	Routes []string
	// Unique lists field-name groups that must be unique among live rows of a tenant.
	Unique [][]string
	// DefaultOrder is used when the request gives no sort, e.g. "sort ASC, id DESC".
	DefaultOrder string
	// URLPath, when set, is where the routes sit instead of /<Service>/<Name>
	// (BladeX has blade-user's at /blade-user).
	URLPath string
	// SecretRows limits the fields tagged secret to the rows it matches (secret.go).
	SecretRows *SecretRows
	// Views are named read endpoints with joined columns (view.go);
	// ListView names the one the screen's table reads.
	Views    []View
	ListView string
	// States: the state field only commands move, and what each state allows (state.go).
	States *StateRules
	// Number is a field filled from the tenant's code rule (number.go).
	Number *Number
	// Lookup is how other resources' reference fields pick these rows (ref.go).
	Lookup *Lookup
	// SubmitAliases are further names of submit (BladeX's saveCodeRules,
	// saveMaterialInRecord...): the same handler, body and answer.
	SubmitAliases []string
	// RouteNames are further names of engine routes (BladeX's website
	// client: list is also GET select, remove also POST delete), served by
	// the same handler behind the same guard (routenames.go).
	RouteNames map[string]string
	// Lines are child rows saved with each row (lines.go).
	Lines *Lines
	// Tree: the rows hang under one another by a parent id (tree.go).
	Tree *Tree
	// Import: rows are imported from Excel, matched by a key (import.go).
	Import *Import
	// Screens are further menu entries showing some of the rows (screen.go).
	Screens []Screen
	// ExtraLines, Related and Print declare what a document's editor
	// shows besides its fields and Lines (document.go).
	ExtraLines []ExtraLines
	Related    []Related
	Print      *Print
	// Title is the field that names a row in messages ("M001 is approved...");
	// default: the first field of the first Unique group.
	Title string
}

// Path is the URL path of the resource under /api.
func (s *Spec) Path() string {
	if s.URLPath != "" {
		return s.URLPath
	}
	return "/" + s.Service + "/" + s.Name
}

// Key is "service/name", unique across the registry.
func (s *Spec) Key() string { return s.Service + "/" + s.Name }

// normalize refuses a declaration the registry and the web app could not
// look up, and fills the defaults: Global resources are written by the super user.
func (s *Spec) normalize() error {
	if s.Service == "" || s.Name == "" || s.Label.Zh == "" || s.Label.En == "" {
		return errors.New("a resource needs a Service, a Name and a zh/en Label")
	}
	if (s.Read == Granted || s.Write == Granted) && s.MenuCode == "" {
		return errors.New("a resource with Granted access needs a MenuCode")
	}
	if s.Scope == Global && s.Write == AnyUser {
		s.Write = Super
	}
	return nil
}

func (s *Spec) has(route string) bool {
	if len(s.Routes) == 0 {
		switch route {
		case "list", "detail", "submit", "remove", "export":
			return true
		}
		return false
	}
	for _, r := range s.Routes {
		if r == route {
			return true
		}
	}
	return false
}
