package resource

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// States: a resource whose rows move through states (the audit status of
// domain.md §3) lets only its commands move them. A submit never writes
// the state field: a new row starts in Initial whatever the body says, and
// an edit cannot approve itself. Edits and removals are allowed only from
// the states listed, and a refusal names the row and its state.

// StateRules declares the state field and what each state allows (Spec.States).
type StateRules struct {
	Field   string // JSON name of an integer field ("status")
	Initial int    // the state of a new row
	Edit    []int  // states a row may be edited in
	Remove  []int  // states a row may be removed in
	// Dict and Label, when set, make the field a listed, searchable
	// dictionary column (the base status is a hidden number otherwise).
	Dict  string
	Label i18n.Text
}

// StatesMeta are the state rules as the metadata sends them. Edit and
// Remove are always lists: an empty one means no state allows the operation.
type StatesMeta struct {
	Field   string `json:"field"`
	Initial int    `json:"initial"`
	Edit    []int  `json:"edit"`
	Remove  []int  `json:"remove"`
}

var (
	msgEditState   = i18n.T("修改", "Editing")
	msgRemoveState = i18n.T("删除", "Deleting")
)

func (r *Resource[T]) initStates() {
	s := r.spec.States
	if s == nil {
		return
	}
	f := r.meta.byName[s.Field]
	if f == nil || f.ValueType != ValueInt {
		panic(fmt.Sprintf("resource %s: States.Field %q must be an integer field", r.spec.Key(), s.Field))
	}
	f.Readonly = true // never written by submit
	r.meta.States = &StatesMeta{Field: s.Field, Initial: s.Initial,
		Edit: append([]int{}, s.Edit...), Remove: append([]int{}, s.Remove...)}
	if s.Dict != "" {
		f.Dict, f.Type, f.List, f.Search, f.Filter = s.Dict, TypeDict, true, true, "equal"
	}
	if s.Label.Zh != "" {
		f.Label = s.Label
	}
}

// stateField is the declared state field, or nil.
func (r *Resource[T]) stateField() *Field {
	if r.spec.States == nil {
		return nil
	}
	return r.meta.byName[r.spec.States.Field]
}

// startState puts a new row in the initial state.
func (r *Resource[T]) startState(row *T) {
	if f := r.stateField(); f != nil {
		reflect.ValueOf(row).Elem().FieldByIndex(f.index).SetInt(int64(r.spec.States.Initial))
	}
}

// stateName is a row's state as a message shows it: its dictionary label
// when there is one.
func (r *Resource[T]) stateName(ctx context.Context, idb bun.IDB, f *Field, row *T) string {
	state := strconv.FormatInt(reflect.ValueOf(row).Elem().FieldByIndex(f.index).Int(), 10)
	if f.Dict != "" && r.env != nil && r.env.Dicts != nil {
		if label := r.env.Dicts.DictLabel(ctx, idb, f.Dict, f.DictBiz, state); label != "" {
			return label
		}
	}
	return state
}

// checkState refuses op on a row whose state is not in allowed.
func (r *Resource[T]) checkState(ctx context.Context, idb bun.IDB, row *T, allowed []int, op i18n.Text) error {
	f := r.stateField()
	if f == nil {
		return nil
	}
	if slices.Contains(allowed, int(reflect.ValueOf(row).Elem().FieldByIndex(f.index).Int())) {
		return nil
	}
	return httpx.BadRequest(msgCommandState(r.RowTitle(row), r.stateName(ctx, idb, f, row), op))
}

// checkRemoveStates refuses a removal when one of the visible rows is in a
// state that may not be removed.
func (r *Resource[T]) checkRemoveStates(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	if r.spec.States == nil {
		return nil
	}
	var rows []*T
	q, err := r.Select(ctx, tx, &rows)
	if err != nil {
		return err
	}
	if err := q.Where("?TableAlias.id IN (?)", bun.In(ids)).OrderExpr("?TableAlias.id ASC").Scan(ctx); err != nil {
		return err
	}
	for _, row := range rows {
		if err := r.checkState(ctx, tx, row, r.spec.States.Remove, msgRemoveState); err != nil {
			return err
		}
	}
	return nil
}
