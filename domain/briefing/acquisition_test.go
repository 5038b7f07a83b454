package briefing

import (
	"reflect"
	"testing"
	"time"
)

// acquisitionFixture, by hand (30-day window):
//
//	Target Co: tender_offer +50 (SC TO-T), strategic_alternatives +30
//	  (m1), takeover_interest +20 (m2; m3 fires it again, counted once):
//	  100 points, score 1.
//	Activist Target: activist_stake +40 (SC 13D/A counts as SC 13D),
//	  material_agreement_8k +30 (an 8-K naming item 1.01): 70, 0.7.
//	Gamma Corp: sale_process +25 and takeover_interest +20 (doc-1, which
//	  names Delta Corp too), deal_talks +15 (m4): 60, 0.6.
//	Delta Corp: 45, no signal. Quiet Inc: deal_talks 15 (m5 and doc-2);
//	  its 425 is outside the window, its 8-K names no agreement, m6 has
//	  only words near the phrases ("acquirer", "takeovers"): no signal.
func acquisitionFixture() Inputs {
	return Inputs{
		Filings: []Filing{
			{ID: "f1", Source: "sec_edgar", Company: "Target Co", Form: "SC TO-T", FiledAt: ago(2 * day)},
			{ID: "f2", Source: "sec_edgar", Company: "Activist Target", Form: "sc 13d/a", FiledAt: ago(5 * day)},
			{ID: "f3", Source: "sec_edgar", Company: "Activist Target", Form: "8-K", Title: "Entry into a Material Definitive Agreement (Item 1.01)", FiledAt: ago(3 * day)},
			{ID: "f4", Source: "sec_edgar", Company: "Quiet Inc", Form: "425", FiledAt: ago(31 * day)},
			{ID: "f5", Source: "sec_edgar", Company: "Quiet Inc", Form: "8-K", Title: "Results of Operations (Item 2.02)", FiledAt: ago(day)},
		},
		Mentions: []Mention{
			{ID: "m1", Source: "news", Company: "target co", Text: "Target Co is exploring strategic alternatives, including a sale.", At: ago(day)},
			{ID: "m2", Source: "news", Company: "Target Co", Title: "Takeover battle heats up", At: ago(day)},
			{ID: "m3", Source: "blog", Company: "Target Co", Text: "a takeover is likely", At: ago(day)},
			{ID: "m4", Source: "news", Company: "Gamma Corp", Text: "Rival in talks to acquire Gamma Corp", At: ago(day)},
			{ID: "m5", Source: "news", Company: "Quiet Inc", Text: "merger rumours", At: ago(day)},
			{ID: "m6", Source: "news", Company: "Quiet Inc", Text: "the acquirer is unknown; takeovers are rare", At: ago(day)},
		},
		Documents: []Document{
			{ID: "doc-1", Source: "wsj", Companies: []string{"Gamma Corp", "Delta Corp"}, Title: "Gamma Corp weighing a sale",
				Text: "Delta Corp is said to have made a hostile bid.", At: ago(4 * day)},
			{ID: "doc-2", Source: "wsj", Companies: []string{"Quiet Inc", "Other"}, Text: "Quiet Inc acquired a startup.", At: ago(4 * day)},
		},
	}
}

func TestAcquisitionSignal(t *testing.T) {
	r := run(t, AlgoAcquisition, acquisitionFixture(), asOf)
	if r.NoInput || r.Inputs != 12 { // 4 filings in the window, 6 mentions, 2 documents
		t.Fatalf("inputs %d", r.Inputs)
	}
	rules := func(rs ...[3]any) []map[string]any {
		var out []map[string]any
		for _, x := range rs {
			out = append(out, map[string]any{"rule": x[0], "points": x[1], "observations": x[2]})
		}
		return out
	}
	want := []Signal{
		{Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: "activist target", Score: 0.7,
			Rule: "acquisition_opportunity: 70 points >= 50 (activist_stake +40, material_agreement_8k +30)",
			Payload: map[string]any{"company": "Activist Target", "score": 0.7, "points": 70, "evidence_total": 2,
				"rules": rules([3]any{"activist_stake", 40, 1}, [3]any{"material_agreement_8k", 30, 1})},
			Evidence: []Evidence{{KindFiling, "sec_edgar", "f2"}, {KindFiling, "sec_edgar", "f3"}}},
		{Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: "gamma corp", Score: 0.6,
			Rule: "acquisition_opportunity: 60 points >= 50 (sale_process +25, takeover_interest +20, deal_talks +15)",
			Payload: map[string]any{"company": "Gamma Corp", "score": 0.6, "points": 60, "evidence_total": 2,
				"rules": rules([3]any{"sale_process", 25, 1}, [3]any{"takeover_interest", 20, 1}, [3]any{"deal_talks", 15, 1})},
			Evidence: []Evidence{{KindDocument, "wsj", "doc-1"}, {KindMention, "news", "m4"}}},
		{Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: "target co", Score: 1,
			Rule: "acquisition_opportunity: 100 points >= 50 (tender_offer +50, strategic_alternatives +30, takeover_interest +20)",
			Payload: map[string]any{"company": "Target Co", "score": 1.0, "points": 100, "evidence_total": 4,
				"rules": rules([3]any{"tender_offer", 50, 1}, [3]any{"strategic_alternatives", 30, 1}, [3]any{"takeover_interest", 20, 2})},
			Evidence: []Evidence{{KindFiling, "sec_edgar", "f1"}, {KindMention, "blog", "m3"}, {KindMention, "news", "m1"}, {KindMention, "news", "m2"}}},
	}
	if !reflect.DeepEqual(r.Signals, want) {
		t.Errorf("got\n%+v\nwant\n%+v", r.Signals, want)
	}
	if len(r.Correlations)+len(r.Trending) != 0 {
		t.Errorf("%+v", r)
	}
}

