package corpus

import (
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"
)

var (
	defOnce   sync.Once
	defCorpus Corpus
	defGen    *generator
)

// defaultCorpus generates the default-size corpus once per test binary.
func defaultCorpus(t testing.TB) (Corpus, *generator) {
	t.Helper()
	defOnce.Do(func() {
		defGen = run(Config{Seed: 42})
		defCorpus = defGen.out
	})
	return defCorpus, defGen
}

func TestDeterminism(t *testing.T) {
	cfg := Config{Seed: 7, Memories: 4000, Queries: 200, Entities: 60}
	a, b := Generate(cfg), Generate(cfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same config produced different corpora")
	}
	cfg.Seed = 8
	c := Generate(cfg)
	if reflect.DeepEqual(a.Memories, c.Memories) || reflect.DeepEqual(a.Queries, c.Queries) {
		t.Fatal("different seeds produced identical corpora")
	}
}

func TestCountsAndProportions(t *testing.T) {
	c, g := defaultCorpus(t)
	if len(c.Entities) != 200 || len(c.Memories) != 50_000 || len(c.Queries) != 1_000 {
		t.Fatalf("counts: %d entities, %d memories, %d queries", len(c.Entities), len(c.Memories), len(c.Queries))
	}
	kinds := map[string]int{}
	for _, e := range c.Entities {
		kinds[e.Kind]++
	}
	if kinds[KindPerson] != 120 || kinds[KindOrg] == 0 || kinds[KindTech] == 0 || kinds[KindConcept] == 0 {
		t.Fatalf("entity kinds: %v", kinds)
	}
	dups := 0
	for _, m := range c.Memories {
		if m.DuplicateOf != "" {
			dups++
		}
	}
	if frac := float64(dups) / float64(len(c.Memories)); frac < 0.09 || frac > 0.11 {
		t.Fatalf("duplicate share %.3f", frac)
	}
	qk := map[string]int{}
	train := 0
	for _, q := range c.Queries {
		qk[q.Kind]++
		if q.Split == SplitTrain {
			train++
		} else if q.Split != SplitEval {
			t.Fatalf("query %s split %q", q.ID, q.Split)
		}
	}
	for _, k := range []string{QueryExact, QueryParaphrased, QueryTemporal, QueryEntity} {
		if f := float64(qk[k]) / float64(len(c.Queries)); f < 0.23 || f > 0.27 {
			t.Fatalf("query kind %s share %.3f (%v)", k, f, qk)
		}
	}
	if f := float64(train) / float64(len(c.Queries)); f < 0.45 || f > 0.55 {
		t.Fatalf("train share %.3f", f)
	}
	if g.stats.keyCollisions > len(c.Memories)/50 {
		t.Fatalf("too many key collisions: %d", g.stats.keyCollisions)
	}
}

func TestMemoriesWellFormed(t *testing.T) {
	c, _ := defaultCorpus(t)
	cfg := Config{}.withDefaults()
	ents := map[string]bool{}
	for _, e := range c.Entities {
		ents[e.ID] = true
	}
	byID := map[string]Memory{}
	var prev time.Time
	for i, m := range c.Memories {
		if m.ID != memoryID(i+1) {
			t.Fatalf("memory %d has ID %s", i, m.ID)
		}
		if m.CreatedAt.Before(prev) || m.CreatedAt.Before(cfg.Start) || m.CreatedAt.After(cfg.End) {
			t.Fatalf("%s: CreatedAt %v out of order or span", m.ID, m.CreatedAt)
		}
		prev = m.CreatedAt
		if m.EntityID != "" && !ents[m.EntityID] {
			t.Fatalf("%s: unknown entity %s", m.ID, m.EntityID)
		}
		if n := wordCount(m.Content); n < 10 || n > 40 {
			t.Fatalf("%s: %d words: %q", m.ID, n, m.Content)
		}
		if m.Importance < 0 || m.Importance > 1 {
			t.Fatalf("%s: importance %v", m.ID, m.Importance)
		}
		switch m.MemoryType {
		case TypeWorking, TypeEpisodic, TypeSemantic:
		default:
			t.Fatalf("%s: type %q", m.ID, m.MemoryType)
		}
		if m.DuplicateOf != "" {
			o, ok := byID[m.DuplicateOf]
			if !ok || o.DuplicateOf != "" || !m.CreatedAt.After(o.CreatedAt) || o.Content == m.Content ||
				o.EntityID != m.EntityID || (o.Fact == nil) != (m.Fact == nil) {
				t.Fatalf("%s: bad duplicate of %s", m.ID, m.DuplicateOf)
			}
		}
		byID[m.ID] = m
	}
}

func TestFactChains(t *testing.T) {
	c, _ := defaultCorpus(t)
	chains := map[[2]string][]Memory{}
	for _, m := range c.Memories {
		if m.Fact != nil && m.DuplicateOf == "" {
			k := [2]string{m.Fact.Subject, m.Fact.Predicate}
			chains[k] = append(chains[k], m)
		}
	}
	if len(chains) < 300 {
		t.Fatalf("only %d chains", len(chains))
	}
	for k, ms := range chains {
		if len(ms) < 2 || len(ms) > 4 {
			t.Fatalf("%v: %d values", k, len(ms))
		}
		for i, m := range ms {
			if !m.CreatedAt.Equal(m.Fact.ValidFrom) {
				t.Fatalf("%s: stated at %v, valid from %v", m.ID, m.CreatedAt, m.Fact.ValidFrom)
			}
			if i > 0 && (!m.Fact.ValidFrom.After(ms[i-1].Fact.ValidFrom) || m.Fact.Object == ms[i-1].Fact.Object) {
				t.Fatalf("%v: chain not ordered or repeats a value", k)
			}
		}
	}
}

