package outbound

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestRefused(t *testing.T) {
	allow, err := ParseAllow(" 10.0.0.5, 192.168.7.0/24 ,")
	if err != nil || len(allow) != 2 {
		t.Fatalf("ParseAllow: %v %v", allow, err)
	}
	p := &Policy{Allow: allow}
	for addr, refused := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "172.16.0.9": true, "192.168.1.1": true,
		"169.254.169.254": true, "fe80::1": true, "0.0.0.0": true, "::": true, "100.64.0.1": true, "fd00::1": true,
		"::ffff:127.0.0.1": true, "224.0.0.1": true,
		"10.0.0.5": false, "192.168.7.20": false, // allowed by the operator
		"8.8.8.8": false, "203.0.113.9": false, "2606:4700::1111": false,
	} {
		if got := p.Refused(netip.MustParseAddr(addr)); got != refused {
			t.Errorf("%s: refused %v, want %v", addr, got, refused)
		}
	}
	for _, bad := range []string{"x", "10.0.0.0/99", "300.1.1.1"} {
		if _, err := ParseAllow(bad); err == nil {
			t.Errorf("ParseAllow(%q) accepted", bad)
		}
	}
}

// The transport refuses a connection to the loopback, where the test server
// is, unless the range is allowed.
func TestTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	_, err := (&http.Client{Transport: (&Policy{}).Transport()}).Get(srv.URL)
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("loopback reached without an allowance: %v", err)
	}
	res, err := (&http.Client{Transport: (&Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}).Transport()}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
}
