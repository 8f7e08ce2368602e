package numbering

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Dictionary keys stored in the rule columns (internal/seed/seeddata/dicts.go).
const (
	// effective_status
	NotEffective = 1
	Effective    = 2
	// business_yes_no
	No  = 1
	Yes = 2
	// audit_status, the rule's base status column
	AuditDraft    = 1
	AuditApproved = 3
)

// Segment types (dictionary segment_type).
const (
	SegmentFixed  = 1
	SegmentDate   = 2
	SegmentSerial = 3
	SegmentField  = 4
)

// CodeRule is a tenant's numbering rule for one business type. Its status
// (resource.Base) is the audit status, dictionary audit_status.
type CodeRule struct {
	bun.BaseModel `bun:"table:bb_code_rule"`
	resource.Base
	RuleCode    string `bun:"rule_code" json:"ruleCode" f:"label=规则编码|Rule code;req;msg=请输入规则编码|Please enter the rule code;max=32;pattern=^[A-Za-z0-9_-]+$;search;sort"`
	RuleName    string `bun:"rule_name" json:"ruleName" f:"label=规则名称|Rule name;req;msg=请输入规则名称|Please enter the rule name;max=64;search;sort"`
	BizType     string `bun:"biz_type" json:"bizType" f:"label=业务类型|Business type;req;msg=请输入业务类型(如 MIN)|Please enter the business type (e.g. MIN);max=32;pattern=^[A-Za-z0-9_]+$;filter=equal;search;sort"`
	IsEffective int    `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective status;req;msg=请选择生效状态|Please select the effective status;dict=effective_status;search;sort"`
	AllowManual int    `bun:"allow_manual" json:"allowManual" f:"label=允许手工编号|Manual numbers allowed;dict=business_yes_no"`
	Remark      string `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
	// Details are the rule's segments, saved with it (saveCodeRules, submit).
	Details []CodeRuleDetail `bun:"-" json:"details"`
}

// CodeRuleDetail is one segment of a rule. Its separator is written after
// the segment's text, except after the last segment.
type CodeRuleDetail struct {
	bun.BaseModel `bun:"table:bb_code_rule_detail"`
	resource.Base
	RuleID       wire.ID `bun:"rule_id" json:"ruleId" f:"label=编码规则|Code rule;req;msg=请选择编码规则|Please select the code rule;once;ref=bluebird-basic/coderulenew"`
	Seq          int     `bun:"seq" json:"seq" f:"label=顺序|Order;req;msg=请输入段的顺序|Please enter the segment order;min=1;sort"`
	SegmentType  int     `bun:"segment_type" json:"segmentType" f:"label=段类型|Segment type;req;msg=请选择段类型|Please select the segment type;dict=segment_type"`
	FixedValue   string  `bun:"fixed_value" json:"fixedValue" f:"label=固定值|Fixed text;max=32"`
	DateFormat   string  `bun:"date_format" json:"dateFormat" f:"label=日期格式|Date format;max=16;dict=date_format"`
	FieldName    string  `bun:"field_name" json:"fieldName" f:"label=单据字段|Document field;max=64;pattern=^[A-Za-z][A-Za-z0-9_]*$"`
	SerialLength int     `bun:"serial_length" json:"serialLength" f:"label=流水号位数|Serial digits;min=0"`
	SerialStart  int     `bun:"serial_start" json:"serialStart" f:"label=流水号起始值|Serial start;min=0"`
	SerialStep   int     `bun:"serial_step" json:"serialStep" f:"label=流水号步长|Serial step;min=0"`
	Separator    string  `bun:"separator" json:"separator" f:"label=分隔符|Separator;max=8"`
	Remark       string  `bun:"remark" json:"remark" f:"label=备注|Remark;type=text;max=500;hide"`
}
