package corpus

import (
	"sort"
	"strings"
	"testing"
)

// TestCorpusStats logs corpus statistics and sample queries (run with -v).
func TestCorpusStats(t *testing.T) {
	c, g := defaultCorpus(t)
	words, facts, dups, none := 0, 0, 0, 0
	types, ns := map[string]int{}, map[string]int{}
	perEnt := map[string]int{}
	for _, m := range c.Memories {
		words += wordCount(m.Content)
		if m.Fact != nil {
			facts++
		}
		if m.DuplicateOf != "" {
			dups++
		}
		if m.EntityID == "" {
			none++
		}
		perEnt[m.EntityID]++
		types[m.MemoryType]++
		switch {
		case m.Namespace == "global":
			ns["global"]++
		case m.Namespace[:4] == "proj":
			ns["project"]++
		default:
			ns["session"]++
		}
	}
	kinds := map[string]int{}
	for _, e := range c.Entities {
		kinds[e.Kind]++
	}
	var counts []int
	for id, n := range perEnt {
		if id != "" {
			counts = append(counts, n)
		}
	}
	sort.Ints(counts)
	t.Logf("entities %v; memories %d (facts %d, duplicates %d, no-entity %d); mean words %.1f",
		kinds, len(c.Memories), facts, dups, none, float64(words)/float64(len(c.Memories)))
	t.Logf("memories per entity min/median/max %d/%d/%d; types %v; namespaces %v",
		counts[0], counts[len(counts)/2], counts[len(counts)-1], types, ns)
	t.Logf("filler templates %d + fact forms %d; chains %d; stats %+v", len(g.tmpls), 5*4, len(g.chains), g.stats)
	qk, rel, cur, worded := map[string]int{}, map[string]int{}, 0, 0
	for _, q := range c.Queries {
		qk[q.Kind]++
		rel[q.Kind] += len(q.Relevant)
		if q.Current != "" {
			cur++
		}
		if q.Kind == QueryTemporal && strings.ContainsAny(q.Text, "0123456789") {
			worded++
		}
	}
	t.Logf("queries %v; with Current %d; temporal with period words %d; relevant ids per kind %v", qk, cur, worded, rel)
	text := map[string]string{}
	for _, m := range c.Memories {
		text[m.ID] = m.Content
	}
	shown := map[string]int{}
	for _, q := range c.Queries {
		if shown[q.Kind] >= 5 {
			continue
		}
		shown[q.Kind]++
		t.Logf("[%s] %q ent=%s asof=%v cur=%s rel=%d\n    -> %s", q.Kind, q.Text, q.EntityID, q.AsOf.Format("2006-01-02"), q.Current, len(q.Relevant), text[q.Relevant[0]])
	}
}
