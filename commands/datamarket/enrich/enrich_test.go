package enrich

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var fixedNow = time.Date(2021, 1, 1, 12, 0, 0, 0, time.UTC)

// the loopback zone the infrastructure cases resolve in
var records = []string{
	// an address inside the AWS fixture's /26, itself inside a /12
	"awshosted.com. 300 IN A 54.243.31.200",
	"awshosted.com. 300 IN NS ns1.example-dns.net.",
	// an alias to CloudFront whose address is in no range; the zone is at Cloudflare
	"www.cdnsite.com. 300 IN CNAME d111111abcdef8.cloudfront.net.",
	"d111111abcdef8.cloudfront.net. 60 IN A 192.0.2.10",
	"cdnsite.com. 300 IN NS ada.ns.cloudflare.com.",
	"cdnsite.com. 300 IN NS bob.ns.cloudflare.com.",
	// only the name servers say anything
	"cfdns.com. 300 IN A 192.0.2.20",
	"cfdns.com. 300 IN NS ada.ns.cloudflare.com.",
	"cfdns.com. 300 IN NS bob.ns.cloudflare.com.",
	// nothing known
	"plain.com. 300 IN A 192.0.2.30",
	"plain.com. 300 IN NS ns1.plainhost.net.",
	// an IPv6-only site in AWS space
	"v6site.com. 300 IN AAAA 2600:1f18:7fff:f800::1",
	"v6site.com. 300 IN NS ns1.plainhost.net.",
	// a Vercel alias whose address lies in AWS space: the alias names the service
	"vercelsite.com. 300 IN CNAME cname.vercel-dns.com.",
	"cname.vercel-dns.com. 300 IN A 54.241.0.7",
	"vercelsite.com. 300 IN NS ns1.plainhost.net.",
	// answered over TCP only
	"bigsite.com. 300 IN A 13.69.68.5",
	"bigsite.com. 300 IN NS ns1-01.azure-dns.com.",
	// a CNAME loop
	"loop.com. 300 IN NS ns1.plainhost.net.",
	"a.loop.com. 300 IN CNAME b.loop.com.",
	"b.loop.com. 300 IN CNAME a.loop.com.",
	"broken.com. 300 IN NS ns1.plainhost.net.",
}

func dnsEnricher(t *testing.T, chase bool) (*Enricher, *zone) {
	z := newZone(t, records...)
	z.chase = chase
	z.truncate["bigsite.com."] = true
	z.servfail["broken.com."] = true
	addr := startDNS(t, z)
	return New(Config{Resolver: addr, Ranges: fixtureRanges(t), Timeout: 2 * time.Second, Now: func() time.Time { return fixedNow }}), z
}

func find(evs []Evidence, field, source string) []Evidence {
	var out []Evidence
	for _, e := range evs {
		if e.Field == field && e.Source == source {
			out = append(out, e)
		}
	}
	return out
}

func hasDetail(evs []Evidence, field, source, text string) bool {
	for _, e := range find(evs, field, source) {
		if strings.Contains(e.Detail, text) {
			return true
		}
	}
	return false
}

func TestInfrastructure(t *testing.T) {
	for _, chase := range []bool{false, true} {
		e, _ := dnsEnricher(t, chase)
		for _, c := range []struct {
			domain, want, source, detail string
		}{
			{"awshosted.com", "AWS", "ranges", "54.243.31.200 is in AWS range 54.243.31.192/26 (service ROUTE53_HEALTHCHECKS, region us-east-1)"},
			{"www.cdnsite.com", "AWS", "pattern", "CNAME target d111111abcdef8.cloudfront.net matches *.cloudfront.net"},
			{"cfdns.com", "Cloudflare", "pattern", "name server ada.ns.cloudflare.com matches *.ns.cloudflare.com"},
			{"plain.com", Other, "dns", "no address is in the"},
			{"nothere.com", Unknown, "dns", "domain does not resolve"},
			{"v6site.com", "AWS", "ranges", "2600:1f18:7fff:f800::1 is in AWS range 2600:1f18:7fff:f800::/53"},
			{"vercelsite.com", "Vercel", "pattern", "cname.vercel-dns.com matches *.vercel-dns.com"},
			{"bigsite.com", "Azure", "ranges", "13.69.68.5 is in Azure range 13.69.68.0/23 (service AppService.WestEurope, region westeurope)"},
			{"a.loop.com", Unknown, "dns", "CNAME chain longer than 8 hops"},
			{"broken.com", Unknown, "dns", "answered SERVFAIL"},
		} {
			r := e.Enrich(context.Background(), c.domain)
			if r.Infrastructure != c.want || !hasDetail(r.Evidence, "infrastructure", c.source, c.detail) {
				t.Errorf("chase=%v %s: infrastructure %q, want %q with %s evidence %q; evidence:\n%s",
					chase, c.domain, r.Infrastructure, c.want, c.source, c.detail, dump(r.Evidence))
			}
			if len(find(r.Evidence, "infrastructure", "dns")) < 3 {
				t.Errorf("%s: the three lookups are not all in evidence:\n%s", c.domain, dump(r.Evidence))
			}
		}
	}
}

