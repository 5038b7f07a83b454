package outbound

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// Refused is the error for a request the client will not send: a URL with
// a scheme other than http(s) or with userinfo, or an address that is not
// public and not allowed by Config.Allow.
type Refused struct {
	// URL is the request's URL (userinfo removed), when known.
	URL string
	// Addr is the refused address ("10.0.0.7:80"), empty for a refused URL.
	Addr string
	// Rule is why: "scheme", "userinfo", "host", or the address rule
	// Classify returned ("loopback", "private", "ipv4-mapped:loopback"...).
	Rule string
}

func (e *Refused) Error() string {
	var b strings.Builder
	b.WriteString("outbound: refused")
	if e.URL != "" {
		fmt.Fprintf(&b, " %s", e.URL)
	}
	if e.Addr != "" {
		fmt.Fprintf(&b, " (address %s)", e.Addr)
	}
	fmt.Fprintf(&b, ": %s", e.Rule)
	return b.String()
}

// Allow opens addresses the client refuses by default. It is for tests
// (httptest servers listen on loopback) and for operators whose targets sit
// on a private network.
type Allow struct {
	// Private allows every address rule: loopback, private, link-local and
	// the rest. URL rules (scheme, userinfo) still apply.
	Private bool
	// Hosts are the exceptions, each one of:
	//   - a CIDR prefix, "10.20.0.0/16": any address in it, any port;
	//   - an address, "127.0.0.1" or "::1": that address, any port;
	//   - an address and port, "127.0.0.1:8080" or "[::1]:8080";
	//   - a host name, "hooks.internal", or name and port,
	//     "hooks.internal:8443": whatever that name (as written in the URL)
	//     resolves to.
	Hosts []string
}

type allowEntry struct {
	prefix netip.Prefix // valid for address and prefix entries
	host   string       // lower case, for name entries
	port   string       // "" = any
}

func parseAllow(hosts []string) []allowEntry {
	var out []allowEntry
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if p, err := netip.ParsePrefix(h); err == nil {
			out = append(out, allowEntry{prefix: p.Masked()})
			continue
		}
		if a, err := netip.ParseAddr(h); err == nil {
			out = append(out, allowEntry{prefix: netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())})
			continue
		}
		e := allowEntry{host: h}
		if host, port, err := net.SplitHostPort(h); err == nil {
			e.host, e.port = host, port
		}
		if a, err := netip.ParseAddr(e.host); err == nil {
			e.prefix, e.host = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), ""
		}
		e.host = strings.ToLower(strings.TrimSuffix(e.host, "."))
		out = append(out, e)
	}
	return out
}

// allows reports whether the entry lets host (as written in the URL),
// resolved to ip, be dialled on port.
func (e allowEntry) allows(host string, ip netip.Addr, port string) bool {
	if e.port != "" && e.port != port {
		return false
	}
	if e.prefix.IsValid() {
		return e.prefix.Contains(ip.Unmap())
	}
	return e.host != "" && strings.EqualFold(strings.TrimSuffix(host, "."), e.host)
}

type rule struct {
	prefix netip.Prefix
	name   string
}

func rules(kv ...string) []rule {
	out := make([]rule, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		out = append(out, rule{netip.MustParsePrefix(kv[i]), kv[i+1]})
	}
	return out
}

// The tables are read only; the first matching prefix names the rule.
var (
	v4Rules = rules(
		"255.255.255.255/32", "broadcast",
		"0.0.0.0/32", "unspecified",
		"0.0.0.0/8", "this-network",
		"10.0.0.0/8", "private",
		"100.64.0.0/10", "cgnat",
		"127.0.0.0/8", "loopback",
		"169.254.0.0/16", "link-local", // 169.254.169.254: cloud metadata
		"172.16.0.0/12", "private",
		"192.0.0.0/24", "reserved", // IETF protocol assignments
		"192.0.2.0/24", "documentation",
		"192.88.99.0/24", "reserved", // deprecated 6to4 relay anycast
		"192.168.0.0/16", "private",
		"198.18.0.0/15", "benchmark",
		"198.51.100.0/24", "documentation",
		"203.0.113.0/24", "documentation",
		"224.0.0.0/4", "multicast",
		"240.0.0.0/4", "reserved",
	)
	v6Rules = rules(
		"::/128", "unspecified",
		"::1/128", "loopback",
		"::ffff:0:0:0/96", "reserved", // IPv4-translated (SIIT)
		"::/96", "reserved", // IPv4-compatible, deprecated
		"64:ff9b:1::/48", "nat64-local",
		"100::/64", "reserved", // discard only
		"2001::/32", "teredo",
		"2001:2::/48", "benchmark",
		"2001:10::/28", "reserved", // ORCHID
		"2001:20::/28", "reserved", // ORCHIDv2
		"2001:db8::/32", "documentation",
		"3fff::/20", "documentation",
		"5f00::/16", "reserved", // SRv6 SIDs
		"fc00::/7", "private", // unique local
		"fe80::/10", "link-local",
		"fec0::/10", "private", // site local, deprecated
		"ff00::/8", "multicast",
	)
	nat64WKP  = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
	global6   = netip.MustParsePrefix("2000::/3")
)

// Classify returns the rule that makes ip unfit to dial from the platform,
// or "" when it is a public unicast address. IPv6 forms that embed an IPv4
// address are judged by it: "ipv4-mapped:loopback", "nat64:private",
// "6to4:link-local".
func Classify(ip netip.Addr) string {
	ip = ip.WithZone("")
	if !ip.IsValid() {
		return "invalid"
	}
	if ip.Is4() {
		return classify4(ip)
	}
	if ip.Is4In6() {
		if r := classify4(ip.Unmap()); r != "" {
			return "ipv4-mapped:" + r
		}
		return ""
	}
	if nat64WKP.Contains(ip) {
		b := ip.As16()
		if r := classify4(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})); r != "" {
			return "nat64:" + r
		}
		return ""
	}
	for _, r := range v6Rules {
		if r.prefix.Contains(ip) {
			return r.name
		}
	}
	if sixToFour.Contains(ip) {
		b := ip.As16()
		if r := classify4(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})); r != "" {
			return "6to4:" + r
		}
		return ""
	}
	if !global6.Contains(ip) {
		return "reserved"
	}
	return ""
}

func classify4(ip netip.Addr) string {
	for _, r := range v4Rules {
		if r.prefix.Contains(ip) {
			return r.name
		}
	}
	return ""
}

// checkURL applies the URL rules: http or https, a host, no userinfo.
func checkURL(u *url.URL) error {
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return &Refused{URL: redact(u), Rule: "scheme"}
	case u.User != nil:
		return &Refused{URL: redact(u), Rule: "userinfo"}
	case u.Hostname() == "":
		return &Refused{URL: redact(u), Rule: "host"}
	}
	return nil
}

// redact is u without userinfo and query, safe to log.
func redact(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery, c.Fragment, c.RawFragment = "", false, "", ""
	return c.String()
}
