// Package flow is the workflow engine (architecture.md §6): a BPMN 2.0
// subset parsed from XML, run by our own interpreter whose whole state
// lives in the bb_flow_* tables, and the blade-flow endpoints over it.
//
// The subset: start and end events; user tasks with assignee, candidate
// users and candidate groups (role aliases), as literals or ${...}
// expressions; exclusive gateways with expr-lang conditions and a default
// flow; parallel fork and join; multi-instance user tasks (countersign:
// every one must approve, or a completion condition such as any one).
// Anything else is refused at save and deploy, naming the element and its id.
package flow

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
)

// Node types.
const (
	StartEvent       = "startEvent"
	EndEvent         = "endEvent"
	UserTask         = "userTask"
	ExclusiveGateway = "exclusiveGateway"
	ParallelGateway  = "parallelGateway"
)

// Node is one element of a process.
type Node struct {
	ID, Type, Name  string
	In, Out         []*Flow
	Assignee        string
	CandidateUsers  string
	CandidateGroups string
	Default         string // exclusive gateway: the default flow id
	Multi           *Multi
}

// Multi is a user task's multi-instance (countersign) loop.
type Multi struct {
	Sequential     bool
	Collection     string // a variable name or ${expression} giving the users
	ElementVar     string // the loop variable, e.g. assignee = ${approver}
	Cardinality    string
	Completion     string // expr source without ${ }
	completionProg *vm.Program
}

// Flow is a sequence flow.
type Flow struct {
	ID, Name     string
	Source       *Node
	Target       *Node
	Condition    string // expr source without ${ }
	conditionPrg *vm.Program
}

// Process is a parsed, checked process definition.
type Process struct {
	Key, Name string
	Nodes     map[string]*Node
	Flows     map[string]*Flow
	Start     *Node
	// Linear: one token at most (no parallel gateway, no countersign, no
	// implicit split). An operation that creates no task in a linear
	// process has reached its end, so the engine need not look for other
	// open tasks or waiting joins.
	Linear bool
	// UsesVars: some condition, performer or loop reads the variables, so an
	// operation loads them.
	UsesVars bool
}

// xnode is a generic XML element: namespaces dropped, attributes by local name.
type xnode struct {
	name     string
	attrs    map[string]string
	children []*xnode
	text     strings.Builder
}

func (n *xnode) attr(name string) string { return n.attrs[name] }

func (n *xnode) child(name string) *xnode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// maxXML bounds a definition's size.
const maxXML = 2 << 20

var (
	msgXMLEmpty     = i18n.T("流程XML不能为空", "The process XML is empty")
	msgXMLTooBig    = i18n.T("流程XML超过2MB", "The process XML is larger than 2 MB")
	msgXMLBad       = i18n.T("流程XML格式错误: %s", "The process XML is malformed: %s")
	msgNoProcess    = i18n.T("流程XML中没有流程(process)", "The XML holds no process")
	msgManyProcess  = i18n.T("一个文件只能包含一个流程", "A file may hold only one process")
	msgNoKey        = i18n.T("流程缺少标识(id)", "The process has no id (key)")
	msgBadKey       = i18n.T("流程标识 %s 只能包含字母、数字、下划线和横线, 且以字母开头", "The process key %s may hold only letters, digits, _ and -, and must start with a letter")
	msgUnsupported  = i18n.T("不支持的流程元素 %s (id: %s)", "Unsupported process element %s (id: %s)")
	msgNoID         = i18n.T("流程元素 %s 缺少id", "A %s element has no id")
	msgDupID        = i18n.T("流程元素id %s 重复", "The element id %s is used twice")
	msgOneStart     = i18n.T("流程必须有且只有一个开始事件", "A process needs exactly one start event")
	msgNoEnd        = i18n.T("流程至少需要一个结束事件", "A process needs at least one end event")
	msgFlowEnds     = i18n.T("连线 %s 的起点或终点不存在", "The sequence flow %s has no valid source or target")
	msgNoOutgoing   = i18n.T("节点 %s (%s) 没有出口连线", "The element %s (%s) has no outgoing flow")
	msgNoIncoming   = i18n.T("节点 %s (%s) 没有入口连线", "The element %s (%s) has no incoming flow")
	msgStartIn      = i18n.T("开始事件不能有入口连线", "The start event cannot have incoming flows")
	msgBadExpr      = i18n.T("%s 的表达式 %s 有误: %s", "%s: the expression %s is wrong: %s")
	msgBadDefault   = i18n.T("网关 %s 的默认连线 %s 不是它的出口", "Gateway %s: the default flow %s is not one of its outgoing flows")
	msgNoPerformer  = i18n.T("用户任务 %s (%s) 没有设置处理人、候选人或候选组", "The user task %s (%s) has no assignee, candidate users or candidate groups")
	msgMultiNoColl  = i18n.T("多实例任务 %s 需要集合(collection)或实例数", "The multi-instance task %s needs a collection or a cardinality")
	msgEventDef     = i18n.T("不支持的事件定义 %s (id: %s)", "Unsupported event definition %s (id: %s)")
	msgUnreachable  = i18n.T("节点 %s (%s) 从开始事件不可达", "The element %s (%s) cannot be reached from the start event")
	msgCondOnPlain  = i18n.T("连线 %s 的条件只能用在排他网关的出口上", "The condition of flow %s is allowed only on an exclusive gateway's outgoing flow")
	msgTooManyNodes = i18n.T("流程元素超过1000个", "A process may hold at most 1000 elements")
)

