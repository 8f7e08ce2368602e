package sms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/bluebird/console/internal/platform/sms"
	"github.com/bluebird/console/internal/platform/sms/smstest"
)

func TestAliyunSignsAndSends(t *testing.T) {
	fake := &smstest.Aliyun{Secrets: map[string]string{"LTAI-test": "s3cr3t/with+chars="}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ctx := context.Background()
	good := &sms.Aliyun{Gateway: sms.Gateway{Endpoint: srv.URL, AccessKey: "LTAI-test", SecretKey: "s3cr3t/with+chars=", SignName: "蓝鸟 Console*"}}
	if err := good.Send(ctx, "13800138000", "SMS_123", map[string]string{"code": "123 456~*"}); err != nil {
		t.Fatalf("send: %v", err)
	}
	q := fake.Got()[0]
	if q.Get("PhoneNumbers") != "13800138000" || q.Get("TemplateCode") != "SMS_123" || q.Get("SignName") != "蓝鸟 Console*" ||
		q.Get("TemplateParam") != `{"code":"123 456~*"}` || q.Get("Action") != "SendSms" || q.Get("Version") != "2017-05-25" {
		t.Fatalf("request: %v", q)
	}
	wrong := &sms.Aliyun{Gateway: sms.Gateway{Endpoint: srv.URL, AccessKey: "LTAI-test", SecretKey: "not-the-secret", SignName: "x"}}
	var pe *sms.ProviderError
	if err := wrong.Send(ctx, "13800138000", "SMS_123", nil); !errors.As(err, &pe) || pe.Code != "SignatureDoesNotMatch" {
		t.Fatalf("a wrong secret: %v", err)
	}
	if len(fake.Got()) != 1 {
		t.Fatalf("the fake accepted %d requests", len(fake.Got()))
	}
}

func TestTencentSignsAndSends(t *testing.T) {
	fake := &smstest.Tencent{Secrets: map[string]string{"AKID-test": "tencent-secret"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	ctx := context.Background()
	good := &sms.Tencent{Gateway: sms.Gateway{Endpoint: srv.URL, AccessKey: "AKID-test", SecretKey: "tencent-secret", SignName: "蓝鸟", AppID: "1400000000"}}
	if err := good.Send(ctx, "13800138000", "1234567", map[string]string{"minutes": "5", "code": "654321"}); err != nil {
		t.Fatalf("send: %v", err)
	}
	got, _ := json.Marshal(fake.Got()[0])
	if want := `{"PhoneNumberSet":["+8613800138000"],"SignName":"蓝鸟","SmsSdkAppId":"1400000000","TemplateId":"1234567","TemplateParamSet":["654321","5"]}`; string(got) != want {
		t.Fatalf("request %s, want %s", got, want)
	}
	wrong := &sms.Tencent{Gateway: sms.Gateway{Endpoint: srv.URL, AccessKey: "AKID-test", SecretKey: "wrong", SignName: "x", AppID: "1"}}
	var pe *sms.ProviderError
	if err := wrong.Send(ctx, "13800138000", "1", nil); !errors.As(err, &pe) || pe.Code != "AuthFailure.SignatureFailure" {
		t.Fatalf("a wrong secret: %v", err)
	}
	if len(fake.Got()) != 1 {
		t.Fatalf("the fake accepted %d requests", len(fake.Got()))
	}
}

func TestProviderRefusesWithoutKeysOrEndpoint(t *testing.T) {
	ctx := context.Background()
	if err := (&sms.Aliyun{}).Send(ctx, "13800138000", "SMS_1", nil); err == nil {
		t.Fatal("sent without keys")
	}
	bad := &sms.Tencent{Gateway: sms.Gateway{Endpoint: "ftp://x", AccessKey: "a", SecretKey: "b"}}
	if err := bad.Send(ctx, "13800138000", "1", nil); err == nil {
		t.Fatal("sent to an ftp endpoint")
	}
}
