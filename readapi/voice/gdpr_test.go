package voice_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plaintextScan lists every place in the database (every table of every
// schema, as row text) and under dir (every file) where one of needles
// appears.
func plaintextScan(t *testing.T, w *world, dir string, needles ...string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := w.Platform.DB.QueryContext(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name)
		FROM information_schema.tables WHERE table_type = 'BASE TABLE'
		AND table_schema NOT IN ('pg_catalog', 'information_schema')`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	var hits []string
	for _, tb := range tables {
		rs, err := w.Platform.DB.QueryContext(ctx, `SELECT t::text FROM `+tb+` t`)
		if err != nil {
			t.Fatalf("%s: %v", tb, err)
		}
		for rs.Next() {
			var row string
			if err := rs.Scan(&row); err != nil {
				t.Fatal(err)
			}
			for _, n := range needles {
				if strings.Contains(row, n) {
					hits = append(hits, tb+" holds "+n)
				}
			}
		}
		rs.Close()
	}
	if dir != "" {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, _ := os.ReadFile(p)
			for _, n := range needles {
				if strings.Contains(string(b), n) {
					hits = append(hits, p+" holds "+n)
				}
			}
			return nil
		})
	}
	return hits
}

func TestScannerFindsPlaintext(t *testing.T) {
	w := start(t, options{})
	if _, err := w.Platform.DB.Exec(`CREATE TABLE public.canary (v text); INSERT INTO public.canary VALUES ('call +14155550123 now')`); err != nil {
		t.Fatal(err)
	}
	if hits := plaintextScan(t, w, "", "+14155550123"); len(hits) != 1 {
		t.Fatalf("the scanner misses plaintext: %v", hits)
	}
}

func TestGDPRExportThenDeleteLeavesNoReadablePersonalData(t *testing.T) {
	w := start(t, options{})
	u := w.user(t, "ann@example.com")
	const phone, name, email = "+14155550123", "Grace Hopper", "grace.hopper@example.com"
	var c struct {
		ID string `json:"id"`
	}
	w.do(t, u, "POST", "/api/v1/contacts", map[string]any{"name": name, "phone": phone, "email": email, "company": "Navy"}, &c)
	w.do(t, u, "POST", "/api/v1/compliance/dnc", map[string]any{"phone": phone}, nil)
	// Someone else's data stays.
	w.do(t, u, "POST", "/api/v1/contacts", map[string]any{"name": "Alan Turing", "phone": "+442071838750"}, nil)

	var doc struct {
		ExportID string `json:"export_id"`
		Contacts []struct {
			Name  *string `json:"name"`
			Email *string `json:"email"`
		} `json:"contacts"`
		DoNotCall *struct {
			Phone *string `json:"phone"`
		} `json:"do_not_call"`
		Counts map[string]int `json:"counts"`
	}
	if st, raw := w.do(t, u, "POST", "/api/v1/compliance/gdpr/export", map[string]any{"contact_id": c.ID}, &doc); st != 200 ||
		len(doc.Contacts) != 1 || *doc.Contacts[0].Name != name || *doc.Contacts[0].Email != email ||
		doc.DoNotCall == nil || *doc.DoNotCall.Phone != phone || doc.ExportID == "" {
		t.Fatalf("export: %d %s", st, raw)
	}
	w.wantError(t, u, "POST", "/api/v1/compliance/gdpr/export", map[string]any{}, 400, "bad_request", "phone")
	w.wantError(t, u, "POST", "/api/v1/compliance/gdpr/delete", map[string]any{"phone": "nope"}, 400, "bad_request", "phone")

	var er struct {
		ErasureID string         `json:"erasure_id"`
		Status    string         `json:"status"`
		Counts    map[string]int `json:"counts"`
	}
	if st, raw := w.do(t, u, "POST", "/api/v1/compliance/gdpr/delete", map[string]any{"phone": phone}, &er); st != 200 ||
		er.Status != "erased" || er.Counts["contacts"] != 1 || er.Counts["do_not_call"] != 1 {
		t.Fatalf("delete: %d %s", st, raw)
	}
	var after struct {
		Name   *string `json:"name"`
		Erased bool    `json:"erased"`
	}
	if st, raw := w.do(t, u, "GET", "/api/v1/contacts/"+c.ID, nil, &after); st != 200 || after.Name != nil || !after.Erased {
		t.Fatalf("contact after erasure: %d %s", st, raw)
	}
	// The suppression stays: the number is still refused.
	w.wantError(t, u, "POST", "/api/v1/sms/send", map[string]any{"from_number": "+14155550100", "to_number": phone, "body": "hi"},
		451, "do_not_call", "to_number")
	if hits := plaintextScan(t, w, "", phone, phone[1:], name, email, "Hopper"); len(hits) > 0 {
		t.Fatalf("personal data readable after erasure: %v", hits)
	}
	var other struct {
		Items []struct {
			Name *string `json:"name"`
		} `json:"items"`
	}
	w.do(t, u, "GET", "/api/v1/contacts?search=turing", nil, &other)
	if len(other.Items) != 1 || other.Items[0].Name == nil {
		t.Fatal("another contact was erased too")
	}
}
