package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/files"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/sms/smstest"
	"github.com/bluebird/console/internal/platform/storage/s3test"
)

const (
	ossPath    = "/api/blade-resource/oss"
	smsPath    = "/api/blade-resource/sms"
	attachPath = "/api/blade-resource/attach"
)

type ossRow struct {
	ID        string  `json:"id"`
	OssCode   string  `json:"ossCode"`
	IsEnabled int     `json:"isEnabled"`
	SecretKey *string `json:"secretKey"`
	AccessKey string  `json:"accessKey"`
}

type attachRow struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	OriginalName string `json:"originalName"`
	Link         string `json:"link"`
	Extension    string `json:"extension"`
	AttachSize   int64  `json:"attachSize"`
	ContentType  string `json:"contentType"`
	OssID        string `json:"ossId"`
	DomainURL    string `json:"domainUrl"`
}

func download(t *testing.T, h *apptest.H, link string) (int, http.Header, []byte) {
	t.Helper()
	res, err := http.Get(h.Server.URL + link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func enabledCodes(t *testing.T, c *apptest.Client, path string) []string {
	t.Helper()
	var page apptest.Page[map[string]any]
	c.Get(path+"/list", apptest.Q("isEnabled", "1")).OK(t, &page)
	var out []string
	for _, r := range page.Records {
		out = append(out, fmt.Sprint(r["ossCode"], r["smsCode"]))
	}
	return out
}

// TestObjectStorage: per-tenant configurations (one enabled, secrets never
// read back), uploads to the enabled S3 bucket through the S3 protocol,
// registered as attachments, downloaded through signed links, removed with
// their objects.
func TestObjectStorage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		s3 := s3test.New(t, "bluebird", "AKTEST")
		_, a := h.NewTenant("Storage A")
		_, b := h.NewTenant("Storage B")
		super := h.Admin()

		// refusals
		a.PostJSON(ossPath+"/submit", map[string]any{}).Fail(t, 400)
		if msg := a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 2, "bucketName": "bluebird", "accessKey": "AKTEST", "secretKey": "x"}).Fail(t, 400); msg != "请输入资源地址" {
			t.Errorf("S3 without endpoint: %q", msg)
		}
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 2, "endpoint": "ftp://x", "bucketName": "bluebird", "accessKey": "AKTEST", "secretKey": "x"}).Fail(t, 400)
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 2, "endpoint": s3.URL, "bucketName": "Bad_Bucket", "accessKey": "AKTEST", "secretKey": "x"}).Fail(t, 400)
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 2, "endpoint": s3.URL, "bucketName": "bluebird", "accessKey": "AKTEST"}).Fail(t, 400)
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 9}).Fail(t, 400)
		a.Post(ossPath+"/enable", nil).Fail(t, 400)
		a.Post(ossPath+"/enable", apptest.Q("id", "abc")).Fail(t, 400)

		var local, remote ossRow
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "disk", "category": 1}).OK(t, &local)
		a.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "s3", "category": 2, "endpoint": s3.URL, "bucketName": "bluebird",
			"accessKey": "AKTEST", "secretKey": "the-secret", "pathStyle": 1}).OK(t, &remote)
		// the secret is never read back, by the tenant or the super user
		for _, c := range []*apptest.Client{a, super} {
			var row map[string]any
			c.Get(ossPath+"/detail", apptest.Q("id", remote.ID)).OK(t, &row)
			if s, _ := row["secretKey"].(string); s != "" || row["accessKey"] != "AKTEST" {
				t.Fatalf("detail shows the secret: %v", row)
			}
			r := c.Get(ossPath+"/list", nil)
			if bytes.Contains(r.Body, []byte("the-secret")) {
				t.Fatalf("list shows the secret: %s", r.Body)
			}
		}
		// another tenant neither enables nor removes A's configuration
		b.Post(ossPath+"/enable", apptest.Q("id", remote.ID)).Fail(t, 404)
		b.Post(ossPath+"/remove", apptest.Q("ids", remote.ID)).Fail(t, 404)

		// none enabled: the console's disk
		var up files.PutResult
		a.PutFile("", "a.txt", []byte("on disk")).OK(t, &up)
		var page apptest.Page[attachRow]
		a.Get(attachPath+"/list", nil).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0].OssID != "0" {
			t.Fatalf("attachments before enabling: %+v", page.Records)
		}

		// one enabled at a time
		a.Post(ossPath+"/enable", apptest.Q("id", local.ID)).OK(t, nil)
		a.Post(ossPath+"/enable", apptest.Q("id", remote.ID)).OK(t, nil)
		if got := enabledCodes(t, a, ossPath); len(got) != 1 || got[0] != "s3<nil>" {
			t.Fatalf("enabled after switching: %v", got)
		}
		a.Post(ossPath+"/enable", apptest.Q("ids", local.ID+","+remote.ID)).Fail(t, 400)
		// an edit that leaves the secret blank keeps it
		a.Edit(ossPath+"/submit", map[string]any{"id": remote.ID, "region": "us-east-1", "secretKey": ""}).OK(t, nil)
		var stored string
		if err := h.App.DB.NewSelect().Table("blade_oss").Column("secret_key").Where("id = ?", remote.ID).Scan(context.Background(), &stored); err != nil || stored != "the-secret" {
			t.Fatalf("the kept secret is %q (%v)", stored, err)
		}

		// an upload through S3
		content := []byte("hello through the S3 protocol\n")
		a.PutFile("", "report.txt", content).OK(t, &up)
		if !s3.Has("bluebird", up.Name) {
			t.Fatalf("the bucket lacks %s", up.Name)
		}
		a.Get(attachPath+"/list", apptest.Q("originalName", "report")).OK(t, &page)
		if len(page.Records) != 1 {
			t.Fatalf("attach list: %+v", page.Records)
		}
		at := page.Records[0]
		if at.OssID != remote.ID || at.Extension != "txt" || at.AttachSize != int64(len(content)) || at.ContentType != "text/plain; charset=utf-8" ||
			at.DomainURL != s3.URL+"/bluebird" || at.Name != up.Name {
			t.Fatalf("attach row: %+v", at)
		}
		status, hdr, body := download(t, h, at.Link)
		if status != 200 || !bytes.Equal(body, content) || !strings.HasPrefix(hdr.Get("Content-Disposition"), "attachment") ||
			!strings.Contains(hdr.Get("Content-Disposition"), "report.txt") {
			t.Fatalf("download: %d %v %q", status, hdr, body)
		}
		// an image's list link downloads too (the avatar link shows inline)
		png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
		var img files.PutResult
		a.PutFile("", "pic.png", png).OK(t, &img)
		a.Get(attachPath+"/list", apptest.Q("originalName", "pic")).OK(t, &page)
		if _, hdr, _ := download(t, h, page.Records[0].Link); !strings.HasPrefix(hdr.Get("Content-Disposition"), "attachment") {
			t.Fatalf("image download disposition: %v", hdr)
		}
		// B sees none of A's attachments and removes none
		b.Get(attachPath+"/detail", apptest.Q("id", at.ID)).Fail(t, 404)
		b.Post(attachPath+"/remove", apptest.Q("ids", at.ID)).Fail(t, 404)
		b.Post("/api/blade-resource/oss/endpoint/remove-files", apptest.Q("fileNames", up.Name)).Fail(t, 404)
		// removing the attachment removes the object and revokes its links
		a.Post(attachPath+"/remove", apptest.Q("ids", at.ID)).OK(t, nil)
		if s3.Has("bluebird", up.Name) {
			t.Fatal("the object outlived its attachment")
		}
		if status, _, _ := download(t, h, at.Link); status != 404 {
			t.Fatalf("link after removal: %d", status)
		}
		// remove-files by name
		a.Post("/api/blade-resource/oss/endpoint/remove-files", nil).Fail(t, 400)
		a.Post("/api/blade-resource/oss/endpoint/remove-files", apptest.Q("fileNames", img.Name)).OK(t, nil)
		if s3.Has("bluebird", img.Name) {
			t.Fatal("remove-files left the object")
		}
		// files kept on disk before the switch still download
		a.Get(attachPath+"/list", apptest.Q("ossId", "0")).OK(t, &page)
		if status, _, body := download(t, h, page.Records[0].Link); status != 200 || string(body) != "on disk" {
			t.Fatalf("old local file: %d %q", status, body)
		}

		// a wrong key: the bucket refuses, the answer says where to look
		a.Edit(ossPath+"/submit", map[string]any{"id": remote.ID, "accessKey": "WRONG"}).OK(t, nil)
		if msg := a.PutFile("", "x.txt", []byte("x")).Fail(t, 502); !strings.Contains(msg, "存储配置") {
			t.Fatalf("upload with a wrong key: %q", msg)
		}

		// attach/submit registers an outside link; remove has no object to touch
		var ext attachRow
		a.PostJSON(attachPath+"/submit", map[string]any{"originalName": "spec.pdf", "link": "https://files.example.com/docs/spec.pdf"}).OK(t, &ext)
		a.Get(attachPath+"/detail", apptest.Q("id", ext.ID)).OK(t, &ext)
		if ext.OssID != "-1" || ext.Extension != "pdf" || ext.DomainURL != "https://files.example.com" || ext.Link != "https://files.example.com/docs/spec.pdf" {
			t.Fatalf("registered link: %+v", ext)
		}
		a.PostJSON(attachPath+"/submit", map[string]any{}).Fail(t, 400)
		a.PostJSON(attachPath+"/submit", map[string]any{"originalName": "x", "link": "not a url"}).Fail(t, 400)
		a.Post(attachPath+"/remove", apptest.Q("ids", ext.ID)).OK(t, nil)

		// removing the enabled configuration: uploads go back to the disk
		a.Post(ossPath+"/remove", apptest.Q("ids", remote.ID)).OK(t, nil)
		a.Post(ossPath+"/remove", apptest.Q("ids", local.ID)).OK(t, nil)
		a.PutFile("", "b.txt", []byte("back on disk")).OK(t, &up)
		a.Get(attachPath+"/list", apptest.Q("originalName", "b.txt")).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0].OssID != "0" {
			t.Fatalf("after removing the configuration: %+v", page.Records)
		}
	})
}

