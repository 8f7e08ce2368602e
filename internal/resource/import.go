package resource

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Excel import (Spec.Import): GET <path>/import-template answers an xlsx
// whose header row holds the columns' labels, and POST <path>/import takes
// such a file back. Every row is read and checked before anything is
// written, with the rules of a submit; then, in one transaction, rows whose
// Key matches a live row of the caller's tenant update it and the others
// are inserted, each through Save (references, numbers, unique checks,
// hooks). One bad row refuses the whole file, and the answer lists the
// errors of every row, by Excel row number.
//
// A cell left empty is not imported: an update leaves that field as it is,
// an insert leaves it unset (so a required one is reported). A cell of a
// dictionary field may hold the entry's key or its label (zh or en), and a
// reference to a resource with a Lookup code holds that code, looked up
// among the rows the caller may use; other references hold ids.

// Import declares Excel import of a resource.
type Import struct {
	// Key is the text field rows are matched by: a file row whose Key
	// equals a live row's of the caller's tenant updates that row, any
	// other row is inserted (an empty Key too: a numbered Key is then
	// issued). It must be a Unique group of its own.
	Key string
	// Fields are the columns, in order; default: the form fields a cell can
	// hold (not read-only, passwords, secrets, images or write-once fields).
	Fields []string
}

// Import limits. The app's body limit lets ImportMaxBody through on import
// paths (IsImportPath).
const (
	ImportMaxBytes = 10 << 20
	ImportMaxRows  = 50000
	// ImportMaxBody is the request body limit of an import: the file plus
	// room for the multipart framing.
	ImportMaxBody = ImportMaxBytes + 1<<20
	// importUnzipLimit bounds what the file may unpack to: a 10 MB zip of
	// repeated XML could otherwise expand to gigabytes.
	importUnzipLimit = 512 << 20
	// importMaxErrors bounds the errors listed; the message counts them all.
	importMaxErrors = 1000
	// importChunk bounds the values of one IN list.
	importChunk = 500
)

// IsImportPath tells whether a request path is an import upload (for the
// body limit, which is smaller everywhere else).
func IsImportPath(path string) bool { return strings.HasSuffix(path, "/import") }

