package enrich

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"sync"

	"github.com/miekg/dns"
	"golang.org/x/net/publicsuffix"
)

// maxHops bounds a CNAME chain: real ones are two or three long, and a
// loop must not spin.
const maxHops = 8

// lookup is what one question came to.
type lookup struct {
	qtype uint16
	name  string
	chain []string // CNAME targets followed, in order
	rrs   []dns.RR // records of qtype at the end of the chain
	rcode int
	err   error // the resolver could not be asked or did not answer
}

// answered reports whether the resolver gave a usable answer (records or
// a clean "none").
func (l lookup) answered() bool { return l.err == nil && l.rcode == dns.RcodeSuccess }

func (l lookup) question() string { return dns.TypeToString[l.qtype] + " " + l.name }

// resolve asks for name's qtype records and follows CNAMEs. A recursive
// resolver usually returns the whole chain in one answer; when it returns
// only the alias, the target is asked for next.
func (e *Enricher) resolve(ctx context.Context, name string, qtype uint16) lookup {
	l := lookup{qtype: qtype, name: name}
	cur := name
	for {
		resp, err := e.exchange(ctx, cur, qtype)
		if err != nil {
			l.err = err
			return l
		}
		l.rcode = resp.Rcode
		if resp.Rcode != dns.RcodeSuccess {
			return l
		}
		next := cur
		for {
			for _, rr := range resp.Answer {
				if rr.Header().Rrtype == qtype && sameName(rr.Header().Name, next) {
					l.rrs = append(l.rrs, rr)
				}
			}
			if len(l.rrs) > 0 {
				return l
			}
			target := cnameOf(resp.Answer, next)
			if target == "" {
				break
			}
			if len(l.chain) == maxHops {
				l.err = fmt.Errorf("CNAME chain longer than %d hops", maxHops)
				return l
			}
			l.chain = append(l.chain, target)
			next = target
		}
		if next == cur {
			return l // no records of this type (NODATA)
		}
		cur = next
	}
}

func cnameOf(rrs []dns.RR, name string) string {
	for _, rr := range rrs {
		if c, ok := rr.(*dns.CNAME); ok && sameName(c.Hdr.Name, name) {
			return strings.ToLower(strings.TrimSuffix(c.Target, "."))
		}
	}
	return ""
}

func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

// exchange asks the resolver once over UDP with EDNS0, and again over TCP
// when the answer was truncated, within one timeout.
func (e *Enricher) exchange(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.SetEdns0(1232, false)
	c := &dns.Client{Net: "udp", Timeout: e.timeout}
	r, _, err := c.ExchangeContext(ctx, m, e.resolver)
	if err == nil && r.Truncated {
		c.Net = "tcp"
		r, _, err = c.ExchangeContext(ctx, m, e.resolver)
	}
	return r, err
}

// A finding is one match of a record against ranges or a pattern.
type finding struct {
	tier     int // tierCNAME, tierRange or tierNS: lower wins
	provider string
	ev       Evidence
}

// The decision, in order: a CNAME target pattern names the service the
// site is deployed on; an address inside a provider's published range is
// where traffic lands; both are hosting evidence and beat the name servers,
// which only say who runs the zone. CNAME beats the address because a
// service can run on another's network (a Vercel alias may resolve into
// AWS space), and the alias names the service chosen. Within one tier, the
// provider with the most matching records wins, ties going to the first
// seen. Nothing matched but every lookup answered: "other". NXDOMAIN, a
// failed lookup, no resolver or no ranges to compare addresses with: unknown.
const (
	tierCNAME = iota
	tierRange
	tierNS
)

// infrastructure looks name up and decides what it runs on.
func (e *Enricher) infrastructure(ctx context.Context, name string) (string, []Evidence) {
	if e.resolver == "" {
		return Unknown, []Evidence{dnsEvidence("", "", "no DNS resolver configured; nothing was looked up")}
	}
	zone, _ := publicsuffix.EffectiveTLDPlusOne(name) // normalize checked it
	var a, aaaa, ns lookup
	var wg sync.WaitGroup
	wg.Go(func() { a = e.resolve(ctx, name, dns.TypeA) })
	wg.Go(func() { aaaa = e.resolve(ctx, name, dns.TypeAAAA) })
	wg.Go(func() { ns = e.resolve(ctx, zone, dns.TypeNS) })
	wg.Wait()

	var evs []Evidence
	for _, l := range []lookup{a, aaaa, ns} {
		evs = append(evs, e.describe(l))
	}
	if a.rcode == dns.RcodeNameError || aaaa.rcode == dns.RcodeNameError || ns.rcode == dns.RcodeNameError {
		return Unknown, append(evs, dnsEvidence("", "", "domain does not resolve"))
	}

	fs := e.match(a, aaaa, ns)
	if len(fs) > 0 {
		provider := decide(fs)
		for _, f := range fs {
			if f.provider != provider {
				f.ev.Detail += "; outweighed: infrastructure is " + provider
			}
			evs = append(evs, f.ev)
		}
		return provider, evs
	}

	var failed []string
	for _, l := range []lookup{a, aaaa, ns} {
		if !l.answered() {
			failed = append(failed, l.question())
		}
	}
	addrs := len(a.rrs) + len(aaaa.rrs)
	switch {
	case len(failed) > 0:
		return Unknown, append(evs, dnsEvidence("", "",
			"no known provider matched, but "+strings.Join(failed, ", ")+" could not be looked up, so none can be ruled out"))
	case addrs == 0 && len(a.chain)+len(aaaa.chain)+len(ns.rrs) == 0:
		return Unknown, append(evs, dnsEvidence("", "", "the domain has no A, AAAA, CNAME or NS records"))
	case addrs > 0 && e.ranges.Len() == 0:
		return Unknown, append(evs, dnsEvidence("", "",
			"no provider ranges imported, so the addresses could not be matched; no CNAME or name-server pattern matched"))
	}
	return Other, append(evs, dnsEvidence("", "", fmt.Sprintf(
		"resolved, but no address is in the %d imported provider prefixes and no CNAME target or name server matches a known pattern",
		e.ranges.Len())))
}

