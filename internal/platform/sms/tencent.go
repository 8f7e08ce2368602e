package sms

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Tencent sends through Tencent Cloud SMS (API version 2021-01-11), signed
// with TC3-HMAC-SHA256.
type Tencent struct{ Gateway }

// TencentEndpoint is the public API.
const TencentEndpoint = "https://sms.tencentcloudapi.com/"

var _ Provider = (*Tencent)(nil)

// Send sends one templated message. Tencent templates take positional
// parameters ({1}, {2}...): params keyed "1", "2"... go in that order, other
// keys in alphabetical order (the login code sends code, then minutes).
func (t *Tencent) Send(ctx context.Context, phone, template string, params map[string]string) error {
	if err := t.check(ctx, phone, template); err != nil {
		return err
	}
	u, err := t.endpoint(TencentEndpoint)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(phone, "+") {
		phone = "+86" + phone // mainland numbers; the API wants E.164
	}
	payload, _ := json.Marshal(map[string]any{
		"PhoneNumberSet": []string{phone}, "SmsSdkAppId": t.AppID, "SignName": t.SignName,
		"TemplateId": template, "TemplateParamSet": orderedParams(params),
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(payload))
	if err != nil {
		return err
	}
	region := t.Region
	if region == "" {
		region = "ap-guangzhou"
	}
	ts := t.now().Unix()
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("X-TC-Action", "SendSms")
	req.Header.Set("X-TC-Version", "2021-01-11")
	req.Header.Set("X-TC-Region", region)
	req.Header.Set("X-TC-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("Authorization", TencentAuthorization(t.AccessKey, t.SecretKey, "sms", u.Host, payload, ts))
	var out struct {
		Response struct {
			Error         *struct{ Code, Message string }
			SendStatusSet []struct {
				Code, Message string
			}
		}
	}
	if err := t.do(req, &out); err != nil {
		return err
	}
	if e := out.Response.Error; e != nil {
		return &ProviderError{Provider: "tencent", Code: e.Code, Message: e.Message}
	}
	for _, s := range out.Response.SendStatusSet {
		if s.Code != "Ok" {
			return &ProviderError{Provider: "tencent", Code: s.Code, Message: s.Message}
		}
	}
	return nil
}

// TencentAuthorization is the TC3-HMAC-SHA256 Authorization header of a
// JSON POST to / of host, signing content-type and host.
func TencentAuthorization(secretID, secretKey, service, host string, payload []byte, ts int64) string {
	date := timeUTC(ts)
	canonical := "POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:" + host + "\n\ncontent-type;host\n" + sha256Hex(payload)
	scope := date + "/" + service + "/tc3_request"
	toSign := "TC3-HMAC-SHA256\n" + strconv.FormatInt(ts, 10) + "\n" + scope + "\n" + sha256Hex([]byte(canonical))
	key := hmacSHA256([]byte("TC3"+secretKey), date)
	key = hmacSHA256(key, service)
	key = hmacSHA256(key, "tc3_request")
	sig := hex.EncodeToString(hmacSHA256(key, toSign))
	return "TC3-HMAC-SHA256 Credential=" + secretID + "/" + scope + ", SignedHeaders=content-type;host, Signature=" + sig
}

func orderedParams(params map[string]string) []string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, errA := strconv.Atoi(keys[i])
		b, errB := strconv.Atoi(keys[j])
		switch {
		case errA == nil && errB == nil:
			return a < b
		case errA == nil || errB == nil:
			return errA == nil // numbered first
		}
		return keys[i] < keys[j]
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = params[k]
	}
	return out
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func hmacSHA256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

func timeUTC(ts int64) string { return time.Unix(ts, 0).UTC().Format("2006-01-02") }
