package resource

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"time"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// ExportLimit caps an export; past it the file says it was cut.
const ExportLimit = 100000

const exportBatch = 1000

// handleExport streams the filtered list as an .xlsx file, reading in batches
// so memory stays flat however long the list.
func (r *Resource[T]) handleExport(req *http.Request) (any, error) {
	q, err := r.meta.ParseQuery(req.URL.Query())
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	var cols []*Field
	for _, f := range r.meta.Fields {
		if f.List && f.Type != TypePassword {
			cols = append(cols, f)
		}
	}
	if f := r.meta.byName["createTime"]; f != nil {
		cols = append(cols, f)
	}
	// Read the first batch before answering so that a bad query is still a JSON error.
	q.Size, q.Current = exportBatch, 1
	first, _, err := r.List(ctx, r.env.DB, q, r.extra(req))
	if err != nil {
		return nil, err
	}
	last := len(first)
	more := func() ([]T, error) {
		if last < exportBatch {
			return nil, nil
		}
		q.Current++
		rows, _, err := r.List(ctx, r.env.DB, q, r.extra(req))
		last = len(rows)
		return rows, err
	}
	return streamXLSX(xlsxAnswer{env: r.env, req: req, target: r.spec.Key(), name: r.spec.Name}, cols, first, more), nil
}

// ExportRows answers rows a hand-written read of res found (the export of
// a Described resource) as the file the engine's export makes: the
// metadata's list columns under their labels in the caller's language,
// decimals as exact number cells, recorded like every export.
func ExportRows[T any](req *http.Request, env *Env, res Registered, rows []T) (any, error) {
	var cols []*Field
	for _, f := range res.Meta().Fields {
		if f.List && f.Type != TypePassword {
			cols = append(cols, f)
		}
	}
	if len(rows) > ExportLimit {
		rows = rows[:ExportLimit]
	}
	spec := res.Spec()
	return streamXLSX(xlsxAnswer{env: env, req: req, target: spec.Key(), name: spec.Name}, cols, rows, noMore[T]), nil
}

// xlsxAnswer is who asked for an export file and what it is of: target
// names it in the download monitor, name starts the file's name.
type xlsxAnswer struct {
	env          *Env
	req          *http.Request
	target, name string
}

func noMore[T any]() ([]T, error) { return nil, nil }

// streamXLSX answers first and then each batch more gives (until an empty
// one, or ExportLimit rows) as an .xlsx attachment, one row per line under
// a header of the columns' labels in the caller's language. Every export
// file goes out through it, so each is recorded (downloads.go).
func streamXLSX[T any](a xlsxAnswer, cols []*Field, first []T, more func() ([]T, error)) httpx.Streamer {
	lang := i18n.FromRequest(a.req)
	return httpx.Streamer(func(w http.ResponseWriter) error {
		return a.env.recordExport(a.req, a.target, w, func(w http.ResponseWriter) (int, error) {
			return writeXLSX(w, a.name, cols, lang, first, more)
		})
	})
}

// writeXLSX writes the file streamXLSX answers and how many rows it holds.
func writeXLSX[T any](w http.ResponseWriter, name string, cols []*Field, lang i18n.Lang, first []T, more func() ([]T, error)) (int, error) {
	f := excelize.NewFile()
	defer f.Close()
	decimals, err := newDecimalCells(f, cols) // export_decimal.go
	if err != nil {
		return 0, err
	}
	sheet := "Sheet1"
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return 0, err
	}
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = c.Label.In(lang)
	}
	if err := sw.SetRow("A1", header); err != nil {
		return 0, err
	}
	line, rows, n := 2, first, 0
	for len(rows) > 0 && n < ExportLimit {
		for i := range rows {
			v := reflect.ValueOf(&rows[i]).Elem()
			cells := make([]any, len(cols))
			for j, c := range cols {
				cells[j] = decimals.value(j, v.FieldByIndex(c.index).Interface())
			}
			cell, _ := excelize.CoordinatesToCellName(1, line)
			if err := sw.SetRow(cell, cells); err != nil {
				return 0, err
			}
			line++
			n++
		}
		if rows, err = more(); err != nil {
			return n, err
		}
	}
	if err := sw.Flush(); err != nil {
		return 0, err
	}
	fileName := fmt.Sprintf("%s-%s.xlsx", name, time.Now().Format("20060102150405"))
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(fileName))
	return n, decimals.write(f, w)
}

func (r *Resource[T]) extra(req *http.Request) func(*bunSelect) (*bunSelect, error) {
	if r.hooks.Query == nil {
		return r.ofReadableParents(req.Context(), nil)
	}
	return r.ofReadableParents(req.Context(), func(sq *bunSelect) (*bunSelect, error) { return r.hooks.Query(req, sq) })
}

func cellValue(v any) any {
	switch x := v.(type) {
	case fmt.Stringer:
		if t, ok := v.(interface{ IsZero() bool }); ok && t.IsZero() {
			return ""
		}
		return x.String()
	default:
		return v
	}
}

type bunSelect = bun.SelectQuery
