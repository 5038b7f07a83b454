package enrich

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"
)

// zone is a loopback resolver's data: records by owner name. A name with no
// records at all is NXDOMAIN; one with records of other types is NODATA.
type zone struct {
	rrs      map[string][]dns.RR
	servfail map[string]bool
	truncate map[string]bool // answer these over UDP with TC set and nothing else
	chase    bool            // put the CNAME target's records in the answer, as a recursive resolver does
	queries  atomic.Int32
}

func newZone(t *testing.T, records ...string) *zone {
	t.Helper()
	z := &zone{rrs: map[string][]dns.RR{}, servfail: map[string]bool{}, truncate: map[string]bool{}}
	for _, s := range records {
		rr, err := dns.NewRR(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		name := strings.ToLower(rr.Header().Name)
		z.rrs[name] = append(z.rrs[name], rr)
	}
	return z
}

func (z *zone) records(name string, qtype uint16) []dns.RR {
	var out []dns.RR
	for _, rr := range z.rrs[name] {
		if rr.Header().Rrtype == qtype {
			out = append(out, rr)
		}
	}
	return out
}

func (z *zone) ServeDNS(w dns.ResponseWriter, r *dns.Msg) {
	z.queries.Add(1)
	m := new(dns.Msg)
	m.SetReply(r)
	m.RecursionAvailable = true
	q := r.Question[0]
	name := strings.ToLower(q.Name)
	_, udp := w.RemoteAddr().(*net.UDPAddr)
	switch {
	case z.servfail[name]:
		m.Rcode = dns.RcodeServerFailure
	case z.truncate[name] && udp:
		m.Truncated = true
	case len(z.rrs[name]) == 0:
		m.Rcode = dns.RcodeNameError
	default:
		m.Answer = z.records(name, q.Qtype)
		if len(m.Answer) == 0 {
			if c := z.records(name, dns.TypeCNAME); len(c) > 0 {
				m.Answer = c
				for hops := 0; z.chase && len(c) > 0 && hops < 10; hops++ { // bounded: a.loop.com is a loop
					target := strings.ToLower(c[0].(*dns.CNAME).Target)
					m.Answer = append(m.Answer, z.records(target, q.Qtype)...)
					c = z.records(target, dns.TypeCNAME)
					m.Answer = append(m.Answer, c...)
				}
			}
		}
	}
	w.WriteMsg(m)
}

// startDNS serves z on a loopback UDP port and, for truncated answers, TCP
// on the same port.
func startDNS(t *testing.T, z *zone) string {
	t.Helper()
	for range 20 {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("tcp", pc.LocalAddr().String())
		if err != nil {
			pc.Close() // the TCP port is taken: try another
			continue
		}
		for _, srv := range []*dns.Server{{PacketConn: pc, Handler: z}, {Listener: l, Handler: z}} {
			started := make(chan struct{})
			srv.NotifyStartedFunc = func() { close(started) }
			go srv.ActivateAndServe()
			<-started
			t.Cleanup(func() { srv.Shutdown() })
		}
		return pc.LocalAddr().String()
	}
	t.Fatal("no loopback port free for both UDP and TCP")
	return ""
}

// closedPort is a loopback UDP address nothing listens on.
func closedPort(t *testing.T) string {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	return addr
}

// rdapServer is a loopback RDAP service: the bootstrap file at
// /rdap/dns.json sends .com and .net here, and /rdap/domain/<name> answers
// from domains (RDAP JSON), 404 otherwise.
type rdapServer struct {
	*httptest.Server
	domains map[string]string
	status  map[string]int // answer these names with this HTTP status
	hits    atomic.Int32
}

func startRDAP(t *testing.T, domains map[string]string) *rdapServer {
	s := &rdapServer{domains: domains, status: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		switch {
		case r.URL.Path == "/rdap/dns.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"version":"1.0","publication":"2024-04-05T20:00:01Z","description":"RDAP bootstrap file for Domain Name System registrations",
"services":[[["com","net"],["%s/rdap/"]],[["example"],["https://rdap.invalid/"]]]}`, s.URL)
		case strings.HasPrefix(r.URL.Path, "/rdap/domain/"):
			name := strings.TrimPrefix(r.URL.Path, "/rdap/domain/")
			if code := s.status[name]; code != 0 {
				http.Error(w, "failure", code)
				return
			}
			body, ok := s.domains[name]
			w.Header().Set("Content-Type", "application/rdap+json")
			if !ok {
				w.WriteHeader(http.StatusNotFound)
				fmt.Fprint(w, `{"errorCode":404,"title":"Not Found","description":["domain not found"]}`)
				return
			}
			fmt.Fprint(w, body)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// rdapDomain is a registry's RDAP answer (RFC 9083) for name.
func rdapDomain(name, registrar, registered string) string {
	return fmt.Sprintf(`{
  "rdapConformance": ["rdap_level_0", "icann_rdap_response_profile_0", "icann_rdap_technical_implementation_guide_0"],
  "objectClassName": "domain",
  "handle": "2336799_DOMAIN_COM-VRSN",
  "ldhName": %q,
  "status": ["client delete prohibited", "client transfer prohibited"],
  "entities": [
    {
      "objectClassName": "entity",
      "handle": "1068",
      "roles": ["registrar"],
      "publicIds": [{"type": "IANA Registrar ID", "identifier": "1068"}],
      "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", %q]]],
      "entities": [
        {
          "objectClassName": "entity",
          "roles": ["abuse"],
          "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Abuse desk"], ["email", {}, "text", "abuse@registrar.example"]]]
        }
      ]
    }
  ],
  "events": [
    {"eventAction": "registration", "eventDate": %q},
    {"eventAction": "expiration", "eventDate": "2030-01-01T00:00:00Z"},
    {"eventAction": "last update of RDAP database", "eventDate": "2024-04-05T21:00:00Z"}
  ],
  "secureDNS": {"delegationSigned": false},
  "nameservers": [
    {"objectClassName": "nameserver", "ldhName": "ADA.NS.CLOUDFLARE.COM"},
    {"objectClassName": "nameserver", "ldhName": "BOB.NS.CLOUDFLARE.COM"}
  ],
  "notices": [{"title": "Terms of Use", "description": ["Service subject to Terms of Use."]}]
}`, strings.ToUpper(name), registrar, registered)
}
