package judging

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Rung names of the tie-break ladder. They are stable strings: they appear in
// the API and in stored hackathon settings, so they never change.
const (
	RungNormalised   = "normalised"    // ZMean, higher first
	RungRawMean      = "raw_mean"      // RawMean, higher first
	RungTopCriterion = "top_criterion" // mean score of the rubric's highest-weighted criterion, higher first
	RungScoreCount   = "score_count"   // number of scores, more first
	RungSubmittedAt  = "submitted_at"  // submission time, earlier first
	RungID           = "id"            // submission id, ascending; always last, it makes the order total
)

// Ranking methods accepted by Rank and SeparatedByFor.
const (
	MethodZScore = "zscore" // the ladder as given
	MethodRaw    = "raw"    // RungRawMean moved to (or, when absent, added at) the front of the ladder
)

// floatEq is the distance within which two float statistics count as equal,
// so float noise never separates two entries.
const floatEq = 1e-9

// DefaultLadder returns a fresh copy of the default ladder: normalised,
// raw_mean, top_criterion, score_count, submitted_at, id. It always passes
// ValidateLadder.
func DefaultLadder() []string {
	return []string{RungNormalised, RungRawMean, RungTopCriterion, RungScoreCount, RungSubmittedAt, RungID}
}

// knownRung reports whether r is one of the Rung constants.
func knownRung(r string) bool {
	switch r {
	case RungNormalised, RungRawMean, RungTopCriterion, RungScoreCount, RungSubmittedAt, RungID:
		return true
	}
	return false
}

// ValidateLadder returns nil when every rung of l is known, no rung appears
// twice and the last rung is RungID; otherwise an error that names the
// offending rung (or says that the id rung is missing or misplaced).
func ValidateLadder(l []string) error {
	seen := make(map[string]bool, len(l))
	for i, r := range l {
		if !knownRung(r) {
			return fmt.Errorf("judging: unknown ladder rung %q at position %d", r, i+1)
		}
		if seen[r] {
			return fmt.Errorf("judging: ladder rung %q appears more than once", r)
		}
		seen[r] = true
	}
	if len(l) == 0 || l[len(l)-1] != RungID {
		if seen[RungID] {
			return fmt.Errorf("judging: ladder rung %q must be the last rung", RungID)
		}
		return fmt.Errorf("judging: ladder must end with rung %q", RungID)
	}
	return nil
}

// Entry is one submission's row in the ranking, with every statistic a rung
// may compare. HasTopCriterion is false when the submission has no score on
// the highest-weighted criterion; TopCriterion is then ignored.
type Entry struct {
	SubmissionID    string
	ZMean           float64
	RawMean         float64
	TopCriterion    float64
	HasTopCriterion bool
	Scores          int
	SubmittedAt     time.Time
}

// Ranked is an Entry with its 1-based rank and SeparatedBy, the first rung of
// the effective ladder on which it differs from the entry ranked just above
// it ("" for the first entry).
type Ranked struct {
	Entry
	Rank        int
	SeparatedBy string
}

