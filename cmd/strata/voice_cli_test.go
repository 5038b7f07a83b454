package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestVoiceNumbersImport(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	c := cli{t: t, env: map[string]string{"DATABASE_URL": db.URL, "STRATA_LOG_LEVEL": "error"}}
	dir := t.TempDir()
	file := filepath.Join(dir, "numbers.csv")
	csv := "phone_number,country,number_type,region\n+14155550100,,,CA\n+18005550100,US,toll_free,\n+447400123456,,,\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.runWith(productionWiring, "voice", "numbers", "import", file)
	if code != 0 || !strings.Contains(out, "imported 3 numbers (0 already in the inventory)") {
		t.Fatalf("first import: %d %s %s", code, out, errOut)
	}
	out, _, code = c.runWith(productionWiring, "voice", "numbers", "import", file)
	if code != 0 || !strings.Contains(out, "imported 0 numbers (3 already in the inventory)") {
		t.Fatalf("second import: %d %s", code, out)
	}
	var typ, country, national string
	if err := db.SQL.QueryRow(`SELECT payload->>'number_type', payload->>'country', payload->>'national' FROM es.events
		WHERE event_type = 'voice.number_imported' AND payload->>'phone' = '+447400123456'`).Scan(&typ, &country, &national); err != nil {
		t.Fatal(err)
	}
	if typ != "mobile" || country != "GB" || national != "7400123456" {
		t.Fatalf("derived: %s %s %s", typ, country, national)
	}
	bad := filepath.Join(dir, "bad.csv")
	_ = os.WriteFile(bad, []byte("phone_number,number_type\n+14155550101,local\n4155550102,local\n"), 0o600)
	if _, errOut, code := c.runWith(productionWiring, "voice", "numbers", "import", bad); code == 0 || !strings.Contains(errOut, "line 3") {
		t.Fatalf("bad file: %d %s", code, errOut)
	}
	var n int
	_ = db.SQL.QueryRow(`SELECT count(*) FROM es.events WHERE payload->>'phone' = '+14155550101'`).Scan(&n)
	if n != 0 {
		t.Fatal("a file with a bad row was half imported")
	}
}
