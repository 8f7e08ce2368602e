package resource

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// The import template (GET <path>/import-template): one sheet whose header
// row holds the columns' labels in the caller's language, each with a note
// saying what the cell takes (required, length, decimal places, the
// dictionary choices, the code of a referenced row); cells formatted per
// column (text stays text, so a code 001 keeps its zeros; decimals show the
// field's scale); and, when the dictionaries can be listed, a second sheet
// of the choices that the dictionary columns offer as drop-down lists.

var (
	msgTplRequired = i18n.T("必填", "Required")
	msgTplKey      = i18n.T("按此列匹配: 与已有数据相同则更新, 否则新增", "Rows are matched by this column: a value already stored updates that row, another adds a row")
	msgTplNumber   = i18n.T("留空则按编码规则生成", "Leave it empty to take the next number of the code rule")
	msgTplMax      = i18n.T("最多%d个字符", "At most %d characters")
	msgTplDecimal  = i18n.T("数值, 最多%d位小数", "A number with at most %d decimal places")
	msgTplWhole    = i18n.T("整数", "A whole number")
	msgTplMin      = i18n.T("不小于%s", "At least %s")
	msgTplMaxValue = i18n.T("不大于%s", "At most %s")
	msgTplPositive = i18n.T("大于0", "Greater than 0")
	msgTplChoice   = i18n.T("填写选项名称或键值", "The choice's name or key")
	msgTplChoices  = i18n.T("可选: %s", "Choices: %s")
	msgTplCode     = i18n.T("填写%s的%s", "A %s, by its %s")
	msgTplID       = i18n.T("填写ID", "An id")
	msgTplTime     = i18n.T("日期时间, 格式 yyyy-MM-dd HH:mm:ss", "A date and time: yyyy-MM-dd HH:mm:ss")
	msgTplBool     = i18n.T("是 或 否", "yes or no")
	msgTplSheet    = i18n.T("选项", "Choices")
	msgTplFile     = i18n.T("%s导入模板.xlsx", "%s import template.xlsx")
)

// templateChoicesInNote: a dictionary with at most this many entries lists
// them in the column's note too.
const templateChoicesInNote = 10

func (r *Resource[T]) handleImportTemplate(req *http.Request) (any, error) {
	ctx := i18n.With(req.Context(), i18n.FromRequest(req))
	lang := i18n.From(ctx)
	cols := r.importColumns()
	choices := map[*Field][]DictChoice{}
	if lister, ok := r.env.dicts().(DictChoices); ok {
		for _, f := range cols {
			if f.Dict == "" {
				continue
			}
			entries, err := lister.DictChoices(ctx, r.env.DB, f.Dict, f.DictBiz)
			if err != nil {
				return nil, err
			}
			choices[f] = entries
		}
	}
	f := excelize.NewFile()
	if err := r.fillTemplate(f, cols, choices, lang); err != nil {
		f.Close()
		return nil, err
	}
	return httpx.Streamer(func(w http.ResponseWriter) error {
		defer f.Close()
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		w.Header().Set("Content-Disposition", contentDisposition(msgTplFile.Format(r.spec.Label.In(lang)).In(lang)))
		return f.Write(w)
	}), nil
}

func (r *Resource[T]) fillTemplate(f *excelize.File, cols []*Field, choices map[*Field][]DictChoice, lang i18n.Lang) error {
	sheet := sheetName(r.spec.Label.In(lang))
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	styles, err := newTemplateStyles(f)
	if err != nil {
		return err
	}
	choiceSheet := ""
	choiceCol := 0
	for j, c := range cols {
		col, _ := excelize.ColumnNumberToName(j + 1)
		head := col + "1"
		if err := f.SetCellStr(sheet, head, c.Label.In(lang)); err != nil {
			return err
		}
		style := styles.header
		if c.Required && c != r.numberField() {
			style = styles.required
		}
		if err := f.SetCellStyle(sheet, head, head, style); err != nil {
			return err
		}
		if err := f.SetColWidth(sheet, col, col, columnChars(c.Label.In(lang))); err != nil {
			return err
		}
		if body := styles.body(f, c); body != 0 {
			if err := f.SetColStyle(sheet, col, body); err != nil {
				return err
			}
			if err := f.SetCellStyle(sheet, head, head, style); err != nil { // the column style covered the header
				return err
			}
		}
		note := r.templateNote(c, choices[c], lang)
		if err := f.AddComment(sheet, excelize.Comment{Cell: head, Text: note, Width: 280, Height: 90}); err != nil {
			return err
		}
		entries := choices[c]
		if len(entries) == 0 {
			continue
		}
		if choiceSheet == "" {
			choiceSheet = sheetName(msgTplSheet.In(lang))
			if _, err := f.NewSheet(choiceSheet); err != nil {
				return err
			}
		}
		choiceCol++
		cc, _ := excelize.ColumnNumberToName(choiceCol)
		if err := f.SetCellStr(choiceSheet, cc+"1", c.Label.In(lang)); err != nil {
			return err
		}
		if err := f.SetCellStyle(choiceSheet, cc+"1", cc+"1", styles.header); err != nil {
			return err
		}
		for k, e := range entries {
			if err := f.SetCellStr(choiceSheet, fmt.Sprintf("%s%d", cc, k+2), e.Label.In(lang)); err != nil {
				return err
			}
		}
		if err := f.SetColWidth(choiceSheet, cc, cc, columnChars(c.Label.In(lang))); err != nil {
			return err
		}
		dv := excelize.NewDataValidation(true)
		dv.Sqref = fmt.Sprintf("%s2:%s%d", col, col, ImportMaxRows+1)
		dv.SetSqrefDropList(fmt.Sprintf("'%s'!$%s$2:$%s$%d", choiceSheet, cc, cc, len(entries)+1))
		if err := f.AddDataValidation(sheet, dv); err != nil {
			return err
		}
	}
	return f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
}

