package briefing

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// Limits of content_intelligence (see contentIntelligence).
const (
	trendingTop           = 25
	coMentionMin          = 2
	coMentionMaxCompanies = 25
	coMentionItems        = 10
	halfLife              = 24 * time.Hour
)

// sourceWeights weighs a mention's or document's source (by its
// lower-cased name): wire services and financial press above the default
// 1.0, social and aggregator feeds below.
var sourceWeights = map[string]float64{
	"reuters": 1.5, "bloomberg": 1.5, "wsj": 1.5, "ft": 1.5, "associated_press": 1.5,
	"hackernews": 0.75,
	"reddit":     0.5, "twitter": 0.5, "x": 0.5,
}

func sourceWeight(source string) float64 {
	if w, ok := sourceWeights[normKey(source)]; ok {
		return w
	}
	return 1
}

// sourceWeigher remembers the weight of each source as spelt.
type sourceWeigher map[string]float64

func (m sourceWeigher) of(source string) float64 {
	w, ok := m[source]
	if !ok {
		w = sourceWeight(source)
		m[source] = w
	}
	return w
}

// contentIntelligence is content_intelligence: which companies are
// talked about, and together (RULES.md). Reads mentions and documents of
// the last 7 days.
//
// Mention score: each mention of a company, and each document naming it,
// adds its source's weight (sourceWeights, 1.0 for any other source)
// times 2^(-age/24h), age measured from the end of the as-of day: a
// half-life of one day. Trending lists the companies with a score above
// 0, highest first (then by name), at most trendingTop; scores are
// rounded to 4 decimals.
//
// Co-mentions: the units are the documents and, for mentions, the groups
// of mentions sharing a URL that is not a document's (one article
// ingested as mentions); a unit naming more than coMentionMaxCompanies
// companies (a list, an index) is not a unit. Two companies named in the
// same units at least coMentionMin times are correlated, type
// co_mentioned, scored by the Jaccard index of their units (both / either).
func contentIntelligence(in Inputs, f frame) Result {
	ms, ds := mentionsIn(in, f.men), documentsIn(in, f.doc)
	if len(ms)+len(ds) == 0 {
		return Result{}
	}
	co := newNames()
	weigh := sourceWeigher{}
	type tally struct {
		score float64
		n     int
	}
	var tallies []tally
	add := func(id int32, w float64) {
		for int(id) >= len(tallies) {
			tallies = append(tallies, tally{})
		}
		tallies[id].score += w
		tallies[id].n++
	}
	decay := func(at time.Time) float64 { return math.Exp2(-float64(f.end.Sub(at)) / float64(halfLife)) }

	// units for co-mentions: a flat list of company ids, one run per unit
	var (
		unitComp  = make([]int32, 0, 2*len(ds)+len(ms))
		unitStart = make([]int32, 0, len(ds)+len(ms)/2)
		unitLabel = make([]string, 0, len(ds)+len(ms)/2)
		ids       []int32
	)
	unit := func(label string, comp []int32) {
		if len(comp) == 0 || len(comp) > coMentionMaxCompanies {
			return
		}
		unitStart = append(unitStart, int32(len(unitComp)))
		unitComp = append(unitComp, comp...)
		unitLabel = append(unitLabel, label)
	}

	docURL := map[string]bool{}
	for _, i := range ds {
		d := &in.Documents[i]
		w := weigh.of(d.Source) * decay(d.At)
		ids = ids[:0]
		for _, c := range d.Companies {
			if id := co.add(c); id >= 0 {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		for _, id := range ids {
			add(id, w)
		}
		unit(d.ID, ids)
		if u := strings.TrimSpace(d.URL); u != "" {
			docURL[u] = true
		}
	}
	// mentions by URL: group g (numbered as first met, in the mentions'
	// order) names the companies of the pairs (g, company)
	groupOf := map[string]int32{}
	var groupURL []string
	var grouped [][2]int32
	for _, i := range ms {
		m := &in.Mentions[i]
		id := co.add(m.Company)
		add(id, weigh.of(m.Source)*decay(m.At))
		u := strings.TrimSpace(m.URL)
		if u == "" || docURL[u] {
			continue
		}
		g, ok := groupOf[u]
		if !ok {
			g = int32(len(groupURL))
			groupOf[u] = g
			groupURL = append(groupURL, u)
		}
		grouped = append(grouped, [2]int32{g, id})
	}
	slices.SortFunc(grouped, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	grouped = slices.Compact(grouped)
	for i := 0; i < len(grouped); {
		j := i
		ids = ids[:0]
		for ; j < len(grouped) && grouped[j][0] == grouped[i][0]; j++ {
			ids = append(ids, grouped[j][1])
		}
		unit(groupURL[grouped[i][0]], ids)
		i = j
	}

	r := Result{Inputs: len(ms) + len(ds)}
	for id := range tallies {
		t := tallies[id]
		if s := round4(t.score); s > 0 {
			r.Trending = append(r.Trending, Trending{Name: co.display(int32(id)), MentionScore: s, Mentions: t.n})
		}
	}
	slices.SortFunc(r.Trending, func(a, b Trending) int {
		return cmp.Or(-cmpFloat(a.MentionScore, b.MentionScore), strings.Compare(a.Name, b.Name))
	})
	if len(r.Trending) > trendingTop {
		r.Trending = r.Trending[:trendingTop]
	}
	r.Correlations = coMentions(co, unitComp, unitStart, unitLabel)
	return r
}

// coMentions correlates the companies named together in at least
// coMentionMin units. Unit u names unitComp[unitStart[u]:unitStart[u+1]]
// (sorted, distinct ids).
func coMentions(co *names, unitComp, unitStart []int32, unitLabel []string) []Correlation {
	units := func(yield func(label string, comp []int32)) {
		for u, s := range unitStart {
			e := int32(len(unitComp))
			if u+1 < len(unitStart) {
				e = unitStart[u+1]
			}
			yield(unitLabel[u], unitComp[s:e])
		}
	}
	pair := func(a, b int32) uint64 { return uint64(a)<<32 | uint64(b) }
	per := make([]int, co.len())
	pairs := map[uint64]int{}
	units(func(_ string, comp []int32) {
		for i, a := range comp {
			per[a]++
			for _, b := range comp[i+1:] {
				pairs[pair(a, b)]++
			}
		}
	})
	labels := map[uint64][]string{} // the smallest coMentionItems, in order
	units(func(label string, comp []int32) {
		for i, a := range comp {
			for _, b := range comp[i+1:] {
				if k := pair(a, b); pairs[k] >= coMentionMin {
					labels[k] = keepSmallest(labels[k], label, coMentionItems, strings.Compare)
				}
			}
		}
	})
	var out []Correlation
	for k, items := range labels {
		a, b := int32(k>>32), int32(uint32(k))
		n := pairs[k]
		ea, eb, na, nb := co.display(a), co.display(b), per[a], per[b]
		if eb < ea {
			ea, eb, na, nb = eb, ea, nb, na
		}
		out = append(out, Correlation{
			Algo: AlgoContent, EntityA: ea, EntityB: eb, Type: "co_mentioned",
			Score:    round4(float64(n) / float64(na+nb-n)),
			Metadata: map[string]any{"count": n, "count_a": na, "count_b": nb, "items": items},
		})
	}
	return out
}