// ImportError is one problem of an import: the Excel row number (the header
// is row 1), the field's JSON name ("" for the row or the file as a whole)
// and the message in the caller's language.
type ImportError struct {
	Row     int    `json:"row"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ImportResult is the data of a successful import.
type ImportResult struct {
	Inserted int `json:"inserted"`
	Updated  int `json:"updated"`
}

// DictChoices lists a dictionary's entries as the caller sees them (a
// business dictionary is the caller's tenant's), in order, reading through
// idb. When Env.Dicts implements it, an import reads a cell holding an
// entry's label as its key and refuses a value that is neither, and the
// template lists the choices; without it a dictionary cell must hold the key.
type DictChoices interface {
	DictChoices(ctx context.Context, idb bun.IDB, code string, biz bool) ([]DictChoice, error)
}

// DictChoice is one dictionary entry.
type DictChoice struct {
	Key   string
	Label i18n.Text
}

var (
	errImportNoFile   = httpx.BadRequest(i18n.T("请选择要导入的Excel文件", "Choose an Excel file to import"))
	errImportEmpty    = httpx.BadRequest(i18n.T("文件是空的", "The file is empty"))
	errImportNotXLSX  = httpx.BadRequest(i18n.T("只能导入xlsx格式的Excel文件", "Only Excel files in .xlsx format can be imported"))
	errImportTooBig   = httpx.Badf("文件大小不能超过%dMB", "The file cannot be larger than %d MB", ImportMaxBytes>>20)
	errImportTooLong  = httpx.Badf("一次最多导入%d行", "At most %d rows can be imported at a time", ImportMaxRows)
	errImportNoRows   = httpx.BadRequest(i18n.T("文件中没有数据行", "The file has no data rows"))
	msgImportDone     = i18n.T("导入成功: 新增%d条, 更新%d条", "Imported: %d added, %d updated")
	msgImportFailed   = i18n.T("第%d行: %s", "Row %d: %s")
	msgImportMore     = i18n.T(" (共%d处错误)", " (%d errors in all)")
	msgUnknownColumn  = i18n.T("无法识别的列「%s」", "Unknown column %q")
	msgRepeatedColumn = i18n.T("列「%s」重复", "Column %q appears twice")
	msgNoColumns      = i18n.T("第一行应为列标题,没有可导入的列", "The first row must hold the column titles; no column can be imported")
)

// Cell messages, named after the field.
func msgCellNumber(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"不是有效的数值", f.Label.En+" is not a valid number")
}
func msgCellInt(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"必须是整数", f.Label.En+" must be a whole number")
}
func msgCellBool(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"应填写是或否", f.Label.En+" must be yes or no")
}
func msgCellTime(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"不是有效的日期(yyyy-MM-dd HH:mm:ss)", f.Label.En+" is not a valid date (yyyy-MM-dd HH:mm:ss)")
}
func msgCellID(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"不是有效的ID", f.Label.En+" is not a valid id")
}
func msgCellChars(f *Field) i18n.Text {
	return i18n.T(f.Label.Zh+"包含不允许的字符", f.Label.En+" contains characters that are not allowed")
}
func msgCellChoice(f *Field, v string) i18n.Text {
	return i18n.T(f.Label.Zh+"的值「%s」不是可选项", f.Label.En+": %q is not one of the choices").Format(v)
}
func msgCellCode(f *Field, v string) i18n.Text {
	return i18n.T(f.Label.Zh+"「%s」不存在或无权引用", f.Label.En+" %q: no such row, or not one you may use").Format(v)
}
func msgCellCodeTwice(f *Field, v string) i18n.Text {
	return i18n.T(f.Label.Zh+"「%s」对应多条数据", f.Label.En+" %q matches several rows").Format(v)
}
func msgRepeatsRow(labels i18n.Text, row int) i18n.Text {
	return i18n.T(labels.Zh+"与第%d行重复", labels.En+" repeats row %d").Format(row)
}

// initImport checks the declaration: a bad one is a programming error found at start-up.
func (r *Resource[T]) initImport() {
	imp := r.spec.Import
	if imp == nil {
		return
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("resource %s: Import: %s", r.spec.Key(), fmt.Sprintf(format, args...)))
	}
	key := r.meta.byName[imp.Key]
	if key == nil || !key.isText() || !importable(key) {
		fail("Key %q must be a text field a cell can hold", imp.Key)
	}
	if !slices.ContainsFunc(r.spec.Unique, func(g []string) bool { return len(g) == 1 && g[0] == imp.Key }) {
		fail("Key %q must be a Unique group of its own", imp.Key)
	}
	cols := r.importColumns()
	if !slices.Contains(cols, key) {
		fail("Fields must include the Key %q", imp.Key)
	}
	for _, name := range imp.Fields {
		if f := r.meta.byName[name]; f == nil || !importable(f) {
			fail("field %q cannot be imported", name)
		}
	}
	for _, f := range r.meta.Fields {
		if f.Required && f.Form && !f.Readonly && f != r.numberField() && !slices.Contains(cols, f) {
			fail("the required field %q is not a column: no row could be inserted", f.Name)
		}
	}
	seen := map[string]*Field{}
	for _, f := range cols {
		for _, h := range []string{f.Label.Zh, f.Label.En, f.Name} {
			h = headerKey(h)
			if g := seen[h]; g != nil && g != f {
				fail("fields %q and %q share the column title %q", g.Name, f.Name, h)
			}
			seen[h] = f
		}
	}
}

// importable: a field a cell can hold.
func importable(f *Field) bool {
	return f.Form && !f.Readonly && !f.Joined && !f.Once && !f.Secret && f.Type != TypePassword && !f.FileLink()
}

// importColumns are the declared columns, in order.
func (r *Resource[T]) importColumns() []*Field {
	var cols []*Field
	if names := r.spec.Import.Fields; len(names) > 0 {
		for _, name := range names {
			if f := r.meta.byName[name]; f != nil {
				cols = append(cols, f)
			}
		}
		return cols
	}
	for _, f := range r.meta.Fields {
		if importable(f) {
			cols = append(cols, f)
		}
	}
	return cols
}

// headerKey is a column title as compared: no surrounding spaces, no
// required mark, case folded.
func headerKey(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "*"), "＊"))
	return strings.ToLower(s)
}

func (r *Resource[T]) mountImport(router chi.Router, write func(httpx.HandlerFunc) httpx.HandlerFunc) {
	if r.spec.Import == nil {
		return
	}
	router.Get(r.spec.Path()+"/import-template", httpx.Handle(write(r.handleImportTemplate)))
	router.Post(r.spec.Path()+"/import", httpx.Handle(write(r.handleImport)))
}

// importRow is one data row of the file on its way to Save.
type importRow[T any] struct {
	line    int // Excel row number
	value   *T
	present map[string]bool
	isNew   bool
}

// importRun is one import request.
type importRun[T any] struct {
	r      *Resource[T]
	ctx    context.Context
	lang   i18n.Lang
	p      *authz.Principal
	cols   []*Field // the file's columns by position; nil: not imported
	rows   []*importRow[T]
	cells  [][]string // the rows' cells, by column position
	errs   []ImportError
	total  int          // errors found, listed or not
	failed map[int]bool // rows with an error
	// codes resolves reference cells: field → code → ids of the target's rows.
	codes map[*Field]map[string][]wire.ID
	// choices resolves dictionary cells: field → key or label → key.
	choices map[*Field]map[string]string
}

func (run *importRun[T]) fail(line int, field string, msg i18n.Text) {
	run.total++
	if run.failed == nil {
		run.failed = map[int]bool{}
	}
	run.failed[line] = true
	if len(run.errs) < importMaxErrors {
		run.errs = append(run.errs, ImportError{Row: line, Field: field, Message: msg.In(run.lang)})
	}
}

// failWith records a refusal of a whole row: each field error it names, or its message.
func (run *importRun[T]) failWith(line int, err error) bool {
	e, ok := httpx.As(err)
	if !ok || e.Status >= 500 {
		return false
	}
	fields, _ := e.Data.(FieldError)
	if len(fields) == 0 {
		run.fail(line, "", e.Msg)
		return true
	}
	// in column order, then the fields that are not columns
	done := map[string]bool{}
	for _, f := range run.r.meta.Fields {
		if msg, ok := fields[f.Name]; ok {
			run.fail(line, f.Name, i18n.T(msg, msg))
			done[f.Name] = true
		}
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		if !done[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		run.fail(line, name, i18n.T(fields[name], fields[name]))
	}
	return true
}

// refusal is the 400 listing every error found.
func (run *importRun[T]) refusal() error {
	first := run.errs[0]
	msg := i18n.T(fmt.Sprintf(msgImportFailed.Zh, first.Row, first.Message), fmt.Sprintf(msgImportFailed.En, first.Row, first.Message))
	if run.total > 1 {
		more := msgImportMore.Format(run.total)
		msg = i18n.T(msg.Zh+more.Zh, msg.En+more.En)
	}
	return &httpx.Error{Status: 400, Msg: msg, Data: run.errs}
}

func (r *Resource[T]) handleImport(req *http.Request) (any, error) {
	ctx := withDictMemo(i18n.With(req.Context(), i18n.FromRequest(req)))
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	data, err := readImportFile(req)
	if err != nil {
		return nil, err
	}
	run := &importRun[T]{r: r, ctx: ctx, lang: i18n.From(ctx), p: p}
	if err := run.read(data); err != nil {
		return nil, err
	}
	if run.total == 0 {
		if err := run.resolve(); err != nil {
			return nil, err
		}
		if err := run.build(); err != nil {
			return nil, err
		}
	}
	if run.total > 0 {
		return nil, run.refusal()
	}
	result, err := run.save()
	if err != nil {
		return nil, err
	}
	if r.hooks.Changed != nil {
		r.hooks.Changed(ctx)
	}
	if r.hooks.AfterCommit != nil { // as after each submit
		for _, row := range run.rows {
			if err := r.hooks.AfterCommit(ctx, row.value, row.isNew); err != nil {
				return nil, err
			}
		}
	}
	msg := msgImportDone.Format(result.Inserted, result.Updated)
	return httpx.Raw{Status: 200, Body: httpx.Envelope{Code: 200, Success: true, Msg: msg.In(run.lang), Data: result}}, nil
}

// readImportFile reads the multipart part named "file", at most
// ImportMaxBytes of it, and checks that it is a zip (an xlsx is one).
func readImportFile(req *http.Request) ([]byte, error) {
	ct, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		return nil, errImportNoFile
	}
	mr, err := req.MultipartReader()
	if err != nil {
		return nil, errImportNoFile
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, errImportNoFile
		}
		if err != nil {
			return nil, importBodyError(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, ImportMaxBytes+1))
		part.Close()
		switch {
		case err != nil:
			return nil, importBodyError(err)
		case len(data) == 0:
			return nil, errImportEmpty
		case len(data) > ImportMaxBytes:
			return nil, errImportTooBig
		case !bytes.HasPrefix(data, []byte("PK\x03\x04")):
			return nil, errImportNotXLSX // an .xls, a CSV, anything else
		}
		return data, nil
	}
}

func importBodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errImportTooBig
	}
	return errImportNoFile
}

// read parses the first sheet: the header row, then every data row's
// cells. Empty rows are skipped; row numbers stay Excel's.
func (run *importRun[T]) read(data []byte) error {
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: importUnzipLimit})
	if err != nil {
		return errImportNotXLSX
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return errImportNotXLSX
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return errImportNotXLSX
	}
	defer rows.Close()
	raw := excelize.Options{RawCellValue: true} // numbers as written, not as displayed
	line := 0
	for rows.Next() {
		line++
		cells, err := rows.Columns(raw)
		if err != nil {
			return errImportNotXLSX
		}
		if line == 1 {
			if err := run.header(cells); err != nil || run.total > 0 {
				return err
			}
			continue
		}
		if !hasText(cells) {
			continue
		}
		if len(run.rows) == ImportMaxRows {
			return errImportTooLong
		}
		run.rows = append(run.rows, &importRow[T]{line: line})
		run.cells = append(run.cells, cells)
	}
	if err := rows.Error(); err != nil {
		return errImportNotXLSX
	}
	if line == 0 {
		return errImportEmpty
	}
	if len(run.rows) == 0 {
		return errImportNoRows
	}
	return nil
}

func hasText(cells []string) bool {
	return slices.ContainsFunc(cells, func(c string) bool { return strings.TrimSpace(c) != "" })
}

// header maps the file's columns to fields by title: the zh or en label,
// or the JSON name. A title of a field that cannot be imported (an export's
// creation time) is skipped; one that names nothing is an error.
func (run *importRun[T]) header(cells []string) error {
	if !hasText(cells) {
		return errImportEmpty
	}
	cols := run.r.importColumns()
	byTitle := map[string]*Field{}
	for _, f := range run.r.meta.Fields {
		for _, h := range []string{f.Name, f.Label.En, f.Label.Zh} {
			byTitle[headerKey(h)] = f
		}
	}
	for _, f := range cols { // a column's titles win over a field's that shares them
		for _, h := range []string{f.Name, f.Label.En, f.Label.Zh} {
			byTitle[headerKey(h)] = f
		}
	}
	run.cols = make([]*Field, len(cells))
	taken := map[*Field]bool{}
	for i, title := range cells {
		if strings.TrimSpace(title) == "" {
			continue
		}
		f := byTitle[headerKey(title)]
		switch {
		case f == nil:
			run.fail(1, "", msgUnknownColumn.Format(strings.TrimSpace(title)))
		case !slices.Contains(cols, f):
		case taken[f]:
			run.fail(1, f.Name, msgRepeatedColumn.Format(strings.TrimSpace(title)))
		default:
			taken[f] = true
			run.cols[i] = f
		}
	}
	if run.total == 0 && len(taken) == 0 {
		run.fail(1, "", msgNoColumns)
	}
	return nil
}

// cell is row i's text in column j, trimmed.
func (run *importRun[T]) cell(i, j int) string {
	if j >= len(run.cells[i]) {
		return ""
	}
	return strings.TrimSpace(run.cells[i][j])
}

// resolve reads, in a few queries, what the cells refer to: the rows
// matching the keys, the rows named by reference codes and the dictionary
// entries.
func (run *importRun[T]) resolve() error {
	r, ctx := run.r, run.ctx
	idb := r.env.DB
	for j, f := range run.cols {
		if f == nil {
			continue
		}
		if target := run.codeTarget(f); target != nil {
			codes := run.distinct(j)
			found, err := target.idsByCode(ctx, idb, run.p.TenantID, codes)
			if err != nil {
				return err
			}
			if run.codes == nil {
				run.codes = map[*Field]map[string][]wire.ID{}
			}
			run.codes[f] = found
		}
		if f.Dict != "" {
			lister, ok := r.env.dicts().(DictChoices)
			if !ok {
				continue
			}
			entries, err := lister.DictChoices(ctx, idb, f.Dict, f.DictBiz)
			if err != nil {
				return err
			}
			if run.choices == nil {
				run.choices = map[*Field]map[string]string{}
			}
			run.choices[f] = choiceIndex(entries)
		}
	}
	return nil
}

// choiceIndex maps each entry's key and labels to its key; a key wins over
// another entry's label.
func choiceIndex(entries []DictChoice) map[string]string {
	m := make(map[string]string, 3*len(entries))
	for _, e := range entries {
		for _, l := range []string{e.Label.Zh, e.Label.En} {
			if l = strings.TrimSpace(l); l != "" {
				m[l] = e.Key
			}
		}
	}
	for _, e := range entries {
		m[e.Key] = e.Key
	}
	return m
}

func (env *Env) dicts() DictLabeler {
	if env == nil {
		return nil
	}
	return env.Dicts
}

// distinct is the non-empty cells of column j, each once.
func (run *importRun[T]) distinct(j int) []string {
	seen := map[string]bool{}
	var out []string
	for i := range run.rows {
		if v := run.cell(i, j); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// codeResolver finds rows by their Lookup code.
type codeResolver interface {
	idsByCode(ctx context.Context, idb bun.IDB, tenantID string, codes []string) (map[string][]wire.ID, error)
}

// codeTarget is the resource an id field's cells name by code, or nil
// when the cells hold ids.
func (run *importRun[T]) codeTarget(f *Field) codeResolver {
	if f.Ref == "" || f.ValueType != ValueID || run.r.env == nil || run.r.env.Refs == nil {
		return nil
	}
	target := run.r.env.Refs.Get(f.Ref)
	if target == nil || target.Spec().Lookup == nil || target.Spec().Lookup.CodeField == "" {
		return nil
	}
	cr, _ := target.(codeResolver)
	return cr
}

// idsByCode finds, among the rows the caller may read (of tenantID unless
// the resource is Global), those whose Lookup code is one of codes.
func (r *Resource[T]) idsByCode(ctx context.Context, idb bun.IDB, tenantID string, codes []string) (map[string][]wire.ID, error) {
	f := r.meta.byName[r.spec.Lookup.CodeField]
	out := make(map[string][]wire.ID, len(codes))
	for chunk := range slices.Chunk(codes, importChunk) {
		var found []struct {
			ID   wire.ID `bun:"id"`
			Code string  `bun:"code"`
		}
		q, err := r.Select(ctx, idb, (*T)(nil))
		if err != nil {
			return nil, err
		}
		q = q.ColumnExpr("id, ? AS code", bun.Ident(f.Column)).Where("? IN (?)", bun.Ident(f.Column), bun.In(chunk))
		if r.spec.Scope != Global {
			q = q.Where("tenant_id = ?", tenantID)
		}
		if err := q.Scan(ctx, &found); err != nil {
			return nil, err
		}
		for _, x := range found {
			out[x.Code] = append(out[x.Code], x.ID)
		}
	}
	return out, nil
}

// build turns every row's cells into a value, decides insert or update by
// the Key, and checks it: the declared rules, repeated unique values in the
// file and single-field unique values taken by other rows.
func (run *importRun[T]) build() error {
	r, ctx := run.r, run.ctx
	keyField := r.meta.byName[r.spec.Import.Key]
	keyCol := slices.Index(run.cols, keyField)
	existing := map[string]wire.ID{}
	if keyCol >= 0 {
		var err error
		if existing, err = r.idsByKey(ctx, run.distinct(keyCol)); err != nil {
			return err
		}
	}
	for i, row := range run.rows {
		row.value, row.present = new(T), map[string]bool{}
		v := reflect.ValueOf(row.value).Elem()
		bad := map[string]bool{}
		for j, f := range run.cols {
			if f == nil {
				continue
			}
			text := run.cell(i, j)
			if text == "" {
				continue
			}
			if msg, ok := run.setCell(f, v.FieldByIndex(f.index), text); !ok {
				run.fail(row.line, f.Name, msg)
				bad[f.Name] = true
				continue
			}
			row.present[f.Name] = true
		}
		row.isNew = true
		if keyCol >= 0 {
			if id, ok := existing[run.cell(i, keyCol)]; ok {
				row.isNew = false
				b := any(row.value).(hasBase).base()
				b.ID = id
				row.present["version"] = true // set from the stored row in the transaction
			}
		}
		if err := r.Check(ctx, row.value, row.present, row.isNew); err != nil {
			if e, ok := httpx.As(err); ok {
				if fields, ok := e.Data.(FieldError); ok {
					for name := range fields {
						if bad[name] {
							delete(fields, name) // its cell was already reported
						}
					}
					if len(fields) == 0 {
						continue
					}
				}
			}
			if !run.failWith(row.line, err) {
				return err
			}
		}
	}
	if err := run.checkRepeats(); err != nil {
		return err
	}
	return nil
}

// setCell stores a cell's text in a field of the row, or says why it cannot.
func (run *importRun[T]) setCell(f *Field, fv reflect.Value, text string) (i18n.Text, bool) {
	if !utf8.ValidString(text) || strings.ContainsFunc(text, func(c rune) bool { return unicode.IsControl(c) && c != '\t' && c != '\n' && c != '\r' }) {
		return msgCellChars(f), false
	}
	if m := run.choices[f]; m != nil {
		key, ok := m[text]
		if !ok {
			return msgCellChoice(f, text), false
		}
		text = key
	}
	switch {
	case f.Ref != "" && f.ValueType == ValueID && run.codes[f] != nil:
		ids := run.codes[f][text]
		switch len(ids) {
		case 0:
			return msgCellCode(f, text), false
		case 1:
			fv.Set(reflect.ValueOf(ids[0]))
		default:
			return msgCellCodeTwice(f, text), false
		}
	case fv.Type() == decimalType:
		d, err := wire.ParseDecimal(text)
		if err != nil {
			return msgCellNumber(f), false
		}
		fv.Set(reflect.ValueOf(d))
	case fv.Type() == idType:
		id, err := wire.ParseID(text)
		if err != nil {
			return msgCellID(f), false
		}
		fv.Set(reflect.ValueOf(id))
	case fv.Type() == timeType:
		t, ok := cellTime(text)
		if !ok {
			return msgCellTime(f), false
		}
		fv.Set(reflect.ValueOf(t))
	case fv.Kind() == reflect.Bool:
		b, ok := cellBool(text)
		if !ok {
			return msgCellBool(f), false
		}
		fv.SetBool(b)
	case fv.Kind() == reflect.Int || fv.Kind() == reflect.Int32 || fv.Kind() == reflect.Int64:
		n, ok := cellInt(text)
		if !ok {
			if f.Dict != "" && run.choices[f] == nil {
				return msgCellChoice(f, text), false
			}
			return msgCellInt(f), false
		}
		fv.SetInt(n)
	case fv.Kind() == reflect.String:
		// a date typed in Excel is stored as a day number
		if f.Type == TypeDate || f.Type == TypeDateTime {
			if t, ok := cellSerialTime(text); ok && f.Type == TypeDate {
				text = t.Format("2006-01-02")
			} else if ok {
				text = t.Format(wire.Layout)
			}
		}
		fv.SetString(text)
	}
	return i18n.Text{}, true
}

// cellInt reads an integer, also as Excel writes one ("12", "12.0", "1.2E1").
func cellInt(text string) (int64, bool) {
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, true
	}
	d, err := wire.ParseDecimal(text)
	if err != nil {
		return 0, false
	}
	whole, exact := d.Rescale(0)
	if !exact {
		return 0, false
	}
	n, err := strconv.ParseInt(whole.String(), 10, 64)
	return n, err == nil
}

func cellBool(text string) (bool, bool) {
	switch strings.ToLower(text) {
	case "1", "true", "yes", "y", "是":
		return true, true
	case "0", "false", "no", "n", "否":
		return false, true
	}
	return false, false
}

// cellTime reads wire text, or Excel's number of a date cell.
func cellTime(text string) (wire.Time, bool) {
	if t, err := wire.ParseTime(text); err == nil {
		return t, true
	}
	if t, ok := cellSerialTime(text); ok {
		return wire.Time{Time: t}, true
	}
	return wire.Time{}, false
}

// cellSerialTime reads Excel's serial day number (45292.5 is 2024-01-01 12:00).
func cellSerialTime(text string) (time.Time, bool) {
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || n < 1 || n > 2958465 { // up to 9999-12-31
		return time.Time{}, false
	}
	t, err := excelize.ExcelDateToTime(n, false)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC().Round(time.Second), true
}

// idsByKey finds the live rows of the caller's tenant, among those the
// caller may see, whose Key is one of keys. A row the data scope hides is
// not found: its key is then taken, which the unique check reports.
func (r *Resource[T]) idsByKey(ctx context.Context, keys []string) (map[string]wire.ID, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	f := r.meta.byName[r.spec.Import.Key]
	out := make(map[string]wire.ID, len(keys))
	for chunk := range slices.Chunk(keys, importChunk) {
		var found []struct {
			ID  wire.ID `bun:"id"`
			Key string  `bun:"key"`
		}
		q, err := r.Select(ctx, r.env.DB, (*T)(nil))
		if err != nil {
			return nil, err
		}
		q = q.ColumnExpr("id, ? AS ?", bun.Ident(f.Column), bun.Ident("key")).Where("? IN (?)", bun.Ident(f.Column), bun.In(chunk))
		if r.spec.Scope != Global {
			q = q.Where("tenant_id = ?", p.TenantID) // the super user imports into its own tenant
		}
		if err := q.Scan(ctx, &found); err != nil {
			return nil, err
		}
		for _, x := range found {
			out[x.Key] = x.ID
		}
	}
	return out, nil
}

// checkRepeats reports rows that repeat another row's value of a unique
// group, and single-field unique text values that another stored row of
// the tenant holds (whoever may see it, as Save's check).
func (run *importRun[T]) checkRepeats() error {
	r := run.r
	for _, group := range r.spec.Unique {
		fields := make([]*Field, len(group))
		zh, en := make([]string, len(group)), make([]string, len(group))
		for k, name := range group {
			fields[k] = r.meta.byName[name]
			zh[k], en[k] = fields[k].Label.Zh, fields[k].Label.En
		}
		labels := i18n.T(strings.Join(zh, "、"), strings.Join(en, ", ")) // as checkUnique names them
		first := map[string]int{}
		values := map[string][]*importRow[T]{}
		for _, row := range run.rows {
			if run.failed[row.line] {
				continue
			}
			v := reflect.ValueOf(row.value).Elem()
			parts := make([]string, len(fields))
			touched := row.isNew
			empty := false
			for k, f := range fields {
				parts[k] = fmt.Sprint(v.FieldByIndex(f.index).Interface())
				touched = touched || row.present[f.Name]
				empty = empty || (f.isText() && parts[k] == "")
			}
			if !touched || empty { // an empty number is issued later
				continue
			}
			key := strings.Join(parts, "\x00")
			if line, ok := first[key]; ok {
				run.fail(row.line, group[0], msgRepeatsRow(labels, line))
				continue
			}
			first[key] = row.line
			if len(fields) == 1 && fields[0].isText() && fields[0].Name != r.spec.Import.Key {
				values[parts[0]] = append(values[parts[0]], row)
			}
		}
		if len(values) == 0 {
			continue
		}
		taken, err := r.takenValues(run.ctx, fields[0], slices.Collect(maps.Keys(values)))
		if err != nil {
			return err
		}
		for value, holder := range taken {
			for _, row := range values[value] {
				if any(row.value).(hasBase).base().ID != holder {
					run.fail(row.line, group[0], i18n.T(labels.Zh+"已存在", labels.En+" already exists"))
				}
			}
		}
	}
	// errors were found column by column: list them by row
	slices.SortStableFunc(run.errs, func(a, b ImportError) int { return a.Row - b.Row })
	return nil
}

// takenValues finds which of values a live row of the caller's tenant
// holds in field f, and which row.
func (r *Resource[T]) takenValues(ctx context.Context, f *Field, values []string) (map[string]wire.ID, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]wire.ID{}
	for chunk := range slices.Chunk(values, importChunk) {
		var found []struct {
			ID    wire.ID `bun:"id"`
			Value string  `bun:"value"`
		}
		q := r.env.DB.NewSelect().Table(r.spec.Table).ColumnExpr("id, ? AS value", bun.Ident(f.Column)).
			Where("is_deleted = 0").Where("? IN (?)", bun.Ident(f.Column), bun.In(chunk))
		if r.spec.Scope != Global {
			q = q.Where("tenant_id = ?", p.TenantID)
		}
		if err := q.Scan(ctx, &found); err != nil {
			return nil, err
		}
		for _, x := range found {
			out[x.Value] = x.ID
		}
	}
	return out, nil
}

// errImportRolledBack ends the transaction of an import a row refused.
var errImportRolledBack = errors.New("import refused")

// save writes every row in one transaction, each through Save; a refused
// row is reported and the others still tried, so that one answer lists
// every error, and then nothing is kept.
func (run *importRun[T]) save() (ImportResult, error) {
	r, ctx := run.r, run.ctx
	var result ImportResult
	err := r.env.DB.Tx(ctx, func(tx bun.Tx) error {
		if err := run.loadVersions(tx); err != nil {
			return err
		}
		for _, row := range run.rows {
			if err := r.Save(ctx, tx, row.value, row.present); err != nil {
				if !run.failWith(row.line, err) {
					return err
				}
				continue
			}
			if row.isNew {
				result.Inserted++
			} else {
				result.Updated++
			}
		}
		if run.total > 0 {
			return errImportRolledBack
		}
		return nil
	})
	if errors.Is(err, errImportRolledBack) {
		return result, run.refusal()
	}
	return result, err
}

// loadVersions gives the rows to update the version they have now, read in
// the transaction: an import edits what is stored, whatever its version.
func (run *importRun[T]) loadVersions(tx bun.Tx) error {
	byID := map[wire.ID]*importRow[T]{}
	var ids []wire.ID
	for _, row := range run.rows {
		if !row.isNew {
			id := any(row.value).(hasBase).base().ID
			byID[id] = row
			ids = append(ids, id)
		}
	}
	for chunk := range slices.Chunk(ids, importChunk) {
		var found []struct {
			ID      wire.ID `bun:"id"`
			Version int     `bun:"version"`
		}
		q, err := run.r.Select(run.ctx, tx, (*T)(nil))
		if err != nil {
			return err
		}
		if err := q.Column("id", "version").Where("id IN (?)", bun.In(chunk)).Scan(run.ctx, &found); err != nil {
			return err
		}
		for _, x := range found {
			any(byID[x.ID].value).(hasBase).base().Version = x.Version
		}
	}
	return nil // a row gone since is Save's 404, reported on its line
}

// contentDisposition names a download in UTF-8.
func contentDisposition(name string) string {
	return "attachment; filename*=UTF-8''" + url.PathEscape(name)
}
