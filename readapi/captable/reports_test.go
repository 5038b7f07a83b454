package captable_test

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

func TestFinancialReports(t *testing.T) {
	w := start(t)
	c := w.register("Rep", "rep@r.test", "Reporting Co")
	seed(t, c, map[string]any{"liquidationPreference": 1})

	b := c.must(http.StatusCreated, "POST", "/financial-reports", map[string]any{"type": "CAP_TABLE_SUMMARY", "asOfDate": "2025-01-01"}).body
	if b["format"] != "json" || b["asOfDate"] != "2025-01-01" || b["contentType"] != "application/json" || b["sha256"] == "" ||
		b["basedOnVersion"].(float64) < 8 || !strings.HasSuffix(str(b["filename"]), ".json") {
		t.Fatalf("report record %s", mustJSON(b))
	}
	rep := b["report"].(map[string]any)
	if rep["type"] != "CAP_TABLE_SUMMARY" || rep["companyName"] != "Reporting Co" || len(rep["sections"].([]any)) == 0 {
		t.Fatalf("report %s", mustJSON(rep))
	}
	if !strings.Contains(mustJSON(rep), "10000000") {
		t.Fatalf("the summary lacks the fully diluted 10,000,000: %s", mustJSON(rep))
	}
	got := c.must(http.StatusOK, "GET", "/financial-reports/"+str(b["id"]), nil).body
	if got["sha256"] != b["sha256"] || got["report"] == nil {
		t.Fatalf("get %s", mustJSON(got))
	}

	// CSV: a spreadsheet reads it back.
	cs := c.must(http.StatusCreated, "POST", "/financial-reports", map[string]any{"type": "EQUITY_LEDGER", "format": "csv"}).body
	dl := c.get("/financial-reports/"+str(cs["id"])+"/download", nil)
	if dl.status != 200 || !strings.HasPrefix(dl.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv download %d %v", dl.status, dl.header)
	}
	cr := csv.NewReader(bytes.NewReader(dl.raw))
	cr.FieldsPerRecord = -1 // one record shape per section (see reportfmt)
	rows, err := cr.ReadAll()
	if err != nil || len(rows) < 3 || !strings.Contains(string(dl.raw), "Founder") {
		t.Fatalf("csv %v %q", err, dl.raw)
	}

	// PDF: a PDF reader finds the title and the company.
	pd := c.must(http.StatusCreated, "POST", "/financial-reports", map[string]any{"type": "AUDIT_READY", "format": "pdf"}).body
	dl = c.get("/financial-reports/"+str(pd["id"])+"/download", nil)
	if dl.status != 200 || dl.header.Get("Content-Type") != "application/pdf" || pd["report"] != nil {
		t.Fatalf("pdf download %d %v", dl.status, dl.header)
	}
	r, err := pdf.NewReader(bytes.NewReader(dl.raw), int64(len(dl.raw)))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		s, _ := r.Page(i).GetPlainText(nil)
		text.WriteString(s)
	}
	if !strings.Contains(text.String(), "Reporting Co") {
		t.Fatalf("pdf text %q", text.String())
	}

	// Every type in every format; a viewer may generate reports too.
	for _, typ := range []string{"INVESTOR_UPDATE", "CAP_TABLE_SUMMARY", "EQUITY_LEDGER", "TAX_SUMMARY", "AUDIT_READY"} {
		for _, f := range []string{"json", "csv", "pdf"} {
			c.must(http.StatusCreated, "POST", "/financial-reports", map[string]any{"type": typ, "format": f})
		}
	}
	ag := c.must(http.StatusCreated, "POST", "/agents/onboard", map[string]any{"agentName": "auditor", "role": "viewer"}).body
	viewer := &client{w: w, token: str(ag["apiKey"])}
	viewer.must(http.StatusCreated, "POST", "/financial-reports", map[string]any{"type": "AUDIT_READY", "format": "json"})
	list := c.must(http.StatusOK, "GET", "/financial-reports?type=AUDIT_READY", nil).body
	if list["pagination"].(map[string]any)["total"] != float64(5) {
		t.Fatalf("list %s", mustJSON(list["pagination"]))
	}

	field(t, c.do("POST", "/financial-reports", map[string]any{"type": "BALANCE_SHEET"}), 400, "VALIDATION_ERROR", "type")
	field(t, c.do("POST", "/financial-reports", map[string]any{"format": "json"}), 400, "VALIDATION_ERROR", "type")
	field(t, c.do("POST", "/financial-reports", map[string]any{"type": "AUDIT_READY", "format": "xls"}), 400, "VALIDATION_ERROR", "format")
	field(t, c.do("POST", "/financial-reports", map[string]any{"type": "AUDIT_READY", "asOfDate": "2999-01-01"}), 400, "VALIDATION_ERROR", "asOfDate")
	field(t, c.do("GET", "/financial-reports?type=X", nil), 400, "VALIDATION_ERROR", "type")
	x := w.register("X", "x@x.test", "X")
	field(t, x.do("GET", "/financial-reports/"+str(b["id"]), nil), 404, "NOT_FOUND", "")
	field(t, x.do("GET", "/financial-reports/"+str(b["id"])+"/download", nil), 404, "NOT_FOUND", "")
}
