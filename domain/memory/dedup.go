package memory

import (
	"sort"

	"github.com/strata-platform/strata/domain/memory/text"
)

// maxDupCandidates bounds the memories compared with a new one.
const maxDupCandidates = 256

// MergeThreshold is the similarity (text.Fingerprint's cosine of stem
// counts) a new memory needs, on top of text.NearDuplicate's rule (same
// numbers, same names, same negation), to be merged into an existing one.
// A merge also needs the same set of stems: it keeps only the older text as
// the memory's content, so it is only for the same words restated (case,
// punctuation, inflection, word order, stop words); a one-word change
// ("ordered a new camera" / "a new router") stays a memory of its own, and
// paraphrases with other words are left to recall's near-duplicate
// suppression.
const MergeThreshold = 0.9

// index records a memory's stems in its namespace's postings.
func (s *Store) index(m *Memory) {
	if m.Text == "" {
		return
	}
	m.stems = unique(text.Tokens(m.Text))
	p := s.postings[m.Namespace]
	if p == nil {
		p = map[string][]string{}
		s.postings[m.Namespace] = p
	}
	for _, st := range m.stems {
		p[st] = append(p[st], m.ID)
	}
}

func (s *Store) unindex(m *Memory) {
	p := s.postings[m.Namespace]
	for _, st := range m.stems {
		p[st] = remove(p[st], m.ID)
		if len(p[st]) == 0 {
			delete(p, st)
		}
	}
}

// nearDuplicate finds a live memory in namespace about the same entity that
// states the same thing as content (text.NearDuplicate at MergeThreshold). Candidates are the
// memories sharing one of content's two rarest stems: a near-duplicate shares
// most of its stems, so it is among them.
func (s *Store) nearDuplicate(namespace, entityID, content string) (*Memory, float64) {
	p := s.postings[namespace]
	if len(p) == 0 {
		return nil, 0
	}
	stems := unique(text.Tokens(content))
	want := make(map[string]bool, len(stems))
	for _, st := range stems {
		want[st] = true
	}
	sort.Slice(stems, func(i, j int) bool {
		if len(p[stems[i]]) != len(p[stems[j]]) {
			return len(p[stems[i]]) < len(p[stems[j]])
		}
		return stems[i] < stems[j]
	})
	seen := map[string]bool{}
	var best *Memory
	bestSim := 0.0
	used := 0
	for _, st := range stems {
		ids := p[st]
		if len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			if seen[id] || len(seen) >= maxDupCandidates {
				continue
			}
			seen[id] = true
			m := s.Memories[id]
			if m == nil || m.EntityID != entityID || m.Text == "" || !sameSet(m.stems, want) {
				continue
			}
			if sim, dup := text.NearDuplicate(content, m.Text); dup && sim >= MergeThreshold && (sim > bestSim || sim == bestSim && best != nil && m.ID < best.ID) {
				best, bestSim = m, sim
			}
		}
		if used++; used == 2 {
			break
		}
	}
	return best, bestSim
}

func unique(v []string) []string {
	seen := make(map[string]bool, len(v))
	out := v[:0:0]
	for _, s := range v {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// sameSet reports whether the distinct values of have are exactly want.
func sameSet(have []string, want map[string]bool) bool {
	if len(have) != len(want) {
		return false
	}
	for _, v := range have {
		if !want[v] {
			return false
		}
	}
	return true
}
