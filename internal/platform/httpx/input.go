package httpx

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxParamLen bounds one query parameter value in bytes: room for an id list
// as long as the largest page (1000 ids of 19 digits and their commas), and
// far under SQLite's 50,000-byte LIKE pattern limit after escaping doubles it.
const MaxParamLen = 20 << 10

// dataHeaders are the request headers whose values the API reads as data
// (tokens, tenant and role choices, captcha answers); others are transport.
var dataHeaders = []string{"Blade-Auth", "Tenant-Id", "Role-Id", "Dept-Id", "User-Type", "Captcha-Key", "Captcha-Code"}

// CleanInput refuses, with a 400 naming the parameter, header or body field, a
// request that carries a control character or invalid UTF-8 where the API
// reads text, and a query value over MaxParamLen. Such bytes have no business
// meaning, and the databases refuse some of them (PostgreSQL: NUL and invalid
// UTF-8), which would otherwise surface as 500s at every endpoint.
// Tab, CR and LF are allowed in bodies (multi-line text such as remarks), not
// in the path, query or headers, which are single-line by nature.
// Multipart bodies (uploads) are binary and not inspected; the upload handler
// cleans the file name it keeps.
func CleanInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkRequest(r); err != nil {
			WriteError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func checkRequest(r *http.Request) error {
	if bad := badText(r.URL.Path, false); bad != "" {
		return inputError(bad, "请求路径", "The request path", "")
	}
	if err := checkValues(r.URL.Query(), false, true); err != nil {
		return err
	}
	for _, h := range dataHeaders {
		if bad := badText(r.Header.Get(h), false); bad != "" {
			return inputError(bad, "请求头", "Header", h)
		}
	}
	if user, pass, ok := r.BasicAuth(); ok {
		if bad := badText(user+pass, false); bad != "" {
			return inputError(bad, "请求头", "Header", "Authorization")
		}
	}
	return checkBody(r)
}

// checkBody reads the (already limited) body, checks it and puts it back for
// the handler.
func checkBody(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "multipart/form-data" {
		return nil
	}
	body, err := ReadBody(r)
	if err != nil {
		return err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if ct == "application/x-www-form-urlencoded" {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return nil // the handler's form parsing reports it
		}
		return checkValues(form, true, false)
	}
	// Everything else is read as JSON by the handlers, whatever it claims to be.
	return checkJSON(body)
}

// checkValues checks query or form parameters, names and values.
func checkValues(v url.Values, multiline, bounded bool) error {
	for key, vals := range v {
		if bad := badText(key, false); bad != "" {
			return inputError(bad, "参数", "Parameter", key)
		}
		for _, s := range vals {
			if bad := badText(s, multiline); bad != "" {
				return inputError(bad, "参数", "Parameter", key)
			}
			if bounded && len(s) > MaxParamLen {
				return Badf("参数%s过长(最多%d字节)", "Parameter %s is too long (at most %d bytes)", key, MaxParamLen)
			}
		}
	}
	return nil
}

// Reasons badText gives.
const (
	badControl = "control"
	badUTF8    = "utf8"
)

// badText says what is wrong with s as text: badControl, badUTF8 or "".
func badText(s string, multiline bool) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return badUTF8
		}
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n' || r == '\r')) {
			return badControl
		}
		i += size
	}
	return ""
}

// inputError is the 400 for bad text in the named place. A name that is
// itself unprintable is shown quoted in ASCII.
func inputError(bad, whereZh, whereEn, name string) *Error {
	if name != "" {
		if badText(name, false) != "" || len(name) > 64 {
			name = strconv.QuoteToASCII(truncate(name, 64))
		}
		whereZh += name
		whereEn += " " + name
	}
	if bad == badUTF8 {
		return Badf("%[1]s不是有效的UTF-8文本", "%[2]s is not valid UTF-8 text", whereZh, whereEn)
	}
	return Badf("%[1]s含有不允许的控制字符", "%[2]s contains a control character", whereZh, whereEn)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// checkJSON finds the first string of a JSON document, key or value at any
// depth, that holds a control character (tab, CR and LF allowed in values) or
// invalid UTF-8, and names it by its path, e.g. details[2].name. What is not
// JSON is left to the handler's decoder, which refuses it.
func checkJSON(b []byte) error {
	type frame struct {
		key   string
		index int
		array bool
	}
	var stack []frame
	var buf []byte
	wantKey := false
	path := func() string {
		var p []byte
		for _, f := range stack {
			if f.array {
				p = append(append(append(p, '['), strconv.Itoa(f.index)...), ']')
			} else {
				if len(p) > 0 {
					p = append(p, '.')
				}
				p = append(p, f.key...)
			}
		}
		return string(p)
	}
	for i := 0; i < len(b); {
		switch b[i] {
		case '{':
			stack = append(stack, frame{})
			wantKey = true
		case '[':
			stack = append(stack, frame{array: true})
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) == 0 {
				return nil
			}
			if top := &stack[len(stack)-1]; top.array {
				top.index++
			} else {
				wantKey = true
			}
		case ':':
			wantKey = false
		case '"':
			text, n, ok := scanString(b[i:], buf[:0])
			if !ok {
				return nil
			}
			buf = text
			isKey := wantKey && len(stack) > 0 && !stack[len(stack)-1].array
			if isKey {
				stack[len(stack)-1].key = string(text)
			}
			if bad := badText(string(text), !isKey); bad != "" {
				if p := path(); p != "" {
					return inputError(bad, "字段", "Field", p)
				}
				return inputError(bad, "请求体", "The request body", "")
			}
			i += n
			continue
		}
		i++
	}
	return nil
}

// scanString decodes the JSON string that starts at b[0] (a quote) into buf.
// It returns the text and the number of bytes consumed; ok is false when the
// string is malformed. A \u escape of a lone surrogate decodes to an invalid
// byte, so that it is refused like invalid UTF-8.
func scanString(b, buf []byte) (text []byte, n int, ok bool) {
	for i := 1; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return buf, i + 1, true
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		case i+1 >= len(b):
			return nil, 0, false
		}
		esc := b[i+1]
		i += 2
		switch esc {
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(b[i:])
			if !ok {
				return nil, 0, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				lo, ok := rune(0), false
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					lo, ok = hex4(b[i+2:])
				}
				if r = utf16.DecodeRune(r, lo); !ok || r == utf8.RuneError {
					buf = append(buf, 0xff) // lone surrogate
					continue
				}
				i += 6
			}
			buf = utf8.AppendRune(buf, r)
		default: // \" \\ \/ and anything the decoder will refuse
			buf = append(buf, esc)
		}
	}
	return nil, 0, false
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}
