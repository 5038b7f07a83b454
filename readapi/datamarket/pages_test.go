package datamarket_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// nextLink is the URI of a reply's Link rel="next", "" when none.
func nextLink(t *testing.T, r reply) string {
	t.Helper()
	h := r.Header.Get("Link")
	if h == "" {
		return ""
	}
	m := regexp.MustCompile(`^<([^>]+)>;\s*rel="next"$`).FindStringSubmatch(h)
	if m == nil {
		t.Fatalf("Link %q is not one rel=\"next\"", h)
	}
	return m[1]
}

// loadedFile is 121 directory rows, row 60 invalid (state ZZ): 120 load.
func loadedFile() (string, []biz) {
	rows := numbered("Alpha", 121)
	rows[59].state = "ZZ"
	var valid []biz
	for i, r := range rows {
		if i != 59 {
			valid = append(valid, r)
		}
	}
	return smbCSV(rows), valid
}

func TestStatsCountLoadedRowsWithProvenance(t *testing.T) {
	w := newWorld(t, false)
	body, _ := loadedFile()
	w.published("smb-directory", body, 1)
	r := w.get("/stats")
	var stats struct {
		Datasets []struct {
			Dataset      string    `json:"dataset"`
			TotalRecords int64     `json:"total_records"`
			Status       string    `json:"status"`
			Version      *int      `json:"version"`
			LastUpdated  time.Time `json:"last_updated"`
			Provenance   *struct {
				Source string `json:"source"`
				SHA256 string `json:"sha256"`
				Bytes  int64  `json:"bytes"`
				Sample *bool  `json:"sample"`
			} `json:"provenance"`
		} `json:"datasets"`
		TotalRecords int64 `json:"total_records"`
	}
	if err := json.Unmarshal(r.Raw, &stats); err != nil || r.Status != http.StatusOK {
		t.Fatalf("stats %d %s: %v", r.Status, r.Raw, err)
	}
	sum := sha256.Sum256([]byte(body))
	for _, d := range stats.Datasets {
		if d.Dataset != "smb-directory" {
			if d.TotalRecords != 0 || d.Status != "no_data" || d.Provenance != nil {
				t.Errorf("%s: %+v", d.Dataset, d)
			}
			continue
		}
		if d.TotalRecords != 120 || d.Status != "published" || d.Version == nil || *d.Version != 1 {
			t.Errorf("smb-directory: total %d status %s version %v, want 120 published 1", d.TotalRecords, d.Status, d.Version)
		}
		if !d.LastUpdated.Equal(w.clock.Now()) {
			t.Errorf("last_updated %s, want %s", d.LastUpdated, w.clock.Now())
		}
		if p := d.Provenance; p == nil || p.SHA256 != hex.EncodeToString(sum[:]) || p.Bytes != int64(len(body)) ||
			p.Sample == nil || *p.Sample {
			t.Errorf("provenance %+v, want sha256 %x, %d bytes, sample false", p, sum, len(body))
		}
	}
	if stats.TotalRecords != 120 {
		t.Errorf("total_records %d, want 120", stats.TotalRecords)
	}
	// the rows served are the rows counted
	p := pageOf(t, w.get("/smb-directory?per_page=500"), "data")
	if p.Total != 120 || len(p.Rows) != 120 {
		t.Errorf("page total %d with %d rows, want 120", p.Total, len(p.Rows))
	}
}

func TestSampleProvenanceIsMarked(t *testing.T) {
	w := newWorld(t, false)
	w.importSamples()
	var stats struct {
		Datasets []struct {
			Dataset      string `json:"dataset"`
			TotalRecords int64  `json:"total_records"`
			Provenance   struct {
				Sample  bool   `json:"sample"`
				License string `json:"license"`
			} `json:"provenance"`
		} `json:"datasets"`
		TotalRecords int64 `json:"total_records"`
	}
	if err := json.Unmarshal(w.get("/stats").Raw, &stats); err != nil {
		t.Fatal(err)
	}
	// the sample files' data lines
	want := map[string]int64{"smb-directory": 17, "whois-enrichment": 6, "montana-livestock": 3, "montana-web3": 5, "sc-county-parcels": 5}
	for _, d := range stats.Datasets {
		if d.TotalRecords != want[d.Dataset] || !d.Provenance.Sample || d.Provenance.License == "" {
			t.Errorf("%s: %+v, want %d rows, sample, a licence", d.Dataset, d, want[d.Dataset])
		}
	}
	if stats.TotalRecords != 36 {
		t.Errorf("total_records %d, want 36", stats.TotalRecords)
	}
}

