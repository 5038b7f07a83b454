package reportfmt

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/captable/reports"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestRenderJSONRoundTrips(t *testing.T) {
	for _, typ := range reports.Types {
		r := report(t, typ, 0)
		body, ct, ext, err := Render(r, "json")
		if err != nil || ct != "application/json" || ext != "json" {
			t.Fatalf("%s: %q %q %v", typ, ct, ext, err)
		}
		var back reports.Report
		if err := json.Unmarshal(body, &back); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("%s: the JSON does not round-trip:\n%+v\n%+v", typ, back, r)
		}
		again, _, _, _ := Render(r, "JSON")
		if !bytes.Equal(body, again) {
			t.Errorf("%s: two renderings differ", typ)
		}
	}
}

func TestRenderCSV(t *testing.T) {
	body, ct, ext, err := Render(report(t, reports.TypeCapTableSummary, 0), "csv")
	if err != nil || ct != "text/csv; charset=utf-8" || ext != "csv" {
		t.Fatalf("%q %q %v", ct, ext, err)
	}
	rd := csv.NewReader(bytes.NewReader(body))
	rd.FieldsPerRecord = -1
	records, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	find := func(section, kind, first string) []string {
		for _, rec := range records {
			if rec[0] == section && rec[1] == kind && (first == "" || rec[2] == first) {
				return rec
			}
		}
		t.Fatalf("no %s %s record %q", section, kind, first)
		return nil
	}
	cases := []struct {
		got  []string
		want []string
	}{
		{records[0], []string{"report", "title", "Cap Table Summary"}},
		{find("report", "row", "Company"), []string{"report", "row", "Company", "Zoë Robotics, Inc."}},
		{find("report", "row", "As-of date"), []string{"report", "row", "As-of date", "2024-12-31"}},
		{find("classes", "header", ""), []string{"classes", "header", "Share class", "Type", "Authorized", "Issued",
			"Outstanding awards", "Available", "Fully diluted", "Ownership %"}},
		{find("classes", "row", "Common"), []string{"classes", "row", "Common", "COMMON", "10000000", "9025000", "0",
			"975000", "9025000", "90.2500"}},
		{find("classes", "total", ""), []string{"classes", "total", "Total", "", "", "9025000", "125000", "", "10000000", "100.0000"}},
		{find("stakeholders", "row", "Zoë Ångström"), []string{"stakeholders", "row", "Zoë Ångström", "FOUNDER", "9000000",
			"0", "9000000", "90.0000"}},
		{find("stakeholders", "row", "'=HYPERLINK(\"http://x\")"), []string{"stakeholders", "row", "'=HYPERLINK(\"http://x\")",
			"ADVISOR", "0", "50000", "50000", "0.5000"}},
	}
	for _, tc := range cases {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("record %q, want %q", tc.got, tc.want)
		}
	}
	if rec := find("totals", "note", ""); len(rec) != 3 || rec[2] == "" {
		t.Errorf("note record %q", rec)
	}
	// A negative figure is a number, not a formula: it is written as is.
	ledger, _, _, _ := Render(report(t, reports.TypeEquityLedger, 0), "csv")
	if !bytes.Contains(ledger, []byte(",-25000,")) {
		t.Errorf("the exercise's quantity change is not written as -25000:\n%s", ledger)
	}
}

func TestRenderRefusesAnUnknownFormat(t *testing.T) {
	_, _, _, err := Render(report(t, reports.TypeAuditReady, 0), "xlsx")
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != "format" || ke.Rule != "one_of" {
		t.Fatalf("err %v", err)
	}
}
