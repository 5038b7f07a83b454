package briefing

import (
	"math"
	"slices"
)

// Hazard categories of environmental_risk, the correlations' entity_b.
var hazards = []string{"wildfire", "flood", "drought", "contamination", "emissions", "hurricane", "heat"}

const (
	hzWildfire = iota
	hzFlood
	hzDrought
	hzContamination
	hzEmissions
	hzHurricane
	hzHeat
	hzCount
)

const (
	hazardPerObservation = 3.0 // an observation adds at most this much to a category
	hazardScale          = 5.0 // k in 1-exp(-x/k)
	hazardList           = 10  // terms and evidence listed in a correlation at most
)

// hazardKind weighs an observation by its kind: what a company files about
// itself counts double.
var hazardKind = map[string]float64{KindFiling: 2, KindDocument: 1, KindMention: 1}

// hazardTerms is the lexicon: phrase, category, weight.
var hazardTerms = newLexicon([]term{
	{"wildfire", hzWildfire, 1}, {"wildfires", hzWildfire, 1}, {"forest fire", hzWildfire, 1}, {"forest fires", hzWildfire, 1},
	{"bushfire", hzWildfire, 1}, {"bushfires", hzWildfire, 1}, {"brush fire", hzWildfire, 1}, {"brush fires", hzWildfire, 1},
	{"public safety power shutoff", hzWildfire, 1}, {"red flag warning", hzWildfire, 0.5},

	{"flood", hzFlood, 1}, {"floods", hzFlood, 1}, {"flooding", hzFlood, 1}, {"flooded", hzFlood, 1},
	{"flash flood", hzFlood, 1}, {"storm surge", hzFlood, 1}, {"floodplain", hzFlood, 0.5}, {"sea level rise", hzFlood, 0.5},

	{"drought", hzDrought, 1}, {"droughts", hzDrought, 1}, {"water shortage", hzDrought, 1}, {"water shortages", hzDrought, 1},
	{"water scarcity", hzDrought, 1}, {"water restrictions", hzDrought, 0.5},

	{"contamination", hzContamination, 1}, {"contaminated", hzContamination, 1}, {"spill", hzContamination, 1},
	{"spills", hzContamination, 1}, {"spilled", hzContamination, 1}, {"oil spill", hzContamination, 1.5},
	{"chemical spill", hzContamination, 1.5}, {"superfund", hzContamination, 1.5}, {"hazardous waste", hzContamination, 1},
	{"toxic release", hzContamination, 1}, {"pfas", hzContamination, 1},

	{"epa violation", hzEmissions, 2}, {"notice of violation", hzEmissions, 2}, {"emissions violation", hzEmissions, 2},
	{"consent decree", hzEmissions, 1.5}, {"excess emissions", hzEmissions, 1.5}, {"methane leak", hzEmissions, 1.5},
	{"environmental penalty", hzEmissions, 1.5}, {"clean air act", hzEmissions, 1}, {"clean water act", hzEmissions, 1},

	{"hurricane", hzHurricane, 1}, {"hurricanes", hzHurricane, 1}, {"tropical storm", hzHurricane, 1},
	{"tropical storms", hzHurricane, 1}, {"typhoon", hzHurricane, 1}, {"typhoons", hzHurricane, 1}, {"cyclone", hzHurricane, 1},

	{"heat wave", hzHeat, 1}, {"heat waves", hzHeat, 1}, {"heatwave", hzHeat, 1}, {"heatwaves", hzHeat, 1},
	{"extreme heat", hzHeat, 1}, {"heat dome", hzHeat, 1}, {"record heat", hzHeat, 1}, {"excessive heat", hzHeat, 1},
})

