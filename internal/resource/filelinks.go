package resource

import (
	"context"
	"errors"
	"reflect"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
)

// File links: a field of type image or video holds a link to an uploaded file. Its
// value is trusted by whoever later reads the row (the server signs it into a
// working link), so a submit may only store a file of the row's own tenant,
// and reads sign only such files. The files area implements FileLinks.

// FileLinks checks and signs stored file links.
type FileLinks interface {
	// CheckLink accepts a link to a live upload of tenantID and returns the
	// form to store; anything else is a 400.
	CheckLink(ctx context.Context, idb bun.IDB, tenantID, link string) (string, error)
	// Sign turns a stored link into a working one when the file is tenantID's.
	Sign(tenantID, link string) string
}

// FileLink tells whether the field holds a link to an uploaded file (an
// image or a video in a string column): writes must name a file of the
// row's tenant, and reads sign it.
func (f *Field) FileLink() bool {
	return (f.Type == TypeImage || f.Type == TypeVideo) && f.ValueType == ValueString
}

// checkFileLinks validates the file-link fields about to be written; cur is the
// stored row on update (an unchanged link is kept as it is, whatever it is:
// a social login's avatar URL stays until the user changes it).
func (r *Resource[T]) checkFileLinks(ctx context.Context, idb bun.IDB, row, cur *T, fields func(*Field) bool) error {
	tenantID := any(row).(hasBase).base().TenantID
	v := reflect.ValueOf(row).Elem()
	for _, f := range r.meta.Fields {
		if !f.FileLink() || !fields(f) {
			continue
		}
		fv := v.FieldByIndex(f.index)
		link := fv.String()
		if link == "" {
			continue
		}
		if r.env == nil || r.env.Files == nil {
			return fieldError(ctx, f, msgFileNotOwned(f))
		}
		if cur != nil {
			// the stored link, sent back as stored or in its signed form
			stored := reflect.ValueOf(cur).Elem().FieldByIndex(f.index).String()
			if stored == link || r.env.Files.Sign(tenantID, stored) == link {
				continue
			}
		}
		stored, err := r.env.Files.CheckLink(ctx, idb, tenantID, link)
		var refused *httpx.Error
		if errors.As(err, &refused) {
			return fieldError(ctx, f, msgFileNotOwned(f))
		}
		if err != nil {
			return err // the database, not the caller
		}
		fv.SetString(stored)
	}
	return nil
}
