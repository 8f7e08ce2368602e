package stockdoc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// lineWrites are the own submit and remove routes of a document's line
// resource (materialtransferdetail/submit, materialborrowrepaydetail/remove):
// they never write a line by themselves. A line submit adds the line to its
// document, or changes it there, and saves the document's whole line set
// through the document's own save, so the document's state rules (edit only
// while a draft or rejected), its line checks (snapshot, conversion,
// places, batches, quantities) and its totals apply exactly as on the
// document's submit. A line remove saves the document without the line (a
// document's last line cannot go: remove the document instead). Lines keep
// their ids on these routes.
type lineWrites[P, L any] struct {
	parent  func() *resource.Resource[P]
	lines   func() *resource.Resource[L]
	mainID  func(*L) wire.ID
	details func(*P) *[]L
}

type keepLineIDsKey struct{}

// keepLineIDs: the document is saved by a line route, whose lines keep
// their ids (a document's own submit replaces them whole).
func keepLineIDs(ctx context.Context) bool { v, _ := ctx.Value(keepLineIDsKey{}).(bool); return v }

var (
	msgLineParent    = i18n.T("所属单据不存在或无权访问", "The document does not exist or is not yours")
	msgLineVersion   = i18n.T("缺少数据版本号(version),请刷新后重试", "The record's version is missing; reload it and try again")
	msgLineLastOne   = i18n.T("不能删除单据的最后一行明细, 请删除单据", "The document's last line cannot be removed: remove the document instead")
	linesField       = "details"
	lineParentColumn = "mainId"
)