func TestHostingOutweighsNameServers(t *testing.T) {
	e, _ := dnsEnricher(t, false)
	r := e.Enrich(context.Background(), "www.cdnsite.com")
	if !hasDetail(r.Evidence, "infrastructure", "pattern", "name server ada.ns.cloudflare.com matches *.ns.cloudflare.com (Cloudflare DNS name server): Cloudflare; outweighed: infrastructure is AWS") {
		t.Errorf("the overruled name-server match is not recorded:\n%s", dump(r.Evidence))
	}
	r = e.Enrich(context.Background(), "vercelsite.com")
	if !hasDetail(r.Evidence, "infrastructure", "ranges", "54.241.0.7 is in AWS range 54.240.0.0/12 (service AMAZON, region us-east-1): AWS; outweighed: infrastructure is Vercel") {
		t.Errorf("the overruled range match is not recorded:\n%s", dump(r.Evidence))
	}
}

func TestNoResolver(t *testing.T) {
	start := time.Now()
	r := New(Config{Ranges: fixtureRanges(t)}).Enrich(context.Background(), "awshosted.com")
	if r.Infrastructure != Unknown || !hasDetail(r.Evidence, "infrastructure", "dns", "no DNS resolver configured") {
		t.Errorf("got %q:\n%s", r.Infrastructure, dump(r.Evidence))
	}
	if len(find(r.Evidence, "infrastructure", "dns")) != 1 {
		t.Errorf("lookups recorded without a resolver:\n%s", dump(r.Evidence))
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s with nothing to ask", d)
	}
}

func TestResolverDoesNotAnswer(t *testing.T) {
	e := New(Config{Resolver: closedPort(t), Ranges: fixtureRanges(t), Timeout: 300 * time.Millisecond})
	start := time.Now()
	r := e.Enrich(context.Background(), "awshosted.com")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s with a 300ms timeout", d)
	}
	if r.Infrastructure != Unknown || !hasDetail(r.Evidence, "infrastructure", "dns", "could not be looked up") {
		t.Errorf("got %q:\n%s", r.Infrastructure, dump(r.Evidence))
	}
}

func TestNoRangesIsNotOther(t *testing.T) {
	z := newZone(t, records...)
	e := New(Config{Resolver: startDNS(t, z)})
	r := e.Enrich(context.Background(), "plain.com")
	if r.Infrastructure != Unknown || !hasDetail(r.Evidence, "infrastructure", "dns", "no provider ranges imported") {
		t.Errorf("got %q:\n%s", r.Infrastructure, dump(r.Evidence))
	}
	// a pattern still counts without ranges
	if r := e.Enrich(context.Background(), "cfdns.com"); r.Infrastructure != "Cloudflare" {
		t.Errorf("cfdns.com: got %q", r.Infrastructure)
	}
}

func TestInvalidDomain(t *testing.T) {
	e, z := dnsEnricher(t, false)
	for _, d := range []string{"", "  ", "192.0.2.1", "[2001:db8::1]", "a..b.com", "com", "co.uk", "-bad.com", "under_score.com", "x.123", "http://example.com"} {
		r := e.Enrich(context.Background(), d)
		if r.Infrastructure != Unknown || r.Registrar != nil || len(find(r.Evidence, "infrastructure", "input")) != 1 {
			t.Errorf("%q: %+v", d, r)
		}
		if Validate(d) == nil {
			t.Errorf("Validate(%q) accepted it", d)
		}
	}
	if n := z.queries.Load(); n != 0 {
		t.Errorf("%d DNS queries for refused domains", n)
	}
	for d, want := range map[string]string{"WWW.Example.COM.": "www.example.com", "bücher.de": "xn--bcher-kva.de", "example.co.uk": "example.co.uk"} {
		if err := Validate(d); err != nil {
			t.Errorf("Validate(%q): %v", d, err)
		}
		if got, _ := normalize(d); got != want {
			t.Errorf("normalize(%q) = %q, want %q", d, got, want)
		}
	}
}

