package memory

import (
	"math"
	"sort"
	"strings"

	"github.com/strata-platform/strata/domain/memory/text"
	"github.com/strata-platform/strata/readapi/memory/search"
)

// keyThemes picks the k words that characterise texts against the user's
// whole store: each stem is weighted by the number of texts that use it
// times its inverse document frequency in the index (log((N+1)/(df+1))+1),
// so words common everywhere rank low. Numbers, words of under three
// letters and the words of exclude (the entity's own names) are skipped;
// each theme is shown in its most frequent surface form. Ties go to the
// alphabetically first stem, so the result is deterministic.
func keyThemes(ix *search.Index, texts []string, exclude []string, k int) []string {
	skip := map[string]bool{}
	for _, name := range exclude {
		for _, t := range text.Analyze(name) {
			skip[t.Stem] = true
		}
	}
	df := map[string]int{}
	forms := map[string]map[string]int{}
	for _, s := range texts {
		seen := map[string]bool{}
		for _, t := range text.Analyze(s) {
			if t.Number || t.Joined || skip[t.Stem] || len([]rune(t.Word)) < 3 {
				continue
			}
			if forms[t.Stem] == nil {
				forms[t.Stem] = map[string]int{}
			}
			forms[t.Stem][t.Word]++
			if !seen[t.Stem] {
				seen[t.Stem] = true
				df[t.Stem]++
			}
		}
	}
	n := float64(ix.Len())
	type scored struct {
		stem  string
		score float64
	}
	var all []scored
	for stem, c := range df {
		idf := math.Log((n+1)/(float64(ix.DocFreq(stem))+1)) + 1
		all = append(all, scored{stem, float64(c) * idf})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return all[i].stem < all[j].stem
	})
	out := []string{}
	for _, s := range all {
		if len(out) == k {
			break
		}
		out = append(out, bestForm(forms[s.stem]))
	}
	return out
}

// bestForm is the most frequent surface form (the shortest, then the
// alphabetically first, on ties).
func bestForm(forms map[string]int) string {
	best, n := "", 0
	for w, c := range forms {
		if c > n || c == n && (len(w) < len(best) || len(w) == len(best) && w < best) {
			best, n = w, c
		}
	}
	return strings.ToLower(best)
}

// topMemories are the k memories with the highest importance, the newest
// first among equals.
func topMemories(ms []entityMemory, k int) []entityMemory {
	out := append([]entityMemory(nil), ms...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Importance != out[j].Importance {
			return out[i].Importance > out[j].Importance
		}
		return out[i].CreatedAt.After(out[j].CreatedAt)
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}