// environmentalRisk is environmental_risk: which companies are exposed to
// which environmental hazards (RULES.md). Reads filings, mentions and
// documents of the last 90 days.
//
// The title and text of each observation are matched against a lexicon of
// hazard phrases (hazardTerms, whole words), each phrase counting for one
// category with a weight. An observation adds to a category, for each
// company it is about (a filing's or mention's company, every company a
// document names), the sum of its phrases' weights capped at 3, times 2
// for a filing (the company's own words) and 1 for a mention or document.
// A company's exposure x to a category is the sum; its score there is
// 1-exp(-x/5), in [0, 1): one mention naming a wildfire once scores
// 0.1813, a filing doing so 0.3297. Each company and category with an
// exposure is a correlation, type exposed_to, rounded to 4 decimals; its
// metadata has the exposure, the observations, the phrases found and the
// first 10 observations (evidence), and the company's score over all
// categories (1-exp(-Σx/5)). No signals: the signal types are
// acquisition_opportunity and competitive_filing only.
func environmentalRisk(in Inputs, f frame) Result {
	fs, ms, ds := filingsIn(in, f.fil), mentionsIn(in, f.men), documentsIn(in, f.doc)
	n := len(fs) + len(ms) + len(ds)
	if n == 0 {
		return Result{}
	}
	type exposure struct {
		x     float64
		obs   int
		terms []int32
		ev    []Evidence // the first hazardList
	}
	co := newNames()
	var cs [][hzCount]exposure
	var w words
	var hits, ids []int32
	var sum [hzCount]float64
	observe := func(kind, source, sourceID, title, text string, companies ...string) {
		hits = hazardTerms.find(&w, title, hits[:0])
		hits = hazardTerms.find(&w, text, hits)
		if len(hits) == 0 {
			return
		}
		sum = [hzCount]float64{}
		for _, h := range hits {
			t := hazardTerms.terms[h]
			sum[t.group] += t.weight
		}
		ids = ids[:0]
		for _, c := range companies {
			if id := co.add(c); id >= 0 {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			for int(id) >= len(cs) {
				cs = append(cs, [hzCount]exposure{})
			}
			for g, s := range sum {
				if s == 0 {
					continue
				}
				e := &cs[id][g]
				e.x += min(s, hazardPerObservation) * hazardKind[kind]
				e.obs++
				for _, h := range hits {
					if hazardTerms.terms[h].group == g && !slices.Contains(e.terms, h) {
						e.terms = append(e.terms, h)
					}
				}
				e.ev = keepSmallest(e.ev, Evidence{kind, source, sourceID}, hazardList, cmpEvidence)
			}
		}
	}
	for _, i := range fs {
		x := &in.Filings[i]
		observe(KindFiling, x.Source, x.ID, x.Title, x.Text, x.Company)
	}
	for _, i := range ms {
		x := &in.Mentions[i]
		observe(KindMention, x.Source, x.ID, x.Title, x.Text, x.Company)
	}
	for _, i := range ds {
		x := &in.Documents[i]
		observe(KindDocument, x.Source, x.ID, x.Title, x.Text, x.Companies...)
	}

	r := Result{Inputs: n}
	for id := range cs {
		var total float64
		for _, e := range cs[id] {
			total += e.x
		}
		companyScore := round4(1 - math.Exp(-total/hazardScale))
		name := co.display(int32(id))
		for g := range cs[id] {
			e := &cs[id][g]
			if e.x == 0 {
				continue
			}
			var terms []string
			for _, h := range e.terms {
				terms = append(terms, hazardTerms.terms[h].phrase)
			}
			slices.Sort(terms)
			terms = terms[:min(len(terms), hazardList)]
			r.Correlations = append(r.Correlations, Correlation{
				Algo: AlgoEnvironmental, EntityA: name, EntityB: hazards[g], Type: "exposed_to",
				Score: round4(1 - math.Exp(-e.x/hazardScale)),
				Metadata: map[string]any{"exposure": round4(e.x), "observations": e.obs, "terms": terms,
					"evidence": e.ev, "company_score": companyScore},
			})
		}
	}
	return r
}