// TestSMSConfigurations: per-tenant providers with real signatures checked
// by local fakes, send-message, the login code through the enabled
// configuration, and the shared rate limit.
func TestSMSConfigurations(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		aliyun := &smstest.Aliyun{Secrets: map[string]string{"LTAI-ok": "aliyun-secret"}}
		tencent := &smstest.Tencent{Secrets: map[string]string{"AKID-ok": "tencent-secret"}}
		ali, tc := httptestServer(t, aliyun), httptestServer(t, tencent)
		_, a := h.NewTenant("SMS A")
		_, b := h.NewTenant("SMS B")
		super := h.Admin()

		a.PostJSON(smsPath+"/submit", map[string]any{}).Fail(t, 400)
		var yunpian map[string]any
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "yp", "category": 1}).OK(t, &yunpian)
		if msg := a.Post(smsPath+"/enable", apptest.Q("id", yunpian["id"].(string))).Fail(t, 400); !strings.Contains(msg, "暂不支持") {
			t.Errorf("enabling an unsupported provider: %q", msg)
		}
		if msg := a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "ali", "category": 3, "accessKey": "k", "secretKey": "s", "signName": "x"}).Fail(t, 400); msg != "请输入模版ID" {
			t.Errorf("aliyun without template: %q", msg)
		}
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "tc", "category": 4, "templateId": "1", "accessKey": "k", "secretKey": "s", "signName": "x"}).Fail(t, 400)
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "ali", "category": 3, "templateId": "SMS_1", "accessKey": "k", "secretKey": "s", "signName": "x", "endpoint": "nope"}).Fail(t, 400)

		// nothing enabled: send-message says so
		if msg := a.Post(smsPath+"/endpoint/send-message", apptest.Q("phones", "13800000001", "code", "SMS_9")).Fail(t, 400); msg != "请先启用一个短信配置" {
			t.Errorf("without a configuration: %q", msg)
		}
		var ar, tr map[string]any
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "ali", "category": 3, "templateId": "SMS_1", "accessKey": "LTAI-ok",
			"secretKey": "aliyun-secret", "signName": "蓝鸟", "endpoint": ali}).OK(t, &ar)
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "tc", "category": 4, "templateId": "100", "accessKey": "AKID-ok",
			"secretKey": "wrong-secret", "signName": "蓝鸟", "appId": "1400", "endpoint": tc}).OK(t, &tr)
		for _, c := range []*apptest.Client{a, super} {
			if r := c.Get(smsPath+"/list", nil); bytes.Contains(r.Body, []byte("aliyun-secret")) || bytes.Contains(r.Body, []byte("wrong-secret")) {
				t.Fatalf("list shows a secret: %s", r.Body)
			}
		}
		b.Post(smsPath+"/enable", apptest.Q("id", ar["id"].(string))).Fail(t, 404)
		b.Post(smsPath+"/remove", apptest.Q("ids", ar["id"].(string))).Fail(t, 404)
		a.Post(smsPath+"/enable", apptest.Q("id", ar["id"].(string))).OK(t, nil)

		// malformed send-message requests
		send := smsPath + "/endpoint/send-message"
		a.Post(send, nil).Fail(t, 400)
		a.Post(send, apptest.Q("phones", "12ab")).Fail(t, 400)
		a.Post(send, apptest.Q("phones", "13800000001", "params", "{")).Fail(t, 400)
		a.Post(send, apptest.Q("phones", "13800000001", "params", `{"a":{"b":1}}`)).Fail(t, 400)
		a.Post(send, apptest.Q("phones", strings.Repeat("13800000001,", 2)+strings.Repeat("1", 70))).Fail(t, 400)

		// sent and signed
		var res struct{ Sent int }
		a.Post(send, apptest.Q("code", "SMS_9", "phones", "13800000001, 13800000002", "params", `{"code":"1234"}`)).OK(t, &res)
		got := aliyun.Got()
		if res.Sent != 2 || len(got) != 2 || got[0].Get("TemplateCode") != "SMS_9" || got[1].Get("PhoneNumbers") != "13800000002" ||
			got[0].Get("TemplateParam") != `{"code":"1234"}` || got[0].Get("SignName") != "蓝鸟" {
			t.Fatalf("sent %d, fake got %v", res.Sent, got)
		}
		// one message per phone per minute
		a.Lang = "en"
		if msg := a.Post(send, apptest.Q("phones", "13800000001")).Fail(t, 429); !strings.Contains(msg, "a moment ago") {
			t.Errorf("second message to a phone: %q", msg)
		}
		a.Lang = ""

		// the Tencent configuration signs with a wrong secret: the fake refuses it
		a.Post(smsPath+"/enable", apptest.Q("id", tr["id"].(string))).OK(t, nil)
		if got := enabledCodes(t, a, smsPath); len(got) != 1 || got[0] != "<nil>tc" {
			t.Fatalf("enabled: %v", got)
		}
		if msg := a.Post(send, apptest.Q("phones", "13800000003")).Fail(t, 502); !strings.Contains(msg, "AuthFailure.SignatureFailure") {
			t.Fatalf("wrong secret: %q", msg)
		}
		// the failed send gave its marks back; with the right secret it goes out
		a.Edit(smsPath+"/submit", map[string]any{"id": tr["id"], "secretKey": "tencent-secret"}).OK(t, nil)
		a.Post(send, apptest.Q("phones", "13800000003", "params", `["8888","5"]`)).OK(t, nil)
		if g := tencent.Got(); len(g) != 1 || fmt.Sprint(g[0]["TemplateParamSet"]) != "[8888 5]" || g[0]["TemplateId"] != "100" {
			t.Fatalf("tencent got %v", g)
		}

		// the per-address limit: SMSPerIP sends a minute, whatever the phones
		for i := 2; i < auth.SMSPerIP; i++ { // two requests went out so far (the refused ones gave their slot back)
			a.Post(send, apptest.Q("phones", fmt.Sprintf("139000000%02d", i))).OK(t, nil)
		}
		if msg := a.Post(send, apptest.Q("phones", "13700000000")).Fail(t, 429); !strings.Contains(msg, "网络地址") {
			t.Errorf("over the address limit: %q", msg)
		}
	})
}

