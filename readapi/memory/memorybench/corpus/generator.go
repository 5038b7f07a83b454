package corpus

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"
)

// draft is a memory under construction; drafts are numbered in creation
// order and receive IDs in CreatedAt order at the end.
type draft struct {
	ent      int      // entity index, -1 for none
	tmpl     int      // filler template index, -1 for fact memories
	chain    int      // chain index, -1 for filler
	link     int      // value index within the chain
	form     int      // fact form index
	topic    string   // primary topic
	key      string   // (entity, topic, cue value)
	names    []string // slot names
	vals     []string // slot values, parallel to names
	text     string
	mtype    string
	imp      float64
	ns       string
	at       time.Time
	mentions []int
	dupOf    int   // original's draft index, -1 for originals
	dups     []int // duplicates' draft indices
	id       string
}

// chain is one fact chain: a person's changing single-valued predicate.
type chain struct {
	ent    int
	pred   string
	values []string
	from   []time.Time
	mem    []int // original draft stating each value
}

// entInfo adds generation details to an Entity.
type entInfo struct {
	Entity
	short string // {F}: first name if unique among persons, else Name
	cat   string // technology category for tech entities
}

type generator struct {
	cfg      Config
	rng      *rand.Rand
	voc      map[string][]string
	stop     map[string]bool
	ents     []entInfo
	byKind   map[string][]int
	byName   map[string]int
	orgPool  []string // organisation names that are not entities
	tmpls    []template
	forms    []factForms
	chains   []chain
	drafts   []draft
	keyCount map[string]int
	sessions []string
	lex      [][2]string
	strip    *nameStripper
	nOrig    int
	nDup     int
	stats    genStats
	out      Corpus
}

// genStats records generation diagnostics (exposed to tests).
type genStats struct {
	keyCollisions  int // fillers accepted with an already-used key
	paraRejected   int // candidate targets whose paraphrase broke the rule
	dupStyleLexico int // duplicates made by lexicon substitution
	dupStyleAuthor int // duplicates made from authored restructured forms
}

func newGenerator(cfg Config) *generator {
	nDup := (cfg.Memories + 5) / 10
	return &generator{
		cfg:      cfg,
		rng:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		voc:      newVocab(),
		stop:     stopSet(),
		byKind:   map[string][]int{},
		byName:   map[string]int{},
		tmpls:    allTemplates(),
		forms:    allFactForms(),
		keyCount: map[string]int{},
		lex:      dupLexicon(),
		nDup:     nDup,
		nOrig:    cfg.Memories - nDup,
	}
}

func (g *generator) intn(n int) int { return g.rng.IntN(n) }

func (g *generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

// between returns a uniformly random second in [a, b).
func (g *generator) between(a, b time.Time) time.Time {
	secs := int64(b.Sub(a) / time.Second)
	if secs <= 0 {
		return a
	}
	return a.Add(time.Duration(g.rng.Int64N(secs)) * time.Second)
}

func (g *generator) shuffleInts(s []int) {
	g.rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}

func (g *generator) shuffled(list []string) []string {
	out := append([]string(nil), list...)
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// importance jitters a base importance, clamps to [0, 1], rounds to 0.01.
func (g *generator) importance(base float64) float64 {
	v := base + g.rng.NormFloat64()*0.1
	v = math.Max(0, math.Min(1, v))
	return math.Round(v*100) / 100
}

// namespace picks a namespace for a memory of the given type.
func (g *generator) namespace(mtype, project string) string {
	switch {
	case mtype == TypeWorking && g.chance(0.8):
		return g.pick(g.sessions)
	case project != "" && g.chance(0.35):
		return "project:" + lower(project)
	case g.chance(0.04):
		return g.pick(g.sessions)
	}
	return "global"
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// splitOf assigns a query split from an FNV-1a hash of its ID, finalised
// with the splitmix64 mixer so that similar IDs spread evenly.
func splitOf(id string) string {
	h := fnv.New64a()
	h.Write([]byte(id))
	x := h.Sum64()
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	if x&1 == 0 {
		return SplitTrain
	}
	return SplitEval
}

func memoryID(n int) string { return fmt.Sprintf("m-%06d", n) }
func queryID(n int) string  { return fmt.Sprintf("q-%04d", n) }
func entityID(n int) string { return fmt.Sprintf("ent-%04d", n) }
