package captable_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestPrecisionAndYearsAreRefusedNotRounded: a decimal with more places
// than the cap table keeps, and a date outside the years it accepts, are
// refused naming the field and the limit instead of being rounded or kept.
func TestPrecisionAndYearsAreRefusedNotRounded(t *testing.T) {
	t.Parallel()
	w := start(t)
	c := w.register("Ada", "ada@edge.test", "Edge Inc")
	cases := []struct {
		path        string
		body        map[string]any
		field, rule string
	}{
		{"/share-classes", map[string]any{"name": "A", "type": "PREFERRED", "totalShares": 10, "pricePerShare": 1.23456789012345678901},
			"pricePerShare", "max_places:12"},
		{"/share-classes", map[string]any{"name": "A", "type": "PREFERRED", "totalShares": 10, "pricePerShare": "0.0000000000001"},
			"pricePerShare", "max_places:12"},
		{"/valuations", map[string]any{"valuationDate": "9999-01-01", "methodology": "409A", "pricePerShare": "1.00"},
			"valuationDate", "year_range:1900-2100"},
		{"/valuations", map[string]any{"valuationDate": "0000-01-01", "methodology": "409A", "pricePerShare": "1.00"},
			"valuationDate", "year_range:1900-2100"},
	}
	for _, tc := range cases {
		r := c.do("POST", tc.path, tc.body)
		if r.status != http.StatusBadRequest || r.body["field"] != tc.field || r.body["error"] == nil {
			t.Fatalf("POST %s %v: %d %s, want 400 naming %s", tc.path, tc.body, r.status, r.raw, tc.field)
		}
		want := map[string]string{"max_places:12": "at most 12 decimal places", "year_range:1900-2100": "1900 to 2100"}[tc.rule]
		if msg, _ := r.body["message"].(string); !strings.Contains(msg, want) {
			t.Fatalf("message %q does not name the limit (%s)", msg, want)
		}
	}
	// Twelve places are kept exactly.
	ok := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "B", "type": "PREFERRED", "totalShares": 10,
		"pricePerShare": "1.123456789012"}).body
	if ok["pricePerShare"] != 1.123456789012 {
		t.Fatalf("pricePerShare = %v", ok["pricePerShare"])
	}
}

// TestUploadTextIsChecked: a multipart upload's file name and fields are
// text the store keeps; NUL and invalid UTF-8 are refused there too.
func TestUploadTextIsChecked(t *testing.T) {
	t.Parallel()
	w := start(t)
	c := w.register("Doc", "doc@edge.test", "Edge Docs")
	for _, tc := range []struct {
		name   string
		fields map[string]string
		field  string
		says   string
	}{
		{"a\x00.pdf", map[string]string{"type": "OTHER"}, "file", "multipart"}, // the MIME reader refuses it first
		{"caf\xe9.pdf", map[string]string{"type": "OTHER"}, "file", "UTF-8"},
		{"ok.pdf", map[string]string{"type": "OTHER\x00"}, "type", "NUL"},
	} {
		r := c.upload(tc.name, pdfBytes("x"), tc.fields)
		msg, _ := r.body["message"].(string)
		if r.status != http.StatusBadRequest || r.body["field"] != tc.field || !strings.Contains(msg, tc.says) {
			t.Fatalf("upload %q %v: %d %s, want 400 naming %s", tc.name, tc.fields, r.status, r.raw, tc.field)
		}
	}
	if r := c.upload("ok.pdf", pdfBytes("x"), map[string]string{"type": "OTHER"}); r.status != http.StatusCreated {
		t.Fatalf("a good upload: %d %s", r.status, r.raw)
	}
}
