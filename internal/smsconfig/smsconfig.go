// Package smsconfig is blade-resource/sms: each tenant's SMS gateway
// configurations (Aliyun, Tencent Cloud, or log-only), at most one enabled,
// and endpoint/send-message, which sends through the enabled one. The
// console's own messages (phone login codes) go through it too: Router is
// the sms.Provider the login codes use.
package smsconfig

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/sms"
	"github.com/bluebird/console/internal/resource"
)

// Categories of the sms dictionary that can send.
const (
	CategoryLog     = 0 // written to the log, not sent
	CategoryAliyun  = 3
	CategoryTencent = 4
)

// Sms is a row of blade_sms.
type Sms struct {
	bun.BaseModel `bun:"table:blade_sms"`
	resource.Base
	SmsCode    string `bun:"sms_code" json:"smsCode" f:"label=资源编号|Code;req;max=32;search;sort;pattern=^[A-Za-z0-9_-]+$;patternMsg=只能包含字母、数字、下划线和短横线|Letters, digits, _ and - only"`
	Category   int    `bun:"category" json:"category" f:"label=分类|Provider;req;dict=sms;search"`
	TemplateID string `bun:"template_id" json:"templateId" f:"label=模版ID|Template ID;max=64;nofilter"`
	AccessKey  string `bun:"access_key" json:"accessKey" f:"label=accessKey|Access key;max=255;nofilter"`
	SecretKey  string `bun:"secret_key" json:"secretKey,omitempty" f:"label=secretKey|Secret key;type=password;max=255;hide"`
	RegionID   string `bun:"region_id" json:"regionId" f:"label=地域|Region;max=64;hide;nofilter"`
	SignName   string `bun:"sign_name" json:"signName" f:"label=短信签名|Signature;max=64;search"`
	AppID      string `bun:"app_id" json:"appId" f:"label=应用ID|App ID;max=64;hide;nofilter"`
	Endpoint   string `bun:"endpoint" json:"endpoint" f:"label=接口地址|API endpoint;max=255;hide;nofilter;format=url"`
	IsEnabled  int    `bun:"is_enabled" json:"isEnabled" f:"label=是否启用|Enabled;dict=yes_no;ro;filter=equal"`
	Remark     string `bun:"remark" json:"remark" f:"label=备注|Remark;max=255;hide"`
}

var (
	errCategory = httpx.BadRequest(i18n.T("暂不支持该短信服务,请选择阿里云、腾讯云或日志", "This provider is not supported yet: choose Aliyun, Tencent Cloud or log only"))
	errNeeds    = func(label i18n.Text) error {
		return httpx.BadRequest(i18n.T("请输入"+label.Zh, "Please enter the "+strings.ToLower(label.En)))
	}
)

// NewResource declares blade-resource/sms: per tenant, managed by the
// tenant administrator (the super user manages every tenant's).
func NewResource() *resource.Resource[Sms] {
	return resource.New(resource.Spec{
		Service: "blade-resource", Name: "sms", Table: "blade_sms", Label: i18n.T("短信配置", "SMS configuration"),
		MenuCode: "sms", Scope: resource.TenantAdmin, Read: resource.Admin, Write: resource.Admin,
		Unique: [][]string{{"smsCode"}}, DefaultOrder: "is_enabled DESC, sms_code ASC, id ASC",
	}, resource.Hooks[Sms]{
		Validate: validate,
		Commands: []resource.Command[Sms]{resource.EnableCommand("isEnabled",
			i18n.T("启用后本租户的短信将通过此配置发送,确定启用?", "This tenant's messages will be sent through this configuration. Enable it?"),
			func(s *Sms) error {
				if !sendable(s.Category) {
					return errCategory
				}
				return nil
			})},
	})
}

// validate checks what a real provider needs to send.
func validate(_ context.Context, s *Sms, present map[string]bool, isNew bool) error {
	if !isNew && !present["category"] {
		return nil // category unchanged: the stored row was checked when saved
	}
	check := func(name string, v string) bool { return (isNew || present[name]) && strings.TrimSpace(v) == "" }
	if s.Category != CategoryAliyun && s.Category != CategoryTencent {
		return nil // log only, or a provider kept for later: saved, but enable refuses it
	}
	switch {
	case check("templateId", s.TemplateID):
		return errNeeds(i18n.T("模版ID", "Template ID"))
	case check("accessKey", s.AccessKey):
		return errNeeds(i18n.T("accessKey", "Access key"))
	case isNew && s.SecretKey == "":
		return errNeeds(i18n.T("secretKey", "Secret key"))
	case check("signName", s.SignName):
		return errNeeds(i18n.T("短信签名", "Signature"))
	case s.Category == CategoryTencent && check("appId", s.AppID):
		return errNeeds(i18n.T("应用ID", "App ID"))
	}
	return nil
}

