package resource

import (
	"context"
	"reflect"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// References: a field declared `ref=service/name` holds ids of another
// resource's rows (one id, or a comma list with `multi`). Ids are
// guessable, so a submit must not be able to point a row at a row its caller
// cannot see: before saving, every referenced id must be a live row that the
// caller may read (tenant, data scope, not deleted) and, unless the target is
// Global, of the same tenant as the row being saved (the super user creating
// a user in tenant X may not give it tenant Y's roles).

// Referencer finds a registered resource by key; the app's registry is one.
type Referencer interface {
	Get(key string) Registered
}

// Referable is a resource other rows can reference.
type Referable interface {
	// CountVisible counts the distinct ids among ids that the caller of ctx
	// may read and that belong to tenantID ("" or a Global resource: any).
	CountVisible(ctx context.Context, idb bun.IDB, tenantID string, ids []wire.ID) (int, error)
}

// CountVisible implements Referable with the same scoped select as List.
func (r *Resource[T]) CountVisible(ctx context.Context, idb bun.IDB, tenantID string, ids []wire.ID) (int, error) {
	q, err := r.Select(ctx, idb, (*T)(nil))
	if err != nil {
		return 0, err
	}
	q = q.Where("id IN (?)", bun.In(ids))
	if r.spec.Scope != Global && tenantID != "" {
		q = q.Where("tenant_id = ?", tenantID)
	}
	n, err := q.Count(ctx)
	return int(n), err
}

var (
	msgRefMissing = func(f *Field) i18n.Text {
		return i18n.T(f.Label.Zh+"不存在或无权引用", f.Label.En+": no such row, or not one you may use")
	}
	msgFileNotOwned = func(f *Field) i18n.Text {
		return i18n.T(f.Label.Zh+"只能使用本租户已上传的文件", f.Label.En+": only files uploaded in your own tenant can be used")
	}
	msgRefMalformed = func(f *Field) i18n.Text {
		return i18n.T(f.Label.Zh+"的ID格式错误", f.Label.En+": malformed id")
	}
)

// RefIDs returns the distinct non-zero ids a reference field of row holds.
func (f *Field) RefIDs(row reflect.Value) ([]wire.ID, error) {
	fv := row.FieldByIndex(f.index)
	var ids []wire.ID
	if fv.Type() == idType {
		ids = []wire.ID{fv.Interface().(wire.ID)}
	} else {
		var err error
		if ids, err = wire.ParseIDs(fv.String()); err != nil {
			return nil, err
		}
	}
	seen := make(map[wire.ID]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// checkRefs refuses a save whose reference fields name rows the caller may
// not use. On update only the sent fields are checked.
func (r *Resource[T]) checkRefs(ctx context.Context, idb bun.IDB, row *T, present map[string]bool, isNew bool) error {
	tenantID := any(row).(hasBase).base().TenantID
	v := reflect.ValueOf(row).Elem()
	for _, f := range r.meta.Fields {
		if f.Ref == "" || (!isNew && !present[f.Name]) {
			continue
		}
		ids, err := f.RefIDs(v)
		if err != nil {
			return fieldError(ctx, f, msgRefMalformed(f))
		}
		if len(ids) == 0 {
			continue
		}
		ok, err := r.env.refVisible(ctx, idb, f.Ref, tenantID, ids)
		if err != nil {
			return err
		}
		if !ok {
			return fieldError(ctx, f, msgRefMissing(f))
		}
	}
	return nil
}

// refVisible tells whether every id is a row of the target the caller may use.
func (env *Env) refVisible(ctx context.Context, idb bun.IDB, key, tenantID string, ids []wire.ID) (bool, error) {
	var target Registered
	if env != nil && env.Refs != nil {
		target = env.Refs.Get(key)
	}
	ref, ok := target.(Referable)
	if !ok {
		return false, nil // an unresolvable reference fails closed; CheckRefs finds it at start-up
	}
	n, err := ref.CountVisible(ctx, idb, tenantID, ids)
	return err == nil && n == len(ids), err
}

// fieldError is a 400 naming one field, in the shape of Check's answer.
func fieldError(ctx context.Context, f *Field, msg i18n.Text) error {
	return FieldErrorOf(ctx, f.Name, msg)
}

// FieldErrorOf is a 400 naming one field, in the shape of Check's answer,
// for the checks hooks make themselves.
func FieldErrorOf(ctx context.Context, field string, msg i18n.Text) error {
	return &httpx.Error{Status: 400, Msg: msg, Data: FieldError{field: msg.In(i18n.From(ctx))}}
}

// CheckRefs verifies at start-up that every declared reference names a
// registered resource that can be referenced, and gives the fields whose
// target has a Lookup their remote search.
func CheckRefs(all []Registered, refs Referencer) error {
	for _, res := range all {
		if v, ok := res.(interface{ compileViews(Referencer) error }); ok {
			if err := v.compileViews(refs); err != nil {
				return err
			}
		}
		fields := res.Meta().Fields
		if l := res.Meta().Lines; l != nil {
			fields = append(append([]*Field{}, fields...), l.Meta.Fields...)
		}
		for _, f := range fields {
			if f.Ref == "" {
				continue
			}
			target, ok := refs.Get(f.Ref).(Referable)
			if !ok {
				return &refError{res.Spec().Key(), f.Name, f.Ref}
			}
			f.Remote = target.(Registered).Spec().Lookup.remote()
		}
	}
	return nil
}

type refError struct{ resource, field, target string }

func (e *refError) Error() string {
	return "resource " + e.resource + ": field " + e.field + " references " + e.target + ", which is not a registered resource with ids"
}

// Lookup is how a large resource is picked elsewhere: a search over a page
// endpoint instead of a select of every row (docs/resource-meta.md).
type Lookup struct {
	URL         string `json:"url"`         // a page endpoint: "/api/bluebird-basic/material/selectMaterialVOListPage"
	LabelField  string `json:"labelField"`  // the row property shown: "materialName"
	CodeField   string `json:"codeField"`   // shown before the label: "materialCode"
	SearchParam string `json:"searchParam"` // the filter the typed text goes to: "materialName"
}

// Remote is a reference field's remote search: its target's Lookup.
type Remote struct {
	Lookup
	ValueField string `json:"valueField"`
}

func (l *Lookup) remote() *Remote {
	if l == nil {
		return nil
	}
	return &Remote{Lookup: *l, ValueField: "id"}
}
