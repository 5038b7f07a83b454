package search

import "time"

// Scoring constants; the package documentation gives the formula they enter.
const (
	// DefaultSimilarityWeight is the final blend's default similarity weight.
	DefaultSimilarityWeight = 0.80
	// DefaultImportanceWeight is the final blend's default importance weight.
	DefaultImportanceWeight = 0.10
	// DefaultRecencyWeight is the final blend's default recency weight.
	DefaultRecencyWeight = 0.10
	// DefaultHalfLife is recency's default half-life: 30 days.
	DefaultHalfLife = 30 * 24 * time.Hour
	// DefaultSupersededFactor multiplies the similarity of a document one
	// of whose facts is not valid at the reference time.
	DefaultSupersededFactor = 0.6
	// DefaultNamespaceBoost: in cross-namespace searches a document outside
	// the requested namespace has its score multiplied by 1 − 0.05.
	DefaultNamespaceBoost = 0.05
	// DefaultHashBits gives a 2^18-dimensional hashed vector space.
	DefaultHashBits = 18
	// BM25K1 is BM25's term-frequency saturation parameter k1.
	BM25K1 = 1.2
	// BM25B is BM25's length-normalisation parameter b.
	BM25B = 0.75
	// LexicalShare is the BM25 share of similarity; the vector cosine has
	// the rest: similarity = 0.5·lexical + 0.5·vector.
	LexicalShare = 0.5
	// MinSimilarity is the least similarity of a hit: a document sharing
	// only a few common character n-grams with the query is noise, however
	// important or recent.
	MinSimilarity = 0.05
	// BigramWeight is the BM25 weight of a query bigram (a stem weighs 1).
	BigramWeight = 0.5
	// ExpansionWeight is the BM25 and vector weight of a pseudo-relevance
	// feedback term.
	ExpansionWeight = 0.5
	// FeedbackDocs is how many best first-pass documents pseudo-relevance
	// feedback reads.
	FeedbackDocs = 3
	// FeedbackTerms is how many terms pseudo-relevance feedback adds.
	FeedbackTerms = 5
	// RerankWindow is how many top candidates a reranked search rescores
	// (2·limit if larger); candidates below it are dropped.
	RerankWindow = 50
	// RerankMix is the rerank model's share of a reranked score:
	// score = (1 − 0.5)·score + 0.5·relevance.
	RerankMix = 0.5
	// CommonDimShare: the candidate pass reads the postings of the query's
	// word features and 4- and 5-grams only, skipping those present in more
	// than 1/32 of the documents (and in more than CommonDimMin); exact
	// scoring counts every dimension.
	CommonDimShare = 32
	// CommonDimMin is the document frequency below which the candidate pass
	// never skips a dimension.
	CommonDimMin = 256
)

// DefaultWeights returns the final blend's default weights: 0.80
// similarity, 0.10 importance, 0.10 recency (0.75 and 0.15 until the
// importance weight was measured on the benchmark's training split: with
// 0.15 an important memory of the same entity outranked the one answering).
func DefaultWeights() Weights {
	return Weights{DefaultSimilarityWeight, DefaultImportanceWeight, DefaultRecencyWeight}
}

// settings is a Config with defaults applied and weights normalised.
type settings struct {
	wSim, wImp, wRec float64
	halfLifeDays     float64
	superseded       float64
	nsBoost          float64
	mask             uint32
	synonyms         Synonyms
	embedder         Embedder
	lexicon          Lexicon
	annAbove         int // 0: never
	abbrevPairs      map[string]string
	abbrevs          abbreviations // built from abbrevPairs by New
}

func resolve(c Config) settings {
	s := settings{
		wSim: c.Weights.Similarity, wImp: c.Weights.Importance, wRec: c.Weights.Recency,
		halfLifeDays: c.HalfLife.Hours() / 24,
		superseded:   c.SupersededFactor,
		nsBoost:      c.NamespaceBoost,
		synonyms:     c.Synonyms,
		embedder:     c.Embedder,
		lexicon:      kindLexicon{voc: c.Vocabulary, base: c.Lexicon},
		annAbove:     c.ApproximateAbove,
		abbrevPairs:  c.Abbreviations,
	}
	if c.Vocabulary == nil {
		s.lexicon = kindLexicon{voc: builtinVocabulary, base: c.Lexicon}
	}
	if s.abbrevPairs == nil {
		s.abbrevPairs = BuiltinAbbreviations()
	}
	switch {
	case s.annAbove == 0:
		s.annAbove = DefaultApproximateAbove
	case s.annAbove < 0:
		s.annAbove = 0
	}
	if s.wSim < 0 || s.wImp < 0 || s.wRec < 0 || s.wSim+s.wImp+s.wRec == 0 {
		w := DefaultWeights()
		s.wSim, s.wImp, s.wRec = w.Similarity, w.Importance, w.Recency
	}
	sum := s.wSim + s.wImp + s.wRec
	s.wSim, s.wImp, s.wRec = s.wSim/sum, s.wImp/sum, s.wRec/sum
	if c.HalfLife <= 0 {
		s.halfLifeDays = DefaultHalfLife.Hours() / 24
	}
	if !(s.superseded > 0 && s.superseded <= 1) {
		s.superseded = DefaultSupersededFactor
	}
	if !(s.nsBoost > 0 && s.nsBoost < 1) {
		s.nsBoost = DefaultNamespaceBoost
	}
	bits := c.HashBits
	if bits < 10 || bits > 24 {
		bits = DefaultHashBits
	}
	s.mask = 1<<bits - 1
	if s.synonyms == nil {
		s.synonyms = builtinSynonyms()
	}
	return s
}
