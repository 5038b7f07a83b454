package reportfmt

import (
	"bytes"
	"crypto/sha256"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"

	"github.com/strata-platform/strata/domain/captable/reports"
)

// readPDF reads a PDF back with a real reader: its pages' text and, per
// page, whether it is landscape.
func readPDF(t *testing.T, body []byte) (string, []bool) {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("the PDF does not parse: %v", err)
	}
	var landscape []bool
	for i := 1; i <= r.NumPage(); i++ {
		box := pdf.Value{}
		for v := r.Page(i).V; !v.IsNull() && box.IsNull(); v = v.Key("Parent") {
			box = v.Key("MediaBox") // inherited from the page tree when absent
		}
		landscape = append(landscape, box.Index(2).Float64() > box.Index(3).Float64()) // page geometry, not a figure
	}
	rd, err := r.GetPlainText()
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return string(text), landscape
}

func TestRenderPDF(t *testing.T) {
	cases := []struct {
		typ       string
		extra     int
		want      []string
		minPages  int
		landscape bool // some page is landscape
	}{
		{reports.TypeCapTableSummary, 0, []string{"Cap Table Summary", "Zoë Robotics, Inc.", "As of 2024-12-31",
			"Zoë Ångström", "9,025,000", "10,000,000", "90.0000"}, 1, false},
		{reports.TypeEquityLedger, 120, []string{"Equity Ledger", "Exercised", "-25,000", "6,250.00", "X-0119",
			"Equity ledger (continued)", "01JFIXTURE0000000000000012"}, 3, true},
		{reports.TypeTaxSummary, 0, []string{"Tax Summary 2024", "Informational only, not tax advice", "25,000.00"}, 1, false},
		{reports.TypeInvestorUpdate, 0, []string{"Investor Update", "Implied post-money valuation", "12,500,000.00"}, 1, false},
		{reports.TypeAuditReady, 0, []string{"Audit-Ready Cap Table", "SHA-256 of the entries used", "matches"}, 2, true},
	}
	for _, tc := range cases {
		r := report(t, tc.typ, tc.extra)
		body, ct, ext, err := Render(r, "pdf")
		if err != nil || ct != "application/pdf" || ext != "pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) {
			t.Fatalf("%s: %q %q %v", tc.typ, ct, ext, err)
		}
		again, _, _, _ := Render(r, "pdf")
		if sha256.Sum256(body) != sha256.Sum256(again) {
			t.Errorf("%s: the same report rendered two different PDFs", tc.typ)
		}
		text, pages := readPDF(t, body)
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the PDF text lacks %q", tc.typ, w)
			}
		}
		if len(pages) < tc.minPages {
			t.Errorf("%s: %d pages, want at least %d", tc.typ, len(pages), tc.minPages)
		}
		some := false
		for _, l := range pages {
			some = some || l
		}
		if some != tc.landscape {
			t.Errorf("%s: landscape pages %v", tc.typ, pages)
		}
		if n := len(pages); !strings.Contains(text, "Page "+strconv.Itoa(n)+" of "+strconv.Itoa(n)) {
			t.Errorf("%s: no page number on the last page (%d pages)", tc.typ, n)
		}
	}
}

func TestDisplayGroupsThousands(t *testing.T) {
	cases := []struct{ kind, in, want string }{
		{reports.KindNumber, "9000000", "9,000,000"},
		{reports.KindNumber, "-10000", "-10,000"},
		{reports.KindMoney, "1234567.891", "1,234,567.891"},
		{reports.KindMoney, "0.0001", "0.0001"},
		{reports.KindNumber, "100", "100"},
		{reports.KindPercent, "1000.0000", "1000.0000"},
		{reports.KindText, "1000000", "1000000"},
		{reports.KindNumber, "", ""},
	}
	for _, tc := range cases {
		if got := display(tc.kind, tc.in); got != tc.want {
			t.Errorf("display(%s, %q) = %q, want %q", tc.kind, tc.in, got, tc.want)
		}
	}
}
