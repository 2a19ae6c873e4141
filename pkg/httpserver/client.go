package httpserver

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr is the address a request comes from, for what is bounded per
// address: token checks the forge rejects, and the per-user limits of a
// token whose user the forge does not name (see Identity.Caller). It is
// the connection's peer, unless the peer is one of trusted, the reverse
// proxies the operator named (--http-trusted-proxies): then it is the
// address the proxies forwarded in X-Forwarded-For, read from the right
// (what the nearest proxy appended) past every trusted hop. Entries left
// of the first untrusted one were written by the client and are never
// read, so a client cannot choose its address. An IPv6 address counts by
// its /64, since one host usually has a whole /64 to pick from.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr := peer.Unmap()
	if isTrusted(addr, trusted) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.Trim(strings.TrimSpace(hops[i]), "[]"))
			if err != nil {
				break // not an address a proxy wrote: keep the last hop
			}
			addr = hop.Unmap()
			if !isTrusted(addr, trusted) {
				break
			}
		}
	}
	if addr.Is4() {
		return addr.String()
	}
	p, _ := addr.Prefix(64)
	return p.String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads a list of addresses and CIDR prefixes
// (127.0.0.1, 10.0.0.0/8, ::1).
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, err
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
