package briefing

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// contentFixture, by hand (age from the end of the as-of day, weight
// source × 2^(-age/24h)):
//
//	m1 Acme  reuters 1.5, 12h: 1.5·2^-0.5  = 1.0607
//	m2 ACME  blog    1.0, 24h: 0.5
//	m3 Beta  reddit  0.5, 48h: 0.125
//	m4 Acme  x, 8 days: outside the 7-day window
//	m5 Gamma blog, 24h, url news/1: 0.5
//	m6 Beta  blog, 24h, url news/1: 0.5
//	doc-1 [Acme Beta]        wsj 1.5, 6h: 1.5·2^-0.25 = 1.2613 each
//	doc-2 [acme Beta Beta]   blog, 72h: 0.125 each (Beta once)
//	doc-3 [Acme Gamma]       blog, 24h: 0.5 each
//	doc-4 [Acme Beta]        after the as-of day: not read
//
// Acme 1.0607+0.5+1.2613+0.125+0.5 = 3.4470 (5), Beta 0.125+0.5+1.2613+
// 0.125 = 2.0113 (4), Gamma 1 (2). Units: doc-1 {Acme Beta}, doc-2 {Acme
// Beta}, doc-3 {Acme Gamma}, news/1 {Beta Gamma}: Acme in 3, Beta 3, Gamma
// 2; Acme-Beta together in 2, Jaccard 2/(3+3-2) = 0.5; the other pairs once.
func contentFixture() Inputs {
	return Inputs{
		Mentions: []Mention{
			{ID: "m1", Company: "Acme", Source: "reuters", At: ago(12 * time.Hour)},
			{ID: "m2", Company: " ACME ", Source: "blog", At: ago(24 * time.Hour)},
			{ID: "m3", Company: "Beta", Source: "Reddit", At: ago(48 * time.Hour)},
			{ID: "m4", Company: "Acme", Source: "x", At: ago(8 * day)},
			{ID: "m5", Company: "Gamma", Source: "blog", URL: "https://news/1", At: ago(24 * time.Hour)},
			{ID: "m6", Company: "Beta", Source: "blog", URL: "https://news/1", At: ago(24 * time.Hour)},
			{ID: "m7", Company: "  ", Source: "blog", At: ago(time.Hour)}, // no company: not read
		},
		Documents: []Document{
			{ID: "doc-1", Source: "wsj", Companies: []string{"Acme", "Beta"}, At: ago(6 * time.Hour)},
			{ID: "doc-2", Source: "blog", Companies: []string{"acme", "Beta", "Beta"}, At: ago(72 * time.Hour)},
			{ID: "doc-3", Source: "blog", Companies: []string{"Acme", "Gamma"}, At: ago(24 * time.Hour)},
			{ID: "doc-4", Source: "blog", Companies: []string{"Acme", "Beta"}, At: dayEnd.Add(time.Hour)},
		},
	}
}

func TestContentIntelligence(t *testing.T) {
	r := run(t, AlgoContent, contentFixture(), asOf)
	if r.NoInput || r.Inputs != 8 { // m1-m3, m5, m6, doc-1..3
		t.Fatalf("inputs %d %v", r.Inputs, r.NoInput)
	}
	wantT := []Trending{{"Acme", 3.447, 5}, {"Beta", 2.0113, 4}, {"Gamma", 1, 2}}
	if !reflect.DeepEqual(r.Trending, wantT) {
		t.Errorf("trending\n got %+v\nwant %+v", r.Trending, wantT)
	}
	wantC := []Correlation{{Algo: AlgoContent, EntityA: "Acme", EntityB: "Beta", Type: "co_mentioned", Score: 0.5,
		Metadata: map[string]any{"count": 2, "count_a": 3, "count_b": 3, "items": []string{"doc-1", "doc-2"}}}}
	if !reflect.DeepEqual(r.Correlations, wantC) {
		t.Errorf("correlations\n got %+v\nwant %+v", r.Correlations, wantC)
	}
	if len(r.Signals) != 0 || r.Regime != nil {
		t.Errorf("%+v", r)
	}
}

