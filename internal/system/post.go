package system

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// PostOption is a row of post/select: enough to fill the user form's post select.
type PostOption struct {
	ID       wire.ID `bun:"id" json:"id"`
	PostName string  `bun:"post_name" json:"postName"`
	PostCode string  `bun:"post_code" json:"postCode"`
	Category int     `bun:"category" json:"category"`
}

// mountPost adds post/select beside the generic post routes (mounted with the
// plain resources). It is mounted from mountDept: posts and departments are
// the two halves of a tenant's organisation.
func (s *Service) mountPost(r chi.Router, env *resource.Env) {
	r.Get(s.res.Post.Spec().Path()+"/select", httpx.Handle(resource.Guard(resource.AnyUser)(s.handlePostSelect)))
}

// handlePostSelect lists every live post of a tenant, flat and sorted. The
// super user may name the tenant (tenantId); everyone else gets their own.
func (s *Service) handlePostSelect(r *http.Request) (any, error) {
	ctx := r.Context()
	q, err := s.res.Post.Select(ctx, s.DB, (*Post)(nil))
	if err != nil {
		return nil, err
	}
	out := []PostOption{}
	err = q.Column("id", "post_name", "post_code", "category").Where("tenant_id = ?", treeTenant(r)).
		OrderExpr("sort ASC, id ASC").Limit(resource.MaxPageSize).Scan(ctx, &out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// treeTenant is the tenant a select is drawn for: the super user may name one
// with tenantId; everyone else gets their own.
func treeTenant(r *http.Request) string {
	p := authz.From(r.Context())
	if t := strings.TrimSpace(r.URL.Query().Get("tenantId")); t != "" && p.IsSuper() {
		return t
	}
	return p.TenantID
}
