package resource

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/wire"
)

// SecretMask is what every caller but the platform super user reads in place
// of a secret; submitted back unchanged, it means "keep the stored secret".
const SecretMask = "******"

// SecretRows narrows a resource's `secret` fields to the rows whose Field
// (a text field of the resource) matches one of Keys: parameters hold
// passwords in some rows only. A key matches exactly, as a prefix ("sms.*")
// or as a suffix ("*password"), case-insensitively. The metadata carries the
// rule so that the web form draws the same rows write-only.
type SecretRows struct {
	Field string   `json:"field"`
	Keys  []string `json:"keys"`
}

// Match tells whether a row whose key field holds key keeps a secret.
func (s *SecretRows) Match(key string) bool {
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range s.Keys {
		k = strings.ToLower(k)
		switch {
		case strings.HasPrefix(k, "*") && strings.HasSuffix(key, k[1:]):
			return true
		case strings.HasSuffix(k, "*") && strings.HasPrefix(key, k[:len(k)-1]):
			return true
		case k == key:
			return true
		}
	}
	return false
}

// bindSecretRows checks a declaration's SecretRows and hands it to its
// secret fields. A row rule is only safe when the callers who read masks
// cannot rename a secret row's key to read it back, so it needs Write: Super.
func (m *Meta) bindSecretRows(spec *Spec) error {
	rule := spec.SecretRows
	if rule == nil {
		return nil
	}
	if key := m.byName[rule.Field]; key == nil || key.ValueType != ValueString || key.Secret {
		return fmt.Errorf("SecretRows.Field %q must be a declared, non-secret text field", rule.Field)
	}
	if len(rule.Keys) == 0 || spec.Write != Super {
		return errors.New("SecretRows needs Keys and Write: Super")
	}
	bound := false
	for _, f := range m.Fields {
		if f.Secret {
			f.SecretRows, bound = rule, true
		}
	}
	if !bound {
		return errors.New("SecretRows without a field tagged secret")
	}
	return nil
}

// secretIn tells whether field f of row v holds a secret in this row.
func (m *Meta) secretIn(f *Field, v reflect.Value) bool {
	if !f.Secret {
		return false
	}
	if f.SecretRows == nil {
		return true
	}
	return f.SecretRows.Match(v.FieldByIndex(m.byName[f.SecretRows.Field].index).String())
}

// prepareToSend readies a stored row for its reader, on every path that
// sends rows (Get, List, a submit's answer): password fields are
// written, never read back; secret fields read as SecretMask except by the
// super user (an empty secret stays empty: "not set" is no secret); file
// links are signed for the reader (filelinks.go).
func (r *Resource[T]) prepareToSend(ctx context.Context, row *T) {
	v := reflect.ValueOf(row).Elem()
	reveal := authz.From(ctx).IsSuper()
	sign := r.env != nil && r.env.Files != nil && r.meta.hasFileLink
	tenantID := any(row).(hasBase).base().TenantID
	for _, f := range r.meta.Fields {
		fv := v.FieldByIndex(f.index)
		switch {
		case f.Type == TypePassword:
			fv.SetZero()
		case !reveal && fv.Kind() == reflect.String && fv.String() != "" && r.meta.secretIn(f, v):
			fv.SetString(SecretMask)
		case sign && f.FileLink():
			fv.SetString(r.env.Files.Sign(tenantID, fv.String()))
		}
	}
}

// keepSecrets reads a submitted row's secret fields as the write-only form
// sends them: the mask, or an empty value in an update, means "unchanged"
// and is taken out of the present keys (so it is neither validated nor
// written). A mask in a new row is no value at all.
func (r *Resource[T]) keepSecrets(req *http.Request, row *T, present map[string]bool) {
	v := reflect.ValueOf(row).Elem()
	id := any(row).(hasBase).base().ID
	var stored *T // read once, only when a row rule needs the stored key
	for _, f := range r.meta.Fields {
		if !f.Secret || !present[f.Name] {
			continue
		}
		fv := v.FieldByIndex(f.index)
		keep := fv.String() == SecretMask
		if !keep && id != 0 && fv.String() == "" {
			keep = f.SecretRows == nil || r.storedSecret(req.Context(), &stored, id, f)
		}
		if keep {
			fv.SetZero()
			present[f.Name] = false
		}
	}
}

// storedSecret tells whether the stored row id keeps a secret in f. A row the
// caller cannot read counts as not secret: Save answers its 404 then.
func (r *Resource[T]) storedSecret(ctx context.Context, stored **T, id wire.ID, f *Field) bool {
	if *stored == nil {
		row, err := r.Get(ctx, r.env.DB, id)
		if err != nil {
			return false
		}
		*stored = row
	}
	return r.meta.secretIn(f, reflect.ValueOf(*stored).Elem())
}
