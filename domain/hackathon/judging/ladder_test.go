package judging

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// base is an entry with every rung's statistic set; cases vary one field.
func base(id string) Entry {
	return Entry{SubmissionID: id, ZMean: 0.5, RawMean: 7, TopCriterion: 4, HasTopCriterion: true, Scores: 3, SubmittedAt: t0}
}

func ids(rs []Ranked) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.SubmissionID
	}
	return out
}

func TestDefaultLadder(t *testing.T) {
	want := []string{"normalised", "raw_mean", "top_criterion", "score_count", "submitted_at", "id"}
	l := DefaultLadder()
	if !slices.Equal(l, want) {
		t.Fatalf("DefaultLadder = %v, want %v", l, want)
	}
	if err := ValidateLadder(l); err != nil {
		t.Fatalf("ValidateLadder(DefaultLadder()) = %v", err)
	}
	l[0] = "mutated"
	if DefaultLadder()[0] != RungNormalised {
		t.Fatal("DefaultLadder shares its backing array")
	}
}

// TestEveryRungSeparates: in each case the better entry differs from the worse
// only on one rung (and has the larger id, so only that rung can put it first).
func TestEveryRungSeparates(t *testing.T) {
	tests := []struct {
		rung          string
		better, worse func(e *Entry)
	}{
		{RungNormalised, func(e *Entry) { e.ZMean = 0.9 }, func(e *Entry) { e.ZMean = 0.1 }},
		{RungRawMean, func(e *Entry) { e.RawMean = 8 }, func(e *Entry) { e.RawMean = 6 }},
		{RungTopCriterion, func(e *Entry) { e.TopCriterion = 5 }, func(e *Entry) { e.TopCriterion = 3 }},
		{RungTopCriterion, func(e *Entry) {}, func(e *Entry) { e.TopCriterion, e.HasTopCriterion = 99, false }},
		{RungScoreCount, func(e *Entry) { e.Scores = 4 }, func(e *Entry) { e.Scores = 2 }},
		{RungSubmittedAt, func(e *Entry) {}, func(e *Entry) { e.SubmittedAt = t0.Add(time.Second) }},
		{RungID, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.rung, func(t *testing.T) {
			better, worse := base("b"), base("a")
			if tc.rung == RungID {
				better, worse = base("a"), base("b")
			} else {
				tc.better(&better)
				tc.worse(&worse)
			}
			got, err := Rank([]Entry{worse, better}, MethodZScore, DefaultLadder())
			if err != nil {
				t.Fatal(err)
			}
			if got[0].SubmissionID != better.SubmissionID || got[0].Rank != 1 || got[0].SeparatedBy != "" {
				t.Fatalf("first = %+v, want %s rank 1 separated by nothing", got[0], better.SubmissionID)
			}
			if got[1].Rank != 2 || got[1].SeparatedBy != tc.rung {
				t.Fatalf("second: rank %d separated by %q, want rank 2 by %q", got[1].Rank, got[1].SeparatedBy, tc.rung)
			}
			if s := SeparatedByFor(better, worse, MethodZScore, DefaultLadder()); s != tc.rung {
				t.Fatalf("SeparatedByFor = %q, want %q", s, tc.rung)
			}
		})
	}
}

func TestMethodRawVersusZScore(t *testing.T) {
	// p is better once judges' spreads are normalised, q has the higher raw mean.
	p, q := base("p"), base("q")
	p.ZMean, p.RawMean = 0.8, 6
	q.ZMean, q.RawMean = 0.2, 9
	tests := []struct {
		method, sep string
		want        []string
	}{
		{MethodZScore, RungNormalised, []string{"p", "q"}},
		{MethodRaw, RungRawMean, []string{"q", "p"}},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			got, err := Rank([]Entry{p, q}, tc.method, DefaultLadder())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tc.want) || got[1].SeparatedBy != tc.sep {
				t.Fatalf("order %v separated by %q, want %v by %q", ids(got), got[1].SeparatedBy, tc.want, tc.sep)
			}
		})
	}
}

func TestMethodRawLadderWithoutRawMean(t *testing.T) {
	// raw puts raw_mean first even when the published ladder omits it; the
	// rest keep their order, so equal raw means fall through to normalised.
	l := []string{RungNormalised, RungID}
	eff, err := effectiveLadder(MethodRaw, l)
	if err != nil || !slices.Equal(eff, []string{RungRawMean, RungNormalised, RungID}) {
		t.Fatalf("effectiveLadder = %v, %v", eff, err)
	}
	eff, _ = effectiveLadder(MethodRaw, DefaultLadder())
	want := []string{RungRawMean, RungNormalised, RungTopCriterion, RungScoreCount, RungSubmittedAt, RungID}
	if !slices.Equal(eff, want) {
		t.Fatalf("effectiveLadder(raw, default) = %v, want %v", eff, want)
	}
	p, q := base("p"), base("q")
	q.ZMean = 0.9
	got, _ := Rank([]Entry{p, q}, MethodRaw, l)
	if !slices.Equal(ids(got), []string{"q", "p"}) || got[1].SeparatedBy != RungNormalised {
		t.Fatalf("order %v separated by %q", ids(got), got[1].SeparatedBy)
	}
}

