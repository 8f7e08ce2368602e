package resource

import (
	"context"
	"reflect"
	"strconv"
	"sync"

	"github.com/bluebird/console/internal/platform/i18n"
)

// A dictionary field (dict=code) takes only the keys of its dictionary: a
// unit "1" or a state 9 that no entry names would be stored, shown as a raw
// key and break every rule that reads it. The check runs with the declared
// rules, before the transaction, through the env's DictChoices. An empty
// text or a 0 of an optional field is "none" (the web app shows a 0 as
// empty unless the dictionary has a key 0); a required field's 0 must be a
// key, as isSealed's 0 ("no") is.

// dictMemo holds the keys of each dictionary read during one request, so a
// document of a hundred lines reads its unit dictionary once.
type dictMemo struct {
	mu   sync.Mutex
	keys map[string]map[string]bool
}

type dictMemoKey struct{}

// withDictMemo gives the checks of one request a shared memo.
func withDictMemo(ctx context.Context) context.Context {
	if _, ok := ctx.Value(dictMemoKey{}).(*dictMemo); ok {
		return ctx
	}
	return context.WithValue(ctx, dictMemoKey{}, &dictMemo{keys: map[string]map[string]bool{}})
}

// dictKeys are the keys of dictionary code; ok is false when the env cannot
// list dictionaries (then nothing is refused).
func (r *Resource[T]) dictKeys(ctx context.Context, f *Field) (keys map[string]bool, ok bool, err error) {
	lister, ok := r.env.dicts().(DictChoices)
	if !ok || r.env.DB == nil {
		return nil, false, nil
	}
	memo, _ := ctx.Value(dictMemoKey{}).(*dictMemo)
	name := f.Dict
	if f.DictBiz {
		name = "biz:" + f.Dict
	}
	if memo != nil {
		memo.mu.Lock()
		defer memo.mu.Unlock()
		if k, hit := memo.keys[name]; hit {
			return k, true, nil
		}
	}
	entries, err := lister.DictChoices(ctx, r.env.DB, f.Dict, f.DictBiz)
	if err != nil {
		return nil, false, err
	}
	keys = make(map[string]bool, len(entries))
	for _, e := range entries {
		keys[e.Key] = true
	}
	if memo != nil {
		memo.keys[name] = keys
	}
	return keys, true, nil
}

// dictValue is the key a dictionary field's value names, and whether it
// names one at all.
func dictValue(f *Field, fv reflect.Value) (string, bool) {
	switch fv.Kind() {
	case reflect.String:
		return fv.String(), fv.String() != ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(fv.Int(), 10), fv.Int() != 0 || f.Required
	}
	return "", false
}

// checkDict refuses a value its dictionary does not list.
func (r *Resource[T]) checkDict(ctx context.Context, f *Field, fv reflect.Value, fail func(*Field, i18n.Text)) error {
	if f.Dict == "" {
		return nil
	}
	key, named := dictValue(f, fv)
	if !named {
		return nil
	}
	keys, ok, err := r.dictKeys(ctx, f)
	if err != nil || !ok {
		return err
	}
	if !keys[key] {
		fail(f, i18n.T(f.Label.Zh+"的值「%s」不在可选项中", f.Label.En+": %q is not one of its choices").Format(key))
	}
	return nil
}
