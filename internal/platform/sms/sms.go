// Package sms sends text messages through a pluggable provider. The default
// provider only logs what it would send, which is enough for development and
// for a console without an SMS contract; a real gateway (or the tenant's
// blade-resource/sms configuration) implements Provider.
package sms

import (
	"context"
	"log/slog"
	"strings"
)

// Provider sends one templated message to one phone number.
type Provider interface {
	Send(ctx context.Context, phone, template string, params map[string]string) error
}

// Templates the platform sends.
const (
	// TemplateValidate carries a one-time code in params["code"].
	TemplateValidate = "validate"
)

type tenantKey struct{}

// WithTenant tells the provider on whose behalf a message goes, so that a
// tenant-aware provider can pick that tenant's gateway configuration.
func WithTenant(ctx context.Context, tenantID string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenantID)
}

// TenantFrom returns the tenant set by WithTenant, or "".
func TenantFrom(ctx context.Context) string {
	v, _ := ctx.Value(tenantKey{}).(string)
	return v
}

// LogProvider writes the message to the log instead of sending it.
type LogProvider struct {
	Logger *slog.Logger // nil means slog.Default()
}

// Send logs the phone (masked), template and parameters.
func (p LogProvider) Send(ctx context.Context, phone, template string, params map[string]string) error {
	l := p.Logger
	if l == nil {
		l = slog.Default()
	}
	attrs := []any{"phone", Mask(phone), "template", template, "tenant", TenantFrom(ctx)}
	for k, v := range params {
		attrs = append(attrs, "param."+k, v)
	}
	l.InfoContext(ctx, "sms (log provider, not sent)", attrs...)
	return nil
}

// Mask hides the middle of a phone number: 138****5678.
func Mask(phone string) string {
	if len(phone) < 7 {
		return strings.Repeat("*", len(phone))
	}
	return phone[:3] + strings.Repeat("*", len(phone)-7) + phone[len(phone)-4:]
}
