package datamarket_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	cmddata "github.com/strata-platform/strata/commands/datamarket"
	"github.com/strata-platform/strata/domain/datamarket"
	"github.com/strata-platform/strata/domain/kernel"
)

const smbHeader = "business_name,category,city,state,is_tech,naics,phone,website\n"

// smbRows is a directory file of n valid rows, names tagged with tag.
func smbRows(n int, tag string) string {
	var b strings.Builder
	b.WriteString(smbHeader)
	cities := []string{"San Francisco,CA", "New York,NY", "Seattle,WA", "Austin,TX", "Los Angeles,CA"}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s Business %d,Cafe,%s,%t,722515,555-0100,\n", tag, i, cities[i%len(cities)], i%3 == 0)
	}
	return b.String()
}

func TestImportPublishesAndTheSameFileMakesNothingNew(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	res := w.importFile("smb-directory", "a.csv", smbRows(10, "A"))
	if res.Status != datamarket.StatusPublished || res.Version != 1 || res.RowsLoaded != 10 || res.RowsInvalid != 0 {
		t.Fatalf("first import: %+v", res)
	}
	if v, n := w.current("smb-directory"); v != 1 || n != 10 {
		t.Fatalf("readers see v%d with %d rows, want v1 with 10", v, n)
	}
	again := w.importFile("smb-directory", "copy-of-a.csv", smbRows(10, "A"))
	if !again.Unchanged || again.Version != 1 || again.Status != datamarket.StatusPublished {
		t.Fatalf("same bytes again: %+v, want unchanged version 1", again)
	}
	if got := w.events("smb-directory"); !reflect.DeepEqual(got, []string{"datamarket.version_staged", "datamarket.version_validated", "datamarket.version_published"}) {
		t.Fatalf("events %v: one set of version events, none per row", got)
	}
	res2 := w.importFile("smb-directory", "b.csv", smbRows(12, "B"))
	if res2.Version != 2 || res2.Status != datamarket.StatusPublished {
		t.Fatalf("second file: %+v", res2)
	}
	if v, n := w.current("smb-directory"); v != 2 || n != 12 {
		t.Fatalf("readers see v%d with %d rows, want v2 with 12", v, n)
	}
	if s := w.status("smb-directory", 1); s != datamarket.StatusSuperseded {
		t.Fatalf("v1 is %s, want superseded", s)
	}
}

func TestRowErrorsAreReportedAndTooManyRejectTheVersion(t *testing.T) {
	w := newWorld(t, cmddata.Config{MaxInvalidRatio: 0.05})
	good := smbRows(100, "Good")
	withOneBad := good + "Bad Row,Cafe,San Francisco,CA,maybe,722515,,\n"
	var kept []datamarket.RowError
	res, err := w.svc.Import(context.Background(), "smb-directory", cmddata.Source{Location: w.file("one-bad.csv", withOneBad)},
		func(e datamarket.RowError) { kept = append(kept, e) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != datamarket.StatusPublished || res.RowsLoaded != 100 || res.RowsInvalid != 1 || res.RowsRead != 101 {
		t.Fatalf("one bad row of 101: %+v", res)
	}
	want := datamarket.RowError{Row: 101, Field: "is_tech", Rule: "boolean"}
	if len(kept) != 1 || kept[0].Row != want.Row || kept[0].Field != want.Field || kept[0].Rule != want.Rule {
		t.Fatalf("row errors %+v, want %+v", kept, want)
	}
	var mostlyBad strings.Builder
	mostlyBad.WriteString(smbHeader)
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&mostlyBad, "Biz %d,Cafe,Springfield,ZZ,true,722515,,\n", i) // no such state
	}
	rej := w.importFile("smb-directory", "bad.csv", mostlyBad.String())
	if rej.Status != datamarket.StatusRejected || rej.Version != 2 || rej.RowsInvalid != 20 {
		t.Fatalf("all rows bad: %+v", rej)
	}
	if v, n := w.current("smb-directory"); v != 1 || n != 100 {
		t.Fatalf("after a rejected import readers see v%d with %d rows, want v1 with 100", v, n)
	}
	if s := w.status("smb-directory", 2); s != datamarket.StatusRejected {
		t.Fatalf("v2 is %s, want rejected", s)
	}
	if got := w.tables(); !reflect.DeepEqual(got, []string{"smb_directory_v1"}) {
		t.Fatalf("row tables %v: a rejected version keeps no rows", got)
	}
}

