// Package search is one user's in-memory recall index for the memory
// service: recall by meaning with a blended score, offline (no model
// download; an optional Embedder can add dense vectors).
//
// # Analysis
//
// Text and Variants of a Doc are analysed together as one field with
// package text (domain/memory/text): Unicode words, English stop words
// dropped, Snowball stems, CJK characters as single tokens. Two indexes are
// kept, both inverted (posting lists), so a search never scans documents'
// text:
//
//   - terms: every stem and every bigram of adjacent stems (text.Terms);
//   - a hashed vector space of 2^18 dimensions (Config.HashBits): per
//     token, its stem as a word feature and the character 3-, 4- and 5-grams
//     of "<word>" (numbers: the word feature only). Character n-grams make
//     typos and morphology match ("postgress" ~ "PostgreSQL").
//
// With a Config.Lexicon (WordNet), each lower-case noun of a document, and
// each two-word compound the lexicon knows, also adds kind terms ("^animal"
// for "corgi"): its synonyms' and hypernyms' lemmas, not its own. They are
// BM25 terms only, not counted in the document's length. A query noun's
// kind term is an alternative of its stem (one group); a group's normaliser
// uses its rarest alternative held by some document.
//
// In a search with Query.EntityID, query words held by at least half of
// that entity's documents (ImpliedShare: mostly its name) are dropped.
//
// # Scoring
//
// For query q and document d, with N documents, df a term's or dimension's
// document frequency, avgdl the mean document length in terms:
//
//	lexical(q,d)  = min(1, BM25(q,d) / Σ_g w_g·max_{t∈g, df(t)>0} idf(t))
//	                (a query word no document holds adds nothing)
//	BM25(q,d)     = Σ_t w_t·idf(t)·tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))
//	idf(t)        = ln(1 + (N − df + 0.5)/(df + 0.5)),  k1 = 1.2, b = 0.75
//	                over the query's distinct terms: stems w = 1, bigrams
//	                w = 0.5; the normaliser is the score of an average-length
//	                document holding each query term once (a group is one
//	                query position; see Expand for groups of alternatives)
//	vector(q,d)   = cosine(q, d),  weight = tf·(ln((N+1)/(df+1)) + 1) per
//	                hashed dimension (smoothed TF-IDF, current statistics);
//	                with an Embedder: 0.5·cosine + 0.5·max(0, dense cosine)
//	similarity    = 0.5·lexical + 0.5·vector                       ∈ [0, 1]
//	similarity'   = 0.6·similarity when one of d's Facts is not valid at
//	                the reference time (superseded), else similarity
//	recency       = 0.5^(age_days / 30),  age = ref − CreatedAt (≤ 0 → 1)
//	score         = 0.80·similarity' + 0.10·importance + 0.10·recency
//	score'        = 0.95·score for a document outside the requested
//	                namespace in a CrossNamespace search, else score
//
// The reference time is Query.AsOf, else Query.Now, else the wall clock.
// Weights (normalised to sum 1), half-life, the 0.6 supersession factor and
// the 0.05 namespace boost are configurable; see Config and the constants.
// Hits are sorted by score descending, then newer CreatedAt, then ID,
// except that documents answering the query's fact question (Query.About
// and Predicates: a fact of an asked entity and predicate holding at the
// reference time, or any such fact with History) come before all others.
// They are candidates whatever their words and need no MinSimilarity.
//
// Candidates come from the posting lists: every posting of every query
// term (BM25 is exact), and the postings of the query's word features and
// 4- and 5-grams present in at most max(256, N/32) documents (a partial dot
// product); with an Embedder, also the max(50, 5·limit) filter-passing
// documents nearest to the query by dense cosine (an exact scan of unit
// vectors, one dot product per document). The best max(5·limit, 50) (at
// most 1000) candidates by an estimate of the final score are then scored
// exactly as above (full cosine over all dimensions). Filters (namespace,
// layer, entity, AsOf) are applied before estimation. Hits need similarity
// ≥ 0.05 (MinSimilarity). A candidate that is a text.NearDuplicate of a
// higher-ranked hit's Text, or that restates the same graph facts about the
// same entities in similar words (stem cosine ≥ 0.4), is dropped.
//
// # Expansion
//
// With Query.Expand three variants run in parallel goroutines and each
// document keeps its best score: the original query; the query with every
// stem that has synonyms replaced by them (Config.Synonyms, else a small
// built-in English list; alternatives form one group whose normaliser uses
// the rarest alternative); and pseudo-relevance feedback: the original plus
// the 5 unigram terms with the highest summed tf·idf in the 3 best
// first-pass documents, at weight 0.5.
//
// # Rerank
//
// With Query.Rerank the top RerankWindow (50, or 2·limit if larger)
// candidates get Features (lexical, vector, phrase = share of query bigrams
// held, entity = share of the query's capitalised words held, temporal =
// share of the year/month kinds the query mentions matching CreatedAt) and
// relevance = RerankModel.Relevance (logistic; DefaultRerankModel's
// coefficients, or one fitted with RerankModel.Fit). Their score becomes
// 0.5·score + 0.5·relevance and the list is reordered by it; candidates
// below the window are dropped.
//
// # Concurrency and cost
//
// An Index is safe for concurrent use (a sync.RWMutex: searches share it,
// writes are exclusive; text analysis runs outside the lock). Removing a
// document marks its postings dead; a posting list is compacted once more
// than half of it is dead, and a slot is reused once no list names it.
// Memory is 8 bytes per (document, hashed feature occurrence) — a 30-word
// memory has 300–450 — plus its terms and text: about 6 KB per document
// (320 MB for the 50,000-document benchmark corpus), plus 2 MiB per
// non-empty index for its dimension tables. Exact vector norms are cached
// until the next write.
package search