// templateNote says what a column's cells take.
func (r *Resource[T]) templateNote(c *Field, entries []DictChoice, lang i18n.Lang) string {
	var lines []string
	add := func(t i18n.Text) { lines = append(lines, t.In(lang)) }
	if c.Required && c != r.numberField() {
		add(msgTplRequired)
	}
	if c.Name == r.spec.Import.Key {
		add(msgTplKey)
	}
	if c == r.numberField() {
		add(msgTplNumber)
	}
	switch {
	case c.Dict != "":
		add(msgTplChoice)
		if n := len(entries); n > 0 && n <= templateChoicesInNote {
			labels := make([]string, n)
			for k, e := range entries {
				labels[k] = e.Label.In(lang)
			}
			add(msgTplChoices.Format(strings.Join(labels, ", ")))
		}
	case c.Ref != "" && c.ValueType == ValueID:
		if target := r.env.refTarget(c.Ref); target != nil && target.Spec().Lookup != nil && target.Spec().Lookup.CodeField != "" {
			if code := target.Meta().Field(target.Spec().Lookup.CodeField); code != nil {
				add(msgTplCode.Format(target.Spec().Label.In(lang), code.Label.In(lang)))
				break
			}
		}
		add(msgTplID)
	case c.decimal != nil:
		add(msgTplDecimal.Format(c.decimal.scale))
		if c.decimal.positive {
			add(msgTplPositive)
		}
		if !c.decimal.min.IsNull() {
			add(msgTplMin.Format(c.decimal.min))
		}
		if !c.decimal.max.IsNull() {
			add(msgTplMaxValue.Format(c.decimal.max))
		}
	case c.ValueType == ValueDateTime:
		add(msgTplTime)
	case c.ValueType == ValueBool:
		add(msgTplBool)
	case c.ValueType == ValueInt:
		add(msgTplWhole)
		if c.Min != nil {
			add(msgTplMin.Format(fmt.Sprint(*c.Min)))
		}
	case c.Max > 0:
		add(msgTplMax.Format(c.Max))
	}
	return strings.Join(lines, "\n")
}

// refTarget is the registered resource of a reference, or nil.
func (env *Env) refTarget(key string) Registered {
	if env == nil || env.Refs == nil {
		return nil
	}
	return env.Refs.Get(key)
}

type templateStyles struct {
	header, required int
	byFormat         map[string]int
}

func newTemplateStyles(f *excelize.File) (*templateStyles, error) {
	fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}}
	border := []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}}
	header, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: fill, Border: border,
		NumFmt: 49, Alignment: &excelize.Alignment{Vertical: "center"}})
	if err != nil {
		return nil, err
	}
	required, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Color: "C00000"}, Fill: fill, Border: border,
		NumFmt: 49, Alignment: &excelize.Alignment{Vertical: "center"}})
	if err != nil {
		return nil, err
	}
	return &templateStyles{header: header, required: required, byFormat: map[string]int{}}, nil
}

// body is the style of a column's data cells: text as text, decimals at the
// field's scale, datetimes as the wire writes them; 0 for none.
func (s *templateStyles) body(f *excelize.File, c *Field) int {
	format := ""
	switch {
	case c.decimal != nil:
		format = "0"
		if c.decimal.scale > 0 {
			format += "." + strings.Repeat("0", c.decimal.scale)
		}
	case c.ValueType == ValueDateTime:
		format = "yyyy-mm-dd hh:mm:ss"
	case c.ValueType == ValueString && c.Dict == "":
		format = "@"
	default:
		return 0
	}
	if id, ok := s.byFormat[format]; ok {
		return id
	}
	var style *excelize.Style
	if format == "@" {
		style = &excelize.Style{NumFmt: 49}
	} else {
		style = &excelize.Style{CustomNumFmt: &format}
	}
	id, err := f.NewStyle(style)
	if err != nil {
		return 0
	}
	s.byFormat[format] = id
	return id
}

// sheetName makes a label a valid sheet name: no []:*?/\ and at most 31 characters.
func sheetName(label string) string {
	name := strings.Map(func(c rune) rune {
		if strings.ContainsRune(`[]:*?/\'`, c) {
			return '_'
		}
		return c
	}, label)
	if utf8.RuneCountInString(name) > 31 {
		name = string([]rune(name)[:31])
	}
	if name == "" {
		name = "Sheet1"
	}
	return name
}

// columnChars is a column width that shows its title: a CJK character is two.
func columnChars(title string) float64 {
	n := 0
	for _, c := range title {
		if c > 0x2e80 {
			n += 2
		} else {
			n++
		}
	}
	return float64(min(max(n+4, 12), 40))
}
