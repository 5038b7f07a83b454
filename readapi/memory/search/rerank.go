package search

import (
	"math"
	"slices"
)

// Features are the rerank model's inputs for one query–document pair, each
// in [0, 1].
type Features struct {
	// Lexical is the normalised BM25 of the query's terms and bigrams.
	Lexical float64
	// Vector is the vector part of similarity (hashed TF-IDF cosine, blended
	// with the embedder's cosine when one is configured).
	Vector float64
	// Phrase is the share of the query's bigrams the document holds (0 for
	// a one-word query).
	Phrase float64
	// Entity is the share of the query's capitalised words (names, as far as
	// capitalisation tells) the document holds in any case (0 when none).
	Entity float64
	// Temporal is the share of the kinds of date the query mentions (a year
	// 1900–2199; an English month name) that match the document's CreatedAt
	// (0 when the query mentions none).
	Temporal float64
}

// RerankModel is a logistic model over Features:
// relevance = σ(Bias + Lexical·f.Lexical + Vector·f.Vector + Phrase·f.Phrase
// + Entity·f.Entity + Temporal·f.Temporal), σ(z) = 1/(1+e^−z).
type RerankModel struct {
	Bias, Lexical, Vector, Phrase, Entity, Temporal float64
}

// DefaultRerankModel returns the hand-set coefficients used until a model is
// fitted: Bias −4, Lexical 4, Vector 3, Phrase 1, Entity 1.5, Temporal 1.5.
// A document matching every query term at average length (Lexical 1,
// Vector ≈ 0.7) scores ≈ 0.88; one matching a third (0.33, 0.3) ≈ 0.14.
func DefaultRerankModel() RerankModel {
	return RerankModel{Bias: -4, Lexical: 4, Vector: 3, Phrase: 1, Entity: 1.5, Temporal: 1.5}
}

func (m RerankModel) weights() [6]float64 {
	return [6]float64{m.Bias, m.Lexical, m.Vector, m.Phrase, m.Entity, m.Temporal}
}

func (f Features) vector() [6]float64 {
	return [6]float64{1, f.Lexical, f.Vector, f.Phrase, f.Entity, f.Temporal}
}

// Relevance is the model's output for f, in (0, 1).
func (m RerankModel) Relevance(f Features) float64 {
	w, x := m.weights(), f.vector()
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// Example is one labelled query–document pair for Fit.
type Example struct {
	Features Features
	Relevant bool
}

// Fit trains m by plain logistic regression: full-batch gradient descent on
// the mean log-loss from all-zero coefficients, FitEpochs epochs at learning
// rate FitRate, with an L2 penalty FitL2 on every coefficient but Bias. It
// is deterministic, returns the final mean log-loss, and leaves m unchanged
// when examples is empty.
func (m *RerankModel) Fit(examples []Example) float64 {
	if len(examples) == 0 {
		return 0
	}
	var w [6]float64
	n := float64(len(examples))
	for range FitEpochs {
		var g [6]float64
		for _, ex := range examples {
			x := ex.Features.vector()
			z := 0.0
			for i := range w {
				z += w[i] * x[i]
			}
			d := 1 / (1 + math.Exp(-z))
			if ex.Relevant {
				d--
			}
			for i := range g {
				g[i] += d * x[i]
			}
		}
		for i := range w {
			g[i] /= n
			if i > 0 {
				g[i] += FitL2 * w[i]
			}
			w[i] -= FitRate * g[i]
		}
	}
	*m = RerankModel{Bias: w[0], Lexical: w[1], Vector: w[2], Phrase: w[3], Entity: w[4], Temporal: w[5]}
	loss := 0.0
	for _, ex := range examples {
		p := m.Relevance(ex.Features)
		if !ex.Relevant {
			p = 1 - p
		}
		loss -= math.Log(max(p, 1e-12))
	}
	return loss / n
}

// Fit's hyper-parameters.
const (
	// FitEpochs is the number of full-batch gradient steps.
	FitEpochs = 3000
	// FitRate is the gradient-descent learning rate.
	FitRate = 0.5
	// FitL2 is the L2 penalty on every coefficient but Bias.
	FitL2 = 1e-4
)

// RerankModel returns the index's rerank model.
func (ix *Index) RerankModel() RerankModel {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.model
}

// SetRerankModel replaces the index's rerank model (for instance with one
// fitted on a benchmark's training split).
func (ix *Index) SetRerankModel(m RerankModel) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.model = m
}

// Features returns the rerank features of the document with this id for
// q.Text, ignoring q's filters; ok is false for an unknown id or a query
// without any indexable word. It lets a benchmark build Examples for Fit.
func (ix *Index) Features(q Query, id string) (Features, bool) {
	toks := ix.an.Analyze(q.Text)
	if len(toks) == 0 {
		return Features{}, false
	}
	var qemb []float32
	if ix.set.embedder != nil {
		qemb = ix.set.embedder.Embed(q.Text)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s, ok := ix.ids[id]
	if !ok {
		return Features{}, false
	}
	e, _ := ix.newEnv(Query{CrossNamespace: true, Now: q.Now, AsOf: q.AsOf}, 10, qemb)
	return ix.features(ix.resolve(ix.abbreviate(origSpec(toks, ix.set.lexicon), toks), e), newQueryInfo(toks), e, s), true
}

// features computes the rerank features of the document in slot s.
// Callers hold the read lock.
func (ix *Index) features(p *plan, qi queryInfo, e *env, s int32) Features {
	f := Features{Lexical: ix.lexical(p, e, s), Vector: ix.vector(p, e, s)}
	if terms, dl, dims, _, ok := ix.then(e, s); ok { // as it read at as_of
		c, _ := ix.cosineOf(p, e, dims, 0, false)
		f.Lexical, f.Vector = lexicalOf(p, e, terms, dl), ix.withDense(e, s, c)
	}
	f.Phrase = ix.share(qi.bigrams, s)
	f.Entity = ix.share(qi.caps, s)
	kinds, matched := 0, 0
	created := ix.recs[s].doc.CreatedAt
	if len(qi.years) > 0 {
		kinds++
		if slices.Contains(qi.years, created.Year()) {
			matched++
		}
	}
	if len(qi.months) > 0 {
		kinds++
		if slices.Contains(qi.months, created.Month()) {
			matched++
		}
	}
	if kinds > 0 {
		f.Temporal = float64(matched) / float64(kinds)
	}
	return f
}

// share is the fraction of terms the document in slot s holds.
func (ix *Index) share(terms []string, s int32) float64 {
	if len(terms) == 0 {
		return 0
	}
	held := 0
	for _, t := range terms {
		if id, ok := ix.terms.lookup(t); ok {
			if _, found := slices.BinarySearch(ix.recs[s].terms, id); found {
				held++
			}
		}
	}
	return float64(held) / float64(len(terms))
}

// rerank rescores cands (the top of the list) with the model: relevance =
// the model's output, score = (1 − RerankMix)·score + RerankMix·relevance.
// Callers hold the read lock.
func (ix *Index) rerank(cands []cand, p *plan, qi queryInfo, e *env) []cand {
	for i := range cands {
		c := &cands[i]
		c.rel = ix.model.Relevance(ix.features(p, qi, e, c.slot))
		c.score = (1-RerankMix)*c.score + RerankMix*c.rel
		c.reranked = true
	}
	return cands
}
