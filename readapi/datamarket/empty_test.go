package datamarket_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// publicPaths are the public datasets' routes and list members.
var publicPaths = []struct{ dataset, path, envelope string }{
	{"smb-directory", "/smb-directory", "data"},
	{"whois-enrichment", "/whois-enrichment", "data"},
	{"montana-livestock", "/montana/livestock", "records"},
	{"montana-web3", "/montana/web3", "records"},
	{"sc-county-parcels", "/sc-county/parcels", "records"},
}

func TestDatasetWithNoDataIsAnEmptyPage(t *testing.T) {
	w := newWorld(t, false)
	for _, d := range publicPaths {
		r := w.get(d.path)
		p := pageOf(t, r, d.envelope)
		if len(p.Rows) != 0 || p.Total != 0 || p.Page != 1 || p.PerPage != 50 || p.HasMore || p.Status != "no_data" || p.Version != nil {
			t.Errorf("%s: %s", d.path, r.Raw)
		}
		raw := map[string]json.RawMessage{}
		_ = json.Unmarshal(r.Raw, &raw)
		if string(raw["version"]) != "null" {
			t.Errorf("%s: version %s, want null", d.path, raw["version"])
		}
		other := "records"
		if d.envelope == "records" {
			other = "data"
		}
		if _, ok := raw[other]; ok {
			t.Errorf("%s: has member %q as well as %q", d.path, other, d.envelope)
		}
	}
	// the parameters are still checked and echoed
	p := pageOf(t, w.get("/smb-directory?page=3&per_page=10"), "data")
	if p.Page != 3 || p.PerPage != 10 || p.Total != 0 || p.Status != "no_data" {
		t.Errorf("page 3 of nothing: %+v", p)
	}
	wantError(t, w.get("/smb-directory?per_page=501"), http.StatusBadRequest, "per_page")
}

func TestStatsWithNoData(t *testing.T) {
	w := newWorld(t, false)
	r := w.get("/stats")
	if r.Status != http.StatusOK {
		t.Fatalf("stats: %d %s", r.Status, r.Raw)
	}
	var body struct {
		Datasets []struct {
			Dataset      string          `json:"dataset"`
			Path         string          `json:"path"`
			TotalRecords *int64          `json:"total_records"`
			Status       string          `json:"status"`
			Version      json.RawMessage `json:"version"`
			LastUpdated  json.RawMessage `json:"last_updated"`
		} `json:"datasets"`
		TotalRecords *int64 `json:"total_records"`
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil {
		t.Fatal(err)
	}
	if body.TotalRecords == nil || *body.TotalRecords != 0 {
		t.Errorf("total_records %v, want 0", body.TotalRecords)
	}
	if len(body.Datasets) != len(publicPaths) {
		t.Fatalf("%d datasets, want %d: %s", len(body.Datasets), len(publicPaths), r.Raw)
	}
	for i, d := range body.Datasets {
		want := publicPaths[i]
		if d.Dataset != want.dataset || d.Path != base+want.path {
			t.Errorf("dataset %d: %s at %s, want %s at %s", i, d.Dataset, d.Path, want.dataset, base+want.path)
		}
		if d.TotalRecords == nil || *d.TotalRecords != 0 || d.Status != "no_data" || string(d.Version) != "null" || string(d.LastUpdated) != "null" {
			t.Errorf("%s: total %v status %s version %s last_updated %s", d.Dataset, d.TotalRecords, d.Status, d.Version, d.LastUpdated)
		}
	}
}
