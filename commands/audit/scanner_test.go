package audit_test

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	cmdaudit "github.com/strata-platform/strata/commands/audit"
	"github.com/strata-platform/strata/commands/audit/audittest"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/domain/kernel"
)

// scanner allows exactly the given loopback host:ports (the tests opt in
// to loopback explicitly).
func scanner(allow ...string) *cmdaudit.Scanner {
	return cmdaudit.NewScanner(cmdaudit.ScannerConfig{Client: outbound.New(outbound.Config{Allow: outbound.Allow{Hosts: allow},
		Timeout: 5 * time.Second}), RequestTimeout: 2 * time.Second})
}

func hostOf(s *audittest.Site) string { u, _ := url.Parse(s.URL); return u.Host }

func scan(t *testing.T, sc *cmdaudit.Scanner, target string) (int, map[string]int) {
	t.Helper()
	u, err := sc.Target(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	res, _, _, err := sc.Scan(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, c := range res.Checks {
		per[c.Name] = c.Score
	}
	if res.MaxScore != 100 || len(res.Checks) != 7 || res.RubricVersion == "" || res.Grade == "" {
		t.Errorf("scan shape: %+v", res)
	}
	return res.Score, per
}

// An excellent site over real HTTP scores A+; an empty one fails; a quick
// scan makes at most 15 requests and fetches each resource once.
func TestScanFixtureSites(t *testing.T) {
	good := audittest.Serve(t, audittest.Excellent)
	score, per := scan(t, scanner(hostOf(good)), good.URL)
	if score < 95 {
		t.Errorf("the excellent site scored %d: %v", score, per)
	}
	total, repeated := good.Requests()
	if total > 15 || len(repeated) > 0 {
		t.Errorf("%d requests, repeated %v (want at most 15, each once)", total, repeated)
	}
	bare := audittest.Serve(t, audittest.Empty)
	score, per = scan(t, scanner(hostOf(bare)), bare.URL)
	if score >= 40 {
		t.Errorf("the empty site scored %d: %v", score, per)
	}
	if total, repeated := bare.Requests(); total > 15 || len(repeated) > 0 {
		t.Errorf("empty site: %d requests, repeated %v", total, repeated)
	}
}

// staticResolver answers every name with one address.
type staticResolver struct{ addr netip.Addr }

func (r staticResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{r.addr}, nil
}

// The audit cannot be pointed at the network it runs in: loopback,
// localhost, IPv4-mapped loopback and a name resolving to a private
// address are refused before any request (400 naming the url); a public
// site redirecting to loopback has that hop refused.
func TestScanRefusesPrivateTargets(t *testing.T) {
	sc := scanner()
	for _, target := range []string{"http://127.0.0.1/", "http://localhost:8080/", "http://[::ffff:127.0.0.1]/", "http://[::1]/",
		"http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/", "ftp://example.com/", "http://user:pw@example.com/"} {
		_, err := sc.Target(context.Background(), target)
		var ke *kernel.Error
		if e, ok := err.(*kernel.Error); ok {
			ke = e
		}
		if ke == nil || ke.Field != "url" || ke.Kind != kernel.KindInvalid {
			t.Errorf("%s: %v", target, err)
		}
	}
	private := cmdaudit.NewScanner(cmdaudit.ScannerConfig{Client: outbound.New(outbound.Config{
		Resolver: staticResolver{netip.MustParseAddr("10.1.2.3")}})})
	if _, err := private.Target(context.Background(), "https://intranet.example.com/"); err == nil || !strings.Contains(err.Error(), "private") {
		t.Errorf("a name resolving to a private address: %v", err)
	}
	// An allowed site whose every page redirects to another loopback port
	// (not allowed): the redirect hop is refused, the scan reports it.
	inner := audittest.Serve(t, audittest.Excellent)
	redirecting := audittest.Serve(t, func(s *audittest.Site, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+r.URL.Path, http.StatusFound)
	})
	u, err := scanner(hostOf(redirecting)).Target(context.Background(), redirecting.URL)
	if err != nil {
		t.Fatal(err)
	}
	res, snap, _, err := scanner(hostOf(redirecting)).Scan(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Home.Err == "" || !strings.Contains(snap.Home.Err, "refused") || res.Score > 20 {
		t.Errorf("redirect to loopback: home %+v, score %d", snap.Home, res.Score)
	}
	if total, _ := inner.Requests(); total != 0 {
		t.Errorf("the refused site got %d requests", total)
	}
}