// TestLoginCodeThroughTenantSMS: a tenant's phone login codes go through its
// enabled configuration, signed; the code the provider got logs in.
func TestLoginCodeThroughTenantSMS(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		aliyun := &smstest.Aliyun{Secrets: map[string]string{"LTAI-ok": "aliyun-secret"}}
		endpoint := httptestServer(t, aliyun)
		tenantID, a := h.NewTenant("SMS login")
		var cfg map[string]any
		a.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "ali", "category": 3, "templateId": "SMS_LOGIN", "accessKey": "LTAI-ok",
			"secretKey": "aliyun-secret", "signName": "蓝鸟", "endpoint": endpoint}).OK(t, &cfg)
		a.Post(smsPath+"/enable", apptest.Q("id", cfg["id"].(string))).OK(t, nil)
		var roles []map[string]any
		a.Get("/api/blade-system/role/list", nil).OK(t, &roles)
		a.PostJSON("/api/blade-user/submit", map[string]any{"account": "mobile", "name": "m", "realName": "m", "password": "pw123456",
			"phone": "13812345678", "roleId": roles[0]["id"], "deptId": a.Login["dept_id"]}).OK(t, nil)

		anon := h.Anon()
		anon.Post("/api/blade-auth/oauth/sms/send", apptest.Q("tenantId", tenantID, "phone", "13812345678")).OK(t, nil)
		got := aliyun.Got()
		if len(got) != 1 || got[0].Get("TemplateCode") != "SMS_LOGIN" || got[0].Get("PhoneNumbers") != "13812345678" {
			t.Fatalf("the provider got %v", got)
		}
		var params map[string]string
		json.Unmarshal([]byte(got[0].Get("TemplateParam")), &params)
		q := url.Values{"grant_type": {"password"}, "type": {"phone"}, "phone": {"13812345678"}, "code": {params["code"]}, "tenantId": {tenantID}, "scope": {"all"}}
		r := anon.Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Tenant-Id": tenantID})
		if r.Status != 200 || !bytes.Contains(r.Body, []byte("access_token")) {
			t.Fatalf("login with the sent code: %d %s", r.Status, r.Body)
		}
	})
}

func httptestServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Tenants' S3 and SMS endpoints may not reach internal addresses unless
// the operator allowed them (config OutboundAllow; the tests allow the
// loopback, where the fakes listen): without the allowance a tenant's
// upload and message are refused with what to do, and nothing reaches the
// fakes; the platform tenant's configurations, the operator's own, reach
// them all the same.
func TestTenantEndpointsStayOutside(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		h.App.Files.Outbound = &outbound.Policy{} // before the first tenant upload builds the transport
		h.App.SMS.Outbound = &outbound.Policy{}
		s3 := s3test.New(t, "bluebird", "AKTEST")
		aliyun := &smstest.Aliyun{Secrets: map[string]string{"LTAI-ok": "aliyun-secret"}}
		ali := httptestServer(t, aliyun)
		_, a := h.NewTenant("Inside Co")
		super := h.Admin()
		for _, c := range []*apptest.Client{a, super} {
			var oss, smsRow map[string]any
			c.PostJSON(ossPath+"/submit", map[string]any{"ossCode": "inside", "category": 2, "endpoint": s3.URL, "bucketName": "bluebird",
				"accessKey": "AKTEST", "secretKey": "the-secret", "pathStyle": 1}).OK(t, &oss)
			c.Post(ossPath+"/enable", apptest.Q("id", oss["id"].(string))).OK(t, nil)
			c.PostJSON(smsPath+"/submit", map[string]any{"smsCode": "inside", "category": 3, "templateId": "SMS_1", "accessKey": "LTAI-ok",
				"secretKey": "aliyun-secret", "signName": "蓝鸟", "endpoint": ali}).OK(t, &smsRow)
			c.Post(smsPath+"/enable", apptest.Q("id", smsRow["id"].(string))).OK(t, nil)
		}
		if msg := a.PutFile("", "a.txt", []byte("inside")).Fail(t, 502); !strings.Contains(msg, "内部网络地址") {
			t.Errorf("tenant upload to a loopback endpoint: %q", msg)
		}
		if msg := a.Post(smsPath+"/endpoint/send-message", apptest.Q("phones", "13800000001", "code", "SMS_9")).Fail(t, 502); !strings.Contains(msg, "内部网络地址") {
			t.Errorf("tenant message through a loopback gateway: %q", msg)
		}
		if n := len(aliyun.Got()); n != 0 {
			t.Fatalf("the gateway got %d requests from the tenant", n)
		}
		super.PutFile("", "a.txt", []byte("platform")).OK(t, nil)
		super.Post(smsPath+"/endpoint/send-message", apptest.Q("phones", "13800000002", "code", "SMS_9")).OK(t, nil)
		if n := len(aliyun.Got()); n != 1 {
			t.Fatalf("the platform's message: the gateway got %d requests", n)
		}
	})
}