func TestAFileWithoutARequiredColumnIsRejectedWhole(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	res := w.importFile("smb-directory", "nocity.csv", "business_name,state\nAcme,CA\n")
	if res.Status != datamarket.StatusRejected || !strings.Contains(res.Reason, "city") {
		t.Fatalf("missing city column: %+v", res)
	}
	if v, _ := w.current("smb-directory"); v != 0 {
		t.Fatalf("readers see v%d, want none", v)
	}
}

// A file that breaks after whole chunks were committed (a malformed line
// past the first 50,000 rows) leaves no rows behind and readers where
// they were.
func TestAFailureAfterCommittedChunksLeavesNoHalfVersion(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	w.importFile("smb-directory", "v1.csv", smbRows(5, "V1"))
	body := smbRows(60_000, "Big") + "Broken \"quote,Cafe,Seattle,WA,true,722515,,\n" + "After,Cafe,Seattle,WA,true,722515,,\n"
	res := w.importFile("smb-directory", "broken.csv", body)
	if res.Status != datamarket.StatusRejected || !strings.Contains(res.Reason, "row 60001") {
		t.Fatalf("broken file: %+v", res)
	}
	if v, n := w.current("smb-directory"); v != 1 || n != 5 {
		t.Fatalf("readers see v%d with %d rows, want v1 with 5", v, n)
	}
	if got := w.tables(); !reflect.DeepEqual(got, []string{"smb_directory_v1"}) {
		t.Fatalf("row tables %v: the broken version's committed chunks must be gone", got)
	}
}

