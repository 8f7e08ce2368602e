// Package smstest holds local HTTP fakes of the SMS providers for tests:
// each recomputes the provider's signature from the request, as the
// provider documents it and apart from the code under test, and answers the
// provider's own error when it does not match (a wrong secret fails).
package smstest

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rfc3986 percent-encodes every byte outside the unreserved set.
func rfc3986(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// Aliyun is a dysmsapi SendSms fake.
type Aliyun struct {
	Secrets map[string]string // AccessKeyId → secret

	mu  sync.Mutex
	got []url.Values
}

// Got is the accepted requests' parameters.
func (f *Aliyun) Got() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.got...)
}

// ServeHTTP checks the RPC signature V1 and answers like dysmsapi.
func (f *Aliyun) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sig := q.Get("Signature")
	q.Del("Signature")
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	sort.Strings(names)
	pairs := make([]string, len(names))
	for i, k := range names {
		pairs[i] = rfc3986(k) + "=" + rfc3986(q.Get(k))
	}
	toSign := r.Method + "&%2F&" + rfc3986(strings.Join(pairs, "&"))
	m := hmac.New(sha1.New, []byte(f.Secrets[q.Get("AccessKeyId")]+"&"))
	m.Write([]byte(toSign))
	want := base64.StdEncoding.EncodeToString(m.Sum(nil))
	if _, known := f.Secrets[q.Get("AccessKeyId")]; !known || sig != want || q.Get("SignatureMethod") != "HMAC-SHA1" {
		json.NewEncoder(w).Encode(map[string]string{"Code": "SignatureDoesNotMatch", "Message": "Specified signature is not matched with our calculation."})
		return
	}
	f.mu.Lock()
	f.got = append(f.got, q)
	f.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]string{"Code": "OK", "Message": "OK", "BizId": "1", "RequestId": "r"})
}

// Tencent is a Tencent Cloud SMS SendSms fake.
type Tencent struct {
	Secrets map[string]string // SecretId → SecretKey

	mu  sync.Mutex
	got []map[string]any
}

// Got is the accepted requests' bodies.
func (f *Tencent) Got() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.got...)
}

var credRe = regexp.MustCompile(`^TC3-HMAC-SHA256 Credential=([^/]+)/(\d{4}-\d{2}-\d{2})/sms/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$`)

func mac256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

func hex256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// ServeHTTP checks the TC3-HMAC-SHA256 signature and answers like the API.
func (f *Tencent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	fail := func(code string) {
		json.NewEncoder(w).Encode(map[string]any{"Response": map[string]any{"Error": map[string]string{"Code": code, "Message": "refused"}, "RequestId": "r"}})
	}
	m := credRe.FindStringSubmatch(r.Header.Get("Authorization"))
	ts, err := strconv.ParseInt(r.Header.Get("X-TC-Timestamp"), 10, 64)
	if m == nil || err != nil || r.Header.Get("X-TC-Action") != "SendSms" {
		fail("AuthFailure.InvalidAuthorization")
		return
	}
	secret, known := f.Secrets[m[1]]
	date := time.Unix(ts, 0).UTC().Format("2006-01-02")
	canonical := strings.Join([]string{"POST", "/", "", "content-type:" + r.Header.Get("Content-Type") + "\nhost:" + r.Host + "\n", "content-type;host", hex256(body)}, "\n")
	toSign := strings.Join([]string{"TC3-HMAC-SHA256", strconv.FormatInt(ts, 10), date + "/sms/tc3_request", hex256([]byte(canonical))}, "\n")
	k := mac256([]byte("TC3"+secret), date)
	k = mac256(k, "sms")
	k = mac256(k, "tc3_request")
	if !known || m[2] != date || hex.EncodeToString(mac256(k, toSign)) != m[3] {
		fail("AuthFailure.SignatureFailure")
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fail("InvalidParameter.JsonParseError")
		return
	}
	f.mu.Lock()
	f.got = append(f.got, req)
	f.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"Response": map[string]any{"SendStatusSet": []map[string]string{{"Code": "Ok", "Message": "send success"}}, "RequestId": "r"}})
}
