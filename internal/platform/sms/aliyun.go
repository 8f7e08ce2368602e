package sms

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Aliyun sends through Alibaba Cloud SMS (dysmsapi, API version 2017-05-25),
// signed with the RPC signature V1: HMAC-SHA1 over the canonicalised query.
type Aliyun struct{ Gateway }

// AliyunEndpoint is the public API.
const AliyunEndpoint = "https://dysmsapi.aliyuncs.com/"

var _ Provider = (*Aliyun)(nil)

// Send sends one templated message; params become TemplateParam (JSON).
func (a *Aliyun) Send(ctx context.Context, phone, template string, params map[string]string) error {
	if err := a.check(ctx, phone, template); err != nil {
		return err
	}
	u, err := a.endpoint(AliyunEndpoint)
	if err != nil {
		return err
	}
	if params == nil {
		params = map[string]string{}
	}
	tp, _ := json.Marshal(params)
	region := a.Region
	if region == "" {
		region = "cn-hangzhou"
	}
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	q := url.Values{
		"AccessKeyId": {a.AccessKey}, "Action": {"SendSms"}, "Format": {"JSON"}, "Version": {"2017-05-25"},
		"RegionId": {region}, "PhoneNumbers": {phone}, "SignName": {a.SignName}, "TemplateCode": {template},
		"TemplateParam": {string(tp)}, "SignatureMethod": {"HMAC-SHA1"}, "SignatureVersion": {"1.0"},
		"SignatureNonce": {hex.EncodeToString(nonce[:])}, "Timestamp": {a.now().UTC().Format("2006-01-02T15:04:05Z")},
	}
	q.Set("Signature", AliyunSignature(http.MethodGet, q, a.SecretKey))
	u.RawQuery = aliyunCanonical(q)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	var out struct{ Code, Message, RequestId string }
	if err := a.do(req, &out); err != nil {
		return err
	}
	if out.Code != "OK" {
		return &ProviderError{Provider: "aliyun", Code: out.Code, Message: out.Message}
	}
	return nil
}

// AliyunSignature is the RPC signature V1 of a request's parameters (without
// Signature): base64(HMAC-SHA1(secret+"&", METHOD&%2F&percent(canonical query))).
func AliyunSignature(method string, q url.Values, secret string) string {
	toSign := method + "&" + aliyunEscape("/") + "&" + aliyunEscape(aliyunCanonical(q))
	m := hmac.New(sha1.New, []byte(secret+"&"))
	m.Write([]byte(toSign))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// aliyunCanonical sorts the parameters by name and joins them percent-encoded.
func aliyunCanonical(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, aliyunEscape(k)+"="+aliyunEscape(q.Get(k)))
	}
	return strings.Join(parts, "&")
}

// aliyunEscape is RFC 3986 percent-encoding: space as %20, * as %2A, ~ kept.
func aliyunEscape(s string) string {
	s = url.QueryEscape(s)
	return strings.NewReplacer("+", "%20", "*", "%2A", "%7E", "~").Replace(s)
}
