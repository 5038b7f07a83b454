package datamarket_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// statsVersion is a dataset's version and row count in /stats.
func statsVersion(t *testing.T, w *world, dataset string) (*int, int64) {
	t.Helper()
	var stats struct {
		Datasets []struct {
			Dataset      string `json:"dataset"`
			Version      *int   `json:"version"`
			TotalRecords int64  `json:"total_records"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal(w.get("/stats").Raw, &stats); err != nil {
		t.Fatal(err)
	}
	for _, d := range stats.Datasets {
		if d.Dataset == dataset {
			return d.Version, d.TotalRecords
		}
	}
	t.Fatalf("no %s in /stats", dataset)
	return nil, 0
}

func TestPagingIsStableUnderAPublish(t *testing.T) {
	w := newWorld(t, false)
	v1 := numbered("Alpha", 120)
	w.published("smb-directory", smbCSV(v1), 1)

	r1 := w.get("/smb-directory")
	p1 := pageOf(t, r1, "data")
	if *p1.Version != 1 {
		t.Fatalf("page 1 of version %d", *p1.Version)
	}
	link := nextLink(t, r1)

	// version 2: the rows reversed, every third renamed, ten fewer
	v2 := slices.Clone(v1[10:])
	slices.Reverse(v2)
	for i := range v2 {
		if i%3 == 0 {
			v2[i].name = strings.Replace(v2[i].name, "Alpha", "Beta", 1)
		}
	}
	w.published("smb-directory", smbCSV(v2), 2)

	p2 := pageOf(t, w.get(link), "data")
	p3 := pageOf(t, w.get(nextLink(t, w.get(link))), "data")
	if *p2.Version != 1 || *p3.Version != 1 || p2.Total != 120 {
		t.Fatalf("pages 2 and 3 read versions %d and %d, total %d; want 1, 120", *p2.Version, *p3.Version, p2.Total)
	}
	var got []string
	for _, p := range []page{p1, p2, p3} {
		got = append(got, names(t, p.Rows, "business_name")...)
	}
	var want []string
	for _, b := range v1 {
		want = append(want, b.name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pages 1-3 pinned to version 1:\n got %v\nwant %v", got, want)
	}

	// without a version: version 2's page 2
	cur := pageOf(t, w.get("/smb-directory?page=2"), "data")
	if *cur.Version != 2 || cur.Total != 110 {
		t.Fatalf("unpinned page 2: version %d total %d", *cur.Version, cur.Total)
	}
	var want2 []string
	for _, b := range v2[50:100] {
		want2 = append(want2, b.name)
	}
	if got := names(t, cur.Rows, "business_name"); !reflect.DeepEqual(got, want2) {
		t.Fatalf("version 2 page 2: got %v\nwant %v", got, want2)
	}
	if v, n := statsVersion(t, w, "smb-directory"); v == nil || *v != 2 || n != 110 {
		t.Errorf("stats: version %v, %d rows", v, n)
	}

	// filtered totals are the pinned version's
	count := func(rows []biz, keep func(biz) bool) int64 {
		var n int64
		for _, b := range rows {
			if keep(b) {
				n++
			}
		}
		return n
	}
	nyc := func(b biz) bool { return cityKeyOf(b) == "nyc" }
	nycTech := func(b biz) bool { return cityKeyOf(b) == "nyc" && b.tech }
	for _, c := range []struct {
		query string
		want  int64
	}{
		{"city=nyc&version=1", count(v1, nyc)}, {"city=nyc", count(v2, nyc)},
		{"city=nyc&tech_only=true&version=1", count(v1, nycTech)}, {"city=nyc&tech_only=true", count(v2, nycTech)},
		{"search=beta&version=1", 0}, {"search=beta", count(v2, func(b biz) bool { return strings.HasPrefix(b.name, "Beta") })},
	} {
		if p := pageOf(t, w.get("/smb-directory?"+c.query), "data"); p.Total != c.want {
			t.Errorf("%s: total %d, want %d", c.query, p.Total, c.want)
		}
	}
}

func TestVersionPins(t *testing.T) {
	w := newWorld(t, false)
	ctx := context.Background()
	w.published("smb-directory", smbCSV(numbered("One", 3)), 1)
	w.published("smb-directory", smbCSV(numbered("Two", 4)), 2)
	w.published("smb-directory", smbCSV(numbered("Three", 5)), 3)

	// a superseded version is still served
	p := pageOf(t, w.get("/smb-directory?version=1"), "data")
	if *p.Version != 1 || p.Total != 3 || names(t, p.Rows, "business_name")[0] != "One 001" {
		t.Errorf("version 1: %+v", p)
	}
	if p := pageOf(t, w.get("/smb-directory"), "data"); *p.Version != 3 || p.Total != 5 {
		t.Errorf("current: version %d total %d", *p.Version, p.Total)
	}
	wantError(t, w.get("/smb-directory?version=9"), http.StatusNotFound, "")
	wantError(t, w.get("/whois-enrichment?version=1"), http.StatusNotFound, "")

	// retracting a superseded version: gone, readers stay
	if cur, err := w.svc.Retract(ctx, "smb-directory", 1, "wrong file", "test"); err != nil || cur != 3 {
		t.Fatalf("retract 1: current %d, %v", cur, err)
	}
	wantError(t, w.get("/smb-directory?version=1"), http.StatusGone, "")

	// retracting the current version: readers move to the previous one
	if cur, err := w.svc.Retract(ctx, "smb-directory", 3, "bad rows", "test"); err != nil || cur != 2 {
		t.Fatalf("retract 3: current %d, %v", cur, err)
	}
	wantError(t, w.get("/smb-directory?version=3"), http.StatusGone, "")
	if p := pageOf(t, w.get("/smb-directory"), "data"); *p.Version != 2 || p.Total != 4 || names(t, p.Rows, "business_name")[0] != "Two 001" {
		t.Errorf("after retracting 3: version %d total %d", *p.Version, p.Total)
	}
	if v, n := statsVersion(t, w, "smb-directory"); v == nil || *v != 2 || n != 4 {
		t.Errorf("stats after retracting 3: version %v, %d rows", v, n)
	}
	// the last readable version retracted: no data
	if cur, err := w.svc.Retract(ctx, "smb-directory", 2, "all wrong", "test"); err != nil || cur != 0 {
		t.Fatalf("retract 2: current %d, %v", cur, err)
	}
	if p := pageOf(t, w.get("/smb-directory"), "data"); p.Status != "no_data" || p.Version != nil || p.Total != 0 {
		t.Errorf("after retracting every version: %+v", p)
	}
}

func TestRetentionPurgesOldVersions(t *testing.T) {
	w := newWorld(t, false)
	for i, prefix := range []string{"One", "Two", "Three", "Four"} {
		w.published("smb-directory", smbCSV(numbered(prefix, 2)), i+1)
	}
	// Keep 3: version 1's rows are gone, 2 still served
	wantError(t, w.get("/smb-directory?version=1"), http.StatusGone, "version")
	if p := pageOf(t, w.get("/smb-directory?version=2"), "data"); names(t, p.Rows, "business_name")[0] != "Two 001" {
		t.Errorf("version 2: %v", names(t, p.Rows, "business_name"))
	}
}

type versionView struct {
	Version     int     `json:"version"`
	Status      string  `json:"status"`
	RowsRead    int64   `json:"rows_read"`
	RowsLoaded  int64   `json:"rows_loaded"`
	RowsInvalid int64   `json:"rows_invalid"`
	Reason      *string `json:"reason"`
	Errors      []struct {
		Row   int64  `json:"row"`
		Field string `json:"field"`
		Rule  string `json:"rule"`
	} `json:"errors"`
}

func TestFailedImportsLeaveReadersOnTheOldVersion(t *testing.T) {
	w := newWorld(t, false)
	good := numbered("Good", 30)
	w.published("smb-directory", smbCSV(good), 1)
	before := w.get("/smb-directory")

	// version 2: 8 of 10 rows have no valid state
	bad := numbered("Bad", 10)
	for i := range bad {
		if i >= 2 {
			bad[i].state = "ZZ"
		}
	}
	res := w.importFile("smb-directory", "bad.csv", smbCSV(bad))
	if res.Status != "rejected" || res.Version != 2 {
		t.Fatalf("mostly invalid file: %s version %d", res.Status, res.Version)
	}
	// version 3: no state column at all
	res = w.importFile("smb-directory", "nostate.csv", "business_name,city,is_tech\nNo State Co,New York,true\n")
	if res.Status != "rejected" || res.Version != 3 {
		t.Fatalf("file without state: %s version %d", res.Status, res.Version)
	}

	after := w.get("/smb-directory")
	if string(after.Raw) != string(before.Raw) {
		t.Errorf("the page changed after rejected imports:\n%s\n%s", before.Raw, after.Raw)
	}
	if v, n := statsVersion(t, w, "smb-directory"); v == nil || *v != 1 || n != 30 {
		t.Errorf("stats: version %v, %d rows", v, n)
	}
	wantError(t, w.get("/smb-directory?version=2"), http.StatusNotFound, "")

	var ds struct {
		Dataset  string        `json:"dataset"`
		Versions []versionView `json:"versions"`
	}
	r := w.get("/datasets/smb-directory")
	if err := json.Unmarshal(r.Raw, &ds); err != nil || r.Status != http.StatusOK {
		t.Fatalf("dataset: %d %s", r.Status, r.Raw)
	}
	var statuses []string
	for _, v := range ds.Versions {
		statuses = append(statuses, v.Status)
	}
	if !reflect.DeepEqual(statuses, []string{"rejected", "rejected", "published"}) || ds.Versions[0].Version != 3 {
		t.Errorf("versions newest first: %v", statuses)
	}

	var v2 versionView
	r = w.get("/datasets/smb-directory/versions/2")
	if err := json.Unmarshal(r.Raw, &v2); err != nil || r.Status != http.StatusOK {
		t.Fatalf("version 2: %d %s", r.Status, r.Raw)
	}
	if v2.Status != "rejected" || v2.RowsRead != 10 || v2.RowsInvalid != 8 || v2.RowsLoaded != 0 || v2.Reason == nil || *v2.Reason == "" {
		t.Errorf("version 2: %s", r.Raw)
	}
	if len(v2.Errors) != 8 {
		t.Fatalf("version 2 has %d row errors, want 8: %s", len(v2.Errors), r.Raw)
	}
	for i, e := range v2.Errors {
		if e.Row != int64(i+3) || e.Field != "state" || e.Rule != "state" {
			t.Errorf("error %d: %+v, want row %d field state", i, e, i+3)
		}
	}
	var v3 versionView
	r = w.get("/datasets/smb-directory/versions/3")
	if err := json.Unmarshal(r.Raw, &v3); err != nil || r.Status != http.StatusOK {
		t.Fatalf("version 3: %d %s", r.Status, r.Raw)
	}
	if v3.Status != "rejected" || v3.Reason == nil || !strings.Contains(*v3.Reason, "state") {
		t.Errorf("version 3: %s", r.Raw)
	}
	wantError(t, w.get("/datasets/smb-directory/versions/4"), http.StatusNotFound, "")
	wantError(t, w.get("/datasets/smb-directory/versions/two"), http.StatusBadRequest, "version")
	wantError(t, w.get("/datasets/nope"), http.StatusNotFound, "")

	// the next good file is version 4
	w.published("smb-directory", smbCSV(numbered("Next", 5)), 4)
	if p := pageOf(t, w.get("/smb-directory"), "data"); *p.Version != 4 || p.Total != 5 {
		t.Errorf("after version 4: version %d total %d", *p.Version, p.Total)
	}
}

// TestReadersSeeOneVersionDuringAPublish reads while a new version is
// imported: every page is wholly the old version's or the new one's.
func TestReadersSeeOneVersionDuringAPublish(t *testing.T) {
	w := newWorld(t, false)
	v1, v2 := numbered("Old", 300), numbered("New", 250)
	w.published("smb-directory", smbCSV(v1), 1)
	want := map[int][]string{}
	for _, b := range v1[100:200] {
		want[1] = append(want[1], b.name)
	}
	for _, b := range v2[100:200] {
		want[2] = append(want[2], b.name)
	}
	total := map[int]int64{1: 300, 2: 250}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				// not w.get: t.Fatal belongs to the test's goroutine
				resp, err := http.Get(w.url + base + "/smb-directory?page=2&per_page=100")
				if err != nil {
					errs <- err.Error()
					return
				}
				var p struct {
					Data    []map[string]any `json:"data"`
					Total   int64            `json:"total"`
					Version int              `json:"version"`
				}
				err = json.NewDecoder(resp.Body).Decode(&p)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					errs <- fmt.Sprintf("%d: %v", resp.StatusCode, err)
					return
				}
				var got []string
				for _, rec := range p.Data {
					got = append(got, rec["business_name"].(string))
				}
				if p.Total != total[p.Version] || !reflect.DeepEqual(got, want[p.Version]) {
					errs <- fmt.Sprintf("version %d total %d rows %v", p.Version, p.Total, got)
					return
				}
			}
		}()
	}
	w.published("smb-directory", smbCSV(v2), 2)
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if p := pageOf(t, w.get("/smb-directory"), "data"); *p.Version != 2 {
		t.Errorf("after the publish: version %d", *p.Version)
	}
}