// sendable tells the categories this console can send through.
func sendable(category int) bool {
	return category == CategoryLog || category == CategoryAliyun || category == CategoryTencent
}

// provider is the gateway a configuration sends through.
func (s *Sms) provider(client *http.Client, fallback sms.Provider) sms.Provider {
	g := sms.Gateway{Endpoint: s.Endpoint, AccessKey: s.AccessKey, SecretKey: s.SecretKey, Region: s.RegionID,
		SignName: s.SignName, AppID: s.AppID, Client: client}
	switch s.Category {
	case CategoryAliyun:
		return &sms.Aliyun{Gateway: g}
	case CategoryTencent:
		return &sms.Tencent{Gateway: g}
	}
	return fallback
}

// Throttle is the SMS rate limit (auth.SMSCodes.Throttle: per phone and
// per client address), shared with the phone login codes.
type Throttle interface {
	Throttle(ctx context.Context, ip string, phones ...string) (release func(), err error)
}

// Router is the sms.Provider of the console: a message goes through the
// enabled configuration of its tenant (sms.WithTenant), or to Fallback
// when the tenant enabled none.
type Router struct {
	DB       *db.DB
	Fallback sms.Provider
	// Outbound is what tenants' gateways may reach; nil refuses every
	// internal address (outbound.Policy). The platform tenant's
	// configurations are the operator's own and use the gateways' client.
	Outbound      *outbound.Policy
	tenantClients outbound.Lazy
}

// clientFor is the HTTP client of a configuration of tenantID.
func (r *Router) clientFor(tenantID string) *http.Client {
	if tenantID == authz.SuperTenant {
		return nil // the gateways' default
	}
	return r.tenantClients.Client(r.Outbound, 10*time.Second)
}

var _ sms.Provider = (*Router)(nil)

// Send implements sms.Provider. The console's own templates (the login
// code) and an empty template use the configuration's template ID.
func (r *Router) Send(ctx context.Context, phone, template string, params map[string]string) error {
	cfg, err := r.enabled(ctx, sms.TenantFrom(ctx))
	if err != nil {
		return err
	}
	if cfg == nil {
		return r.Fallback.Send(ctx, phone, template, params)
	}
	if template == "" || template == sms.TemplateValidate {
		template = cfg.TemplateID
	}
	return cfg.provider(r.clientFor(cfg.TenantID), r.Fallback).Send(ctx, phone, template, params)
}

