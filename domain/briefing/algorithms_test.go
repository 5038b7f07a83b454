package briefing

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// asOf is the fixtures' as-of day, given at an hour of it: the day is
// 2024-05-02, its end 2024-05-03 00:00 UTC.
var (
	asOf   = time.Date(2024, 5, 2, 15, 30, 0, 0, time.UTC)
	dayEnd = time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC)
)

// ago is a time before the end of the as-of day.
func ago(d time.Duration) time.Time { return dayEnd.Add(-d) }

func run(t *testing.T, algo string, in Inputs, at time.Time) Result {
	t.Helper()
	r, err := Run(algo, in, at)
	if err != nil {
		t.Fatalf("Run(%s): %v", algo, err)
	}
	return r
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// shuffled copies in with every slice (and each document's companies) in
// another order.
func shuffled(in Inputs, seed uint64) Inputs {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := Inputs{
		Indicators: slices.Clone(in.Indicators), Mentions: slices.Clone(in.Mentions), Filings: slices.Clone(in.Filings),
		Documents: slices.Clone(in.Documents), Activities: slices.Clone(in.Activities),
	}
	r.Shuffle(len(out.Indicators), func(i, j int) { out.Indicators[i], out.Indicators[j] = out.Indicators[j], out.Indicators[i] })
	r.Shuffle(len(out.Mentions), func(i, j int) { out.Mentions[i], out.Mentions[j] = out.Mentions[j], out.Mentions[i] })
	r.Shuffle(len(out.Filings), func(i, j int) { out.Filings[i], out.Filings[j] = out.Filings[j], out.Filings[i] })
	r.Shuffle(len(out.Documents), func(i, j int) { out.Documents[i], out.Documents[j] = out.Documents[j], out.Documents[i] })
	r.Shuffle(len(out.Activities), func(i, j int) { out.Activities[i], out.Activities[j] = out.Activities[j], out.Activities[i] })
	for i := range out.Documents {
		cs := slices.Clone(out.Documents[i].Companies)
		r.Shuffle(len(cs), func(a, b int) { cs[a], cs[b] = cs[b], cs[a] })
		out.Documents[i].Companies = cs
	}
	return out
}

// sameWhenShuffled runs algo over in and over shuffled copies of it and
// wants the same result, to the byte.
func sameWhenShuffled(t *testing.T, algo string, in Inputs, at time.Time) {
	t.Helper()
	want := jsonOf(t, run(t, algo, in, at))
	for seed := range uint64(5) {
		if got := jsonOf(t, run(t, algo, shuffled(in, seed), at)); got != want {
			t.Fatalf("%s, shuffle %d:\n got %s\nwant %s", algo, seed, got, want)
		}
	}
}

// wantNoInput checks a result says it had nothing to read.
func wantNoInput(t *testing.T, r Result, algo string) {
	t.Helper()
	if !r.NoInput || r.Inputs != 0 || r.Algo != algo || r.RuleVersion != RuleVersion || r.Regime != nil ||
		r.Signals == nil || len(r.Signals) != 0 || r.Correlations == nil || len(r.Correlations) != 0 ||
		r.Trending == nil || len(r.Trending) != 0 {
		t.Errorf("%s: want no input and no output, got %+v", algo, r)
	}
}

func TestWindowOf(t *testing.T) {
	for _, c := range []struct {
		algo string
		want Window
	}{
		{AlgoSentiment, Window{Indicators: 500 * day}},
		{AlgoContent, Window{Mentions: 7 * day, Documents: 7 * day}},
		{AlgoInfluence, Window{Activities: 90 * day}},
		{AlgoAcquisition, Window{Filings: 30 * day, Mentions: 30 * day, Documents: 30 * day}},
		{AlgoEnvironmental, Window{Filings: 90 * day, Mentions: 90 * day, Documents: 90 * day}},
		{AlgoCompetitive, Window{Filings: day}},
	} {
		if w, ok := WindowOf(c.algo); !ok || w != c.want {
			t.Errorf("WindowOf(%s) = %+v, %v; want %+v", c.algo, w, ok, c.want)
		}
	}
	if _, ok := WindowOf("astrology"); ok {
		t.Error("an unknown algorithm has a window")
	}
	for _, a := range Algorithms() {
		if _, ok := WindowOf(a); !ok {
			t.Errorf("%s has no window", a)
		}
	}
}

func TestRunRefusesAnUnknownAlgorithm(t *testing.T) {
	if _, err := Run("astrology", Inputs{}, asOf); err == nil || !strings.Contains(err.Error(), "astrology") {
		t.Fatalf("err = %v", err)
	}
}

// Every algorithm with nothing to read says so and finds nothing; so does
// one given only kinds it does not read.
func TestRunWithoutInput(t *testing.T) {
	onlyOther := map[string]Inputs{
		AlgoSentiment:     {Mentions: []Mention{{ID: "m", Company: "Acme", At: ago(time.Hour)}}},
		AlgoContent:       {Filings: []Filing{{ID: "f", Company: "Acme", Form: "8-K", FiledAt: ago(time.Hour)}}},
		AlgoInfluence:     {Indicators: []Indicator{{Series: SeriesVIX, Date: ago(day), Value: 12}}},
		AlgoAcquisition:   {Activities: []Activity{{Developer: "d", Repo: "r", Metric: "commits", Count: 1, At: ago(time.Hour)}}},
		AlgoEnvironmental: {Indicators: []Indicator{{Series: SeriesVIX, Date: ago(day), Value: 12}}},
		AlgoCompetitive:   {Mentions: []Mention{{ID: "m", Company: "Acme", Text: "files S-1", At: ago(time.Hour)}}},
	}
	for _, algo := range Algorithms() {
		wantNoInput(t, run(t, algo, Inputs{}, asOf), algo)
		wantNoInput(t, run(t, algo, onlyOther[algo], asOf), algo)
	}
}

// The as-of time is taken to its UTC day.
func TestRunTakesTheUTCDay(t *testing.T) {
	ny := time.FixedZone("EST", -5*3600)
	r := run(t, AlgoCompetitive, Inputs{}, time.Date(2024, 5, 2, 22, 0, 0, 0, ny)) // 2024-05-03 03:00 UTC
	if want := time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC); !r.AsOf.Equal(want) || r.AsOf.Location() != time.UTC {
		t.Fatalf("AsOf = %v, want %v", r.AsOf, want)
	}
	f := newFrame(asOf, Window{Mentions: 7 * day})
	if !f.day.Equal(dayEnd.Add(-day)) || !f.end.Equal(dayEnd) {
		t.Fatalf("frame %v %v", f.day, f.end)
	}
	for _, c := range []struct {
		at   time.Time
		want bool
	}{
		{dayEnd.Add(-7 * day), true}, // the window's first instant
		{dayEnd.Add(-7*day - 1), false},
		{dayEnd.Add(-1), true},
		{dayEnd, false}, // the end is exclusive
	} {
		if got := f.men.has(c.at); got != c.want {
			t.Errorf("mention at %v read: %v, want %v", c.at, got, c.want)
		}
	}
	if f.fil.has(dayEnd.Add(-1)) {
		t.Error("a kind with a zero window is read")
	}
}

