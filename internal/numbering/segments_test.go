package numbering

import (
	"testing"
	"time"

	"github.com/bluebird/console/internal/platform/httpx"
)

func TestLayoutResolveAndFormat(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 30, 0, 0, time.Local)
	segs := []CodeRuleDetail{
		{Seq: 1, SegmentType: SegmentFixed, FixedValue: "MIN", Separator: "-"},
		{Seq: 2, SegmentType: SegmentField, FieldName: "warehouseCode", Separator: "-"},
		{Seq: 3, SegmentType: SegmentDate, DateFormat: "yy"},
		{Seq: 4, SegmentType: SegmentDate, DateFormat: "MM"},
		{Seq: 5, SegmentType: SegmentSerial, SerialLength: 4, SerialStart: 1, SerialStep: 1, Separator: "/"},
	}
	fields := func(name string) string {
		if name == "warehouseCode" {
			return "WH1"
		}
		return ""
	}
	l, err := resolve("R", segs, now, fields)
	if err != nil {
		t.Fatal(err)
	}
	if l.periodKey != "MINWH12611" {
		t.Errorf("period key %q", l.periodKey)
	}
	got, err := l.format(7)
	if err != nil || got != "MIN-WH1-26110007" {
		t.Errorf("format: %q %v (no separator after the last segment)", got, err)
	}
	if _, err := l.format(10000); err == nil {
		t.Error("a 5-digit value fits a 4-digit serial")
	}
	if got, _ := l.format(9999); got != "MIN-WH1-26119999" {
		t.Errorf("last value: %q", got)
	}

	// every date format
	for format, want := range map[string]string{"yyyy": "2026", "yy": "26", "MM": "11", "dd": "25", "yyyyMM": "202611", "yyyyMMdd": "20261125"} {
		l, err := resolve("R", []CodeRuleDetail{{SegmentType: SegmentDate, DateFormat: format}, {SegmentType: SegmentSerial, SerialLength: 2, SerialStep: 1}}, now, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := l.format(1); got != want+"01" {
			t.Errorf("%s: %q", format, got)
		}
	}
}

func TestLayoutRefusals(t *testing.T) {
	now := time.Now()
	serial := CodeRuleDetail{SegmentType: SegmentSerial, SerialLength: 4, SerialStep: 1}
	cases := map[string][]CodeRuleDetail{
		"no serial":      {{SegmentType: SegmentFixed, FixedValue: "A"}},
		"two serials":    {serial, serial},
		"empty field":    {{SegmentType: SegmentField, FieldName: "warehouseCode"}, serial},
		"bad date":       {{SegmentType: SegmentDate, DateFormat: "dd/MM"}, serial},
		"empty fixed":    {{SegmentType: SegmentFixed}, serial},
		"zero digits":    {{SegmentType: SegmentSerial, SerialStep: 1}},
		"zero step":      {{SegmentType: SegmentSerial, SerialLength: 3}},
		"start too big":  {{SegmentType: SegmentSerial, SerialLength: 2, SerialStart: 100, SerialStep: 1}},
		"19 digits":      {{SegmentType: SegmentSerial, SerialLength: 19, SerialStep: 1}},
		"unknown type":   {{SegmentType: 9}, serial},
		"over 40 chars":  {{SegmentType: SegmentFixed, FixedValue: "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF"}, {SegmentType: SegmentDate, DateFormat: "yyyyMMdd"}, serial},
		"field too long": {{SegmentType: SegmentField, FieldName: "f"}, serial},
	}
	for name, segs := range cases {
		fields := func(string) string { return "" }
		if name == "field too long" {
			fields = func(string) string { return "0123456789012345678901234567890123456789" }
		}
		_, err := resolve("R", segs, now, fields)
		if e, ok := httpx.As(err); !ok || e.Status != 400 || e.Msg.Zh == "" || e.Msg.En == "" {
			t.Errorf("%s: want a readable 400, got %v", name, err)
		}
	}
}