func TestRecordsHaveTheVisibleColumnsInOrderAndRow(t *testing.T) {
	w := newWorld(t, false)
	body, _ := loadedFile()
	w.published("smb-directory", body, 1)
	p := pageOf(t, w.get("/smb-directory?per_page=2"), "data")
	want := []string{"business_name", "category", "city", "state", "is_tech", "naics", "phone", "website", "city_key", "industry", "_row"}
	if got := keysOf(t, p.Rows[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("record members %v, want %v", got, want)
	}
	var rec map[string]any
	_ = json.Unmarshal(p.Rows[0], &rec)
	wantRec := map[string]any{"business_name": "Alpha 001", "category": "Shop", "city": "New York", "state": "NY", "is_tech": true,
		"naics": "311811", "phone": nil, "website": nil, "city_key": "nyc", "industry": nil, "_row": float64(1)}
	if !reflect.DeepEqual(rec, wantRec) {
		t.Errorf("record %v, want %v", rec, wantRec)
	}
	if !reflect.DeepEqual(rowNos(t, p.Rows), []int{1, 2}) {
		t.Errorf("rows %v", rowNos(t, p.Rows))
	}

	w.importSamples()
	whois := pageOf(t, w.get("/whois-enrichment?per_page=1"), "data")
	if got, want := keysOf(t, whois.Rows[0]), []string{"domain", "org_name", "registrar", "infrastructure", "domain_age_days", "country", "evidence", "_row"}; !reflect.DeepEqual(got, want) {
		t.Errorf("whois members %v, want %v", got, want)
	}
	// a JSON column is served as JSON
	w.published("whois-enrichment", "domain,org_name,infrastructure,evidence\n"+
		`acme.example,Acme,AWS,"{""infrastructure"": {""source"": ""dns"", ""ips"": [""192.0.2.1""]}}"`+"\n"+
		"other.example,Other,,\n", 2)
	ev := pageOf(t, w.get("/whois-enrichment"), "data")
	var withEvidence struct {
		Evidence struct {
			Infrastructure struct {
				Source string   `json:"source"`
				IPs    []string `json:"ips"`
			} `json:"infrastructure"`
		} `json:"evidence"`
		Infrastructure string `json:"infrastructure"`
	}
	if err := json.Unmarshal(ev.Rows[0], &withEvidence); err != nil || withEvidence.Evidence.Infrastructure.Source != "dns" ||
		len(withEvidence.Evidence.Infrastructure.IPs) != 1 {
		t.Errorf("evidence record %s: %v", ev.Rows[0], err)
	}
	if field(t, ev.Rows[1], "evidence") != nil || field(t, ev.Rows[1], "infrastructure") != "unknown" {
		t.Errorf("record without evidence %s", ev.Rows[1])
	}
	parcels := pageOf(t, w.get("/sc-county/parcels?per_page=1"), "records")
	if got, want := keysOf(t, parcels.Rows[0]), []string{"apn", "situs_address", "city", "use_type", "use_code", "acreage", "land_value",
		"improvement_value", "year_built", "zoning", "_row"}; !reflect.DeepEqual(got, want) {
		t.Errorf("parcel members %v, want %v", got, want)
	}
	var parcel map[string]any
	_ = json.Unmarshal(parcels.Rows[0], &parcel)
	if parcel["apn"] != "000-001-01" || parcel["acreage"] != 0.14 || parcel["land_value"] != float64(650000) || parcel["year_built"] != float64(1952) {
		t.Errorf("parcel %v", parcel)
	}
	for _, d := range []struct{ path, first string }{{"/montana/livestock", "Yellowstone Valley Sale Barn"}, {"/montana/web3", "Clark Fork Hash"}} {
		p := pageOf(t, w.get(d.path), "records")
		if got := names(t, p.Rows[:1], "name"); got[0] != d.first || p.Status != "published" || p.Version == nil || *p.Version != 1 {
			t.Errorf("%s: first %q status %s", d.path, got[0], p.Status)
		}
	}
}

func TestPagingFollowsFileOrder(t *testing.T) {
	w := newWorld(t, false)
	body, valid := loadedFile()
	w.published("smb-directory", body, 1)
	wantNames := make([]string, len(valid))
	for i, b := range valid {
		wantNames[i] = b.name
	}

	r := w.get("/smb-directory")
	p := pageOf(t, r, "data")
	if p.Total != 120 || p.Page != 1 || p.PerPage != 50 || !p.HasMore || len(p.Rows) != 50 || p.Status != "published" || *p.Version != 1 {
		t.Fatalf("page 1: total %d page %d per_page %d has_more %t rows %d", p.Total, p.Page, p.PerPage, p.HasMore, len(p.Rows))
	}
	next := nextLink(t, r)
	u, err := url.Parse(next)
	if err != nil || u.Path != base+"/smb-directory" || u.Query().Get("page") != "2" || u.Query().Get("version") != "1" {
		t.Fatalf("Link next %q, want page=2 and version=1", next)
	}

	// every row once, in file order, following the links
	var got []string
	var rowsSeen []int
	pages := 0
	for link := "/smb-directory?per_page=7"; link != ""; pages++ {
		r := w.get(link)
		p := pageOf(t, r, "data")
		if p.Total != 120 {
			t.Fatalf("%s: total %d", link, p.Total)
		}
		got = append(got, names(t, p.Rows, "business_name")...)
		rowsSeen = append(rowsSeen, rowNos(t, p.Rows)...)
		link = nextLink(t, r)
		if p.HasMore != (link != "") {
			t.Fatalf("has_more %t with Link %q", p.HasMore, link)
		}
	}
	if pages != 18 || !reflect.DeepEqual(got, wantNames) {
		t.Fatalf("%d pages of %d rows, want 18 pages of the file's 120 in order", pages, len(got))
	}
	for i, n := range rowsSeen {
		want := i + 1
		if i >= 59 {
			want = i + 2 // row 60 was left out
		}
		if n != want {
			t.Fatalf("record %d has _row %d, want %d", i, n, want)
		}
	}

	last := w.get("/smb-directory?page=3")
	lp := pageOf(t, last, "data")
	if len(lp.Rows) != 20 || lp.HasMore || nextLink(t, last) != "" || names(t, lp.Rows, "business_name")[19] != "Alpha 121" {
		t.Errorf("page 3: %d rows has_more %t", len(lp.Rows), lp.HasMore)
	}
	beyond := pageOf(t, w.get("/smb-directory?page=9"), "data")
	if len(beyond.Rows) != 0 || beyond.Total != 120 || beyond.HasMore {
		t.Errorf("page 9: %d rows total %d has_more %t", len(beyond.Rows), beyond.Total, beyond.HasMore)
	}
	all := pageOf(t, w.get("/smb-directory?per_page=500"), "data")
	if len(all.Rows) != 120 || all.HasMore || all.PerPage != 500 {
		t.Errorf("per_page=500: %d rows has_more %t", len(all.Rows), all.HasMore)
	}
	// the same page twice is the same rows
	a, b := w.get("/smb-directory?page=2&per_page=13"), w.get("/smb-directory?page=2&per_page=13")
	if string(a.Raw) != string(b.Raw) {
		t.Errorf("page 2 read twice differs")
	}
}

func TestPagingParametersAreChecked(t *testing.T) {
	w := newWorld(t, false)
	body, _ := loadedFile()
	w.published("smb-directory", body, 1)
	for _, c := range []struct{ query, field string }{
		{"per_page=501", "per_page"}, {"per_page=0", "per_page"}, {"per_page=-1", "per_page"}, {"per_page=ten", "per_page"},
		{"page=0", "page"}, {"page=-2", "page"}, {"page=1.5", "page"}, {"page=" + strconv.Itoa(100_001), "page"},
		{"version=0", "version"}, {"version=x", "version"},
	} {
		wantError(t, w.get("/smb-directory?"+c.query), http.StatusBadRequest, c.field)
	}
	wantError(t, w.get("/montana/livestock?per_page=501"), http.StatusBadRequest, "per_page")
}
