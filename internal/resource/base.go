package resource

import "github.com/bluebird/console/internal/platform/wire"

// Base holds the columns every table has (architecture.md §4). Embed it first
// in each resource struct.
type Base struct {
	ID         wire.ID   `bun:"id,pk" json:"id" f:"label=主键|ID;type=id;ro;hide;noform;filter=equal"`
	TenantID   string    `bun:"tenant_id" json:"tenantId" f:"label=租户ID|Tenant ID;ro;hide;noform;filter=equal"`
	CreateUser wire.ID   `bun:"create_user" json:"createUser" f:"label=创建人|Created by;type=id;ro;hide;noform;filter=equal"`
	CreateDept wire.ID   `bun:"create_dept" json:"createDept" f:"label=创建部门|Creating department;type=id;ro;hide;noform;filter=equal"`
	CreateTime wire.Time `bun:"create_time" json:"createTime" f:"label=创建时间|Created at;ro;hide;noform;sort"`
	UpdateUser wire.ID   `bun:"update_user" json:"updateUser" f:"label=修改人|Updated by;type=id;ro;hide;noform"`
	UpdateTime wire.Time `bun:"update_time" json:"updateTime" f:"label=修改时间|Updated at;ro;hide;noform;sort"`
	Status     int       `bun:"status" json:"status" f:"label=状态|Status;hide;noform;filter=equal"`
	IsDeleted  int       `bun:"is_deleted" json:"isDeleted" f:"label=已删除|Deleted;ro;hide;noform;nofilter"`
	Version    int       `bun:"version" json:"version" f:"label=版本|Version;hide;noform;nofilter"`
}

// base lets the engine reach the embedded Base of any resource struct.
func (b *Base) base() *Base { return b }

type hasBase interface{ base() *Base }

// BaseOf returns the embedded Base of a resource row (a pointer to a struct
// that embeds Base), for code that handles rows of any resource.
func BaseOf(row any) *Base { return row.(hasBase).base() }
