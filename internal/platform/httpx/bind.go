package httpx

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/bluebird/console/internal/platform/wire"
)

// MaxBody is the default request body limit.
const MaxBody = 4 << 20

// DecodeJSON reads a JSON body into dst, answering 400 for anything malformed
// and 413 for a body over the limit. An empty body is a 400 as well.
func DecodeJSON(r *http.Request, dst any) error {
	body, err := ReadBody(r)
	if err != nil {
		return err
	}
	return DecodeBytes(body, dst)
}

// ReadBody reads the whole (limited) request body.
func ReadBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, ErrBodyTooLarge
		}
		return nil, ErrBadJSON
	}
	return body, nil
}

// DecodeBytes decodes a JSON document, mapping errors to readable 400s.
func DecodeBytes(body []byte, dst any) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		return BadRequest(ErrBadJSON.Msg)
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Badf("字段%s的类型错误", "Field %s has the wrong type", te.Field)
		}
		if e, ok := As(err); ok {
			return e
		}
		msg := err.Error()
		if strings.Contains(msg, "invalid id") || strings.Contains(msg, "invalid datetime") || strings.Contains(msg, "invalid decimal") {
			return Badf("请求体中的值格式错误: %s", "A value in the body is malformed: %s", msg)
		}
		return ErrBadJSON
	}
	return nil
}

// QueryID reads a required id parameter.
func QueryID(r *http.Request, name string) (wire.ID, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, MissingParam(name)
	}
	id, err := wire.ParseID(v)
	if err != nil || id == 0 {
		return 0, InvalidParam(name)
	}
	return id, nil
}

// QueryIDs reads a required comma-separated id list.
func QueryIDs(r *http.Request, name string) ([]wire.ID, error) {
	v := r.URL.Query().Get(name)
	if strings.TrimSpace(v) == "" {
		return nil, MissingParam(name)
	}
	ids, err := wire.ParseIDs(v)
	if err != nil {
		return nil, InvalidParam(name)
	}
	if len(ids) == 0 {
		return nil, MissingParam(name)
	}
	return ids, nil
}

// FormIDs reads an id list from the query or a form body (BladeX clients send both ways).
func FormIDs(r *http.Request, name string) ([]wire.ID, error) {
	if r.URL.Query().Get(name) == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		_ = r.ParseForm()
		if v := r.PostForm.Get(name); v != "" {
			ids, err := wire.ParseIDs(v)
			if err != nil || len(ids) == 0 {
				return nil, InvalidParam(name)
			}
			return ids, nil
		}
	}
	return QueryIDs(r, name)
}

// MaxPageSize caps `size` so no single request can ask for the whole table.
const MaxPageSize = 1000

// MaxPage bounds `current`, so that the offset (current-1)*size stays far
// from overflowing in Go and in either database.
const MaxPage = 1_000_000

// Paging is the `current` and `size` of a list request.
type Paging struct{ Current, Size int }

// Offset is the number of rows before the page.
func (p Paging) Offset() int { return (p.Current - 1) * p.Size }

// ParsePaging reads `current` (default 1, at most MaxPage) and `size`
// (default 10, clamped to MaxPageSize, since asking for more than the cap
// only means "as many as allowed"). Anything else is a 400 naming the parameter.
func ParsePaging(v url.Values) (Paging, error) {
	current, err := pagingParam(v, "current", 1)
	if err != nil {
		return Paging{}, err
	}
	if current > MaxPage {
		return Paging{}, Badf("参数current超出范围(1-%d)", "Parameter current is out of range (1-%d)", MaxPage)
	}
	size, err := pagingParam(v, "size", 10)
	if err != nil {
		return Paging{}, err
	}
	return Paging{Current: current, Size: min(size, MaxPageSize)}, nil
}

// pagingParam reads a positive integer; one too large for an int reads as
// the largest int, for the caller to clamp or refuse.
func pagingParam(v url.Values, name string, def int) (int, error) {
	s := strings.TrimSpace(v.Get(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(s, 10, strconv.IntSize-1)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return math.MaxInt, nil
	case err != nil || n == 0:
		return 0, InvalidParam(name)
	}
	return int(n), nil
}

// QueryInt reads an optional integer parameter with a default.
func QueryInt(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, InvalidParam(name)
	}
	return n, nil
}

// QueryString reads a required string parameter.
func QueryString(r *http.Request, name string) (string, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return "", MissingParam(name)
	}
	return v, nil
}

// ClientIP is the peer address of a request without its port. Proxy headers
// are not read: they are the client's word, and a rate limit keyed on them
// could be dodged by sending another value each time.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