func TestFloatNoiseDoesNotSeparate(t *testing.T) {
	// a gets float noise on one rung; b wins on score_count, the first rung
	// after the float ones. If the noise separated them, a would rank first.
	tests := []struct {
		name  string
		noise func(e *Entry)
	}{
		{"normalised", func(e *Entry) { e.ZMean += 1e-12 }},
		{"raw_mean", func(e *Entry) { e.RawMean += 1e-12 }},
		{"top_criterion", func(e *Entry) { e.TopCriterion += 1e-12 }},
		{"all three", func(e *Entry) { e.ZMean += 1e-12; e.RawMean -= 1e-12; e.TopCriterion += 1e-12 }},
		{"just inside 1e-9", func(e *Entry) { e.ZMean += 0.9e-9 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := base("a"), base("b")
			tc.noise(&a)
			b.Scores = 4
			got, err := Rank([]Entry{a, b}, MethodZScore, DefaultLadder())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), []string{"b", "a"}) || got[1].SeparatedBy != RungScoreCount {
				t.Fatalf("order %v separated by %q, want [b a] by %q", ids(got), got[1].SeparatedBy, RungScoreCount)
			}
		})
	}
	// Beyond the tolerance the float rung separates.
	a, b := base("a"), base("b")
	b.ZMean += 2e-9
	if s := SeparatedByFor(b, a, MethodZScore, DefaultLadder()); s != RungNormalised {
		t.Fatalf("2e-9 apart: separated by %q, want %q", s, RungNormalised)
	}
}

func TestNaNSortsLast(t *testing.T) {
	a, b := base("a"), base("b")
	a.ZMean = math.NaN()
	b.ZMean = -5
	got, _ := Rank([]Entry{a, b}, MethodZScore, DefaultLadder())
	if !slices.Equal(ids(got), []string{"b", "a"}) || got[1].SeparatedBy != RungNormalised {
		t.Fatalf("order %v separated by %q", ids(got), got[1].SeparatedBy)
	}
}

func TestValidateLadderErrors(t *testing.T) {
	tests := []struct {
		name    string
		ladder  []string
		mention string // "" means valid
	}{
		{"default", DefaultLadder(), ""},
		{"id only", []string{RungID}, ""},
		{"nil", nil, `"id"`},
		{"missing id", []string{RungNormalised, RungRawMean}, `"id"`},
		{"id not last", []string{RungID, RungNormalised}, `"id"`},
		{"unknown rung", []string{RungNormalised, "votes", RungID}, `"votes"`},
		{"duplicate", []string{RungRawMean, RungScoreCount, RungRawMean, RungID}, `"raw_mean"`},
		{"case matters", []string{"ID"}, `"ID"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateLadder(tc.ladder)
			if tc.mention == "" {
				if err != nil {
					t.Fatalf("ValidateLadder = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("ValidateLadder = %v, want an error mentioning %s", err, tc.mention)
			}
			if _, rerr := Rank([]Entry{base("a")}, MethodZScore, tc.ladder); rerr == nil {
				t.Fatal("Rank accepted an invalid ladder")
			}
			if s := SeparatedByFor(base("a"), base("b"), MethodZScore, tc.ladder); s != "" {
				t.Fatalf("SeparatedByFor with invalid ladder = %q, want \"\"", s)
			}
		})
	}
}

func TestRankErrors(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		method  string
	}{
		{"unknown method", []Entry{base("a")}, "median"},
		{"empty method", []Entry{base("a")}, ""},
		{"duplicate id", []Entry{base("a"), base("b"), base("a")}, MethodZScore},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Rank(tc.entries, tc.method, DefaultLadder()); err == nil {
				t.Fatal("Rank returned no error")
			}
		})
	}
	if got, err := Rank(nil, MethodRaw, DefaultLadder()); err != nil || len(got) != 0 {
		t.Fatalf("Rank(nil) = %v, %v", got, err)
	}
}

func TestRankOrderIndependentAndConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var entries []Entry
	for i := range 60 {
		e := base(string(rune('A' + i)))
		// few distinct values so lower rungs get exercised; tiny noise on some
		e.ZMean = float64(r.IntN(3))/2 + float64(r.IntN(2))*1e-12
		e.RawMean = float64(r.IntN(3))
		e.TopCriterion, e.HasTopCriterion = float64(r.IntN(2)), r.IntN(4) > 0
		e.Scores = r.IntN(3)
		e.SubmittedAt = t0.Add(time.Duration(r.IntN(2)) * time.Minute)
		entries = append(entries, e)
	}
	for _, method := range []string{MethodZScore, MethodRaw} {
		want, err := Rank(entries, method, DefaultLadder())
		if err != nil {
			t.Fatal(err)
		}
		for i, rk := range want {
			if rk.Rank != i+1 {
				t.Fatalf("%s: rank %d at position %d", method, rk.Rank, i)
			}
			if i > 0 && rk.SeparatedBy != SeparatedByFor(want[i-1].Entry, rk.Entry, method, DefaultLadder()) {
				t.Fatalf("%s: SeparatedBy disagrees with SeparatedByFor at %d", method, i)
			}
			if i > 0 && rk.SeparatedBy == "" {
				t.Fatalf("%s: entry %d not separated from the one above", method, i)
			}
		}
		for range 10 {
			r.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
			got, _ := Rank(entries, method, DefaultLadder())
			if !slices.Equal(got, want) {
				t.Fatalf("%s: order depends on input order", method)
			}
		}
	}
}
