package briefing

import (
	"fmt"
	"slices"
	"strings"
)

// The rules of acquisition_signal, each worth its points once per company.
const (
	acqActivist = iota
	acqTender
	acqMerger
	acqAgreement8K
	acqAlternatives
	acqSale
	acqTakeover
	acqTalks
	acqRuleCount
)

var acqRules = [acqRuleCount]struct {
	name   string
	points int
}{
	acqActivist:     {"activist_stake", 40},
	acqTender:       {"tender_offer", 50},
	acqMerger:       {"merger_filing", 50},
	acqAgreement8K:  {"material_agreement_8k", 30},
	acqAlternatives: {"strategic_alternatives", 30},
	acqSale:         {"sale_process", 25},
	acqTakeover:     {"takeover_interest", 20},
	acqTalks:        {"deal_talks", 15},
}

const (
	acqThreshold = 50  // points for a signal
	acqFull      = 100 // points for a score of 1
	acqEvidence  = 100 // observations listed in a signal at most
)

// acqForms gives the rule a filing form (without "/A": an amendment
// counts as its form) fires.
var acqForms = map[string]int{
	"SC 13D": acqActivist, "SCHEDULE 13D": acqActivist, // a >5% holder intending to influence control
	"SC TO-T": acqTender, "SC 14D9": acqTender, "SC 14D-9": acqTender, // third-party tender offer, the target's response
	"425": acqMerger, "S-4": acqMerger, "F-4": acqMerger, // business-combination communications and registrations
	"DEFM14A": acqMerger, "PREM14A": acqMerger, "DEFM14C": acqMerger, "PREM14C": acqMerger, // merger proxy and information statements
}

// acq8K is read in an 8-K's title and text.
var acq8K = newLexicon([]term{
	{"item 1.01", acqAgreement8K, 0}, {"items 1.01", acqAgreement8K, 0}, // entry into a material definitive agreement
	{"item 2.01", acqAgreement8K, 0}, {"items 2.01", acqAgreement8K, 0}, // completion of acquisition or disposition of assets
	{"definitive agreement", acqAgreement8K, 0}, {"merger agreement", acqAgreement8K, 0},
	{"agreement and plan of merger", acqAgreement8K, 0},
})

// acqPhrases is read in mentions' and documents' titles and texts.
var acqPhrases = newLexicon([]term{
	{"strategic alternatives", acqAlternatives, 0}, {"strategic options", acqAlternatives, 0},

	{"explore a sale", acqSale, 0}, {"explores a sale", acqSale, 0}, {"exploring a sale", acqSale, 0},
	{"explored a sale", acqSale, 0}, {"considering a sale", acqSale, 0}, {"considers a sale", acqSale, 0},
	{"weighing a sale", acqSale, 0}, {"weighs a sale", acqSale, 0}, {"up for sale", acqSale, 0},
	{"sale of the company", acqSale, 0}, {"seeking a buyer", acqSale, 0}, {"seeks a buyer", acqSale, 0},

	{"acquisition target", acqTakeover, 0}, {"takeover", acqTakeover, 0}, {"takeover target", acqTakeover, 0},
	{"takeover bid", acqTakeover, 0}, {"takeover offer", acqTakeover, 0}, {"takeover approach", acqTakeover, 0},
	{"buyout offer", acqTakeover, 0}, {"buyout bid", acqTakeover, 0}, {"hostile bid", acqTakeover, 0},
	{"unsolicited offer", acqTakeover, 0}, {"unsolicited proposal", acqTakeover, 0},

	{"in talks to acquire", acqTalks, 0}, {"talks to acquire", acqTalks, 0}, {"in talks to buy", acqTalks, 0},
	{"talks to buy", acqTalks, 0}, {"agreed to acquire", acqTalks, 0}, {"agrees to acquire", acqTalks, 0},
	{"to be acquired", acqTalks, 0}, {"merger talks", acqTalks, 0}, {"merger", acqTalks, 0},
	{"acquire", acqTalks, 0}, {"acquires", acqTalks, 0}, {"acquired", acqTalks, 0},
})

