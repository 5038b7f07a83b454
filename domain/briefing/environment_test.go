package briefing

import (
	"reflect"
	"testing"
)

// environmentFixture, by hand (90-day window, score 1-exp(-x/5)):
//
//	f1 PowerCo 10-K: wildfires 1 + public safety power shutoff 1 +
//	  wildfire 1 = 3 (the cap) ×2 (a filing) = 6; drought 1×2 = 2.
//	m1 PowerCo: wildfire 1.
//	doc-1 [ChemCo PowerCo]: "oil spill" 1.5 (one hit, not also "spill") +
//	  spill 1 = 2.5 contamination, for each.
//	m2 ChemCo: "floodlights", "EPA": no whole-word hazard.
//	f2 ChemCo hurricane, 91 days ago: outside.
//
// PowerCo: wildfire 7 → 1-e^-1.4 = 0.7534, drought 2 → 0.3297,
// contamination 2.5 → 0.3935; all 11.5 → 0.8997. ChemCo: contamination
// 0.3935, all 0.3935.
func environmentFixture() Inputs {
	return Inputs{
		Filings: []Filing{
			{ID: "f1", Source: "sec_edgar", Company: "PowerCo", Form: "10-K", Title: "Annual report",
				Text: "Wildfires in our service territory led to Public Safety Power Shutoff events; a wildfire may recur. Drought lowered hydro output.", FiledAt: ago(20 * day)},
			{ID: "f2", Source: "sec_edgar", Company: "ChemCo", Form: "8-K", Text: "hurricane damage", FiledAt: ago(91 * day)},
		},
		Mentions: []Mention{
			{ID: "m1", Source: "news", Company: "PowerCo", Title: "Wildfire near lines", At: ago(day)},
			{ID: "m2", Source: "news", Company: "ChemCo", Text: "New floodlights installed; EPA visit", At: ago(day)},
		},
		Documents: []Document{
			{ID: "doc-1", Source: "wsj", Companies: []string{"ChemCo", "PowerCo"}, Text: "Oil spill at the ChemCo plant; the spill spreads.", At: ago(3 * day)},
		},
	}
}

func TestEnvironmentalRisk(t *testing.T) {
	r := run(t, AlgoEnvironmental, environmentFixture(), asOf)
	if r.NoInput || r.Inputs != 4 {
		t.Fatalf("inputs %d", r.Inputs)
	}
	doc1 := Evidence{KindDocument, "wsj", "doc-1"}
	want := []Correlation{
		{AlgoEnvironmental, "ChemCo", "contamination", "exposed_to", 0.3935, map[string]any{"exposure": 2.5, "observations": 1,
			"terms": []string{"oil spill", "spill"}, "evidence": []Evidence{doc1}, "company_score": 0.3935}},
		{AlgoEnvironmental, "PowerCo", "contamination", "exposed_to", 0.3935, map[string]any{"exposure": 2.5, "observations": 1,
			"terms": []string{"oil spill", "spill"}, "evidence": []Evidence{doc1}, "company_score": 0.8997}},
		{AlgoEnvironmental, "PowerCo", "drought", "exposed_to", 0.3297, map[string]any{"exposure": 2.0, "observations": 1,
			"terms": []string{"drought"}, "evidence": []Evidence{{KindFiling, "sec_edgar", "f1"}}, "company_score": 0.8997}},
		{AlgoEnvironmental, "PowerCo", "wildfire", "exposed_to", 0.7534, map[string]any{"exposure": 7.0, "observations": 2,
			"terms":    []string{"public safety power shutoff", "wildfire", "wildfires"},
			"evidence": []Evidence{{KindFiling, "sec_edgar", "f1"}, {KindMention, "news", "m1"}}, "company_score": 0.8997}},
	}
	if !reflect.DeepEqual(r.Correlations, want) {
		t.Errorf("got\n%+v\nwant\n%+v", r.Correlations, want)
	}
	if len(r.Signals)+len(r.Trending) != 0 {
		t.Errorf("%+v", r)
	}
}

// One observation per category as the documentation gives it: a mention
// naming a wildfire once 0.1813, a filing 0.3297; every category has a
// phrase.
func TestEnvironmentalCategories(t *testing.T) {
	for _, c := range []struct {
		kind, text, category string
		want                 float64
	}{
		{KindMention, "a wildfire", "wildfire", 0.1813},
		{KindFiling, "a wildfire", "wildfire", 0.3297},
		{KindMention, "flash flood warning", "flood", 0.1813},
		{KindMention, "water scarcity", "drought", 0.1813},
		{KindMention, "PFAS found", "contamination", 0.1813},
		{KindMention, "a Notice of Violation", "emissions", 0.3297}, // weight 2
		{KindMention, "Typhoon season", "hurricane", 0.1813},
		{KindMention, "the heat-wave", "heat", 0.1813},
	} {
		var in Inputs
		if c.kind == KindFiling {
			in.Filings = []Filing{{ID: "x", Company: "Co", Form: "10-K", Text: c.text, FiledAt: ago(day)}}
		} else {
			in.Mentions = []Mention{{ID: "x", Company: "Co", Text: c.text, At: ago(day)}}
		}
		r := run(t, AlgoEnvironmental, in, asOf)
		if len(r.Correlations) != 1 || r.Correlations[0].EntityB != c.category || r.Correlations[0].Score != c.want {
			t.Errorf("%s %q: %+v", c.kind, c.text, r.Correlations)
		}
	}
}

func TestEnvironmentalIgnoresOutsideItsWindow(t *testing.T) {
	in := Inputs{
		Filings:   []Filing{{ID: "f", Company: "Co", Text: "wildfire", FiledAt: ago(90*day + 1)}},
		Documents: []Document{{ID: "d", Companies: []string{"Co"}, Text: "flood", At: dayEnd}},
	}
	wantNoInput(t, run(t, AlgoEnvironmental, in, asOf), AlgoEnvironmental)
	in.Mentions = []Mention{{ID: "m", Company: "Co", Text: "nothing hazardous", At: ago(90 * day)}}
	r := run(t, AlgoEnvironmental, in, asOf)
	if r.NoInput || r.Inputs != 1 || len(r.Correlations) != 0 {
		t.Errorf("%+v", r)
	}
}

func TestEnvironmentalIsDeterministic(t *testing.T) {
	sameWhenShuffled(t, AlgoEnvironmental, environmentFixture(), asOf)
}