// chainIntervals maps subject|predicate|object to its validity interval.
func chainIntervals(c Corpus) map[string][2]time.Time {
	byChain := map[string][]FactRef{}
	for _, m := range c.Memories {
		if m.Fact != nil && m.DuplicateOf == "" {
			k := m.Fact.Subject + "|" + m.Fact.Predicate
			byChain[k] = append(byChain[k], *m.Fact)
		}
	}
	out := map[string][2]time.Time{}
	for k, fs := range byChain {
		sort.Slice(fs, func(i, j int) bool { return fs[i].ValidFrom.Before(fs[j].ValidFrom) })
		for i, f := range fs {
			until := time.Time{}
			if i+1 < len(fs) {
				until = fs[i+1].ValidFrom
			}
			out[k+"|"+f.Object] = [2]time.Time{f.ValidFrom, until}
		}
	}
	return out
}

func TestQueryLabels(t *testing.T) {
	c, _ := defaultCorpus(t)
	byID := map[string]Memory{}
	for _, m := range c.Memories {
		byID[m.ID] = m
	}
	ivs := chainIntervals(c)
	withCurrent := 0
	for _, q := range c.Queries {
		if len(q.Relevant) == 0 || q.Text == "" {
			t.Fatalf("%s: no relevant memory or text", q.ID)
		}
		for _, id := range append(append([]string{}, q.Relevant...), q.Superseded...) {
			if _, ok := byID[id]; !ok {
				t.Fatalf("%s: unknown memory %s", q.ID, id)
			}
		}
		if q.Current != "" {
			withCurrent++
			cur, ok := byID[q.Current]
			if !ok || cur.Fact == nil || !contains(q.Relevant, q.Current) || len(q.Superseded) == 0 || !q.AsOf.IsZero() {
				t.Fatalf("%s: bad Current %s", q.ID, q.Current)
			}
			for _, s := range q.Superseded {
				sm := byID[s]
				if contains(q.Relevant, s) || sm.Fact == nil || sm.Fact.Subject != cur.Fact.Subject ||
					sm.Fact.Predicate != cur.Fact.Predicate || !sm.Fact.ValidFrom.Before(cur.Fact.ValidFrom) {
					t.Fatalf("%s: bad superseded %s", q.ID, s)
				}
			}
		}
		switch q.Kind {
		case QueryTemporal:
			f := byID[q.Relevant[0]].Fact
			if f == nil {
				t.Fatalf("%s: temporal query on a non-fact memory", q.ID)
			}
			iv := ivs[f.Subject+"|"+f.Predicate+"|"+f.Object]
			if q.AsOf.Before(iv[0]) || (!iv[1].IsZero() && !q.AsOf.Before(iv[1])) {
				t.Fatalf("%s: AsOf %v outside [%v, %v)", q.ID, q.AsOf, iv[0], iv[1])
			}
			for _, id := range q.Relevant {
				if m := byID[id]; m.CreatedAt.After(q.AsOf) || *m.Fact != *f {
					t.Fatalf("%s: relevant %s not known at AsOf or another value", q.ID, id)
				}
			}
		case QueryEntity:
			for _, id := range q.Relevant {
				if byID[id].EntityID != q.EntityID {
					t.Fatalf("%s: relevant %s is about another entity", q.ID, id)
				}
			}
		default:
			if q.EntityID != "" || !q.AsOf.IsZero() {
				t.Fatalf("%s: %s query with entity filter or AsOf", q.ID, q.Kind)
			}
		}
	}
	if withCurrent < 50 {
		t.Fatalf("only %d queries with Current", withCurrent)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func BenchmarkGenerate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Generate(Config{Seed: uint64(i)})
	}
}

func TestSmallAndOddConfigs(t *testing.T) {
	start := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, cfg := range []Config{
		{Seed: 1, Entities: 1, Memories: 50, Queries: 8},
		{Seed: 2, Entities: 7, Memories: 300, Queries: 40},
		{Seed: 3, Entities: 40, Memories: 2000, Queries: 100, Start: start, End: start.AddDate(1, 0, 0)},
		{Seed: 4, Entities: 400, Memories: 20000, Queries: 400},
	} {
		c := Generate(cfg)
		if len(c.Entities) != cfg.Entities || len(c.Memories) != cfg.Memories {
			t.Fatalf("%+v: %d entities, %d memories", cfg, len(c.Entities), len(c.Memories))
		}
		if len(c.Queries) > cfg.Queries {
			t.Fatalf("%+v: %d queries", cfg, len(c.Queries))
		}
		ids := map[string]bool{}
		for _, m := range c.Memories {
			ids[m.ID] = true
		}
		for _, q := range c.Queries {
			if len(q.Relevant) == 0 {
				t.Fatalf("%+v: %s has no relevant memory", cfg, q.ID)
			}
			for _, id := range q.Relevant {
				if !ids[id] {
					t.Fatalf("%+v: %s: unknown %s", cfg, q.ID, id)
				}
			}
		}
		t.Logf("%+v -> %d queries", cfg, len(c.Queries))
	}
}

// TestFactWording checks that every statement of a chain value names its
// predicate, so keyword overlap cannot single out the current value.
func TestFactWording(t *testing.T) {
	c, _ := defaultCorpus(t)
	word := map[string]string{PredWorksAt: "work", PredLivesIn: "liv", PredRole: "rol", PredTitle: "titl", PredStatus: "statu"}
	stop := stopSet()
	for _, m := range c.Memories {
		if m.Fact == nil || m.DuplicateOf != "" {
			continue
		}
		if !contentWords(m.Content, nil, stop)[word[m.Fact.Predicate]] {
			t.Fatalf("%s (%s) does not name its predicate: %q", m.ID, m.Fact.Predicate, m.Content)
		}
	}
}
