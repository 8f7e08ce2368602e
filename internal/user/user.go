// Package user is blade-user: the tenant's accounts, their roles, passwords,
// profile and platform details, and the directory login reads.
package user

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// User is an account of a tenant.
type User struct {
	bun.BaseModel `bun:"table:blade_user"`
	resource.Base
	Code     string    `bun:"code" json:"code" f:"label=用户编号|User code;max=12;hide"`
	UserType int       `bun:"user_type" json:"userType" f:"label=用户平台|Platform;dict=user_type;hide"`
	Account  string    `bun:"account" json:"account" f:"label=登录账号|Account;req;max=45;search;sort;pattern=^[A-Za-z0-9_.@-]+$"`
	Password string    `bun:"password" json:"password,omitempty" f:"label=密码|Password;type=password;once;hide;max=64;confirm=password2"`
	Name     string    `bun:"name" json:"name" f:"label=用户昵称|Nickname;req;max=20"`
	RealName string    `bun:"real_name" json:"realName" f:"label=用户姓名|Real name;req;max=10;search"`
	Avatar   string    `bun:"avatar" json:"avatar" f:"label=头像|Avatar;type=image;max=500;hide"`
	Email    string    `bun:"email" json:"email" f:"label=电子邮箱|Email;max=45;format=email;hide"`
	Phone    string    `bun:"phone" json:"phone" f:"label=手机号码|Phone;max=45;format=phone"`
	Birthday wire.Time `bun:"birthday" json:"birthday" f:"label=生日|Birthday;type=date;hide"`
	Sex      int       `bun:"sex" json:"sex" f:"label=性别|Sex;dict=sex;hide"`
	RoleID   string    `bun:"role_id" json:"roleId" f:"label=所属角色|Roles;type=tree;multi;req;tree=/api/blade-system/role/tree;nofilter;hide;ref=blade-system/role"`
	DeptID   string    `bun:"dept_id" json:"deptId" f:"label=所属部门|Departments;type=tree;multi;req;tree=/api/blade-system/dept/tree;nofilter;hide;ref=blade-system/dept"`
	PostID   string    `bun:"post_id" json:"postId" f:"label=所属岗位|Posts;type=tree;multi;tree=/api/blade-system/post/select;nofilter;hide;ref=blade-system/post"`
	UserExt  string    `bun:"user_ext" json:"userExt" f:"label=用户拓展信息|Extra information;type=text;max=10000;hide;noform"`

	RoleName     string `bun:"-" json:"roleName"`
	DeptName     string `bun:"-" json:"deptName"`
	PostName     string `bun:"-" json:"postName"`
	TenantName   string `bun:"-" json:"tenantName,omitempty"`
	SexName      string `bun:"-" json:"sexName,omitempty"`
	UserTypeName string `bun:"-" json:"userTypeName,omitempty"`
}

// Lookup is how other resources pick a user (their ref=blade-user/user
// fields: handlers, warehouse keepers): the page any signed-in user may read,
// searched by the keyword over the account and the real name.
func Lookup() *resource.Lookup {
	return &resource.Lookup{URL: "/api/blade-user/selectUserListPage", CodeField: "account", LabelField: "realName"}
}

// Directory implements auth.Users over blade_user.
type Directory struct{ DB *db.DB }

func (d *Directory) one(ctx context.Context, where string, args ...any) (*auth.Account, error) {
	var u User
	err := d.DB.NewSelect().Model(&u).Where("is_deleted = 0").Where(where, args...).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return toAccount(&u), nil
}

func toAccount(u *User) *auth.Account {
	roles, _ := wire.ParseIDs(u.RoleID)
	depts, _ := wire.ParseIDs(u.DeptID)
	posts, _ := wire.ParseIDs(u.PostID)
	return &auth.Account{ID: u.ID, TenantID: u.TenantID, Account: u.Account, Name: u.Name, RealName: u.RealName,
		Avatar: u.Avatar, Phone: u.Phone, Password: u.Password, Status: u.Status, RoleIDs: roles, DeptIDs: depts, PostIDs: posts}
}

func (d *Directory) ByAccount(ctx context.Context, tenantID, account string) (*auth.Account, error) {
	return d.one(ctx, "tenant_id = ? AND account = ?", tenantID, account)
}

func (d *Directory) ByPhone(ctx context.Context, tenantID, phone string) (*auth.Account, error) {
	return d.one(ctx, "tenant_id = ? AND phone = ?", tenantID, phone)
}

func (d *Directory) ByID(ctx context.Context, id wire.ID) (*auth.Account, error) {
	return d.one(ctx, "id = ?", id)
}

func (d *Directory) SetPasswordHash(ctx context.Context, id wire.ID, hash string) error {
	_, err := d.DB.NewUpdate().Table("blade_user").Set("password = ?", hash).Where("id = ?", id).Exec(ctx)
	return err
}

// ClientPassword normalises a password as the client should send it: the md5
// hex of the plain text. Forms that send plain text are hashed here.
func ClientPassword(p string) string {
	p = strings.TrimSpace(p)
	if authn.IsMD5Hex(p) {
		return strings.ToLower(p)
	}
	return authn.MD5Hex(p)
}

var (
	msgQuota       = i18n.T("当前租户已到最大账号额度,请联系管理员", "The tenant has reached its account quota; contact the administrator")
	msgPassword    = i18n.T("请输入密码", "Please enter a password")
	msgSelfRemove  = i18n.T("不能删除当前登录用户", "You cannot delete the account you are signed in with")
	msgOldPassword = i18n.T("原密码不正确", "The old password is wrong")
	msgMismatch    = i18n.T("两次密码输入不一致", "The two passwords do not match")
)