// enabled is the tenant's enabled configuration, or nil.
func (r *Router) enabled(ctx context.Context, tenantID string) (*Sms, error) {
	if tenantID == "" {
		return nil, nil
	}
	var s Sms
	err := r.DB.NewSelect().Model(&s).Where("tenant_id = ? AND is_enabled = 1 AND is_deleted = 0", tenantID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// --- endpoint/send-message ---

// SendMessagePath sends a templated message to phones through the enabled configuration.
const SendMessagePath = "/api/blade-resource/sms/endpoint/send-message"

// maxPhones bounds one send-message.
const maxPhones = 100

var (
	phonePattern   = regexp.MustCompile(`^(\+[0-9]{6,15}|[0-9]{11})$`)
	errNoPhones    = httpx.BadRequest(i18n.T("请输入手机号码", "Please enter the phone numbers"))
	errTooMany     = httpx.Badf("一次最多发送%d个手机号码", "At most %d phone numbers at a time", maxPhones)
	errParams      = httpx.BadRequest(i18n.T("参数应为 JSON 对象,例如 {\"code\":\"1234\"}", `Parameters must be a JSON object, e.g. {"code":"1234"}`))
	errNoConfig    = httpx.BadRequest(i18n.T("请先启用一个短信配置", "Enable an SMS configuration first"))
	errNoTemplate  = httpx.BadRequest(i18n.T("请输入短信模版编号", "Please enter the template code"))
	msgSent        = i18n.T("发送成功", "Sent")
	errPhoneFormat = func(p string) error {
		return httpx.BadRequest(i18n.T("手机号码格式不正确: "+p, "Not a phone number: "+p))
	}
	errSendFailed = func(e *sms.ProviderError) error {
		return &httpx.Error{Status: 502, Msg: i18n.T("短信发送失败: "+e.Code+" "+e.Message, "The SMS provider refused the message: "+e.Code+" "+e.Message)}
	}
	errUnreachable = &httpx.Error{Status: 502, Msg: i18n.T("短信服务无法访问,请检查接口地址", "The SMS provider could not be reached: check the API endpoint")}
	// outbound.Policy: a tenant's gateway may not be an internal address.
	errGatewayInternal = &httpx.Error{Status: 502, Msg: i18n.T("短信配置的接口地址是内部网络地址,不能使用;如需使用请联系平台管理员",
		"The SMS configuration's API endpoint is an internal network address and cannot be used; ask the platform administrator")}
)

// Endpoint serves send-message.
type Endpoint struct {
	Router   *Router
	Throttle Throttle
}

// Mount routes send-message (tenant administrators).
func (e *Endpoint) Mount(r chi.Router) {
	r.Post(strings.TrimPrefix(SendMessagePath, "/api"), httpx.Handle(resource.Guard(resource.Admin)(e.handleSend)))
}

// SendResult is the data of a send-message answer.
type SendResult struct {
	Sent int `json:"sent"`
}

func (e *Endpoint) handleSend(r *http.Request) (any, error) {
	p := authz.From(r.Context())
	v := r.URL.Query()
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") && r.ParseForm() == nil {
		for k, vs := range r.PostForm {
			if !v.Has(k) {
				v[k] = vs
			}
		}
	}
	phones, err := parsePhones(v.Get("phones"))
	if err != nil {
		return nil, err
	}
	params, err := parseParams(v.Get("params"))
	if err != nil {
		return nil, err
	}
	template := strings.TrimSpace(v.Get("code"))
	if len(template) > 64 {
		return nil, httpx.InvalidParam("code")
	}
	ctx := sms.WithTenant(r.Context(), p.TenantID)
	cfg, err := e.Router.enabled(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		return nil, errNoConfig
	}
	if template == "" && cfg.TemplateID == "" && cfg.Category != CategoryLog {
		return nil, errNoTemplate
	}
	release, err := e.Throttle.Throttle(ctx, httpx.ClientIP(r), phones...)
	if err != nil {
		return nil, err
	}
	for i, phone := range phones {
		if err := e.Router.Send(ctx, phone, template, params); err != nil {
			slog.WarnContext(ctx, "send-message failed", "tenant", p.TenantID, "phone", sms.Mask(phone), "err", err)
			if i == 0 {
				release() // nothing went out: the marks are given back
			}
			var pe *sms.ProviderError
			switch {
			case errors.As(err, &pe):
				return nil, errSendFailed(pe)
			case errors.Is(err, outbound.ErrBlocked):
				return nil, errGatewayInternal
			}
			return nil, errUnreachable
		}
	}
	return httpx.Message{Text: msgSent, Data: SendResult{Sent: len(phones)}}, nil
}

func parsePhones(raw string) ([]string, error) {
	var phones []string
	seen := map[string]bool{}
	for _, ph := range strings.Split(raw, ",") {
		ph = strings.TrimSpace(ph)
		if ph == "" || seen[ph] {
			continue
		}
		if !phonePattern.MatchString(ph) {
			return nil, errPhoneFormat(ph)
		}
		seen[ph] = true
		phones = append(phones, ph)
	}
	switch {
	case len(phones) == 0:
		return nil, errNoPhones
	case len(phones) > maxPhones:
		return nil, errTooMany
	}
	return phones, nil
}

// parseParams reads a JSON object of template parameters; numbers and
// booleans become their text, an array numbers its items from 1 (Tencent's
// positional parameters).
func parseParams(raw string) (map[string]string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return map[string]string{}, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		var arr []any
		if json.Unmarshal([]byte(raw), &arr) != nil {
			return nil, errParams
		}
		obj = map[string]any{}
		for i, x := range arr {
			obj[fmt.Sprint(i+1)] = x
		}
	}
	out := make(map[string]string, len(obj))
	for k, x := range obj {
		switch x := x.(type) {
		case string:
			out[k] = x
		case float64, bool:
			out[k] = fmt.Sprint(x)
		default:
			return nil, errParams
		}
	}
	return out, nil
}
