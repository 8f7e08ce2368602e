// Package richtext cleans HTML written in a rich-text editor before it is
// stored: whatever a writer sends, a reader's browser gets no script. It is
// shared by every area that keeps rich text (website content, notices).
package richtext

import (
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

var (
	once   sync.Once
	policy *bluemonday.Policy
)

// ugc is bluemonday's policy for user-generated content (paragraphs,
// headings, lists, tables, links, images, code) with what editors also
// emit: text alignment and colours as inline styles, and links that open in
// a new tab. Scripts, event handlers (onerror, onclick...), iframes, forms,
// and javascript:/data: URLs are dropped.
func ugc() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowStyles("text-align").MatchingEnum("left", "right", "center", "justify").Globally()
	p.AllowStyles("color", "background-color").Globally()
	p.AllowAttrs("target").Matching(bluemonday.SpaceSeparatedTokens).OnElements("a")
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// Sanitize returns html with everything that could run in a reader's
// browser removed, keeping the formatting. Plain text passes unchanged
// except that <, > and & are escaped.
func Sanitize(html string) string {
	once.Do(func() { policy = ugc() })
	return policy.Sanitize(html)
}

var strict = bluemonday.StrictPolicy()

// Shows tells whether sanitised html shows a reader anything: some text or
// an image. An editor emptied by its user still sends markup (<p><br></p>).
func Shows(html string) bool {
	if strings.Contains(html, "<img") {
		return true
	}
	text := strings.NewReplacer("&nbsp;", "", "&#160;", "").Replace(strict.Sanitize(html))
	return strings.TrimSpace(text) != ""
}
