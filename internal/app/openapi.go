package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/resource"
)

// OpenAPI builds the OpenAPI 3.1 document from the routes actually mounted
// and the resources' declarations; a golden test keeps it under review.
func (a *App) OpenAPI() ([]byte, error) {
	type op = map[string]any
	paths := map[string]map[string]op{}
	schemas := map[string]any{}
	routeRes := map[string]resource.Registered{}
	for _, res := range a.Registry.All() {
		routeRes["/api"+res.Spec().Path()] = res
		schemas[schemaName(res)] = resourceSchema(res.Meta())
	}
	err := chi.Walk(a.api, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(route, "/*")
		full := "/api" + route
		if paths[full] == nil {
			paths[full] = map[string]op{}
		}
		o := op{"responses": map[string]any{
			"200": map[string]any{"description": "envelope {code, success, msg, data}"},
			"400": map[string]any{"description": "validation or business error"},
			"401": map[string]any{"description": "missing or invalid token"},
		}}
		dir, last := full[:strings.LastIndex(full, "/")], full[strings.LastIndex(full, "/")+1:]
		if res, ok := routeRes[dir]; ok {
			o["tags"] = []string{res.Spec().Key()}
			o["summary"] = res.Meta().Label.En + ": " + last
			ref := map[string]any{"$ref": "#/components/schemas/" + schemaName(res)}
			switch last {
			case "submit":
				o["requestBody"] = map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": ref}}}
			case "list", "page":
				o["parameters"] = listParams(res.Meta())
			case "detail":
				o["parameters"] = []any{map[string]any{"name": "id", "in": "query", "required": true, "schema": map[string]any{"type": "string"}}}
			case "remove":
				o["parameters"] = []any{map[string]any{"name": "ids", "in": "query", "required": true, "schema": map[string]any{"type": "string"}}}
			}
		} else {
			o["tags"] = []string{strings.Split(strings.TrimPrefix(full, "/api/"), "/")[0]}
		}
		paths[full][strings.ToLower(method)] = o
		return nil
	})
	if err != nil {
		return nil, err
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "Bluebird console API", "version": "1", "description": "BladeX-compatible JSON API; see docs/ and shared/api-contract.md."},
		"paths":   paths,
		"components": map[string]any{
			"schemas": schemas,
			"securitySchemes": map[string]any{
				"bladeAuth": map[string]any{"type": "apiKey", "in": "header", "name": "Blade-Auth"},
				"client":    map[string]any{"type": "http", "scheme": "basic"},
			},
		},
		"security": []any{map[string]any{"bladeAuth": []any{}, "client": []any{}}},
	}
	return json.MarshalIndent(doc, "", "  ")
}

func schemaName(res resource.Registered) string {
	parts := strings.FieldsFunc(res.Spec().Key(), func(r rune) bool { return r == '/' || r == '-' })
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	return strings.Join(parts, "")
}

func resourceSchema(m *resource.Meta) map[string]any {
	props := map[string]any{}
	var required []string
	for _, f := range m.Fields {
		props[f.Name] = fieldSchema(f)
		if f.Required {
			required = append(required, f.Name)
		}
	}
	sort.Strings(required)
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// fieldSchema is the JSON value a field takes and gives: its type comes from
// the Go type (ValueType), so a dictionary on an integer column is an integer.
func fieldSchema(f *resource.Field) map[string]any {
	t := map[string]any{"title": f.Label.En}
	var notes []string
	switch f.ValueType {
	case resource.ValueInt:
		t["type"] = "integer"
		if f.Min != nil {
			t["minimum"] = *f.Min
		}
		if f.Max > 0 {
			t["maximum"] = f.Max
		}
	case resource.ValueBool:
		t["type"] = "boolean"
	case resource.ValueID:
		t["type"], t["pattern"] = "string", "^[0-9]*$"
		notes = append(notes, "id as a decimal string (a JSON number is accepted)")
	case resource.ValueDateTime:
		t["type"], t["format"] = []string{"string", "null"}, "yyyy-MM-dd HH:mm:ss"
	case resource.ValueDecimal:
		// a string, never a JSON number: a float would lose digits
		t["type"], t["format"], t["pattern"] = []string{"string", "null"}, "decimal", `^-?[0-9]+(\.[0-9]+)?$`
		notes = append(notes, decimalNotes(f)...)
	default:
		t["type"] = "string"
		if f.Max > 0 {
			t["maxLength"] = f.Max
		}
		if f.Pattern != "" {
			t["pattern"] = f.Pattern
		}
	}
	if f.Dict != "" {
		kind := "dictionary "
		if f.DictBiz {
			kind = "business dictionary "
		}
		notes = append(notes, kind+f.Dict)
	}
	if f.Multi {
		notes = append(notes, "comma-separated ids")
	}
	if u := f.TreeURL + f.SelectURL; u != "" {
		notes = append(notes, "choices from "+u)
	}
	if len(notes) > 0 {
		t["description"] = strings.Join(notes, "; ")
	}
	if f.Type == resource.TypePassword {
		t["format"], t["writeOnly"] = "password", true
	}
	return t
}

// decimalNotes describe a decimal field's scale and bounds.
func decimalNotes(f *resource.Field) []string {
	notes := []string{"exact decimal as a string (a JSON number is accepted on input)"}
	if f.Scale != nil {
		notes = append(notes, fmt.Sprintf("answered with %d digits after the point, at most %d digits in all", *f.Scale, f.Precision))
	}
	if f.Positive {
		notes = append(notes, "greater than 0")
	}
	if f.MinValue != "" {
		notes = append(notes, "at least "+f.MinValue)
	}
	if f.MaxValue != "" {
		notes = append(notes, "at most "+f.MaxValue)
	}
	return notes
}

func listParams(m *resource.Meta) []any {
	ps := []any{
		map[string]any{"name": "current", "in": "query", "schema": map[string]any{"type": "integer", "default": 1}},
		map[string]any{"name": "size", "in": "query", "schema": map[string]any{"type": "integer", "default": 10, "maximum": resource.MaxPageSize}},
		map[string]any{"name": "descs", "in": "query", "schema": map[string]any{"type": "string"}},
		map[string]any{"name": "ascs", "in": "query", "schema": map[string]any{"type": "string"}},
	}
	for _, f := range m.Fields {
		if f.ValueType == resource.ValueDecimal && f.Filter != "" {
			ps = append(ps, map[string]any{"name": f.Name, "in": "query",
				"description": "filter by value; suffixes _notequal, _gt, _ge, _lt, _le, _null, _notnull apply",
				"schema":      map[string]any{"type": "string", "format": "decimal"}})
			continue
		}
		if f.Filter != "" {
			typ := "string"
			if f.ValueType == resource.ValueInt && f.Filter == "equal" {
				typ = "integer"
			}
			ps = append(ps, map[string]any{"name": f.Name, "in": "query", "description": "filter (" + f.Filter + "); suffixes _equal, _like, _dategt ... apply", "schema": map[string]any{"type": typ}})
		}
	}
	return ps
}

func (a *App) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	b, err := a.OpenAPI()
	if err != nil {
		http.Error(w, "openapi", 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