// A process that dies mid-load leaves a row table no event names: it is
// not a version (readers never see it) and the next import replaces it.
func TestARowTableLeftByACrashIsNotAVersionAndIsReplaced(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	if _, err := w.db.Exec(`CREATE TABLE data_rows.smb_directory_v1 (row_no bigint, business_name text)`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.Exec(`INSERT INTO data_rows.smb_directory_v1 VALUES (1, 'half loaded')`); err != nil {
		t.Fatal(err)
	}
	if v, _ := w.current("smb-directory"); v != 0 {
		t.Fatalf("a leftover table is visible as v%d", v)
	}
	res := w.importFile("smb-directory", "after-crash.csv", smbRows(7, "New"))
	if res.Version != 1 || res.Status != datamarket.StatusPublished || res.RowsLoaded != 7 {
		t.Fatalf("import after a crash: %+v", res)
	}
	var n int
	if err := w.db.QueryRow(`SELECT count(*) FROM data_rows.smb_directory_v1 WHERE business_name = 'half loaded'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("half-loaded rows survived: %d (%v)", n, err)
	}
}

func TestRetractMovesReadersToThePreviousVersion(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	w.importFile("smb-directory", "v1.csv", smbRows(3, "One"))
	w.importFile("smb-directory", "v2.csv", smbRows(4, "Two"))
	ctx := context.Background()
	if _, err := w.svc.Retract(ctx, "smb-directory", 2, "", "test"); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("retract without a reason: %v, want invalid", err)
	}
	cur, err := w.svc.Retract(ctx, "smb-directory", 2, "wrong source file", "test")
	if err != nil || cur != 1 {
		t.Fatalf("retract v2: current %d, %v; want 1", cur, err)
	}
	if v, n := w.current("smb-directory"); v != 1 || n != 3 {
		t.Fatalf("readers see v%d with %d rows, want v1 with 3", v, n)
	}
	if s := w.status("smb-directory", 2); s != datamarket.StatusRetracted {
		t.Fatalf("v2 is %s", s)
	}
	if _, err := w.svc.Retract(ctx, "smb-directory", 2, "again", "test"); kernel.KindOf(err) != kernel.KindConflict {
		t.Fatalf("retracting twice: %v, want conflict", err)
	}
	if _, err := w.svc.Retract(ctx, "smb-directory", 9, "none", "test"); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("retracting an unknown version: %v, want not found", err)
	}
	again := w.importFile("smb-directory", "v2-again.csv", smbRows(4, "Two"))
	if !again.Unchanged || again.Version != 2 || again.Status != datamarket.StatusRetracted {
		t.Fatalf("the retracted file again: %+v, want unchanged (retracted v2)", again)
	}
	if cur, err := w.svc.Retract(ctx, "smb-directory", 1, "all wrong", "test"); err != nil || cur != 0 {
		t.Fatalf("retract the last version: %d, %v", cur, err)
	}
	if v, _ := w.current("smb-directory"); v != 0 {
		t.Fatalf("readers see v%d after every version was retracted", v)
	}
}

func TestRetentionPurgesTheRowsOfOldVersions(t *testing.T) {
	w := newWorld(t, cmddata.Config{Keep: 2})
	for i := 1; i <= 4; i++ {
		res := w.importFile("smb-directory", fmt.Sprintf("v%d.csv", i), smbRows(2+i, fmt.Sprint("V", i)))
		if res.Version != i {
			t.Fatalf("import %d made version %d", i, res.Version)
		}
	}
	if got := w.tables(); !reflect.DeepEqual(got, []string{"smb_directory_v3", "smb_directory_v4"}) {
		t.Fatalf("row tables %v, want the newest two", got)
	}
	for v, want := range map[int]string{1: datamarket.StatusPurged, 2: datamarket.StatusPurged, 3: datamarket.StatusSuperseded, 4: datamarket.StatusPublished} {
		if s := w.status("smb-directory", v); s != want {
			t.Fatalf("v%d is %s, want %s", v, s, want)
		}
	}
}

func TestDuplicatesOfTheUniqueColumnAreReported(t *testing.T) {
	w := newWorld(t, cmddata.Config{MaxInvalidRatio: 0.5})
	res := w.importFile("whois-enrichment", "d.csv", "domain,org_name,infrastructure\nacme.example,Acme,aws\nACME.example,Acme again,AWS\nother.example,Other,\n")
	if res.RowsLoaded != 2 || res.RowsInvalid != 1 || len(res.Errors) != 1 || res.Errors[0].Rule != "unique" || res.Errors[0].Row != 2 {
		t.Fatalf("duplicate domain: %+v %+v", res, res.Errors)
	}
}

func TestNDJSONImportReportsIgnoredMembersAndTypes(t *testing.T) {
	w := newWorld(t, cmddata.Config{MaxInvalidRatio: 0.5})
	body := `{"apn":"001-001-01","city":"santa cruz","acreage":0.25,"year_built":1950,"owner":"left out"}
{"apn":"001-001-02","city":"APTOS","acreage":"big"}
not json
{"apn":"001-001-03","land_value":100000,"zoning":null}
`
	res := w.importFile("sc-county-parcels", "p.ndjson", body)
	if res.Status != datamarket.StatusPublished || res.RowsLoaded != 2 || res.RowsInvalid != 2 || res.RowsRead != 4 {
		t.Fatalf("ndjson: %+v %+v", res, res.Errors)
	}
	if !reflect.DeepEqual(res.Ignored, []string{"owner"}) {
		t.Fatalf("ignored %v, want [owner]", res.Ignored)
	}
	var city string
	var acres float64
	if err := w.db.QueryRow(`SELECT city, acreage FROM data_rows.sc_county_parcels_v1 WHERE apn = '001-001-01'`).Scan(&city, &acres); err != nil || city != "SANTA CRUZ" || acres != 0.25 {
		t.Fatalf("row: %q %v %v", city, acres, err)
	}
}

func TestConcurrentImportsOfOneDatasetTakeTurns(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	var wg sync.WaitGroup
	results := make([]*cmddata.Result, 3)
	errs := make([]error, 3)
	for i := range results {
		p := w.file(fmt.Sprintf("c%d.csv", i), smbRows(50+i, fmt.Sprint("C", i)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = w.svc.Import(context.Background(), "smb-directory", cmddata.Source{Location: p}, nil)
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for i, r := range results {
		if errs[i] != nil || r.Status != datamarket.StatusPublished {
			t.Fatalf("import %d: %+v %v", i, r, errs[i])
		}
		seen[r.Version] = true
	}
	if len(seen) != 3 || !seen[1] || !seen[2] || !seen[3] {
		t.Fatalf("versions %v, want 1, 2 and 3", seen)
	}
}

func TestUnknownDatasetAndFormatAreRefused(t *testing.T) {
	w := newWorld(t, cmddata.Config{})
	if _, err := w.svc.Import(context.Background(), "nope", cmddata.Source{Location: w.file("x.csv", "a\n1\n")}, nil); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("unknown dataset: %v", err)
	}
	if _, err := w.svc.Import(context.Background(), "smb-directory", cmddata.Source{Location: w.file("x.txt", "a\n1\n")}, nil); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("unknown format: %v", err)
	}
	if _, err := w.svc.Import(context.Background(), "smb-directory", cmddata.Source{Location: w.file("x.json", "{}"), Format: "aws"}, nil); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("a ranges format for the directory: %v", err)
	}
}
