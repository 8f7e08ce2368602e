// Package outbound guards the connections the server opens to addresses a
// tenant chose: an S3 endpoint of an object-storage configuration, the
// gateway of an SMS configuration. A tenant administrator is not the
// operator of the machine, so such a connection may reach only public
// addresses: not the loopback, the private networks, link-local addresses
// (a cloud's metadata service at 169.254.169.254) and the like, unless the
// operator allows a range (an on-premises MinIO at 10.0.0.5). The address
// is checked when the connection is made, after the name is resolved, so
// a name that resolves differently later (DNS rebinding) is caught too.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrBlocked is the error of a connection to an address the policy refuses.
var ErrBlocked = errors.New("outbound: internal address refused")

// Policy says which internal addresses tenant-chosen connections may reach.
type Policy struct {
	// Allow are the internal ranges allowed all the same.
	Allow []netip.Prefix
}

// ParseAllow reads a comma-separated list of CIDR ranges or addresses.
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("outbound: %q is not an address or a range", f)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("outbound: %q is not an address or a range", f)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// cgnat is the carrier-grade NAT range, internal to a provider's network.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Refused tells whether a tenant-chosen connection may not reach ip.
func (p *Policy) Refused(ip netip.Addr) bool {
	ip = ip.Unmap()
	internal := ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip)
	if !internal {
		return false
	}
	for _, a := range p.Allow {
		if a.Contains(ip) {
			return false
		}
	}
	return true
}

// control is the dialer's check of the address it is about to connect to.
func (p *Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrBlocked, address)
	}
	if p.Refused(ap.Addr()) {
		return fmt.Errorf("%w: %s", ErrBlocked, ap.Addr())
	}
	return nil
}

// Transport is an HTTP transport for tenant-chosen addresses: the default
// one, dialling through the policy and never through a proxy (a proxy
// would make the connection on the policy's behalf, unchecked), and not
// waiting more than 30 s for an answer's headers.
func (p *Policy) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.ResponseHeaderTimeout = 30 * time.Second
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: p.control}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	return t
}

// Lazy is the HTTP client of a service's tenant-chosen addresses, built
// on first use, so that the service's Policy may be set after it is made
// and its connections are reused.
type Lazy struct {
	once   sync.Once
	client *http.Client
}

// Client is the client through p (nil: every internal address refused),
// with timeout (0: none but the transport's).
func (l *Lazy) Client(p *Policy, timeout time.Duration) *http.Client {
	l.once.Do(func() {
		if p == nil {
			p = &Policy{}
		}
		l.client = &http.Client{Timeout: timeout, Transport: p.Transport()}
	})
	return l.client
}
