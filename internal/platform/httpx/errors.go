package httpx

import (
	"errors"
	"fmt"

	"github.com/bluebird/console/internal/platform/i18n"
)

// Error is an error with an HTTP status and a message in both languages.
// Every error a client can see is one of these; anything else becomes a 500
// with a request id and nothing internal.
type Error struct {
	Status int
	Msg    i18n.Text
	Data   any // optional detail, e.g. field errors
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Msg.Zh) }

// The error table: every message the server answers with that is not a
// field-specific validation message.
var (
	ErrUnauthorized  = &Error{Status: 401, Msg: i18n.T("请求未授权", "Unauthorized")}
	ErrTokenInvalid  = &Error{Status: 401, Msg: i18n.T("令牌已失效", "The token is no longer valid")}
	ErrForbidden     = &Error{Status: 403, Msg: i18n.T("缺失权限,请联系管理员", "You do not have permission for this operation")}
	ErrNotFound      = &Error{Status: 404, Msg: i18n.T("数据不存在", "No such record")}
	ErrRouteNotFound = &Error{Status: 404, Msg: i18n.T("请求的接口不存在", "No such endpoint")}
	ErrMethod        = &Error{Status: 405, Msg: i18n.T("请求方法不支持", "Method not allowed")}
	ErrBodyTooLarge  = &Error{Status: 413, Msg: i18n.T("请求体过大", "The request body is too large")}
	ErrBadJSON       = &Error{Status: 400, Msg: i18n.T("请求体格式错误,应为JSON", "The request body is not valid JSON")}
	ErrStale         = &Error{Status: 400, Msg: i18n.T("数据已被他人修改,请刷新后重试", "The record was changed by someone else; reload and try again")}
	ErrNoIDs         = &Error{Status: 400, Msg: i18n.T("请选择至少一条数据", "Select at least one record")}
	ErrTooMany       = &Error{Status: 429, Msg: i18n.T("请求过于频繁,请稍后再试", "Too many requests; try again later")}
)

// BadRequest is a 400 with the given message.
func BadRequest(msg i18n.Text) *Error { return &Error{Status: 400, Msg: msg} }

// Badf is a 400 whose zh and en texts take the same arguments.
func Badf(zh, en string, args ...any) *Error {
	return &Error{Status: 400, Msg: i18n.T(zh, en).Format(args...)}
}

// InvalidParam is a 400 for a malformed query parameter.
func InvalidParam(name string) *Error {
	return Badf("参数%s格式错误", "Parameter %s is malformed", name)
}

// MissingParam is a 400 for a required query parameter that is absent.
func MissingParam(name string) *Error {
	return Badf("缺少必要的请求参数: %s", "Missing required parameter: %s", name)
}

// As unwraps err into an *Error if it is one.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