// acquisitionSignal is acquisition_signal: companies that may be for sale
// or in play (RULES.md). Reads filings, mentions and documents of the last
// 30 days.
//
// Rules, each worth its points once per company however many observations
// fire it:
//   - activist_stake +40: a filing of form SC 13D (SCHEDULE 13D);
//   - tender_offer +50: SC TO-T or SC 14D9;
//   - merger_filing +50: 425, S-4, F-4, DEFM14A, PREM14A, DEFM14C,
//     PREM14C;
//   - material_agreement_8k +30: an 8-K whose title or text names item
//     1.01 or 2.01, a definitive agreement, a merger agreement or an
//     agreement and plan of merger;
//   - strategic_alternatives +30, sale_process +25, takeover_interest +20,
//     deal_talks +15: a mention or document whose title or text has one of
//     the rule's phrases (acqPhrases, whole words).
//
// Amended forms ("/A") count as their form. A mention counts for its
// company, a document for every company it names, a filing for its
// company. A company with 50 points or more is a signal of type
// acquisition_opportunity; its subject is the company's normalised name,
// its score min(points, 100)/100, its evidence the observations that fired
// a rule (the first 100 in kind, source, source id order).
func acquisitionSignal(in Inputs, f frame) Result {
	fs, ms, ds := filingsIn(in, f.fil), mentionsIn(in, f.men), documentsIn(in, f.doc)
	n := len(fs) + len(ms) + len(ds)
	if n == 0 {
		return Result{}
	}
	type company struct {
		fired [acqRuleCount]int // observations firing each rule
		ev    []Evidence        // the first acqEvidence
		n     int               // observations firing a rule
	}
	co := newNames()
	var cs []company
	var w words
	var hits []int32
	var ids []int32
	note := func(id int32, mask uint16, e Evidence) {
		if mask == 0 {
			return
		}
		for int(id) >= len(cs) {
			cs = append(cs, company{})
		}
		c := &cs[id]
		for r := range acqRules {
			if mask&(1<<r) != 0 {
				c.fired[r]++
			}
		}
		c.ev = keepSmallest(c.ev, e, acqEvidence, cmpEvidence)
		c.n++
	}
	phrases := func(l *lexicon, texts ...string) uint16 {
		hits = hits[:0]
		for _, t := range texts {
			hits = l.find(&w, t, hits)
		}
		var mask uint16
		for _, h := range hits {
			mask |= 1 << l.terms[h].group
		}
		return mask
	}
	for _, i := range fs {
		x := &in.Filings[i]
		_, base, _ := formKey(x.Form)
		var mask uint16
		if r, ok := acqForms[base]; ok {
			mask |= 1 << r
		}
		if base == "8-K" {
			mask |= phrases(acq8K, x.Title, x.Text)
		}
		note(co.add(x.Company), mask, Evidence{KindFiling, x.Source, x.ID})
	}
	for _, i := range ms {
		x := &in.Mentions[i]
		note(co.add(x.Company), phrases(acqPhrases, x.Title, x.Text), Evidence{KindMention, x.Source, x.ID})
	}
	for _, i := range ds {
		x := &in.Documents[i]
		mask := phrases(acqPhrases, x.Title, x.Text)
		ids = ids[:0]
		for _, c := range x.Companies {
			if id := co.add(c); id >= 0 {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			note(id, mask, Evidence{KindDocument, x.Source, x.ID})
		}
	}

	r := Result{Inputs: n}
	for id := range cs {
		c := &cs[id]
		points := 0
		var fired []string
		var rules []map[string]any
		for i, rule := range acqRules {
			if c.fired[i] > 0 {
				points += rule.points
				fired = append(fired, fmt.Sprintf("%s +%d", rule.name, rule.points))
				rules = append(rules, map[string]any{"rule": rule.name, "points": rule.points, "observations": c.fired[i]})
			}
		}
		if points < acqThreshold {
			continue
		}
		score := round4(float64(min(points, acqFull)) / acqFull)
		name := co.display(int32(id))
		r.Signals = append(r.Signals, Signal{
			Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: co.key(int32(id)), Score: score,
			Rule:     fmt.Sprintf("%s: %d points >= %d (%s)", SignalAcquisition, points, acqThreshold, strings.Join(fired, ", ")),
			Payload:  map[string]any{"company": name, "score": score, "points": points, "rules": rules, "evidence_total": c.n},
			Evidence: c.ev,
		})
	}
	return r
}
