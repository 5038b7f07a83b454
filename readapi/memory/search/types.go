package search

import "time"

// Doc is one memory as the index sees it. The index keeps its own copy.
type Doc struct {
	// ID identifies the memory; Upsert with a known ID replaces that memory.
	ID string
	// Namespace is "global", "session:<id>" or "project:<id>"; matched exactly.
	Namespace string
	// Layer is the memory type: working, episodic or semantic.
	Layer string
	// EntityIDs are the entity the memory is about plus the entities it
	// mentions (opaque ids).
	EntityIDs []string
	// Importance is in [0, 1]; values outside are clamped when scoring.
	Importance float64
	// CreatedAt is the business time the memory was stated.
	CreatedAt time.Time
	// Text is the content; it alone decides near-duplicate suppression.
	Text string
	// Variants are other phrasings merged into this memory; they are indexed
	// together with Text (one field) and are searchable too.
	Variants []string
	// VariantTimes, when set, are when each of Variants was stated
	// (parallel to it) and VariantImportances the document's importance
	// from then on; FirstImportance is its importance before any. A search
	// with AsOf reads the document as it read then (see Doc.AsOf). Without
	// them every variant counts as stated at CreatedAt.
	VariantTimes       []time.Time
	VariantImportances []float64
	FirstImportance    float64
	// Embedding, when not nil, is Text's dense vector computed by the caller
	// (in batches), and the Embedder is not asked for it; an empty non-nil
	// slice means the document has none (its embedding failed).
	Embedding []float32
	// Facts are the graph facts (edges) the memory states, with their
	// validity; empty means the memory states no fact.
	Facts []Interval
}

// Interval is a fact's validity: [From, Until). A zero Until means the fact
// is still valid; a zero From means valid since the beginning. Subject and
// Predicate name the fact (an entity id and a predicate) for questions that
// ask for it (Query.About), Object its value (two memories stating the same
// value restate each other); they may be empty.
type Interval struct {
	From, Until                time.Time
	Subject, Predicate, Object string
}

// ValidAt reports whether t lies in [From, Until).
func (iv Interval) ValidAt(t time.Time) bool {
	return !t.Before(iv.From) && (iv.Until.IsZero() || t.Before(iv.Until))
}

// Query is one recall request.
type Query struct {
	// Text is what to recall; a query without any indexable word finds nothing.
	Text string
	// Namespace is the requested namespace, matched exactly.
	Namespace string
	// CrossNamespace true searches every namespace, scoring documents outside
	// Namespace a little lower (see the package documentation); false
	// searches Namespace only.
	CrossNamespace bool
	// Layer restricts results to one memory type; "" means all.
	Layer string
	// EntityID restricts results to documents whose EntityIDs contain it;
	// "" means all.
	EntityID string
	// AsOf, when set, restricts results to documents with CreatedAt <= AsOf
	// whose Facts, if any, were all valid at AsOf, and is the reference
	// time for recency and supersession. Zero means now.
	AsOf time.Time
	// Now is the reference time for recency and supersession when AsOf is
	// zero; zero means the wall clock.
	Now time.Time
	// Limit is the most hits returned; 0 or less means 10.
	Limit int
	// Expand runs three query variants (original, synonyms, pseudo-relevance
	// feedback) in parallel and keeps each document's best score.
	Expand bool
	// Rerank reorders the top RerankWindow candidates with the RerankModel.
	Rerank bool
	// About and Predicates are the facts the query asks for: a document
	// stating a fact of one of the About entities with one of the
	// Predicates is a candidate whatever its words (Answers), and answers
	// rank above every other document. For a plain question only a fact
	// holding at the reference time answers it; with History every such
	// fact does (the question asks how it changed).
	About, Predicates []string
	History           bool
}

// Hit is one search result.
type Hit struct {
	// ID is the document's ID.
	ID string
	// Score is the final score in [0, 1]; results are sorted by it, highest
	// first, ties broken by newer CreatedAt, then by ID.
	Score float64
	// Similarity is the query–document similarity in [0, 1], before the
	// supersession factor.
	Similarity float64
	// Relevance is the rerank model's output in [0, 1]; set only when Reranked.
	Relevance float64
	// Reranked reports that Score is the rerank blend.
	Reranked bool
}

// Synonyms supplies query expansion alternatives.
type Synonyms interface {
	// Synonyms returns words (not stems) meaning the same as the word whose
	// Snowball stem is stem, or nil. Each returned word is analysed like
	// query text. It must be safe for concurrent use.
	Synonyms(stem string) []string
}

// Embedder supplies dense text embeddings for the vector part of similarity.
type Embedder interface {
	// Embed returns the embedding of text; every call must return vectors of
	// the same length (a vector of another length, or nil, is ignored). It
	// must be safe for concurrent use and deterministic.
	Embed(text string) []float32
}

// Weights are the final score's blend weights; they are normalised to sum 1.
type Weights struct {
	Similarity, Importance, Recency float64
}

// Config configures an Index. The zero value gives the documented defaults.
type Config struct {
	// Weights of the final blend; all zero (or any negative) means
	// DefaultWeights.
	Weights Weights
	// HalfLife of recency; zero or negative means DefaultHalfLife.
	HalfLife time.Duration
	// SupersededFactor multiplies the similarity of a document none of whose
	// Facts is valid at the reference time; outside (0, 1] means
	// DefaultSupersededFactor.
	SupersededFactor float64
	// NamespaceBoost is the relative advantage of the requested namespace in
	// cross-namespace searches; outside (0, 1) means DefaultNamespaceBoost.
	NamespaceBoost float64
	// HashBits is log2 of the hashed vector space; outside [10, 24] means
	// DefaultHashBits.
	HashBits int
	// Synonyms for query expansion; nil means a small built-in English list.
	Synonyms Synonyms
	// Embedder, when set, contributes dense cosine to the vector part of
	// similarity, and the nearest documents by it are candidates (see the
	// package documentation).
	Embedder Embedder
	// Rerank is the rerank model; the zero value means DefaultRerankModel().
	Rerank RerankModel
	// Lexicon, when set, indexes the kinds of documents' nouns and lets a
	// query noun match its members (see the package documentation).
	Lexicon Lexicon
	// Vocabulary is founders' vocabulary as kind relations, used with or
	// without a Lexicon; nil means BuiltinVocabularyEntries, an empty
	// Vocabulary none.
	Vocabulary *Vocabulary
	// ApproximateAbove is how many embedded documents an index holds before
	// its dense neighbours come from an HNSW graph instead of an exact scan;
	// 0 means DefaultApproximateAbove, a negative value never.
	ApproximateAbove int
	// Abbreviations maps short forms to what they stand for ("ARR":
	// "annual recurring revenue"), matched both ways; nil means
	// BuiltinAbbreviations. Definitions in the documents themselves
	// ("annual recurring revenue (ARR)") are always added.
	Abbreviations map[string]string
}
