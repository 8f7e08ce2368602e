package resource

import "context"

// A submit with an id updates only the JSON keys its body carried, so the
// save hooks must know them too: a department edit that did not send
// parentId keeps its place, one that sent parentId 0 moves to the root.
// Save puts the set into the context its hooks get.

type sentKey struct{}

func withSent(ctx context.Context, present map[string]bool) context.Context {
	return context.WithValue(ctx, sentKey{}, present)
}

// Sent tells a BeforeSave or AfterSave hook whether the request carried
// field (a JSON name). Inserts count every field as sent.
func Sent(ctx context.Context, field string) bool {
	present, ok := ctx.Value(sentKey{}).(map[string]bool)
	return !ok || present == nil || present[field]
}

type linePresentKey struct{}

// withLinePresent carries, from the decoded body to Save, which keys each
// line carried.
func withLinePresent(ctx context.Context, lines []map[string]bool) context.Context {
	return context.WithValue(ctx, linePresentKey{}, lines)
}

// linePresentOf is the keys each of n lines carried; lines saved without a
// decoded body (an import, a copy) count every field as sent.
func linePresentOf(ctx context.Context, n int) []map[string]bool {
	lines, _ := ctx.Value(linePresentKey{}).([]map[string]bool)
	out := make([]map[string]bool, n)
	for i := range out {
		if i < len(lines) {
			out[i] = lines[i]
		}
	}
	return out
}
