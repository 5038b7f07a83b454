package datamarket_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/commands/datamarket/enrich"
	"github.com/strata-platform/strata/domain/datamarket"
)

const awsRanges = `{"syncToken":"1","createDate":"2026-11-01-00-00-00","prefixes":[
 {"ip_prefix":"52.94.76.0/22","region":"us-west-2","service":"AMAZON","network_border_group":"us-west-2"}],
 "ipv6_prefixes":[{"ipv6_prefix":"2600:1f14::/35","region":"us-west-2","service":"EC2","network_border_group":"us-west-2"}]}`

// loopbackDNS answers A and NS queries from records on 127.0.0.1.
func loopbackDNS(t *testing.T, records ...string) string {
	t.Helper()
	byName := map[string][]dns.RR{}
	for _, s := range records {
		rr, err := dns.NewRR(s)
		if err != nil {
			t.Fatal(err)
		}
		byName[strings.ToLower(rr.Header().Name)] = append(byName[strings.ToLower(rr.Header().Name)], rr)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		q := r.Question[0]
		rrs, ok := byName[strings.ToLower(q.Name)]
		if !ok {
			m.Rcode = dns.RcodeNameError
		}
		for _, rr := range rrs {
			if rr.Header().Rrtype == q.Qtype {
				m.Answer = append(m.Answer, rr)
			}
		}
		_ = w.WriteMsg(m)
	})}
	go func() { _ = srv.ActivateAndServe() }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return pc.LocalAddr().String()
}

// loopbackRDAP serves a bootstrap file naming itself for .example and
// one domain's RDAP record.
func loopbackRDAP(t *testing.T, domain, registrar string, registered time.Time) string {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/dns.json":
			_ = json.NewEncoder(w).Encode(map[string]any{"version": "1.0", "publication": "2026-11-01T00:00:00Z",
				"services": [][][]string{{{"example"}, {srv.URL + "/"}}}})
		case "/domain/" + domain:
			w.Header().Set("Content-Type", "application/rdap+json")
			_ = json.NewEncoder(w).Encode(map[string]any{"objectClassName": "domain", "ldhName": domain,
				"events": []map[string]any{{"eventAction": "registration", "eventDate": registered.Format(time.RFC3339)}},
				"entities": []map[string]any{{"objectClassName": "entity", "roles": []string{"registrar"},
					"vcardArray": []any{"vcard", []any{[]any{"version", map[string]any{}, "text", "4.0"}, []any{"fn", map[string]any{}, "text", registrar}}}}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/dns.json"
}

type enrichedRow struct {
	Domain, Infrastructure string
	Registrar              *string
	Age                    *int64
	Evidence               map[string]any
}

func (w *world) enrichedRows(version int) map[string]enrichedRow {
	w.t.Helper()
	rows, err := w.db.Query(fmt.Sprintf(`SELECT domain, infrastructure, registrar, domain_age_days, evidence FROM data_rows.whois_enrichment_v%d`, version))
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]enrichedRow{}
	for rows.Next() {
		var r enrichedRow
		var ev []byte
		if err := rows.Scan(&r.Domain, &r.Infrastructure, &r.Registrar, &r.Age, &ev); err != nil {
			w.t.Fatal(err)
		}
		_ = json.Unmarshal(ev, &r.Evidence)
		out[r.Domain] = r
	}
	return out
}

func TestEnrichmentFindsInfrastructureAndAgeWithEvidence(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	ranges, err := w.svc.Import(context.Background(), "ip-ranges-aws", cmddata.Source{Location: w.file("ip-ranges.json", awsRanges), Format: "aws"}, nil)
	if err != nil || ranges.Status != datamarket.StatusPublished || ranges.RowsLoaded != 2 {
		t.Fatalf("aws ranges: %+v %v", ranges, err)
	}
	w.importFile("whois-enrichment", "domains.csv", "domain,org_name,infrastructure\nacme.example,Acme,\nquiet.example,Quiet,GoDaddy\n")
	resolver := loopbackDNS(t, "acme.example. 300 IN A 52.94.77.10", "acme.example. 300 IN NS ns1.acme.example.")
	reg := time.Date(2020, 11, 27, 0, 0, 0, 0, time.UTC)
	res, err := w.svc.Enrich(context.Background(), enrich.Config{Resolver: resolver, RDAPBootstrap: loopbackRDAP(t, "acme.example", "Loopback Registrar", reg),
		Timeout: 2 * time.Second}, "test")
	if err != nil || res.Status != datamarket.StatusPublished || res.Version != 2 {
		t.Fatalf("enrich: %+v %v", res, err)
	}
	rows := w.enrichedRows(2)
	acme := rows["acme.example"]
	if acme.Infrastructure != "AWS" || acme.Registrar == nil || *acme.Registrar != "Loopback Registrar" || acme.Age == nil || *acme.Age != 2191 {
		t.Fatalf("acme: %+v (registrar %v, age %v)", acme, deref(acme.Registrar), deref(acme.Age))
	}
	if !strings.Contains(fmt.Sprint(acme.Evidence["findings"]), "52.94.76.0/22") {
		t.Fatalf("acme's evidence does not name the matched range: %v", acme.Evidence)
	}
	quiet := rows["quiet.example"] // does not resolve: the imported value is kept, saying so
	if quiet.Infrastructure != "GoDaddy" || !strings.Contains(fmt.Sprint(quiet.Evidence["findings"]), "value imported in version 1 is kept") {
		t.Fatalf("quiet: %+v", quiet)
	}
	var prov datamarket.Provenance
	var raw []byte
	if err := w.db.QueryRow(`SELECT provenance FROM rm_datamarket_v1.versions WHERE dataset = 'whois-enrichment' AND version = 2`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(raw, &prov)
	if prov.DerivedFrom != 1 || prov.Source != "enrichment of whois-enrichment v1" {
		t.Fatalf("provenance %+v", prov)
	}
}

func TestEnrichmentOfflineSaysUnknown(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	w.importFile("whois-enrichment", "domains.csv", "domain,org_name\nacme.example,Acme\n")
	res, err := w.svc.Enrich(context.Background(), enrich.Config{}, "test")
	if err != nil || res.Status != datamarket.StatusPublished {
		t.Fatalf("enrich offline: %+v %v", res, err)
	}
	acme := w.enrichedRows(res.Version)["acme.example"]
	if acme.Infrastructure != "unknown" || acme.Registrar != nil || acme.Age != nil {
		t.Fatalf("offline: %+v, want unknown and nothing else", acme)
	}
	if !strings.Contains(fmt.Sprint(acme.Evidence["findings"]), "resolver") {
		t.Fatalf("offline evidence does not say why: %v", acme.Evidence)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