// Mentions sharing a document's URL are that document, not a second unit;
// a unit naming more than 25 companies is not one, though it scores.
func TestCoMentionUnits(t *testing.T) {
	many := make([]string, 26)
	for i := range many {
		many[i] = fmt.Sprintf("C%02d", i)
	}
	many[0], many[1] = "Acme", "Beta"
	in := Inputs{
		Documents: []Document{
			{ID: "d1", URL: "https://a/1", Companies: []string{"Acme", "Beta"}, At: ago(time.Hour)},
			{ID: "list", Companies: many, At: ago(time.Hour)},
		},
		Mentions: []Mention{
			{ID: "m1", Company: "Acme", URL: "https://a/1", At: ago(time.Hour)},
			{ID: "m2", Company: "Beta", URL: " https://a/1", At: ago(time.Hour)},
			{ID: "m3", Company: "Acme", URL: "https://a/2", At: ago(time.Hour)},
			{ID: "m4", Company: "Beta", URL: "https://a/2", At: ago(time.Hour)},
			{ID: "m5", Company: "beta", URL: "https://a/2", At: ago(time.Hour)}, // Beta again in the same unit
		},
	}
	r := run(t, AlgoContent, in, asOf)
	// units: d1 {Acme Beta}, https://a/2 {Acme Beta}; "list" is not one
	want := []Correlation{{Algo: AlgoContent, EntityA: "Acme", EntityB: "Beta", Type: "co_mentioned", Score: 1,
		Metadata: map[string]any{"count": 2, "count_a": 2, "count_b": 2, "items": []string{"d1", "https://a/2"}}}}
	if !reflect.DeepEqual(r.Correlations, want) {
		t.Errorf("got %+v", r.Correlations)
	}
	if len(r.Trending) != trendingTop {
		t.Errorf("%d trending, want the top %d", len(r.Trending), trendingTop)
	}
}

// Trending keeps the top 25 by score, then name: C14 (twice) first, then
// C00..C10, C100..C109, C11, C110, C111 in lexical order, 24 at 0.5.
func TestTrendingTop(t *testing.T) {
	var in Inputs
	for i := range 30 {
		in.Mentions = append(in.Mentions, Mention{ID: fmt.Sprint(i), Company: fmt.Sprintf("C%02d", i%15+(i/15)*100), At: ago(24 * time.Hour)})
	}
	in.Mentions = append(in.Mentions, Mention{ID: "x", Company: "C14", At: ago(24 * time.Hour)})
	r := run(t, AlgoContent, in, asOf)
	if len(r.Trending) != 25 || r.Trending[0] != (Trending{"C14", 1, 2}) || r.Trending[1] != (Trending{"C00", 0.5, 1}) ||
		r.Trending[24].Name != "C111" {
		t.Errorf("%+v", r.Trending)
	}
}

func TestContentIgnoresOutsideItsWindow(t *testing.T) {
	in := Inputs{
		Mentions:  []Mention{{ID: "old", Company: "Acme", At: ago(7*day + time.Nanosecond)}, {ID: "new", Company: "Acme", At: dayEnd}},
		Documents: []Document{{ID: "old", Companies: []string{"Acme", "Beta"}, At: ago(8 * day)}},
		Filings:   []Filing{{ID: "f", Company: "Acme", Form: "8-K", FiledAt: ago(time.Hour)}}, // a kind it does not read
	}
	wantNoInput(t, run(t, AlgoContent, in, asOf), AlgoContent)
	in.Mentions = append(in.Mentions, Mention{ID: "edge", Company: "Acme", At: ago(7 * day)}) // the window's first instant: 2^-7
	r := run(t, AlgoContent, in, asOf)
	if r.Inputs != 1 || !reflect.DeepEqual(r.Trending, []Trending{{"Acme", 0.0078, 1}}) {
		t.Errorf("%+v", r)
	}
}

// A resubmitted mention (same source and id) counts once.
func TestContentCountsAnObservationOnce(t *testing.T) {
	m := Mention{ID: "m1", Source: "blog", Company: "Acme", At: ago(24 * time.Hour)}
	r := run(t, AlgoContent, Inputs{Mentions: []Mention{m, m, {ID: "m1", Source: "other", Company: "Acme", At: ago(24 * time.Hour)}}}, asOf)
	if r.Inputs != 2 || r.Trending[0].MentionScore != 1 {
		t.Errorf("%+v", r)
	}
}

func TestContentIsDeterministic(t *testing.T) {
	sameWhenShuffled(t, AlgoContent, contentFixture(), asOf)
	sameWhenShuffled(t, AlgoContent, synthetic(2000, 3), asOf)
}

// bigContent is n mentions and n documents of the last week over 5,000
// companies.
func bigContent(n int) Inputs {
	in := Inputs{Mentions: make([]Mention, n), Documents: make([]Document, n)}
	for i := range n {
		at := ago(time.Duration(i%(7*24*60)) * time.Minute)
		in.Mentions[i] = Mention{ID: fmt.Sprint("m", i), Source: []string{"reuters", "blog", "reddit"}[i%3],
			Company: fmt.Sprint("Company ", i%5000), URL: fmt.Sprint("https://n/", i%40000), At: at}
		in.Documents[i] = Document{ID: fmt.Sprint("d", i), Source: "wsj", At: at,
			Companies: []string{fmt.Sprint("Company ", i%5000), fmt.Sprint("Company ", (i*7)%5000), fmt.Sprint("Company ", (i*13)%5000)}}
	}
	return in
}

// go test -bench . -run ^$ ./domain/briefing/
func BenchmarkRunContent300k(b *testing.B) {
	in := bigContent(150_000) // 150k mentions + 150k documents
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(AlgoContent, in, asOf); err != nil {
			b.Fatal(err)
		}
	}
}
