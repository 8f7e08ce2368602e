package sms

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Gateway is what a real provider needs: the account's keys, the signature
// name printed on every message, and where to send. Endpoint defaults to the
// provider's public API; tests and private deployments point it elsewhere.
type Gateway struct {
	Endpoint  string // a URL: https://dysmsapi.aliyuncs.com
	AccessKey string // Aliyun AccessKeyId, Tencent SecretId
	SecretKey string // Aliyun AccessKeySecret, Tencent SecretKey
	Region    string // Aliyun RegionId (cn-hangzhou), Tencent region (ap-guangzhou)
	SignName  string
	AppID     string // Tencent SmsSdkAppId; unused by Aliyun
	// Client sends the requests; nil uses a client with a 10 s timeout.
	Client *http.Client
	// Now is the clock of the signatures; nil is time.Now.
	Now func() time.Time
}

// ProviderError is a refusal from the provider, with its own code and
// message (a bad signature, an unknown template, a blocked number...).
type ProviderError struct {
	Provider, Code, Message string
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("sms %s: %s %s", e.Provider, e.Code, e.Message)
}

var defaultClient = &http.Client{Timeout: 10 * time.Second}

func (g *Gateway) client() *http.Client {
	if g.Client != nil {
		return g.Client
	}
	return defaultClient
}

func (g *Gateway) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

func (g *Gateway) endpoint(def string) (*url.URL, error) {
	e := g.Endpoint
	if e == "" {
		e = def
	}
	u, err := url.Parse(e)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("sms: endpoint %q is not an http(s) URL", e)
	}
	return u, nil
}

// do sends req and decodes a JSON answer of at most 1 MiB into out.
func (g *Gateway) do(req *http.Request, out any) error {
	resp, err := g.client().Do(req)
	if err != nil {
		return fmt.Errorf("sms: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("sms: %w", err)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("sms: answer %d is not JSON: %.200s", resp.StatusCode, body)
	}
	return nil
}

// Send checks what every provider needs before a request is made.
func (g *Gateway) check(ctx context.Context, phone, template string) error {
	if g.AccessKey == "" || g.SecretKey == "" {
		return &ProviderError{Code: "NoKey", Message: "the access key or secret is not set"}
	}
	if phone == "" || template == "" {
		return &ProviderError{Code: "NoTemplate", Message: "no phone or template"}
	}
	return ctx.Err()
}
