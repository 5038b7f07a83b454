package search

import (
	"slices"
	"time"
)

// AsOf returns the document as it read at t: only the variants stated by
// then, and the importance it had then. A document without VariantTimes
// reads the same at any time.
func (d Doc) AsOf(t time.Time) Doc {
	if len(d.VariantTimes) != len(d.Variants) || !d.changedAfter(t) {
		return d
	}
	out := d
	out.Variants, out.VariantTimes, out.VariantImportances = nil, nil, nil
	out.Importance = d.FirstImportance
	for i, at := range d.VariantTimes {
		if at.After(t) {
			continue
		}
		out.Variants = append(out.Variants, d.Variants[i])
		out.VariantTimes = append(out.VariantTimes, at)
		if i < len(d.VariantImportances) {
			out.VariantImportances = append(out.VariantImportances, d.VariantImportances[i])
			out.Importance = d.VariantImportances[i]
		}
	}
	return out
}

// changedAfter reports whether a variant was stated after t.
func (d Doc) changedAfter(t time.Time) bool {
	return slices.ContainsFunc(d.VariantTimes, func(at time.Time) bool { return at.After(t) })
}

// then is the document in slot s as it read at e's as_of, analysed like an
// indexed one: its terms (ids of the index's terms; words the index does
// not hold cannot match a query and only count in its length), hashed
// dimensions and importance. ok is false when it reads now as it read
// then, and the index's own record applies. Callers hold the read lock.
func (ix *Index) then(e *env, s int32) (terms []int32, dl float64, dims []uint32, importance float64, ok bool) {
	d := &ix.recs[s].doc
	if !e.hasAsOf || len(d.VariantTimes) != len(d.Variants) || !d.changedAfter(e.asOf) {
		return nil, 0, nil, 0, false
	}
	old := d.AsOf(e.asOf)
	a := analyse(&ix.an, old, ix.set.mask, nil, ix.set.lexicon)
	for _, t := range append(a.terms, a.kinds...) {
		if id, found := ix.terms.lookup(t); found {
			terms = append(terms, id)
		}
	}
	slices.Sort(terms)
	return terms, float64(len(a.terms)), a.dims, clamp01(old.Importance), true
}
