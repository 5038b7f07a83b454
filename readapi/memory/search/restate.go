package search

import "slices"

// RestateSimilarity is the least stem cosine (text.Fingerprint.Similarity)
// at which a memory stating the same graph facts as a higher-ranked one is
// dropped as its restatement: "Vikram let me know that Vikram is on
// sabbatical for the time being" restates "Vikram confirmed that Vikram's
// work status is on sabbatical" (the same status edge), while a memory that
// states the fact in passing and is about something else stays.
const RestateSimilarity = 0.4

// restates reports whether the document in slot a restates the one in
// slot b: both are about the same entities and state the same, non-empty
// set of graph facts (the same subjects, predicates and values, still
// holding or both ended; a memory stating another value of a fact is never
// one, since a history question wants both), in words similar enough.
// Callers hold the read lock.
func (ix *Index) restates(a, b int32) bool {
	da, db := &ix.recs[a].doc, &ix.recs[b].doc
	return len(da.Facts) > 0 && sameSet(da.EntityIDs, db.EntityIDs) && sameFacts(da.Facts, db.Facts) &&
		ix.recs[a].fp.Similarity(ix.recs[b].fp) >= RestateSimilarity
}

// sameFacts reports whether a and b state the same facts (as sets); a fact
// without a subject, predicate and value is nobody's same.
func sameFacts(a, b []Interval) bool {
	for _, iv := range slices.Concat(a, b) {
		if iv.Subject == "" || iv.Predicate == "" || iv.Object == "" {
			return false
		}
	}
	type key struct {
		s, p, o string
		ended   bool
	}
	set := func(ivs []Interval) map[key]bool {
		m := make(map[key]bool, len(ivs))
		for _, iv := range ivs {
			m[key{iv.Subject, iv.Predicate, iv.Object, !iv.Until.IsZero()}] = true
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for k := range sa {
		if !sb[k] {
			return false
		}
	}
	return true
}

// sameSet reports whether a and b hold the same strings, ignoring order and
// repeats.
func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}
