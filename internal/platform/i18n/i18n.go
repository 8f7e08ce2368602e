// Package i18n carries the zh/en text pairs of server messages and labels.
// Chinese is the default; English is chosen by an Accept-Language that asks for it.
package i18n

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Text is a message or label in both languages.
type Text struct {
	Zh string `json:"zh"`
	En string `json:"en"`
}

// T builds a Text.
func T(zh, en string) Text { return Text{Zh: zh, En: en} }

// Lang is "zh" or "en".
type Lang string

const (
	Zh Lang = "zh"
	En Lang = "en"
)

// In returns the text in lang, falling back to Chinese.
func (t Text) In(lang Lang) string {
	if lang == En && t.En != "" {
		return t.En
	}
	return t.Zh
}

// Format fills %-verbs in both languages with the same arguments.
func (t Text) Format(args ...any) Text {
	return Text{Zh: fmt.Sprintf(t.Zh, args...), En: fmt.Sprintf(t.En, args...)}
}

// FromRequest reads the language the client asked for.
func FromRequest(r *http.Request) Lang {
	if al := r.Header.Get("Accept-Language"); al != "" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(al)), "en") {
		return En
	}
	return Zh
}

type langKey struct{}

// With stores the language in the context.
func With(ctx context.Context, l Lang) context.Context { return context.WithValue(ctx, langKey{}, l) }

// From reads the language from the context (default zh).
func From(ctx context.Context) Lang {
	if l, ok := ctx.Value(langKey{}).(Lang); ok {
		return l
	}
	return Zh
}
