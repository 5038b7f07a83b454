package briefing

import (
	"fmt"
	"strings"
	"time"
)

// competitiveForms are the filing forms (without "/A") that tell a
// competitor's move, with their weight and what they are. Not listed, so
// not signals: insider and institutional holdings reports (3, 4, 5, 13F,
// SC 13G: routine or passive), employee plan registrations (S-8),
// prospectus supplements (424B*), ordinary proxies (DEF 14A), exempt
// offerings (D) and the rest.
var competitiveForms = map[string]struct {
	weight float64
	what   string
}{
	"S-1":          {1.0, "registration for an initial public offering"},
	"F-1":          {1.0, "registration for a foreign issuer's initial public offering"},
	"S-4":          {0.9, "registration of securities issued in a business combination"},
	"F-4":          {0.9, "registration of a foreign issuer's securities issued in a business combination"},
	"425":          {0.9, "communication about a business combination"},
	"DEFM14A":      {0.9, "definitive merger proxy statement"},
	"SC TO-T":      {0.9, "third-party tender offer"},
	"SC 13D":       {0.8, "stake above 5% by a holder intending to influence the company"},
	"SCHEDULE 13D": {0.8, "stake above 5% by a holder intending to influence the company"},
	"SC 14D9":      {0.7, "response to a tender offer"},
	"8-K":          {0.6, "current report of a material event"},
	"6-K":          {0.5, "foreign issuer's current report"},
	"10-K":         {0.5, "annual report"},
	"20-F":         {0.5, "foreign issuer's annual report"},
	"40-F":         {0.5, "Canadian issuer's annual report"},
	"10-Q":         {0.4, "quarterly report"},
}

const (
	amendmentFactor = 0.5  // an amendment weighs half its form
	movementBonus   = 0.05 // per movement category named in the filing
)

var movements = []string{"product", "pricing", "deal", "leadership", "restructuring", "results"}

// movementTerms is read in a filing's title and text.
var movementTerms = newLexicon([]term{
	{"launch", 0, 0}, {"launches", 0, 0}, {"launched", 0, 0}, {"new product", 0, 0}, {"unveils", 0, 0}, {"introduces", 0, 0},
	{"pricing", 1, 0}, {"price increase", 1, 0}, {"price increases", 1, 0}, {"price cut", 1, 0}, {"price cuts", 1, 0},
	{"price reduction", 1, 0},
	{"acquisition", 2, 0}, {"merger", 2, 0}, {"definitive agreement", 2, 0}, {"partnership", 2, 0}, {"joint venture", 2, 0},
	{"strategic alliance", 2, 0},
	{"chief executive officer", 3, 0}, {"chief executive", 3, 0}, {"ceo", 3, 0}, {"departure of directors", 3, 0},
	{"appointment of certain officers", 3, 0},
	{"restructuring", 4, 0}, {"layoff", 4, 0}, {"layoffs", 4, 0}, {"workforce reduction", 4, 0}, {"reduction in force", 4, 0},
	{"exit or disposal activities", 4, 0},
	{"results of operations", 5, 0}, {"earnings", 5, 0}, {"quarterly results", 5, 0},
})

// competitiveMovement is competitive_movement: what competitors filed on
// the as-of day (RULES.md). Reads the filings filed on the as-of day (UTC)
// that have a source id.
//
// Each filing whose form (or, amended, its form without "/A") is one of
// competitiveForms is a signal of type competitive_filing. Its subject is
// the company's normalised name, ":" and the filing's id; its score is the
// form's weight (half for an amendment) plus 0.05 for each movement
// category (product, pricing, deal, leadership, restructuring, results)
// whose phrases (movementTerms, whole words) are in the filing's title or
// text, at most 1, rounded to 4 decimals. Its evidence is the filing. A
// filing id seen again for the company (from another source) is the same
// filing, read once: the copy with the longest title and text, the first
// by source name on a tie.
func competitiveMovement(in Inputs, f frame) Result {
	var w words
	var hits []int32
	r := Result{}
	fs := filingsIn(in, f.fil)
	subject := func(x *Filing) string { return normKey(x.Company) + ":" + x.ID }
	best := map[string]int32{} // subject → the copy read
	for _, i := range fs {
		x := &in.Filings[i]
		if x.ID == "" {
			continue // a signal must be identifiable
		}
		s := subject(x)
		if b, ok := best[s]; !ok || len(x.Title)+len(x.Text) > len(in.Filings[b].Title)+len(in.Filings[b].Text) {
			best[s] = i
		}
	}
	for _, i := range fs {
		x := &in.Filings[i]
		if x.ID == "" || best[subject(x)] != i {
			continue
		}
		subject := subject(x)
		r.Inputs++
		key, base, amended := formKey(x.Form)
		form, ok := competitiveForms[base]
		if !ok {
			continue
		}
		weight, what := form.weight, form.what
		if amended {
			weight, what = weight*amendmentFactor, "amendment: "+what
		}
		hits = movementTerms.find(&w, x.Title, hits[:0])
		hits = movementTerms.find(&w, x.Text, hits)
		var named [6]bool
		for _, h := range hits {
			named[movementTerms.terms[h].group] = true
		}
		moved := []string{}
		for g, ok := range named {
			if ok {
				moved = append(moved, movements[g])
			}
		}
		score := round4(min(1, weight+movementBonus*float64(len(moved))))
		rule := fmt.Sprintf("%s: form %s filed %s, %s (weight %.2f", SignalCompetitive, key, x.FiledAt.UTC().Format("2006-01-02"), what, weight)
		if len(moved) > 0 {
			rule += fmt.Sprintf(" + 0.05 x %d movements: %s", len(moved), strings.Join(moved, ", "))
		}
		rule += ")"
		name := strings.TrimSpace(x.Company)
		r.Signals = append(r.Signals, Signal{
			Type: SignalCompetitive, Algo: AlgoCompetitive, Subject: subject, Score: score, Rule: rule,
			Payload: map[string]any{"company": name, "form": key, "title": x.Title, "filed_at": x.FiledAt.UTC().Format(time.RFC3339),
				"url": x.URL, "reason": what, "movements": moved, "filing_id": x.ID, "source": x.Source, "score": score},
			Evidence: []Evidence{{KindFiling, x.Source, x.ID}},
		})
	}
	return r
}