// effectiveLadder validates method and ladder and returns the ladder the
// method ranks by: the ladder itself for MethodZScore; for MethodRaw a copy
// with RungRawMean moved to the front and the other rungs in their order.
func effectiveLadder(method string, ladder []string) ([]string, error) {
	if err := ValidateLadder(ladder); err != nil {
		return nil, err
	}
	switch method {
	case MethodZScore:
		return ladder, nil
	case MethodRaw:
		out := make([]string, 0, len(ladder)+1)
		out = append(out, RungRawMean)
		for _, r := range ladder {
			if r != RungRawMean {
				out = append(out, r)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("judging: unknown ranking method %q (want %q or %q)", method, MethodZScore, MethodRaw)
}

// Rank orders entries by the effective ladder of method (see MethodZScore and
// MethodRaw) and returns them with ranks 1..n: every entry gets its position,
// and ranks are unique because the id rung is last. Float statistics within
// 1e-9 of each other compare equal; NaN sorts after every number; an entry
// without a top criterion sorts after entries with one on that rung. The
// result does not depend on the order of entries. It returns an error for an
// unknown method, an invalid ladder or two entries with the same
// SubmissionID. The input slice is not modified.
func Rank(entries []Entry, method string, ladder []string) ([]Ranked, error) {
	eff, err := effectiveLadder(method, ladder)
	if err != nil {
		return nil, err
	}
	sorted := slices.Clone(entries)
	// Sorting by id first makes the result independent of the input order
	// even though equality within 1e-9 is not transitive.
	slices.SortFunc(sorted, func(a, b Entry) int { return strings.Compare(a.SubmissionID, b.SubmissionID) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].SubmissionID == sorted[i-1].SubmissionID {
			return nil, fmt.Errorf("judging: submission %q appears more than once", sorted[i].SubmissionID)
		}
	}
	// Sort positions, not the entries themselves (moving 64-byte structs
	// was half the time at 5,000 entries), comparing on the rungs' codes.
	codes := make([]int, len(eff))
	for i, r := range eff {
		codes[i] = rungCode(r)
	}
	order := make([]int32, len(sorted))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(i, j int32) int {
		a, b := &sorted[i], &sorted[j]
		for _, c := range codes {
			if d := compareCode(c, a, b); d != 0 {
				return d
			}
		}
		return 0
	})
	out := make([]Ranked, len(sorted))
	for i, k := range order {
		out[i] = Ranked{Entry: sorted[k], Rank: i + 1}
		if i > 0 {
			out[i].SeparatedBy, _ = firstDifference(sorted[order[i-1]], sorted[k], eff)
		}
	}
	return out, nil
}

// rungCode numbers a rung for compareCode (its index in DefaultLadder).
func rungCode(r string) int { return slices.Index(DefaultLadder(), r) }

// compareCode is compareOn by rung code, on pointers.
func compareCode(code int, a, b *Entry) int {
	switch code {
	case 0:
		return descFloat(a.ZMean, b.ZMean)
	case 1:
		return descFloat(a.RawMean, b.RawMean)
	case 3:
		return cmp.Compare(b.Scores, a.Scores)
	case 4:
		return a.SubmittedAt.Compare(b.SubmittedAt)
	case 5:
		return strings.Compare(a.SubmissionID, b.SubmissionID)
	}
	return compareOn(RungTopCriterion, *a, *b)
}

// SeparatedByFor returns the first rung of the effective ladder of method on
// which cur differs from prev, the entry ranked just above it; a paginated
// caller uses it between the last entry of one page and the first of the
// next. It returns "" when method or ladder is invalid (Rank reports those
// errors) or when the two entries are equal on every rung.
func SeparatedByFor(prev, cur Entry, method string, ladder []string) string {
	eff, err := effectiveLadder(method, ladder)
	if err != nil {
		return ""
	}
	r, _ := firstDifference(prev, cur, eff)
	return r
}

// firstDifference walks the ladder and returns the first rung on which a and
// b differ with the comparison on it (negative when a ranks first), or ("", 0)
// when they are equal on every rung.
func firstDifference(a, b Entry, ladder []string) (string, int) {
	for _, r := range ladder {
		if c := compareOn(r, a, b); c != 0 {
			return r, c
		}
	}
	return "", 0
}

// compareOn compares a and b on one rung: negative when a ranks before b.
func compareOn(rung string, a, b Entry) int {
	switch rung {
	case RungNormalised:
		return descFloat(a.ZMean, b.ZMean)
	case RungRawMean:
		return descFloat(a.RawMean, b.RawMean)
	case RungTopCriterion:
		switch {
		case a.HasTopCriterion && b.HasTopCriterion:
			return descFloat(a.TopCriterion, b.TopCriterion)
		case a.HasTopCriterion:
			return -1
		case b.HasTopCriterion:
			return 1
		}
		return 0
	case RungScoreCount:
		return cmp.Compare(b.Scores, a.Scores)
	case RungSubmittedAt:
		return a.SubmittedAt.Compare(b.SubmittedAt)
	case RungID:
		return strings.Compare(a.SubmissionID, b.SubmissionID)
	}
	return 0
}

// descFloat orders higher values first; values within floatEq are equal and
// NaN sorts after every number.
func descFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a == b || math.Abs(a-b) <= floatEq:
		return 0
	case a > b:
		return -1
	}
	return 1
}
