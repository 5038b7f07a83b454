package enrich

import (
	"fmt"
	"net/netip"
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, format, path string) []Range {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := Formats[format](f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rs
}

// fixtureRanges is every hand-written fixture, as an importer would load them.
func fixtureRanges(t *testing.T) *Ranges {
	t.Helper()
	var all []Range
	for _, f := range []struct{ format, path string }{
		{"aws", "testdata/aws-ip-ranges.json"},
		{"google", "testdata/google-cloud.json"},
		{"azure", "testdata/azure-service-tags.json"},
		{"cloudflare", "testdata/cloudflare-ips-v4.txt"},
		{"cloudflare", "testdata/cloudflare-ips-v6.txt"},
	} {
		all = append(all, parseFile(t, f.format, f.path)...)
	}
	return NewRanges(all)
}

func TestFixturesParse(t *testing.T) {
	for _, c := range []struct {
		format, path, provider string
		n                      int
	}{
		{"aws", "testdata/aws-ip-ranges.json", "AWS", 9},
		{"google", "testdata/google-cloud.json", "Google Cloud", 5},
		{"azure", "testdata/azure-service-tags.json", "Azure", 8},
		{"cloudflare", "testdata/cloudflare-ips-v4.txt", "Cloudflare", 5},
		{"cloudflare", "testdata/cloudflare-ips-v6.txt", "Cloudflare", 3},
	} {
		rs := parseFile(t, c.format, c.path)
		if len(rs) != c.n {
			t.Errorf("%s: %d ranges, want %d", c.path, len(rs), c.n)
		}
		for _, r := range rs {
			if r.Provider != c.provider || !r.Prefix.IsValid() {
				t.Errorf("%s: bad range %+v", c.path, r)
			}
		}
	}
	rs := parseFile(t, "aws", "testdata/aws-ip-ranges.json")
	if r := rs[len(rs)-1]; r.Prefix.String() != "2600:9000::/28" || r.Service != "CLOUDFRONT" || r.Region != "GLOBAL" {
		t.Errorf("aws last range = %+v", r)
	}
	rs = parseFile(t, "google", "testdata/google-cloud.json")
	if r := rs[0]; r.Prefix.String() != "34.35.0.0/16" || r.Region != "africa-south1" || r.Service != "Google Cloud" {
		t.Errorf("google first range = %+v", r)
	}
}

func TestParsersRefuseMalformed(t *testing.T) {
	for _, c := range []struct {
		name, format, input, want string
	}{
		{"aws bad prefix", "aws", `{"syncToken":"1","createDate":"x","prefixes":[{"ip_prefix":"3.5.140.0/22"},{"ip_prefix":"3.5.140.0/33","service":"EC2"}]}`,
			`prefixes[1] ip_prefix "3.5.140.0/33"`},
		{"aws host bits", "aws", `{"syncToken":"1","createDate":"x","prefixes":[{"ip_prefix":"3.5.140.1/22"}]}`,
			`prefixes[0] ip_prefix "3.5.140.1/22": has host bits set`},
		{"aws v4 in v6 list", "aws", `{"syncToken":"1","createDate":"x","ipv6_prefixes":[{"ipv6_prefix":"3.5.140.0/22"}]}`,
			`ipv6_prefixes[0] ipv6_prefix "3.5.140.0/22": not an IPv6 prefix`},
		{"aws missing field", "aws", `{"syncToken":"1","createDate":"x","prefixes":[{"ipv4Prefix":"3.5.140.0/22"}]}`,
			`prefixes[0] ip_prefix ""`},
		{"aws empty", "aws", `{"syncToken":"1","createDate":"x","prefixes":[]}`, "no prefixes"},
		{"aws not json", "aws", `<html>`, "aws ip-ranges.json"},
		{"aws wrong format", "aws", `{"changeNumber":1,"cloud":"Public","values":[]}`, "not AWS's format"},
		{"google both", "google", `{"syncToken":"1","creationTime":"x","prefixes":[{"ipv4Prefix":"34.35.0.0/16","ipv6Prefix":"2600:1900::/28"}]}`,
			`prefixes[0] "34.35.0.0/162600:1900::/28": has both`},
		{"google neither", "google", `{"syncToken":"1","creationTime":"x","prefixes":[{"service":"Google Cloud"}]}`,
			"prefixes[0]"},
		{"google bad v6", "google", `{"syncToken":"1","creationTime":"x","prefixes":[{"ipv4Prefix":"34.35.0.0/16"},{"ipv6Prefix":"2600:1900::zz/28"}]}`,
			`prefixes[1] "2600:1900::zz/28": not a CIDR prefix`},
		{"azure bad prefix", "azure", `{"changeNumber":1,"cloud":"Public","values":[{"name":"Storage","properties":{"addressPrefixes":["13.66.0.0/16","bogus"]}}]}`,
			`values[0] "Storage" addressPrefixes[1] "bogus"`},
		{"azure no name", "azure", `{"changeNumber":1,"cloud":"Public","values":[{"properties":{"addressPrefixes":["13.66.0.0/16"]}}]}`,
			"values[0] has no name"},
		{"azure wrong format", "azure", `{"syncToken":"1","createDate":"x","prefixes":[]}`, "not Azure's format"},
		{"cloudflare bad line", "cloudflare", "173.245.48.0/20\n\n103.21.244.0\n", `line 3 "103.21.244.0"`},
		{"cloudflare html", "cloudflare", "<html>\n", `line 1 "<html>"`},
		{"cloudflare empty", "cloudflare", "\n\n", "no prefixes"},
	} {
		_, err := Formats[c.format](strings.NewReader(c.input))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestLookupMostSpecific(t *testing.T) {
	rs := fixtureRanges(t)
	for _, c := range []struct {
		addr, prefix, provider, service string
	}{
		{"54.243.31.200", "54.243.31.192/26", "AWS", "ROUTE53_HEALTHCHECKS"},
		{"54.241.0.1", "54.240.0.0/12", "AWS", "AMAZON"},
		{"::ffff:54.243.31.200", "54.243.31.192/26", "AWS", "ROUTE53_HEALTHCHECKS"},
		{"13.32.1.1", "13.32.0.0/15", "AWS", "AMAZON"}, // listed twice: the first listing is kept
		{"2600:1f18:7fff:f800::5", "2600:1f18:7fff:f800::/53", "AWS", "ROUTE53_HEALTHCHECKS"},
		{"2600:1f18::1", "2600:1f18::/33", "AWS", "EC2"},
		{"13.69.68.5", "13.69.68.0/23", "Azure", "AppService.WestEurope"},
		{"13.69.1.1", "13.69.0.0/17", "Azure", "AzureCloud.westeurope"},
		{"2603:1030:c06:400::97a", "2603:1030:c06:400::978/125", "Azure", "ActionGroup"},
		{"34.35.9.9", "34.35.0.0/16", "Google Cloud", "Google Cloud"},
		{"2600:1901:8100::1", "2600:1901:8100::/44", "Google Cloud", "Google Cloud"},
		{"104.16.132.229", "104.16.0.0/13", "Cloudflare", ""},
		{"2606:4700::6810:84e5", "2606:4700::/32", "Cloudflare", ""},
	} {
		r, ok := rs.Lookup(netip.MustParseAddr(c.addr))
		if !ok || r.Prefix.String() != c.prefix || r.Provider != c.provider || r.Service != c.service {
			t.Errorf("Lookup(%s) = %+v, %v; want %s %s %s", c.addr, r, ok, c.prefix, c.provider, c.service)
		}
	}
	for _, a := range []string{"192.0.2.1", "2001:db8::1", "54.239.255.255"} {
		if r, ok := rs.Lookup(netip.MustParseAddr(a)); ok {
			t.Errorf("Lookup(%s) = %+v, want no match", a, r)
		}
	}
	if _, ok := (*Ranges)(nil).Lookup(netip.MustParseAddr("54.241.0.1")); ok {
		t.Error("nil Ranges matched")
	}
}

// manyRanges is a table the size of the real AWS and Azure files.
func manyRanges(n int) []Range {
	rs := make([]Range, 0, n)
	for i := range n {
		a := netip.AddrFrom4([4]byte{byte(1 + i>>16), byte(i >> 8), byte(i), 0})
		bits := 24 + i%5
		rs = append(rs, Range{Provider: "AWS", Prefix: netip.PrefixFrom(a, bits).Masked()})
	}
	return rs
}

func TestLookupLargeTable(t *testing.T) {
	rs := NewRanges(manyRanges(60000))
	for i := range 60000 {
		a := netip.AddrFrom4([4]byte{byte(1 + i>>16), byte(i >> 8), byte(i), 1})
		if _, ok := rs.Lookup(a); !ok {
			t.Fatalf("Lookup(%s): no match", a)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	rs := NewRanges(manyRanges(60000))
	addrs := make([]netip.Addr, 1024)
	for i := range addrs {
		addrs[i] = netip.MustParseAddr(fmt.Sprintf("%d.%d.%d.7", 1+i%3, i%256, (i*7)%256))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		rs.Lookup(addrs[i%len(addrs)])
	}
}

func TestSnapshot(t *testing.T) {
	rs, prov, ok := Snapshot("cloudflare")
	if !ok || len(rs) != 21 || !strings.Contains(prov, "cloudflare-ip 0.0.7") {
		t.Fatalf("Snapshot(cloudflare) = %d ranges, %q, %v", len(rs), prov, ok)
	}
	if r, ok := NewRanges(rs).Lookup(netip.MustParseAddr("2606:4700::1")); !ok || r.Provider != "Cloudflare" {
		t.Errorf("snapshot lookup = %+v, %v", r, ok)
	}
	for _, p := range []string{"aws", "google", "azure", "Cloudflare"} {
		if _, _, ok := Snapshot(p); ok {
			t.Errorf("Snapshot(%q) claims a snapshot", p)
		}
	}
}