func TestRDAP(t *testing.T) {
	s := startRDAP(t, map[string]string{
		"example.com": rdapDomain("example.com", "Example Registrar, Inc.", "2020-01-01T00:00:00Z"),
	})
	s.status["failing.com"] = 500
	e := New(Config{RDAPBootstrap: s.URL + "/rdap/dns.json", HTTPClient: s.Client(), Now: func() time.Time { return fixedNow }})

	// a subdomain is looked up as its registrable domain
	r := e.Enrich(context.Background(), "WWW.Example.com.")
	if r.Domain != "www.example.com" {
		t.Errorf("domain = %q", r.Domain)
	}
	if r.Registrar == nil || *r.Registrar != "Example Registrar, Inc." {
		t.Errorf("registrar = %v:\n%s", r.Registrar, dump(r.Evidence))
	}
	if r.RegisteredAt == nil || !r.RegisteredAt.Equal(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("registered_at = %v", r.RegisteredAt)
	}
	if r.AgeDays == nil || *r.AgeDays != 366 { // 2020 is a leap year; the half day does not count
		t.Errorf("age = %v", r.AgeDays)
	}
	if ev := find(r.Evidence, "registrar", "rdap"); len(ev) != 1 || ev[0].Query != s.URL+"/rdap/domain/example.com" ||
		ev[0].Detail != "vCard fn of the entity with role registrar (handle 1068)" {
		t.Errorf("registrar evidence:\n%s", dump(r.Evidence))
	}
	if len(find(r.Evidence, "domain_age_days", "rdap")) != 1 || !r.CheckedAt.Equal(fixedNow) {
		t.Errorf("age evidence or checked_at:\n%s", dump(r.Evidence))
	}

	for _, c := range []struct{ domain, detail string }{
		{"unknown.com", "RDAP server answered 404: the registry has no record of unknown.com"},
		{"failing.com", "HTTP 500"},
		{"example.org", "lists no RDAP service for .org"},
	} {
		r := e.Enrich(context.Background(), c.domain)
		if r.Registrar != nil || r.RegisteredAt != nil || r.AgeDays != nil ||
			!hasDetail(r.Evidence, "registrar", "rdap", c.detail) || !hasDetail(r.Evidence, "registered_at", "rdap", c.detail) {
			t.Errorf("%s: %+v\n%s", c.domain, r, dump(r.Evidence))
		}
	}
}

func TestRDAPNotConfigured(t *testing.T) {
	for cfg, detail := range map[string]string{
		"":                               "no RDAP bootstrap configured",
		"https://rdap.invalid/bootstrap": "must name a dns.json file",
		"ftp://rdap.invalid/dns.json":    "not an http(s) URL",
	} {
		r := New(Config{RDAPBootstrap: cfg}).Enrich(context.Background(), "example.com")
		if r.Registrar != nil || r.AgeDays != nil || !hasDetail(r.Evidence, "registrar", "rdap", detail) {
			t.Errorf("%q: %+v\n%s", cfg, r, dump(r.Evidence))
		}
	}
}

func TestBootstrapUnreachable(t *testing.T) {
	s := startRDAP(t, nil)
	url := s.URL + "/rdap/dns.json"
	s.Close()
	r := New(Config{RDAPBootstrap: url, Timeout: time.Second}).Enrich(context.Background(), "example.com")
	if r.Registrar != nil || !hasDetail(r.Evidence, "registrar", "rdap", "could not be read") {
		t.Errorf("%+v\n%s", r, dump(r.Evidence))
	}
}

func TestResultJSON(t *testing.T) {
	r := New(Config{Now: func() time.Time { return fixedNow }}).Enrich(context.Background(), "example.com")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"registrar", "registered_at", "domain_age_days"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v, %v; want null", k, v, ok)
		}
	}
	if m["infrastructure"] != "unknown" || m["checked_at"] != "2021-01-01T12:00:00Z" || len(m["evidence"].([]any)) != 3 {
		t.Errorf("%s", b)
	}
}

func dump(evs []Evidence) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString("  " + e.Field + " " + e.Source + " [" + e.Query + "] [" + e.Answer + "] " + e.Detail + "\n")
	}
	return b.String()
}