// Each form of the rules, alone or with another rule, against the
// threshold.
func TestAcquisitionForms(t *testing.T) {
	for _, c := range []struct {
		forms  []string
		points int // 0: no signal
	}{
		{[]string{"SC 13D"}, 0}, // 40 < 50
		{[]string{"SCHEDULE 13D", "8-K"}, 0},
		{[]string{"SC TO-T"}, 50},
		{[]string{"SC 14D9"}, 50},
		{[]string{"425"}, 50},
		{[]string{"S-4/A"}, 50},
		{[]string{"DEFM14A", "425", "S-4"}, 50}, // one rule, once
		{[]string{"SC 13D", "PREM14A"}, 90},
		{[]string{"SC TO-I", "SC 13G", "4", "10-K"}, 0}, // an issuer's own tender, a passive stake, routine reports
	} {
		var in Inputs
		for i, f := range c.forms {
			in.Filings = append(in.Filings, Filing{ID: string(rune('a' + i)), Company: "Co", Form: f, FiledAt: ago(day)})
		}
		r := run(t, AlgoAcquisition, in, asOf)
		got := 0
		if len(r.Signals) == 1 {
			got = r.Signals[0].Payload["points"].(int)
		}
		if got != c.points || len(r.Signals) > 1 {
			t.Errorf("%v: %d points, want %d", c.forms, got, c.points)
		}
	}
}

func TestAcquisitionIgnoresOutsideItsWindow(t *testing.T) {
	in := Inputs{
		Filings:  []Filing{{ID: "f", Company: "Co", Form: "SC TO-T", FiledAt: ago(30*day + 1)}, {ID: "g", Company: "Co", Form: "425", FiledAt: dayEnd}},
		Mentions: []Mention{{ID: "m", Company: "Co", Text: "strategic alternatives", At: ago(31 * day)}},
	}
	wantNoInput(t, run(t, AlgoAcquisition, in, asOf), AlgoAcquisition)
	in.Filings = append(in.Filings, Filing{ID: "h", Company: "Co", Form: "SC TO-T", FiledAt: ago(30 * day)})
	r := run(t, AlgoAcquisition, in, asOf)
	if r.Inputs != 1 || len(r.Signals) != 1 || r.Signals[0].Score != 0.5 {
		t.Errorf("%+v", r)
	}
}

// At most 100 observations are listed; the total says how many there were.
func TestAcquisitionEvidenceIsCapped(t *testing.T) {
	var in Inputs
	for i := range 150 {
		in.Mentions = append(in.Mentions, Mention{ID: string(rune(0x4e00 + i)), Company: "Co", Text: "takeover", At: ago(time.Hour)})
	}
	in.Filings = []Filing{{ID: "f", Company: "Co", Form: "425", FiledAt: ago(day)}}
	r := run(t, AlgoAcquisition, in, asOf)
	s := r.Signals[0]
	if len(s.Evidence) != acqEvidence || s.Payload["evidence_total"] != 151 || s.Evidence[0] != (Evidence{KindFiling, "", "f"}) {
		t.Errorf("%d %v %v", len(s.Evidence), s.Payload["evidence_total"], s.Evidence[0])
	}
}

func TestAcquisitionIsDeterministic(t *testing.T) {
	sameWhenShuffled(t, AlgoAcquisition, acquisitionFixture(), asOf)
}
