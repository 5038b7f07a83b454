// Package corpus generates a seeded, deterministic, labelled benchmark corpus
// for the memory service: entities, memories (notes an assistant stores about
// a user's world, including temporal fact chains and paraphrased duplicates)
// and queries with ground-truth relevance labels.
//
// The same Config always yields the same Corpus. Nothing reads the wall clock
// and the package keeps no mutable state.
package corpus

import "time"

// Entity kinds.
const (
	KindPerson  = "person"
	KindOrg     = "org"
	KindTech    = "tech"
	KindConcept = "concept"
)

// Memory types.
const (
	TypeWorking  = "working"
	TypeEpisodic = "episodic"
	TypeSemantic = "semantic"
)

// Query kinds.
const (
	QueryExact       = "exact"
	QueryParaphrased = "paraphrased"
	QueryTemporal    = "temporal"
	QueryEntity      = "entity"
)

// Query splits.
const (
	SplitTrain = "train"
	SplitEval  = "eval"
)

// Fact-chain predicates (single-valued, changing over time).
const (
	PredWorksAt = "works_at"
	PredLivesIn = "lives_in"
	PredRole    = "role"
	PredTitle   = "title"
	PredStatus  = "status"
)

// Config parameterises Generate. Zero fields take their defaults.
type Config struct {
	// Seed makes the corpus reproducible: equal configs yield equal corpora.
	Seed uint64
	// Entities is the number of entities (default 200).
	Entities int
	// Memories is the number of memories including duplicates (default 50,000).
	Memories int
	// Queries is the number of queries (default 1,000).
	Queries int
	// Start and End bound business time (default 2023-01-01 .. 2026-06-30
	// UTC); End is moved to at least 400 days after Start.
	Start, End time.Time
}

// Entity is something memories are about.
type Entity struct {
	// ID looks like "ent-0042".
	ID string
	// Name is the display name (persons: "First Last").
	Name string
	// Kind is person, org, tech or concept.
	Kind string
}

// Memory is one stored note.
type Memory struct {
	// ID looks like "m-000001"; IDs follow CreatedAt order.
	ID string
	// EntityID is the entity the memory is about ("" for some).
	EntityID string
	// Mentions are the IDs of other entities named in Content (may be nil).
	Mentions []string
	// Content is the note text (10-40 words).
	Content string
	// MemoryType is working, episodic or semantic.
	MemoryType string
	// Importance is in [0, 1].
	Importance float64
	// Namespace is "global", "project:<x>" or "session:<x>".
	Namespace string
	// CreatedAt is the business time the memory was stated.
	CreatedAt time.Time
	// DuplicateOf is, for a paraphrased duplicate, the ID of the original.
	DuplicateOf string
	// Fact is set when the memory states one value of a fact chain.
	Fact *FactRef
}

// FactRef is the fact-chain value a memory states.
type FactRef struct {
	// Subject is the entity Name the fact is about.
	Subject string
	// Predicate is one of the Pred* constants.
	Predicate string
	// Object is the value.
	Object string
	// ValidFrom is when the value became true; it holds until the next value
	// of the same Subject and Predicate.
	ValidFrom time.Time
}

// Query is one labelled retrieval question.
type Query struct {
	// ID looks like "q-0001".
	ID string
	// Kind is exact, paraphrased, temporal or entity.
	Kind string
	// Text is what a client would send.
	Text string
	// EntityID is, for entity queries, the entity filter a client would pass.
	EntityID string
	// AsOf is, for temporal queries, the as_of time; zero otherwise.
	AsOf time.Time
	// Relevant are the IDs of the memories that answer the query (an
	// original and its duplicates, or every matching memory of an entity).
	Relevant []string
	// Current is, for a question about a changing fact without AsOf, the
	// original memory stating the current value (also in Relevant).
	Current string
	// Superseded are, with Current, the memories stating earlier values of
	// the same fact; they must rank below Current.
	Superseded []string
	// Split is "train" or "eval", from a hash of ID.
	Split string
}

// Corpus is the generated benchmark.
type Corpus struct {
	// Entities are ordered by ID.
	Entities []Entity
	// Memories are ordered by CreatedAt (and ID).
	Memories []Memory
	// Queries are in random kind order, ordered by ID.
	Queries []Query
}

func (c Config) withDefaults() Config {
	if c.Entities <= 0 {
		c.Entities = 200
	}
	if c.Memories <= 0 {
		c.Memories = 50_000
	}
	if c.Queries <= 0 {
		c.Queries = 1_000
	}
	if c.Start.IsZero() {
		c.Start = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if c.End.IsZero() {
		c.End = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	}
	if !c.End.After(c.Start.Add(400 * 24 * time.Hour)) {
		c.End = c.Start.Add(400 * 24 * time.Hour)
	}
	return c
}

// Generate builds the corpus described by cfg. It is deterministic in cfg.
func Generate(cfg Config) Corpus {
	return run(cfg).out
}

// run performs every generation step and returns the generator, whose
// diagnostics tests inspect.
func run(cfg Config) *generator {
	g := newGenerator(cfg.withDefaults())
	g.makeEntities()
	g.makeChains()
	g.makeFillers()
	g.makeDuplicates()
	g.finalize()
	g.makeQueries()
	return g
}
