package richtext

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<p>Hello <b>world</b></p>`, `<p>Hello <b>world</b></p>`},
		{`<p>a</p><script>alert(1)</script>`, `<p>a</p>`},
		{`<img src="/api/blade-resource/oss/endpoint/file/x.png" onerror="alert(1)">`, `<img src="/api/blade-resource/oss/endpoint/file/x.png">`},
		{`<a href="javascript:alert(1)">x</a>`, `x`},
		{`<p style="text-align: center" onclick="x()">c</p>`, `<p style="text-align: center">c</p>`},
		{`<iframe src="https://evil.example"></iframe>ok`, `ok`},
		{`1 < 2`, `1 &lt; 2`},
	} {
		got := Sanitize(c.in)
		if got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, bad := range []string{"<script", "onerror", "onclick", "javascript:"} {
			if strings.Contains(strings.ToLower(got), bad) {
				t.Errorf("Sanitize(%q) kept %s: %q", c.in, bad, got)
			}
		}
	}
}

func TestShows(t *testing.T) {
	for in, want := range map[string]bool{
		"":                          false,
		"<p><br></p>":               false,
		"<p>&nbsp; </p><div></div>": false,
		"<p>x</p>":                  true,
		`<p><img src="/a.png"></p>`: true,
	} {
		if got := Shows(in); got != want {
			t.Errorf("Shows(%q) = %v, want %v", in, got, want)
		}
	}
}