// ignored are elements that carry no behaviour: diagram, documentation,
// annotations, and the designer's own bookkeeping.
var ignored = map[string]bool{
	"documentation": true, "extensionElements": true, "textAnnotation": true, "association": true,
	"group": true, "laneSet": true, "incoming": true, "outgoing": true, "category": true,
}

// Parse reads and checks BPMN XML. Its errors are readable (httpx 400 via
// BadDefinition) and name the element and its id.
func Parse(data []byte) (*Process, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad(msgXMLEmpty)
	}
	if len(data) > maxXML {
		return nil, bad(msgXMLTooBig)
	}
	root, err := readXML(data)
	if err != nil {
		return nil, bad(msgXMLBad, err.Error())
	}
	if root.name != "definitions" {
		return nil, bad(msgNoProcess)
	}
	var proc *xnode
	for _, c := range root.children {
		switch c.name {
		case "process":
			if proc != nil {
				return nil, bad(msgManyProcess)
			}
			proc = c
		case "BPMNDiagram", "documentation", "extensionElements", "category", "signal", "message", "error":
			// diagram and shared declarations: nothing to run
		default:
			return nil, bad(msgUnsupported, c.name, c.attr("id"))
		}
	}
	if proc == nil {
		return nil, bad(msgNoProcess)
	}
	p := &Process{Key: strings.TrimSpace(proc.attr("id")), Name: strings.TrimSpace(proc.attr("name")),
		Nodes: map[string]*Node{}, Flows: map[string]*Flow{}}
	if p.Key == "" {
		return nil, bad(msgNoKey)
	}
	if !validKey(p.Key) {
		return nil, bad(msgBadKey, p.Key)
	}
	if p.Name == "" {
		p.Name = p.Key
	}
	if len(proc.children) > 1000 {
		return nil, bad(msgTooManyNodes)
	}
	var flows []*xnode
	for _, c := range proc.children {
		id := strings.TrimSpace(c.attr("id"))
		if ignored[c.name] {
			continue
		}
		if c.name == "sequenceFlow" {
			flows = append(flows, c)
			continue
		}
		switch c.name {
		case StartEvent, EndEvent, UserTask, ExclusiveGateway, ParallelGateway:
		default:
			return nil, bad(msgUnsupported, c.name, id)
		}
		if id == "" {
			return nil, bad(msgNoID, c.name)
		}
		if p.Nodes[id] != nil {
			return nil, bad(msgDupID, id)
		}
		n := &Node{ID: id, Type: c.name, Name: strings.TrimSpace(c.attr("name"))}
		if n.Name == "" {
			n.Name = id
		}
		if err := readChildren(c, n); err != nil {
			return nil, err
		}
		if n.Type == StartEvent {
			if p.Start != nil {
				return nil, bad(msgOneStart)
			}
			p.Start = n
		}
		p.Nodes[id] = n
	}
	for _, c := range flows {
		id := strings.TrimSpace(c.attr("id"))
		if id == "" {
			return nil, bad(msgNoID, "sequenceFlow")
		}
		if p.Nodes[id] != nil || p.Flows[id] != nil {
			return nil, bad(msgDupID, id)
		}
		f := &Flow{ID: id, Name: c.attr("name"), Source: p.Nodes[c.attr("sourceRef")], Target: p.Nodes[c.attr("targetRef")]}
		if f.Source == nil || f.Target == nil {
			return nil, bad(msgFlowEnds, id)
		}
		if ce := c.child("conditionExpression"); ce != nil {
			if src := unwrap(ce.text.String()); src != "" {
				prg, err := expr.Compile(src, expr.AsBool(), expr.AllowUndefinedVariables())
				if err != nil {
					return nil, bad(msgBadExpr, id, src, firstLine(err.Error()))
				}
				f.Condition, f.conditionPrg = src, prg
			}
		}
		for _, cc := range c.children {
			if cc.name != "conditionExpression" && !ignored[cc.name] {
				return nil, bad(msgUnsupported, cc.name, cc.attr("id"))
			}
		}
		p.Flows[id] = f
		f.Source.Out = append(f.Source.Out, f)
		f.Target.In = append(f.Target.In, f)
	}
	p.Linear = true
	for _, n := range p.Nodes {
		if n.Type == ParallelGateway || n.Multi != nil || (n.Type != ExclusiveGateway && len(n.Out) > 1) {
			p.Linear = false
		}
		if n.Multi != nil || strings.Contains(n.Assignee+n.CandidateUsers+n.CandidateGroups, "{") {
			p.UsesVars = true
		}
	}
	for _, f := range p.Flows {
		if f.Condition != "" {
			p.UsesVars = true
		}
	}
	return p, p.check()
}

