package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/resource"
)

// Mount adds the blade-auth routes.
func (s *Service) Mount(r chi.Router) {
	r.Post("/blade-auth/oauth/token", s.handleToken)
	r.Post("/blade-auth/oauth/token/refresh", s.handleToken)
	r.Get("/blade-auth/oauth/captcha", httpx.Handle(s.handleCaptcha))
	r.Get("/blade-auth/oauth/logout", httpx.Handle(s.handleLogout))
	r.Post("/blade-auth/oauth/logout", httpx.Handle(s.handleLogout))
	r.Get("/blade-auth/oauth/user-info", httpx.Handle(s.handleUserInfo))
	// clearing the shared caches makes every tenant reload them: administrators only
	r.Get("/blade-auth/oauth/clear-cache", httpx.Handle(resource.Guard(resource.Admin)(s.handleClearCache)))
}

// PublicPaths need no token.
var PublicPaths = []string{
	"/api/blade-auth/oauth/token", "/api/blade-auth/oauth/token/refresh", "/api/blade-auth/oauth/captcha",
	"/api/blade-auth/oauth/logout",
}

func (s *Service) handleToken(w http.ResponseWriter, r *http.Request) {
	resp, err := s.Token(r)
	lang := i18n.FromRequest(r)
	if err != nil {
		var oe *OAuthError
		if errors.As(err, &oe) {
			httpx.Handle(func(*http.Request) (any, error) {
				return httpx.Raw{Status: oe.Status, Body: map[string]any{"error": oe.Code, "error_description": oe.Description.In(lang)}}, nil
			})(w, r)
			return
		}
		httpx.WriteError(w, r, err)
		return
	}
	httpx.Handle(func(*http.Request) (any, error) { return httpx.Raw{Status: 200, Body: resp}, nil })(w, r)
}

func (s *Service) handleCaptcha(r *http.Request) (any, error) {
	key, image, err := s.Captcha.New()
	if err != nil {
		return nil, err
	}
	return httpx.Raw{Status: 200, Body: map[string]string{"key": key, "image": image}}, nil
}

func (s *Service) handleLogout(r *http.Request) (any, error) {
	access := r.Header.Get("Blade-Auth")
	if len(access) > 7 && (access[:7] == "bearer " || access[:7] == "Bearer ") {
		access = access[7:]
	}
	refresh := r.URL.Query().Get("refresh_token")
	if err := s.Logout(r.Context(), access, refresh); err != nil {
		return nil, err
	}
	return httpx.Message{Text: i18n.T("退出成功", "Logged out")}, nil
}

// UserInfo is the body of oauth/user-info.
type UserInfo struct {
	TenantID    string   `json:"tenantId"`
	UserID      string   `json:"userId"`
	Account     string   `json:"account"`
	UserName    string   `json:"userName"`
	RealName    string   `json:"realName"`
	NickName    string   `json:"nickName"`
	Avatar      string   `json:"avatar"`
	DeptID      string   `json:"deptId"`
	RoleID      string   `json:"roleId"`
	RoleName    string   `json:"roleName"`
	Roles       []string `json:"roles"`
	Permissions []string `json:"permissions"`
}

func (s *Service) handleUserInfo(r *http.Request) (any, error) {
	p := authz.From(r.Context())
	if p == nil {
		return nil, httpx.ErrUnauthorized
	}
	acc, err := s.Users.ByID(r.Context(), p.UserID)
	if err != nil {
		return nil, err
	}
	if acc == nil {
		return nil, httpx.ErrTokenInvalid
	}
	roleIDs := make([]string, len(p.RoleIDs))
	for i, id := range p.RoleIDs {
		roleIDs[i] = id.String()
	}
	info := &UserInfo{TenantID: p.TenantID, UserID: p.UserID.String(), Account: acc.Account, UserName: acc.Account,
		RealName: acc.RealName, NickName: firstNonEmpty(acc.Name, acc.RealName, acc.Account), Avatar: acc.Avatar,
		DeptID: p.DeptID.String(), Roles: p.RoleAliases, RoleName: strings.Join(p.RoleAliases, ","), RoleID: strings.Join(roleIDs, ",")}
	return info, nil
}

func (s *Service) handleClearCache(r *http.Request) (any, error) {
	if s.ClearCache != nil {
		s.ClearCache()
	}
	return httpx.Message{Text: i18n.T("清除完毕", "Cache cleared")}, nil
}
