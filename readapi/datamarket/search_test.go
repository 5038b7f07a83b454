package datamarket_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	w := newWorld(t, false)
	w.importSamples()
	w.published("whois-enrichment", "domain,org_name,registrar,infrastructure,domain_age_days,country\n"+
		"acme.example,Roadrunner Supplies,Example Registrar LLC,AWS,800,US\n"+
		"acmeco.example,Coyote Works,Sample Names Co,Azure,90,US\n"+
		"bluebird-analytics.example,Bluebird Analytics,Example Registrar LLC,AWS,2100,US\n", 2)

	q := func(path, envelope, search, col string, want ...string) {
		t.Helper()
		if want == nil {
			want = []string{}
		}
		expect(t, w, path, envelope, "search="+url.QueryEscape(search), col, want)
	}
	// whole words; a word ending in * is a prefix
	q("/smb-directory", "data", "blue", "business_name")
	q("/smb-directory", "data", "blue*", "business_name", "Bluebird Analytics")
	q("/smb-directory", "data", "Bluebird", "business_name", "Bluebird Analytics")
	q("/smb-directory", "data", "bird*", "business_name")
	// case-insensitive
	q("/smb-directory", "data", "BLUE*", "business_name", "Bluebird Analytics")
	q("/smb-directory", "data", "hUdSoN lEdG*", "business_name", "Hudson Ledger")
	// every word must match, in any of the searched columns (name and
	// category; the metro is the city filter)
	q("/smb-directory", "data", "blue* analytics", "business_name", "Bluebird Analytics")
	q("/smb-directory", "data", "blue* bakery", "business_name")
	q("/smb-directory", "data", "software austin", "business_name")
	expect(t, w, "/smb-directory", "data", "search=software&city=austin", "business_name", []string{"Congress Avenue Labs"})
	q("/smb-directory", "data", "medical clinic", "business_name", "Echo Park Clinic", "Rainier Family Medicine")
	expect(t, w, "/smb-directory", "data", "search=medical%20clinic&city=seattle", "business_name", []string{"Rainier Family Medicine"})
	q("/smb-directory", "data", "software", "business_name", "Bluebird Analytics", "Hudson Ledger", "Congress Avenue Labs")
	q("/smb-directory", "data", "softw", "business_name")
	q("/smb-directory", "data", "soft*", "business_name", "Bluebird Analytics", "Hudson Ledger", "Congress Avenue Labs")
	// punctuation between words is a separator
	q("/smb-directory", "data", "bluebird, analytics!", "business_name", "Bluebird Analytics")
	expect(t, w, "/smb-directory", "data", "search="+url.QueryEscape("'real' & \"estate\" |")+"&city=austin", "business_name", []string{"Barton Springs Realty"})
	// a domain in the WHOIS data
	q("/whois-enrichment", "data", "acme.example", "domain", "acme.example")
	q("/whois-enrichment", "data", "ACME.EXAMPLE", "domain", "acme.example")
	q("/whois-enrichment", "data", "acme*", "domain", "acme.example", "acmeco.example")
	q("/whois-enrichment", "data", "bluebird-analytics.example", "domain", "bluebird-analytics.example")
	q("/whois-enrichment", "data", "roadrunner*", "domain", "acme.example")
	q("/whois-enrichment", "data", "sample names", "domain", "acmeco.example")
	// the other datasets
	q("/montana/livestock", "records", "cattle", "name", "Yellowstone Valley Sale Barn", "Big Sky Livestock Auction", "Gallatin Horse and Cattle Market")
	q("/montana/livestock", "records", "horses gallatin", "name", "Gallatin Horse and Cattle Market")
	q("/montana/web3", "records", "bitcoin", "name", "Clark Fork Hash", "Main Street BTC Kiosk")
	q("/sc-county/parcels", "records", "single family", "apn", "000-001-01", "000-001-02")
	q("/sc-county/parcels", "records", "000-001-03", "apn", "000-001-03")

	// 200 characters is the limit
	q("/smb-directory", "data", strings.Repeat("a", 200), "business_name")
	for _, s := range []string{"!!!", "...", " - ", "&|!()'", "@", strings.Repeat("a", 201), strings.Repeat("blue ", 40) + "x"} {
		wantError(t, w.get("/smb-directory?search="+url.QueryEscape(s)), http.StatusBadRequest, "search")
	}
	wantError(t, w.get("/montana/web3?search=%3A%2A"), http.StatusBadRequest, "search")
}
