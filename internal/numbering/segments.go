package numbering

import (
	"strconv"
	"strings"
	"time"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// MaxNumberLength is the longest number a rule may give: the width of a
// document's number column (docNo str(40), docs/domain.md §0).
const MaxNumberLength = 40

// maxSerialLength keeps 10^length within an int64 counter.
const maxSerialLength = 18

// dateLayouts are the date formats of the date_format dictionary, as Go layouts.
var dateLayouts = map[string]string{
	"yyyy":     "2006",
	"yy":       "06",
	"MM":       "01",
	"dd":       "02",
	"yyyyMM":   "200601",
	"yyyyMMdd": "20060102",
}

// ValidateSegments checks the segments of one rule as a whole and each on
// its own: exactly one SERIAL, and each segment carrying what its type needs.
// The engine's future rule editor (rule with its details in one body) calls it
// as the detail hooks here do.
func ValidateSegments(ruleCode string, segs []CodeRuleDetail) error {
	serials := 0
	for i := range segs {
		if err := ValidateSegment(&segs[i]); err != nil {
			return err
		}
		if segs[i].SegmentType == SegmentSerial {
			serials++
		}
	}
	if serials != 1 {
		return httpx.BadRequest(errSerialCount.Format(ruleCode))
	}
	return nil
}

// ValidateSegment checks that one segment has what its type needs.
func ValidateSegment(d *CodeRuleDetail) error {
	switch d.SegmentType {
	case SegmentFixed:
		if d.FixedValue == "" {
			return httpx.Badf("固定值段(第%d段)需要填写固定值", "The fixed-text segment (order %d) needs its text", d.Seq)
		}
	case SegmentDate:
		if _, ok := dateLayouts[d.DateFormat]; !ok {
			return httpx.Badf("日期段(第%d段)的日期格式应为 yyyy、yy、MM、dd、yyyyMM 或 yyyyMMdd", "The date segment (order %d) needs a date format: yyyy, yy, MM, dd, yyyyMM or yyyyMMdd", d.Seq)
		}
	case SegmentField:
		if d.FieldName == "" {
			return httpx.Badf("单据字段段(第%d段)需要填写字段名", "The document-field segment (order %d) needs a field name", d.Seq)
		}
	case SegmentSerial:
		if d.SerialLength < 1 || d.SerialLength > maxSerialLength {
			return httpx.Badf("流水号位数应在1到%d之间", "The serial needs 1 to %d digits", maxSerialLength)
		}
		if d.SerialStep < 1 {
			return httpx.Badf("流水号步长至少为1", "The serial step must be at least 1")
		}
		if d.SerialStart < 0 || int64(d.SerialStart) > maxValue(d.SerialLength) {
			return httpx.Badf("流水号起始值应在0到%d之间", "The serial start must be between 0 and %d", maxValue(d.SerialLength))
		}
	default:
		return httpx.Badf("段类型应为固定值、日期、流水号或单据字段", "The segment type must be fixed text, date, serial or document field")
	}
	return nil
}

// maxValue is the largest serial that fits in length digits.
func maxValue(length int) int64 {
	v := int64(1)
	for range length {
		v *= 10
	}
	return v - 1
}

var (
	errSerialCount = i18n.T("编码规则%s必须有且只有一个流水号段", "Code rule %s must have exactly one serial segment")
	errFieldEmpty  = i18n.T("编码规则%s的单据字段%s没有值,无法生成编号", "Code rule %s needs the document field %s, which is empty")
	errTooLong     = i18n.T("编码规则%s生成的编号超过%d个字符", "Code rule %s makes numbers longer than %d characters")
	errOverflow    = i18n.T("编码规则%s的%d位流水号在本期(%s)已用完,请加长流水号位数", "Code rule %s has used up its %d-digit serial numbers for this period (%s); lengthen the serial")
)

// layout is a rule resolved for one moment and one document: every segment's
// text but the serial's, the serial segment, and the counter's period key.
type layout struct {
	ruleCode  string
	texts     []string // resolved text per segment; "" for the serial
	seps      []string // separator written after each segment (none after the last)
	serial    CodeRuleDetail
	serialAt  int // index of the serial segment
	periodKey string
}

// resolve turns segments (in seq order) into a layout at now. fields gives
// the document's values of FIELD segments; nil means no document.
func resolve(ruleCode string, segs []CodeRuleDetail, now time.Time, fields func(string) string) (*layout, error) {
	if err := ValidateSegments(ruleCode, segs); err != nil {
		return nil, err
	}
	l := &layout{ruleCode: ruleCode, texts: make([]string, len(segs)), seps: make([]string, len(segs))}
	var key strings.Builder
	length := 0
	for i, d := range segs {
		switch d.SegmentType {
		case SegmentFixed:
			l.texts[i] = d.FixedValue
		case SegmentDate:
			l.texts[i] = now.Format(dateLayouts[d.DateFormat])
		case SegmentField:
			v := ""
			if fields != nil {
				v = strings.TrimSpace(fields(d.FieldName))
			}
			if v == "" {
				return nil, httpx.BadRequest(errFieldEmpty.Format(ruleCode, d.FieldName))
			}
			l.texts[i] = v
		case SegmentSerial:
			l.serial, l.serialAt = d, i
			length += d.SerialLength
		}
		// The period key is the text of every segment but the serial
		// (domain.md §4, Frappe's naming series): a new day under a
		// yyyyMMdd segment, or another warehouse under a FIELD segment,
		// is a new counter starting at serialStart.
		key.WriteString(l.texts[i])
		if i < len(segs)-1 {
			l.seps[i] = d.Separator
		}
		length += len([]rune(l.texts[i])) + len([]rune(l.seps[i]))
	}
	if length > MaxNumberLength {
		return nil, httpx.BadRequest(errTooLong.Format(ruleCode, MaxNumberLength))
	}
	l.periodKey = key.String()
	return l, nil
}

// format writes the number with value as the serial, zero-padded.
func (l *layout) format(value int64) (string, error) {
	if value > maxValue(l.serial.SerialLength) {
		return "", l.overflow()
	}
	serial := strconv.FormatInt(value, 10)
	var b strings.Builder
	for i, text := range l.texts {
		if i == l.serialAt {
			b.WriteString(strings.Repeat("0", l.serial.SerialLength-len(serial)))
			b.WriteString(serial)
		} else {
			b.WriteString(text)
		}
		b.WriteString(l.seps[i])
	}
	return b.String(), nil
}

func (l *layout) overflow() error {
	return httpx.BadRequest(errOverflow.Format(l.ruleCode, l.serial.SerialLength, l.periodKey))
}