func (w *lineWrites[P, L]) submit(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	lines, parent := w.lines(), w.parent()
	row, present, err := lines.Decode(req)
	if err != nil {
		return nil, err
	}
	id := resource.BaseOf(row).ID
	isNew := id == 0
	if err := lines.Check(ctx, row, present, isNew); err != nil {
		return nil, err
	}
	var savedID wire.ID
	err = parent.Env().DB.Tx(ctx, func(tx bun.Tx) error {
		line := row
		mainID := w.mainID(row)
		if !isNew {
			cur, err := lines.Get(ctx, tx, id)
			if err != nil {
				return err
			}
			if !present["version"] || resource.BaseOf(row).Version <= 0 {
				return httpx.BadRequest(msgLineVersion)
			}
			if resource.BaseOf(cur).Version != resource.BaseOf(row).Version {
				return httpx.ErrStale
			}
			if line, err = overlay(cur, row, present); err != nil {
				return err
			}
			mainID = w.mainID(cur)
		}
		if mainID == 0 {
			return resource.FieldErrorOf(ctx, lineParentColumn, msgLineParent)
		}
		doc, err := parent.Detail(ctx, tx, mainID)
		if errors.Is(err, httpx.ErrNotFound) {
			if isNew {
				return resource.FieldErrorOf(ctx, lineParentColumn, msgLineParent)
			}
			return httpx.ErrNotFound
		}
		if err != nil {
			return err
		}
		resource.BaseOf(line).TenantID = resource.BaseOf(doc).TenantID
		if err := checkLineRefs(ctx, tx, lines, line, present, isNew); err != nil {
			return err
		}
		ds := w.details(doc)
		at := -1
		for i := range *ds {
			if resource.BaseOf(&(*ds)[i]).ID == id && !isNew {
				at = i
			}
		}
		if at < 0 {
			resource.BaseOf(line).ID = 0
			*ds = append(*ds, *line)
			at = len(*ds) - 1
		} else {
			(*ds)[at] = *line
		}
		if err := w.save(ctx, tx, doc); err != nil {
			return err
		}
		savedID = resource.BaseOf(&(*ds)[at]).ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return lines.Detail(ctx, parent.Env().DB, savedID)
}

func (w *lineWrites[P, L]) remove(req *http.Request) (any, error) {
	ids, err := httpx.FormIDs(req, "ids")
	if err != nil {
		return nil, err
	}
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	lines, parent := w.lines(), w.parent()
	err = parent.Env().DB.Tx(ctx, func(tx bun.Tx) error {
		gone := map[wire.ID]bool{}
		var mains []wire.ID
		for _, id := range ids {
			cur, err := lines.Get(ctx, tx, id)
			if err != nil {
				return err
			}
			gone[id] = true
			if m := w.mainID(cur); !slices.Contains(mains, m) {
				mains = append(mains, m)
			}
		}
		for _, m := range mains {
			doc, err := parent.Detail(ctx, tx, m)
			if err != nil {
				return err
			}
			ds := w.details(doc)
			kept := (*ds)[:0]
			for _, d := range *ds {
				if !gone[resource.BaseOf(&d).ID] {
					kept = append(kept, d)
				}
			}
			if len(kept) == 0 {
				return httpx.BadRequest(msgLineLastOne)
			}
			*ds = kept
			if err := w.save(ctx, tx, doc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: i18n.T("删除成功", "Deleted")}, nil
}

// save saves the document with its lines as the document's submit would,
// then writes what the document's rules computed on the lines that kept
// their ids (the engine updates a kept line only with the fields a body
// sent). A line's error names its field as the line's own route would.
func (w *lineWrites[P, L]) save(ctx context.Context, tx bun.Tx, doc *P) error {
	lines, parent := w.lines(), w.parent()
	inner := context.WithValue(ctx, keepLineIDsKey{}, true)
	if err := parent.Save(inner, tx, doc, map[string]bool{linesField: true, "version": true}); err != nil {
		return unlineError(err)
	}
	var names []string
	for _, f := range lines.Meta().Fields {
		if f.Name != lineParentColumn && !strings.HasPrefix(f.Column, "j_") && f.Column != "" && !baseColumns[f.Column] {
			names = append(names, f.Name)
		}
	}
	ds := w.details(doc)
	for i := range *ds {
		if err := lines.Update(inner, tx, &(*ds)[i], names, false); err != nil {
			return err
		}
	}
	return nil
}

var baseColumns = map[string]bool{"id": true, "tenant_id": true, "create_user": true, "create_dept": true, "create_time": true,
	"update_user": true, "update_time": true, "status": true, "is_deleted": true, "version": true}

// unlineError turns details[i].field keys back into the line's field names.
func unlineError(err error) error {
	var he *httpx.Error
	if !errors.As(err, &he) {
		return err
	}
	fe, ok := he.Data.(resource.FieldError)
	if !ok {
		return err
	}
	out := resource.FieldError{}
	for k, v := range fe {
		if i := strings.Index(k, "]."); i >= 0 && strings.HasPrefix(k, linesField+"[") {
			k = k[i+2:]
		}
		out[k] = v
	}
	return &httpx.Error{Status: he.Status, Msg: he.Msg, Data: out}
}

// overlay is the current line with the sent fields of row on it.
func overlay[L any](cur, row *L, present map[string]bool) (*L, error) {
	base, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	sent, err := json.Marshal(row)
	if err != nil {
		return nil, err
	}
	var m, s map[string]json.RawMessage
	if err := json.Unmarshal(base, &m); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(sent, &s); err != nil {
		return nil, err
	}
	for k := range present {
		if v, ok := s[k]; ok && k != "id" && k != lineParentColumn {
			m[k] = v
		}
	}
	merged, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out := new(L)
	if err := json.Unmarshal(merged, out); err != nil {
		return nil, err
	}
	*resource.BaseOf(out) = *resource.BaseOf(cur)
	return out, nil
}

// checkLineRefs is the engine's reference check for a line saved on its
// own route: every reference it sent names a row the caller may use, of
// the line's tenant.
func checkLineRefs[L any](ctx context.Context, idb bun.IDB, lines *resource.Resource[L], row *L, present map[string]bool, isNew bool) error {
	env := lines.Env()
	v := reflect.ValueOf(row).Elem()
	for _, f := range lines.Meta().Fields {
		if f.Ref == "" || f.Readonly || (!isNew && !present[f.Name]) {
			continue
		}
		ids, err := f.RefIDs(v)
		if err != nil {
			return resource.FieldErrorOf(ctx, f.Name, i18n.T(f.Label.Zh+"的ID格式错误", f.Label.En+": malformed id"))
		}
		if len(ids) == 0 {
			continue
		}
		target, _ := env.Refs.Get(f.Ref).(resource.Referable)
		n := 0
		if target != nil {
			if n, err = target.CountVisible(ctx, idb, resource.BaseOf(row).TenantID, ids); err != nil {
				return err
			}
		}
		if n != len(ids) {
			return resource.FieldErrorOf(ctx, f.Name, i18n.T(f.Label.Zh+"不存在或无权引用", f.Label.En+": no such row, or not one you may use"))
		}
	}
	return nil
}

// placeOf answers the warehouse of each position of the caller's tenant.
func placeOf(ctx context.Context, tx bun.Tx, ids []wire.ID) (map[wire.ID]wire.ID, error) {
	var places []struct {
		ID          wire.ID `bun:"id"`
		WarehouseID wire.ID `bun:"warehouse_id"`
	}
	out := map[wire.ID]wire.ID{}
	if len(ids) == 0 {
		return out, nil
	}
	if err := tx.NewSelect().Table("bb_warehouse_position").Column("id", "warehouse_id").
		Where("tenant_id = ? AND is_deleted = 0 AND id IN (?)", authz.From(ctx).TenantID, bun.In(ids)).Scan(ctx, &places); err != nil {
		return nil, err
	}
	for _, p := range places {
		out[p.ID] = p.WarehouseID
	}
	return out, nil
}

var msgPlaceElsewhere = i18n.T("第%d行: 库位不属于%s", "Line %d: the location is not in the %s")

// checkPlaces: each line's position (field) lies in warehouse; the
// refusal names the field.
func checkPlaces(ctx context.Context, tx bun.Tx, field string, which i18n.Text, warehouseID wire.ID, positions []wire.ID) error {
	where, err := placeOf(ctx, tx, positions)
	if err != nil {
		return err
	}
	for i, p := range positions {
		if where[p] != warehouseID || warehouseID == 0 {
			return resource.FieldErrorOf(ctx, field, i18n.T(fmt.Sprintf(msgPlaceElsewhere.Zh, i+1, which.Zh), fmt.Sprintf(msgPlaceElsewhere.En, i+1, which.En)))
		}
	}
	return nil
}