// readChildren reads a node's inner elements: loop characteristics of a
// user task; event definitions are refused.
func readChildren(c *xnode, n *Node) error {
	if n.Type == UserTask {
		n.Assignee = strings.TrimSpace(c.attr("assignee"))
		n.CandidateUsers = strings.TrimSpace(c.attr("candidateUsers"))
		n.CandidateGroups = strings.TrimSpace(c.attr("candidateGroups"))
	}
	if n.Type == ExclusiveGateway {
		n.Default = strings.TrimSpace(c.attr("default"))
	}
	for _, cc := range c.children {
		switch {
		case ignored[cc.name]:
		case cc.name == "multiInstanceLoopCharacteristics" && n.Type == UserTask:
			m := &Multi{Sequential: cc.attr("isSequential") == "true", Collection: strings.TrimSpace(cc.attr("collection")),
				ElementVar: strings.TrimSpace(cc.attr("elementVariable"))}
			if card := cc.child("loopCardinality"); card != nil {
				m.Cardinality = unwrap(card.text.String())
			}
			if cond := cc.child("completionCondition"); cond != nil {
				if src := unwrap(cond.text.String()); src != "" {
					prg, err := expr.Compile(src, expr.AsBool(), expr.AllowUndefinedVariables())
					if err != nil {
						return bad(msgBadExpr, n.ID, src, firstLine(err.Error()))
					}
					m.Completion, m.completionProg = src, prg
				}
			}
			if m.Collection == "" && m.Cardinality == "" {
				return bad(msgMultiNoColl, n.ID)
			}
			n.Multi = m
		case strings.HasSuffix(cc.name, "EventDefinition"):
			return bad(msgEventDef, cc.name, n.ID)
		default:
			return bad(msgUnsupported, cc.name, cc.attr("id")+" @ "+n.ID)
		}
	}
	return nil
}

// check verifies the graph: one start, an end, every node wired and reachable.
func (p *Process) check() error {
	if p.Start == nil {
		return bad(msgOneStart)
	}
	ends := 0
	for _, n := range p.sortedNodes() {
		switch n.Type {
		case StartEvent:
			if len(n.In) > 0 {
				return bad(msgStartIn)
			}
		case EndEvent:
			ends++
		default:
			if len(n.In) == 0 {
				return bad(msgNoIncoming, n.Name, n.ID)
			}
		}
		if n.Type != EndEvent && len(n.Out) == 0 {
			return bad(msgNoOutgoing, n.Name, n.ID)
		}
		if n.Type == UserTask && n.Assignee == "" && n.CandidateUsers == "" && n.CandidateGroups == "" {
			return bad(msgNoPerformer, n.Name, n.ID)
		}
		if n.Type == ExclusiveGateway && n.Default != "" {
			ok := false
			for _, f := range n.Out {
				ok = ok || f.ID == n.Default
			}
			if !ok {
				return bad(msgBadDefault, n.ID, n.Default)
			}
		}
		for _, f := range n.Out {
			if f.Condition != "" && n.Type != ExclusiveGateway {
				return bad(msgCondOnPlain, f.ID)
			}
		}
	}
	if ends == 0 {
		return bad(msgNoEnd)
	}
	seen := map[*Node]bool{p.Start: true}
	stack := []*Node{p.Start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range n.Out {
			if !seen[f.Target] {
				seen[f.Target] = true
				stack = append(stack, f.Target)
			}
		}
	}
	for _, n := range p.sortedNodes() {
		if !seen[n] {
			return bad(msgUnreachable, n.Name, n.ID)
		}
	}
	return nil
}

func (p *Process) sortedNodes() []*Node {
	out := make([]*Node, 0, len(p.Nodes))
	for _, n := range p.Nodes {
		out = append(out, n)
	}
	// stable messages: by id
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].ID < out[j-1].ID; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// readXML builds the generic tree of an XML document.
func readXML(data []byte) (*xnode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var root *xnode
	var stack []*xnode
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > 64 {
				return nil, fmt.Errorf("nested too deep")
			}
			n := &xnode{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
					continue
				}
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("more than one root element")
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			depth--
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		case xml.Directive:
			return nil, fmt.Errorf("DOCTYPE and other directives are not allowed")
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// unwrap strips ${ } (or #{ }) from an expression.
func unwrap(s string) string {
	s = strings.TrimSpace(s)
	if (strings.HasPrefix(s, "${") || strings.HasPrefix(s, "#{")) && strings.HasSuffix(s, "}") {
		return strings.TrimSpace(s[2 : len(s)-1])
	}
	return s
}

// isExpr tells an expression from a literal.
func isExpr(s string) bool {
	s = strings.TrimSpace(s)
	return (strings.HasPrefix(s, "${") || strings.HasPrefix(s, "#{")) && strings.HasSuffix(s, "}")
}

func validKey(s string) bool {
	if len(s) > 64 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return s != ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// bad is a readable refusal of a definition.
func bad(msg i18n.Text, args ...any) error {
	if len(args) > 0 {
		msg = msg.Format(args...)
	}
	return httpx.BadRequest(msg)
}
