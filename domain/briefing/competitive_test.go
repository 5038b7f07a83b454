package briefing

import (
	"reflect"
	"testing"
	"time"
)

// competitiveFixture, by hand (the as-of day, 2024-05-02, only):
//
//	0001 Rival Inc 8-K: weight 0.6; "definitive agreement" (deal),
//	  "launches", "new product" (product): 0.6 + 2·0.05 = 0.7.
//	0002 Rival Inc S-1/A: an amendment, 1.0·0.5 = 0.5.
//	0003 Other Co Form 4: read, not a competitive form.
//	0004 Other Co 10-Q filed 23:59 the day before: outside.
//	(no id) Rival Inc 8-K: not read.
//	0006 Newco S-1: 1.0 + pricing + leadership = 1.1, capped at 1.
//	0001 again from another source: the same filing.
func competitiveFixture() Inputs {
	return Inputs{Filings: []Filing{
		{ID: "0001", Source: "sec_edgar", Company: "Rival Inc", Form: "8-K", FiledAt: time.Date(2024, 5, 2, 14, 5, 0, 0, time.UTC),
			Title: "Rival Inc enters a definitive agreement", Text: "Rival launches a new product line.", URL: "https://sec/0001"},
		{ID: "0002", Source: "sec_edgar", Company: "Rival Inc", Form: "S-1/A", FiledAt: time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC), Title: "Amendment No. 2"},
		{ID: "0003", Source: "sec_edgar", Company: "Other Co", Form: "4", FiledAt: time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC)},
		{ID: "0004", Source: "sec_edgar", Company: "Other Co", Form: "10-Q", FiledAt: time.Date(2024, 5, 1, 23, 59, 0, 0, time.UTC)},
		{ID: "", Source: "sec_edgar", Company: "Rival Inc", Form: "8-K", FiledAt: time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC)},
		{ID: "0006", Source: "sec_edgar", Company: "Newco", Form: "S-1", FiledAt: time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC),
			Title: "Pricing of IPO; CEO appointed"},
		{ID: "0001", Source: "feed", Company: "rival inc", Form: "8-K", FiledAt: time.Date(2024, 5, 2, 14, 5, 0, 0, time.UTC)},
	}}
}

func TestCompetitiveMovement(t *testing.T) {
	r := run(t, AlgoCompetitive, competitiveFixture(), asOf)
	if r.NoInput || r.Inputs != 4 { // 0001, 0002, 0003, 0006
		t.Fatalf("inputs %d", r.Inputs)
	}
	want := []Signal{
		{Type: SignalCompetitive, Algo: AlgoCompetitive, Subject: "newco:0006", Score: 1,
			Rule: "competitive_filing: form S-1 filed 2024-05-02, registration for an initial public offering (weight 1.00 + 0.05 x 2 movements: pricing, leadership)",
			Payload: map[string]any{"company": "Newco", "form": "S-1", "title": "Pricing of IPO; CEO appointed", "filed_at": "2024-05-02T00:00:00Z",
				"url": "", "reason": "registration for an initial public offering", "movements": []string{"pricing", "leadership"},
				"filing_id": "0006", "source": "sec_edgar", "score": 1.0},
			Evidence: []Evidence{{KindFiling, "sec_edgar", "0006"}}},
		{Type: SignalCompetitive, Algo: AlgoCompetitive, Subject: "rival inc:0001", Score: 0.7,
			Rule: "competitive_filing: form 8-K filed 2024-05-02, current report of a material event (weight 0.60 + 0.05 x 2 movements: product, deal)",
			Payload: map[string]any{"company": "Rival Inc", "form": "8-K", "title": "Rival Inc enters a definitive agreement", "filed_at": "2024-05-02T14:05:00Z",
				"url": "https://sec/0001", "reason": "current report of a material event", "movements": []string{"product", "deal"},
				"filing_id": "0001", "source": "sec_edgar", "score": 0.7},
			Evidence: []Evidence{{KindFiling, "sec_edgar", "0001"}}},
		{Type: SignalCompetitive, Algo: AlgoCompetitive, Subject: "rival inc:0002", Score: 0.5,
			Rule: "competitive_filing: form S-1/A filed 2024-05-02, amendment: registration for an initial public offering (weight 0.50)",
			Payload: map[string]any{"company": "Rival Inc", "form": "S-1/A", "title": "Amendment No. 2", "filed_at": "2024-05-02T09:00:00Z",
				"url": "", "reason": "amendment: registration for an initial public offering", "movements": []string{},
				"filing_id": "0002", "source": "sec_edgar", "score": 0.5},
			Evidence: []Evidence{{KindFiling, "sec_edgar", "0002"}}},
	}
	if !reflect.DeepEqual(r.Signals, want) {
		t.Errorf("got\n%+v\nwant\n%+v", r.Signals, want)
	}
}

func TestCompetitiveForms(t *testing.T) {
	for form, want := range map[string]float64{
		"S-1": 1, "F-1": 1, "S-4": 0.9, "425": 0.9, "DEFM14A": 0.9, "SC TO-T": 0.9, "SC 13D": 0.8, "SC 13D/A": 0.4,
		"SC 14D9": 0.7, "8-K": 0.6, "8-K/A": 0.3, "6-K": 0.5, "10-K": 0.5, "20-F": 0.5, "10-Q": 0.4,
		"4": 0, "13F-HR": 0, "S-8": 0, "SC 13G": 0, "424B4": 0, "DEF 14A": 0, "D": 0,
	} {
		r := run(t, AlgoCompetitive, Inputs{Filings: []Filing{{ID: "1", Company: "Co", Form: form, FiledAt: ago(time.Hour)}}}, asOf)
		got := 0.0
		if len(r.Signals) == 1 {
			got = r.Signals[0].Score
		}
		if got != want || r.Inputs != 1 {
			t.Errorf("%s: %v, want %v", form, got, want)
		}
	}
}

func TestCompetitiveIgnoresOtherDays(t *testing.T) {
	in := Inputs{Filings: []Filing{
		{ID: "1", Company: "Co", Form: "S-1", FiledAt: dayEnd.Add(-day - 1)}, // the day before, last nanosecond
		{ID: "2", Company: "Co", Form: "S-1", FiledAt: dayEnd},               // the next day
	}}
	wantNoInput(t, run(t, AlgoCompetitive, in, asOf), AlgoCompetitive)
	in.Filings = append(in.Filings, Filing{ID: "3", Company: "Co", Form: "S-1", FiledAt: dayEnd.Add(-day)})
	r := run(t, AlgoCompetitive, in, asOf)
	if r.Inputs != 1 || len(r.Signals) != 1 || r.Signals[0].Subject != "co:3" {
		t.Errorf("%+v", r)
	}
}

func TestCompetitiveIsDeterministic(t *testing.T) {
	sameWhenShuffled(t, AlgoCompetitive, competitiveFixture(), asOf)
}