// A large mixed fixture, every algorithm: the same output whatever the
// order of the rows.
func TestRunIsDeterministic(t *testing.T) {
	in := synthetic(3000, 7)
	for _, algo := range Algorithms() {
		sameWhenShuffled(t, algo, in, asOf)
	}
}

func TestNormKey(t *testing.T) {
	for _, c := range [][2]string{
		{"acme", "acme"},
		{"  Acme  Corp ", "acme corp"},
		{"ACME\tCORP", "acme corp"},
		{"Société Générale", "société générale"},
		{"   ", ""},
	} {
		if got := normKey(c[0]); got != c[1] {
			t.Errorf("normKey(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// A name shows as its most frequent spelling, the smallest on a tie.
func TestNamesDisplay(t *testing.T) {
	b := newNames()
	for _, s := range []string{"acme", " ACME", "Acme", "Acme ", "beta", "Beta", ""} {
		b.add(s)
	}
	if b.len() != 2 || b.display(b.ids["acme"]) != "Acme" || b.display(b.ids["beta"]) != "Beta" || b.add("  ") != -1 {
		t.Fatalf("%+v", b.list)
	}
}

func TestLexiconMatchesWholeWordsLeftmostLongest(t *testing.T) {
	l := newLexicon([]term{{"spill", 0, 1}, {"oil spill", 0, 1}, {"item 1.01", 1, 1}, {"take over", 2, 1}, {"größe", 3, 1}})
	var w words
	for _, c := range []struct {
		text string
		want []string
	}{
		{"An OIL SPILL, then a spill.", []string{"oil spill", "spill"}},
		{"spilled spills spillway", nil},
		{"Item 1.01 Entry into a Material Definitive Agreement", []string{"item 1.01"}},
		{"a take-over; a takeover", []string{"take over"}},
		{"GRÖSSE größe", []string{"größe"}},
		{"", nil},
	} {
		var got []string
		for _, h := range l.find(&w, c.text, nil) {
			got = append(got, l.terms[h].phrase)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

func TestFormKey(t *testing.T) {
	for _, c := range []struct {
		in, key, base string
		amended       bool
	}{
		{"8-K", "8-K", "8-K", false},
		{" sc  13d/a ", "SC 13D/A", "SC 13D", true},
		{"S-1/A", "S-1/A", "S-1", true},
		{"10-K405", "10-K405", "10-K405", false},
	} {
		key, base, amended := formKey(c.in)
		if key != c.key || base != c.base || amended != c.amended {
			t.Errorf("formKey(%q) = %q %q %v", c.in, key, base, amended)
		}
	}
}

// synthetic makes n rows of each kind around the as-of day, some outside
// every window, some repeated, from a fixed seed.
func synthetic(n int, seed uint64) Inputs {
	r := rand.New(rand.NewPCG(seed, 1))
	companies := []string{"Acme", "acme ", "Beta Corp", "Gamma", "Delta Inc", "Epsilon", "Zeta", "Eta Labs"}
	phrases := []string{"exploring strategic alternatives", "takeover bid", "wildfire near plant", "oil spill", "flooding",
		"in talks to acquire", "launches new product", "quarterly results", "nothing to see", "hostile bid", "heat wave"}
	forms := []string{"8-K", "S-1", "S-1/A", "10-Q", "4", "SC 13D", "425", "SC TO-T", "13F-HR"}
	text := func() string { return phrases[r.IntN(len(phrases))] + "; " + phrases[r.IntN(len(phrases))] }
	at := func(span time.Duration) time.Time { return dayEnd.Add(-time.Duration(r.Int64N(int64(span)))) }
	var in Inputs
	for i := range n {
		id := string(rune('a'+i%26)) + strings.Repeat("x", i%3) + string(rune('0'+i%10))
		in.Mentions = append(in.Mentions, Mention{ID: id, Company: companies[r.IntN(len(companies))], Source: []string{"reuters", "blog", "reddit"}[i%3],
			Title: text(), Text: text(), URL: "https://n/" + string(rune('a'+r.IntN(20))), At: at(40 * day)})
		in.Filings = append(in.Filings, Filing{ID: id, Company: companies[r.IntN(len(companies))], Form: forms[r.IntN(len(forms))],
			Title: text(), Text: text(), Source: "sec_edgar", FiledAt: at(3 * day)})
		in.Documents = append(in.Documents, Document{ID: id, Source: "wsj", Title: text(), Text: text(), At: at(40 * day),
			Companies: []string{companies[r.IntN(len(companies))], companies[r.IntN(len(companies))], companies[r.IntN(len(companies))]}})
		in.Activities = append(in.Activities, Activity{Developer: []string{"ann", "Bob", "bob", "cy", "dee"}[r.IntN(5)],
			Repo: []string{"acme/api", "acme/web", "beta/lib", "solo"}[r.IntN(4)], Org: []string{"", "acme", "Acme"}[r.IntN(3)],
			Metric: []string{"commits", "reviews", "issues", "stars", "followers"}[r.IntN(5)], Count: float64(r.IntN(50)), At: at(100 * day)})
		in.Indicators = append(in.Indicators, Indicator{Series: []string{SeriesVIX, SeriesSpread10y2y, SeriesSP500, SeriesTreasury10y, SeriesTreasury2y}[i%5],
			Date: dayEnd.Add(-time.Duration(1+r.IntN(30)) * day), Value: 10 + float64(r.IntN(3000))/100})
	}
	for m := range 20 { // monthly series, one value a month and a few repeated
		d := time.Date(2024, time.Month(5-m), 1, 0, 0, 0, 0, time.UTC)
		in.Indicators = append(in.Indicators, Indicator{SeriesUnemployment, d, 3.5 + float64(r.IntN(10))/10},
			Indicator{SeriesFedFunds, d, 5 + float64(r.IntN(40))/100})
	}
	return in
}
