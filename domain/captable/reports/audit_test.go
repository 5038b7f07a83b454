package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
)

// reconciled checks an AUDIT_READY report: every figure matches, and the
// contributions listed add up, figure by figure, to the recomputed column.
// It returns the descriptions of all contributions.
func reconciled(t *testing.T, r Report) []string {
	t.Helper()
	rec, contrib := sectionOf(t, r, "reconciliation"), sectionOf(t, r, "contributions")
	sums := map[string]num.Num{}
	var whats []string
	for _, row := range contrib.Rows {
		sums[row[0]] = sums[row[0]].Add(num.MustParse(row[5]))
		whats = append(whats, row[4])
	}
	if len(rec.Rows) == 0 {
		t.Fatalf("%s: no figures reconciled", r.AsOfDate)
	}
	for _, row := range rec.Rows {
		if row[5] != "matches" || row[2] != row[3] || row[4] != "0" {
			t.Errorf("%s: %v", r.AsOfDate, row)
		}
		if got := sums[row[0]]; !got.Equal(num.MustParse(row[3])) {
			t.Errorf("%s: %s contributions add to %s, recomputed %s", r.AsOfDate, row[0], got, row[3])
		}
	}
	return whats
}

func TestAuditReadyReconcilesAcme(t *testing.T) {
	b := acme(t)
	r := build(t, b.entries, TypeAuditReady, "2025-12-31")
	reconciled(t, r)
	basis := sectionOf(t, r, "basis")
	cases := []struct{ item, want string }{
		{"Last stream version read", "28"},
		{"Entries used", "28"},
		{"Entries left out (dated after the as-of date)", "0"},
		{"SHA-256 of the entries used", Digest(b.entries)},
		{"Reconciliation", "all 35 figures match the sum of their events' contributions"},
	}
	for _, tc := range cases {
		if got := cell(t, basis, tc.item, "value"); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.item, got, tc.want)
		}
	}
	figures := sectionOf(t, r, "figures")
	if got := cell(t, figures, "holder.eve.awards", "versions"); got != "15, 22" {
		t.Errorf("Eve's awards come from %s", got)
	}
	if got := cell(t, figures, "total.fullyDiluted", "value"); got != "11312500" {
		t.Errorf("fully diluted %s", got)
	}
	// As of 2025-07-31 the exercise and everything after it are left out.
	mid := build(t, b.entries, TypeAuditReady, "2025-07-31")
	reconciled(t, mid)
	if got := cell(t, sectionOf(t, mid, "basis"), "Entries left out (dated after the as-of date)", "value"); got != "7" {
		t.Errorf("left out %s", got)
	}
	if got := cell(t, sectionOf(t, mid, "basis"), "SHA-256 of the entries used", "value"); got != Digest(b.entries[:21]) {
		t.Errorf("digest as of 2025-07-31 %s", got)
	}
}

func TestDigestIsCanonical(t *testing.T) {
	entries := []Entry{{Version: 1, EventID: "01A", Type: "captable.company_created"}, {Version: 2, EventID: "01B", Type: "captable.member_added"}}
	sum := sha256.Sum256([]byte("1\t01A\tcaptable.company_created\n2\t01B\tcaptable.member_added\n"))
	if got := Digest(entries); got != hex.EncodeToString(sum[:]) {
		t.Fatalf("digest %s", got)
	}
	entries[1].EventID = "01C"
	if Digest(entries) == hex.EncodeToString(sum[:]) {
		t.Fatal("a changed event id kept the digest")
	}
}

// A wrong figure is caught: the reconciliation compares, it does not copy.
func TestReconciliationCatchesAWrongFigure(t *testing.T) {
	b := fold(acme(t).entries, on("2025-12-31"))
	b.summary.FullyDiluted = b.summary.FullyDiluted.Add(num.Int(1))
	b.summary.Holders[0].Issued = b.summary.Holders[0].Issued.Sub(num.Int(5))
	rec := sectionOf(t, Report{Sections: auditReport(b)}, "reconciliation")
	bad := map[string]string{}
	for _, row := range rec.Rows {
		if row[5] != "matches" {
			bad[row[0]] = row[4]
		}
	}
	if len(bad) != 2 || bad["total.fullyDiluted"] != "1" || bad["holder.ada.issued"] != "-5" {
		t.Fatalf("mismatches %v", bad)
	}
	if got := cell(t, sectionOf(t, Report{Sections: auditReport(b)}, "basis"), "Reconciliation", "value"); got != "2 of 35 figures DO NOT MATCH" {
		t.Fatalf("basis says %q", got)
	}
}

// Property: for random cap tables and random as-of dates, every figure of
// the summary equals the sum of its events' contributions.
func TestAuditReadyReconcilesRandomCapTables(t *testing.T) {
	var lapses, ratios, expiries, updates int
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		b, last := randomBook(t, rng)
		for _, typ := range Types {
			wellFormed(t, build(t, b.entries, typ, day(last)))
		}
		days := []string{day(last), day(last.AddDate(3, 0, 0))}
		for i := 0; i < 6; i++ {
			days = append(days, day(on("2020-01-01").AddDate(0, 0, rng.IntN(int(last.Sub(on("2020-01-01")).Hours()/24)+1))))
		}
		for _, d := range days {
			for _, what := range reconciled(t, build(t, b.entries, TypeAuditReady, d)) {
				switch {
				case strings.Contains(what, "lapsed"):
					lapses++
				case strings.Contains(what, "conversion ratio"):
					ratios++
				case strings.Contains(what, "expired"):
					expiries++
				case strings.Contains(what, "terms replaced"):
					updates++
				}
			}
		}
	}
	t.Logf("contributions seen: %d lapses, %d ratio changes, %d expiries, %d grant updates", lapses, ratios, expiries, updates)
	// The random books must reach the paths that are easy to get wrong.
	if lapses == 0 || ratios == 0 || expiries == 0 || updates == 0 {
		t.Fatalf("coverage: lapses %d, ratio changes %d, expiries %d, grant updates %d", lapses, ratios, expiries, updates)
	}
}
