package datamarket_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// expect checks a filtered query: its total and rows (in file order),
// read whole and in pages of 5.
func expect(t *testing.T, w *world, path, envelope, query, col string, want []string) {
	t.Helper()
	p := pageOf(t, w.get(path+"?per_page=500&"+query), envelope)
	got := names(t, p.Rows, col)
	if p.Total != int64(len(want)) || !reflect.DeepEqual(got, want) {
		t.Errorf("%s?%s: total %d, rows %v\nwant %d: %v", path, query, p.Total, got, len(want), want)
		return
	}
	// pages of 5 following the links, which keep the query
	got = []string{}
	for link := path + "?per_page=5&" + query; link != ""; {
		r := w.get(link)
		small := pageOf(t, r, envelope)
		got = append(got, names(t, small.Rows, col)...)
		link = nextLink(t, r)
		if small.Total != int64(len(want)) || small.HasMore != (link != "") || small.HasMore != (len(got) < len(want)) {
			t.Errorf("%s: total %d has_more %t after %d rows, want total %d", link, small.Total, small.HasMore, len(got), len(want))
			return
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s?%s in pages of 5: %v\nwant %v", path, query, got, want)
	}
}

// directory is 80 varied rows: two name words, five metros (Round Rock
// given as austin), tech every fourth, NAICS codes of several industries.
func directory() []biz {
	codes := []string{"511210", "311811", "522130", "621111", "531210", "454110", ""}
	var out []biz
	for i := 0; i < 80; i++ {
		k := []string{"nyc", "sf", "la", "seattle", "austin"}[i%5]
		b := biz{city: metro[k][0], state: metro[k][1], naics: codes[i%7], tech: i%4 == 0, category: "Retail", cityKey: ""}
		if i%2 == 0 {
			b.name = fmt.Sprintf("Blue Widget %02d", i)
		} else {
			b.name = fmt.Sprintf("Red Gadget %02d", i)
		}
		if i%3 == 0 {
			b.category = "Software"
		}
		if k == "austin" && i%10 == 9 {
			b.city, b.cityKey = "Round Rock", "austin"
		}
		out = append(out, b)
	}
	return out
}

func cityKeyOf(b biz) string {
	if b.cityKey != "" {
		return b.cityKey
	}
	for k, m := range metro {
		if m[0] == b.city && m[1] == b.state {
			return k
		}
	}
	return ""
}

// pick lists the names of the rows keep accepts.
func pick(rows []biz, keep func(biz) bool) []string {
	out := []string{}
	for _, b := range rows {
		if keep(b) {
			out = append(out, b.name)
		}
	}
	return out
}

func TestDirectoryFilters(t *testing.T) {
	w := newWorld(t, false)
	rows := directory()
	w.published("smb-directory", smbCSV(rows), 1)
	all := func(biz) bool { return true }
	expect(t, w, "/smb-directory", "data", "", "business_name", pick(rows, all))
	expect(t, w, "/smb-directory", "data", "tech_only=false", "business_name", pick(rows, all))
	tech := pick(rows, func(b biz) bool { return b.tech })
	expect(t, w, "/smb-directory", "data", "tech_only=true", "business_name", tech)
	expect(t, w, "/smb-directory", "data", "tech_only=1", "business_name", tech)
	for _, k := range []string{"nyc", "sf", "la", "seattle", "austin"} {
		inCity := func(b biz) bool { return cityKeyOf(b) == k }
		expect(t, w, "/smb-directory", "data", "city="+k, "business_name", pick(rows, inCity))
		expect(t, w, "/smb-directory", "data", "city="+k+"&tech_only=true", "business_name",
			pick(rows, func(b biz) bool { return inCity(b) && b.tech }))
	}
	expect(t, w, "/smb-directory", "data", "city=NYC", "business_name", pick(rows, func(b biz) bool { return cityKeyOf(b) == "nyc" }))
	// Round Rock is served as austin
	if got := pick(rows, func(b biz) bool { return b.city == "Round Rock" }); len(got) == 0 {
		t.Fatal("no Round Rock rows")
	}

	// filters with search: counted
	expect(t, w, "/smb-directory", "data", "search=blue&city=la", "business_name",
		pick(rows, func(b biz) bool { return strings.HasPrefix(b.name, "Blue") && cityKeyOf(b) == "la" }))
	expect(t, w, "/smb-directory", "data", "search=blue&city=la&tech_only=true", "business_name",
		pick(rows, func(b biz) bool { return strings.HasPrefix(b.name, "Blue") && cityKeyOf(b) == "la" && b.tech }))
	expect(t, w, "/smb-directory", "data", "search=software&city=austin", "business_name",
		pick(rows, func(b biz) bool { return b.category == "Software" && cityKeyOf(b) == "austin" }))
	expect(t, w, "/smb-directory", "data", "search=gadget%20software&tech_only=true", "business_name",
		pick(rows, func(b biz) bool { return strings.HasPrefix(b.name, "Red") && b.category == "Software" && b.tech }))
	// the city is a filter, not searched: "round" is no word of a name or category
	expect(t, w, "/smb-directory", "data", "search=round&city=austin", "business_name", []string{})
	expect(t, w, "/smb-directory", "data", "search=round&city=sf", "business_name", []string{})

	for _, c := range []struct{ query, field string }{
		{"city=boston", "city"}, {"city=new%20york", "city"}, {"tech_only=yes", "tech_only"}, {"tech_only=2", "tech_only"},
	} {
		wantError(t, w.get("/smb-directory?"+c.query), http.StatusBadRequest, c.field)
	}
}

func TestWhoisInfrastructureFilter(t *testing.T) {
	w := newWorld(t, false)
	infra := []string{"AWS", "Cloudflare", "aws", "", "Google Cloud", "Azure", "GoDaddy", "Vercel", "other", "AWS", "cloudflare", ""}
	var b strings.Builder
	b.WriteString("domain,org_name,registrar,infrastructure,domain_age_days,country\n")
	want := map[string][]string{}
	for i, in := range infra {
		d := fmt.Sprintf("site%02d.example", i)
		fmt.Fprintf(&b, "%s,Org %02d,Reg,%s,%d,US\n", d, i, in, 100*i)
		key := map[string]string{"aws": "AWS", "cloudflare": "Cloudflare", "": "unknown"}[in]
		if key == "" {
			key = in
		}
		want[key] = append(want[key], d)
	}
	w.published("whois-enrichment", b.String(), 1)
	for _, q := range []struct{ param, key string }{
		{"AWS", "AWS"}, {"aws", "AWS"}, {"Cloudflare", "Cloudflare"}, {"Google%20Cloud", "Google Cloud"}, {"Azure", "Azure"},
		{"GoDaddy", "GoDaddy"}, {"Vercel", "Vercel"}, {"other", "other"}, {"unknown", "unknown"},
	} {
		expect(t, w, "/whois-enrichment", "data", "infrastructure="+q.param, "domain", want[q.key])
	}
	expect(t, w, "/whois-enrichment", "data", "infrastructure=AWS&search=org", "domain", want["AWS"])
	expect(t, w, "/whois-enrichment", "data", "infrastructure=AWS&search=site09*", "domain", []string{"site09.example"})
	expect(t, w, "/whois-enrichment", "data", "infrastructure=AWS&search=site09.example", "domain", []string{"site09.example"})
	wantError(t, w.get("/whois-enrichment?infrastructure=Hetzner"), http.StatusBadRequest, "infrastructure")
}

func TestMontanaAndParcelFilters(t *testing.T) {
	w := newWorld(t, false)
	types := []string{"bitcoin_mining", "consulting", "stablecoin", "consulting", "bitcoin_atm", "regulation", "Consulting", "legislator_champion"}
	var b strings.Builder
	b.WriteString("name,entity_type,city,website,description,source_url\n")
	byType := map[string][]string{}
	for i, ty := range types {
		n := fmt.Sprintf("Entity %d", i)
		fmt.Fprintf(&b, "%s,%s,Helena,,,\n", n, ty)
		byType[strings.ToLower(ty)] = append(byType[strings.ToLower(ty)], n)
	}
	w.published("montana-web3", b.String(), 1)
	for _, ty := range []string{"consulting", "bitcoin_mining", "stablecoin", "bitcoin_atm", "regulation", "legislator_champion", "blockchain_startup"} {
		want := byType[ty]
		if want == nil {
			want = []string{}
		}
		expect(t, w, "/montana/web3", "records", "entity_type="+ty, "name", want)
	}
	expect(t, w, "/montana/web3", "records", "entity_type=consulting&search=entity%206", "name", []string{"Entity 6"})
	wantError(t, w.get("/montana/web3?entity_type=nft"), http.StatusBadRequest, "entity_type")

	parcels := []struct{ apn, city, use string }{
		{"001-01", "SANTA CRUZ", "SINGLE FAMILY RESIDENCE"}, {"001-02", "Watsonville", "COMMERCIAL"}, {"001-03", "santa cruz", "COMMERCIAL"},
		{"001-04", "APTOS", "SINGLE FAMILY RESIDENCE"}, {"001-05", "SANTA CRUZ", "COMMERCIAL"}, {"001-06", "CAPITOLA", "CONDOMINIUM"},
		{"001-07", "", "VACANT RESIDENTIAL"}, {"001-08", "SCOTTS VALLEY", "COMMERCIAL"}, {"001-09", "SANTA CRUZ", "CONDOMINIUM"},
	}
	b.Reset()
	b.WriteString("apn,situs_address,city,use_type,use_code,acreage,land_value,improvement_value,year_built,zoning\n")
	for _, p := range parcels {
		fmt.Fprintf(&b, "%s,1 Main St,%s,%s,,,,,,\n", p.apn, p.city, p.use)
	}
	w.published("sc-county-parcels", b.String(), 1)
	pickParcels := func(keep func(city, use string) bool) []string {
		out := []string{}
		for _, p := range parcels {
			if keep(strings.ToUpper(p.city), p.use) {
				out = append(out, p.apn)
			}
		}
		return out
	}
	for _, c := range []string{"SANTA CRUZ", "WATSONVILLE", "APTOS", "SCOTTS VALLEY", "CAPITOLA"} {
		expect(t, w, "/sc-county/parcels", "records", "city="+strings.ReplaceAll(c, " ", "%20"), "apn",
			pickParcels(func(city, _ string) bool { return city == c }))
	}
	expect(t, w, "/sc-county/parcels", "records", "city=santa%20cruz", "apn", pickParcels(func(city, _ string) bool { return city == "SANTA CRUZ" }))
	expect(t, w, "/sc-county/parcels", "records", "use_type=COMMERCIAL", "apn", pickParcels(func(_, use string) bool { return use == "COMMERCIAL" }))
	expect(t, w, "/sc-county/parcels", "records", "city=SANTA%20CRUZ&use_type=COMMERCIAL", "apn",
		pickParcels(func(city, use string) bool { return city == "SANTA CRUZ" && use == "COMMERCIAL" }))
	expect(t, w, "/sc-county/parcels", "records", "use_type=CONDOMINIUM&search=main", "apn", pickParcels(func(_, use string) bool { return use == "CONDOMINIUM" }))
	wantError(t, w.get("/sc-county/parcels?city=OAKLAND"), http.StatusBadRequest, "city")
	wantError(t, w.get("/sc-county/parcels?use_type="+strings.Repeat("X", 101)), http.StatusBadRequest, "use_type")

	w.importSamples()
	expect(t, w, "/montana/livestock", "records", "acquisition_targets_only=true", "name", []string{"Big Sky Livestock Auction"})
	expect(t, w, "/montana/livestock", "records", "acquisition_targets_only=false", "name",
		[]string{"Yellowstone Valley Sale Barn", "Big Sky Livestock Auction", "Gallatin Horse and Cattle Market"})
	wantError(t, w.get("/montana/livestock?acquisition_targets_only=maybe"), http.StatusBadRequest, "acquisition_targets_only")
}