// match checks CNAME targets, addresses and name servers.
func (e *Enricher) match(a, aaaa, ns lookup) []finding {
	var fs []finding
	seen := map[string]bool{}
	for _, l := range []lookup{a, aaaa} {
		for _, t := range l.chain {
			if seen[t] {
				continue
			}
			seen[t] = true
			if p, ok := MatchCNAME(t); ok {
				fs = append(fs, finding{tierCNAME, p.Provider, Evidence{Field: "infrastructure", Source: "pattern",
					Query: l.question(), Answer: "CNAME " + t,
					Detail: fmt.Sprintf("CNAME target %s matches %s (%s): %s", t, p.Glob, p.Detail, p.Provider)}})
			}
		}
	}
	for _, l := range []lookup{a, aaaa} {
		for _, rr := range l.rrs {
			addr, ok := rrAddr(rr)
			if !ok {
				continue
			}
			if r, ok := e.ranges.Lookup(addr); ok {
				fs = append(fs, finding{tierRange, r.Provider, Evidence{Field: "infrastructure", Source: "ranges",
					Query: l.question(), Answer: addr.String(),
					Detail: fmt.Sprintf("%s is in %s range %s%s: %s", addr, r.Provider, r.Prefix, rangeNote(r), r.Provider)}})
			}
		}
	}
	for _, rr := range ns.rrs {
		n, ok := rr.(*dns.NS)
		if !ok {
			continue
		}
		host := strings.ToLower(strings.TrimSuffix(n.Ns, "."))
		if p, ok := MatchNS(host); ok {
			fs = append(fs, finding{tierNS, p.Provider, Evidence{Field: "infrastructure", Source: "pattern",
				Query: ns.question(), Answer: host,
				Detail: fmt.Sprintf("name server %s matches %s (%s): %s", host, p.Glob, p.Detail, p.Provider)}})
		}
	}
	return fs
}

func decide(fs []finding) string {
	best := fs[0].tier
	for _, f := range fs {
		best = min(best, f.tier)
	}
	count := map[string]int{}
	var order []string
	for _, f := range fs {
		if f.tier != best {
			continue
		}
		if count[f.provider] == 0 {
			order = append(order, f.provider)
		}
		count[f.provider]++
	}
	winner := order[0]
	for _, p := range order[1:] {
		if count[p] > count[winner] {
			winner = p
		}
	}
	return winner
}

func rangeNote(r Range) string {
	var parts []string
	if r.Service != "" {
		parts = append(parts, "service "+r.Service)
	}
	if r.Region != "" {
		parts = append(parts, "region "+r.Region)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func rrAddr(rr dns.RR) (netip.Addr, bool) {
	switch r := rr.(type) {
	case *dns.A:
		return netip.AddrFromSlice(r.A.To4())
	case *dns.AAAA:
		return netip.AddrFromSlice(r.AAAA.To16())
	}
	return netip.Addr{}, false
}

func dnsEvidence(query, answer, detail string) Evidence {
	return Evidence{Field: "infrastructure", Source: "dns", Query: query, Answer: answer, Detail: detail}
}

// describe records what the resolver said to one question.
func (e *Enricher) describe(l lookup) Evidence {
	var answer []string
	for _, t := range l.chain {
		answer = append(answer, "CNAME "+t)
	}
	for _, rr := range l.rrs {
		answer = append(answer, rrValue(rr))
	}
	ev := dnsEvidence(l.question(), strings.Join(answer, ", "), "")
	switch {
	case l.err != nil && isTimeout(l.err):
		ev.Detail = fmt.Sprintf("resolver %s did not answer within %s", e.resolver, e.timeout)
	case l.err != nil:
		ev.Detail = fmt.Sprintf("resolver %s could not be asked: %v", e.resolver, l.err)
	case l.rcode == dns.RcodeNameError:
		ev.Detail = fmt.Sprintf("resolver %s answered NXDOMAIN: domain does not resolve", e.resolver)
	case l.rcode != dns.RcodeSuccess:
		ev.Detail = fmt.Sprintf("resolver %s answered %s", e.resolver, dns.RcodeToString[l.rcode])
	case len(l.rrs) == 0:
		ev.Detail = fmt.Sprintf("resolver %s answered: no %s records", e.resolver, dns.TypeToString[l.qtype])
	default:
		ev.Detail = fmt.Sprintf("resolver %s answered", e.resolver)
	}
	return ev
}

func rrValue(rr dns.RR) string {
	if addr, ok := rrAddr(rr); ok {
		return addr.String()
	}
	if n, ok := rr.(*dns.NS); ok {
		return strings.ToLower(strings.TrimSuffix(n.Ns, "."))
	}
	return strings.TrimPrefix(rr.String(), rr.Header().String())
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout())
}
