package auth

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// SocialProvider is a tenant's OpenID Connect provider for social login.
// The client secret is written, never read back.
type SocialProvider struct {
	bun.BaseModel `bun:"table:bb_social_provider"`
	resource.Base
	Source       string `bun:"source" json:"source" f:"label=登录来源|Source;req;max=64;search;sort;pattern=^[A-Za-z0-9_-]+$"`
	Name         string `bun:"name" json:"name" f:"label=显示名称|Display name;max=100;search"`
	Issuer       string `bun:"issuer" json:"issuer" f:"label=签发者地址|Issuer URL;req;max=500;format=url"`
	ClientID     string `bun:"client_id" json:"clientId" f:"label=客户端ID|Client ID;req;max=255"`
	ClientSecret string `bun:"client_secret" json:"clientSecret" f:"label=客户端密钥|Client secret;type=password;max=500;nofilter"`
	RedirectURI  string `bun:"redirect_uri" json:"redirectUri" f:"label=回调地址|Redirect URI;max=500;format=url;hide;nofilter"`
	Scopes       string `bun:"scopes" json:"scopes" f:"label=授权范围|Scopes;max=255;hide;nofilter"`
	Remark       string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

// DefaultScopes are asked for when a provider names none (openid is always added).
const DefaultScopes = "openid profile email"

// NewProviderResource declares blade-auth/social-provider: per tenant, read
// and written by the tenant administrator (the super user manages every tenant's).
func NewProviderResource() *resource.Resource[SocialProvider] {
	return resource.New(resource.Spec{
		Service: "blade-auth", Name: "social-provider", Table: "bb_social_provider", Label: i18n.T("第三方登录", "Social login provider"),
		MenuCode: "social_provider", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Admin,
		Unique: [][]string{{"source"}}, DefaultOrder: "source ASC, id ASC",
	}, resource.Hooks[SocialProvider]{
		BeforeSave: func(ctx context.Context, _ bun.Tx, p *SocialProvider, isNew bool) error {
			p.Issuer = strings.TrimSpace(p.Issuer) // kept exactly otherwise: it must equal the discovered issuer
			if isNew && strings.TrimSpace(p.Scopes) == "" {
				p.Scopes = DefaultScopes
			}
			return nil
		},
	})
}
