package files

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/storage"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Object-storage configurations (blade-resource/oss): per tenant, at most
// one enabled; uploads go to the enabled one, or to the console's own disk
// when there is none. The secret key is written, never read back.

// Categories of the oss dictionary.
const (
	OssLocal = 1 // the console's own disk (the files directory)
	OssS3    = 2 // an S3-compatible bucket through minio-go
)

// Oss is a row of blade_oss.
type Oss struct {
	bun.BaseModel `bun:"table:blade_oss"`
	resource.Base
	OssCode    string `bun:"oss_code" json:"ossCode" f:"label=资源编号|Code;req;max=32;search;sort;pattern=^[A-Za-z0-9_-]+$;patternMsg=只能包含字母、数字、下划线和短横线|Letters, digits, _ and - only"`
	Category   int    `bun:"category" json:"category" f:"label=分类|Type;req;dict=oss;search;default=1"`
	Endpoint   string `bun:"endpoint" json:"endpoint" f:"label=资源地址|Endpoint;max=255;nofilter"`
	BucketName string `bun:"bucket_name" json:"bucketName" f:"label=空间名|Bucket;max=63;search"`
	AccessKey  string `bun:"access_key" json:"accessKey" f:"label=accessKey|Access key;max=255;nofilter"`
	SecretKey  string `bun:"secret_key" json:"secretKey,omitempty" f:"label=secretKey|Secret key;type=password;max=255;hide"`
	Region     string `bun:"region" json:"region" f:"label=地域|Region;max=64;hide;nofilter"`
	PathStyle  int    `bun:"path_style" json:"pathStyle" f:"label=路径风格访问|Path-style access;dict=yes_no;default=1;hide;nofilter"`
	IsEnabled  int    `bun:"is_enabled" json:"isEnabled" f:"label=是否启用|Enabled;dict=yes_no;ro;filter=equal"`
	Remark     string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

var (
	bucketPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	regionPattern = regexp.MustCompile(`^[A-Za-z0-9-]*$`)

	errS3Field = func(label i18n.Text) error {
		return httpx.BadRequest(i18n.T("请输入"+label.Zh, "Please enter the "+strings.ToLower(label.En)))
	}
	errEndpoint   = httpx.BadRequest(i18n.T("资源地址应为 host:port 或 http(s)://host:port", "The endpoint must be host:port or http(s)://host:port"))
	errBucketName = httpx.BadRequest(i18n.T("空间名只能包含小写字母、数字、点和短横线,3到63个字符", "A bucket name is 3 to 63 lowercase letters, digits, dots and hyphens"))
	errRegion     = httpx.BadRequest(i18n.T("地域只能包含字母、数字和短横线", "A region is letters, digits and hyphens"))
	errStoreWrite = &httpx.Error{Status: 502, Msg: i18n.T("对象存储上传失败,请检查存储配置", "The object store refused the upload: check the storage configuration")}
	// outbound.Policy: a tenant's endpoint may not be an internal address.
	errStoreInternal = &httpx.Error{Status: 502, Msg: i18n.T("存储配置的资源地址是内部网络地址,不能使用;如需使用请联系平台管理员",
		"The storage configuration's endpoint is an internal network address and cannot be used; ask the platform administrator")}
)

// NewOssResource declares blade-resource/oss: per tenant, managed by the
// tenant administrator (the super user manages every tenant's).
func (s *Service) NewOssResource() *resource.Resource[Oss] {
	return resource.New(resource.Spec{
		Service: "blade-resource", Name: "oss", Table: "blade_oss", Label: i18n.T("对象存储", "Object storage"),
		MenuCode: "oss", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Admin,
		Unique: [][]string{{"ossCode"}}, DefaultOrder: "is_enabled DESC, oss_code ASC, id ASC",
	}, resource.Hooks[Oss]{
		Validate: validateOss,
		Commands: []resource.Command[Oss]{resource.EnableCommand[Oss]("isEnabled",
			i18n.T("启用后本租户的上传将存入此配置,确定启用?", "Uploads of this tenant will go to this configuration. Enable it?"), nil)},
	})
}

// validateOss checks what an S3 configuration needs; a local one needs nothing.
func validateOss(_ context.Context, o *Oss, present map[string]bool, isNew bool) error {
	o.Endpoint, o.BucketName, o.Region = strings.TrimSpace(o.Endpoint), strings.TrimSpace(o.BucketName), strings.TrimSpace(o.Region)
	if o.Category != OssS3 {
		return nil
	}
	check := func(name string) bool { return isNew || present[name] }
	switch {
	case check("endpoint") && o.Endpoint == "":
		return errS3Field(i18n.T("资源地址", "Endpoint"))
	case check("bucketName") && o.BucketName == "":
		return errS3Field(i18n.T("空间名", "Bucket"))
	case check("accessKey") && o.AccessKey == "":
		return errS3Field(i18n.T("accessKey", "Access key"))
	case isNew && o.SecretKey == "":
		return errS3Field(i18n.T("secretKey", "Secret key"))
	}
	if o.Endpoint != "" {
		if _, _, err := storage.ParseEndpoint(o.Endpoint); err != nil {
			return errEndpoint
		}
	}
	if o.BucketName != "" && !bucketPattern.MatchString(o.BucketName) {
		return errBucketName
	}
	if !regionPattern.MatchString(o.Region) {
		return errRegion
	}
	return nil
}

// target is where a tenant's new uploads go: its enabled configuration, or
// the console's disk (ossID 0) when none is enabled or the enabled one is local.
func (s *Service) target(ctx context.Context, tenantID string) (ossID wire.ID, st storage.Store, domain string, err error) {
	var o Oss
	err = s.DB.NewSelect().Model(&o).Where("tenant_id = ? AND is_enabled = 1 AND is_deleted = 0", tenantID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && o.Category != OssS3) {
		return 0, s.Store, strings.TrimSuffix(FilePrefix, "/"), nil
	}
	if err != nil {
		return 0, nil, "", err
	}
	s3, err := s.s3(&o)
	if err != nil {
		return 0, nil, "", err
	}
	return o.ID, s3, s3.Domain(), nil
}

// storeOf is the store an upload went to. A configuration removed or
// disabled since still serves (and removes) the files stored through it.
func (s *Service) storeOf(ctx context.Context, ossID wire.ID) (storage.Store, error) {
	if ossID == 0 {
		return s.Store, nil
	}
	var o Oss
	if err := s.DB.NewSelect().Model(&o).Where("id = ?", ossID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("files: storage configuration %s: %w", ossID, err)
	}
	if o.Category != OssS3 {
		return s.Store, nil
	}
	return s.s3(&o)
}

// s3 is the store of an S3 configuration. A tenant's endpoint is reached
// through the outbound policy (internal addresses refused unless the
// operator allowed them); the platform tenant's is the operator's own.
func (s *Service) s3(o *Oss) (*storage.S3, error) {
	c := storage.S3Config{Endpoint: o.Endpoint, Bucket: o.BucketName, AccessKey: o.AccessKey,
		SecretKey: o.SecretKey, Region: o.Region, PathStyle: o.PathStyle == 1}
	if o.TenantID != authz.SuperTenant {
		c.Transport = s.tenantClients.Client(s.Outbound, 0).Transport // one for all tenants: connections are reused
	}
	return storage.NewS3(c)
}

// storeFailed logs a store's refusal (the configuration's fault, not the
// client's) and answers a 502 that tells the administrator where to look.
func storeFailed(ctx context.Context, tenantID string, err error) error {
	slog.WarnContext(ctx, "object store refused an upload", "tenant", tenantID, "err", err)
	if errors.Is(err, outbound.ErrBlocked) {
		return errStoreInternal
	}
	return errStoreWrite
}
