package reports

import (
	"sort"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/captable/num"
)

// reported is one figure of the cap table summary.
type reported struct {
	key, label string
	value      num.Num
}

// reportedFigures lists every figure of the summary: the totals, each
// class's figures and each holder's, in the summary's order.
func reportedFigures(s captable.Summary) []reported {
	out := []reported{
		{totalKey("authorized"), "Total authorized shares", s.TotalAuthorized},
		{totalKey("issued"), "Total issued shares", s.TotalIssued},
		{totalKey("outstandingAwards"), "Total outstanding awards", s.OutstandingAwards},
		{totalKey("unallocatedPool"), "Unallocated option pool", s.UnallocatedPool},
		{totalKey("fullyDiluted"), "Fully diluted shares", s.FullyDiluted},
	}
	for _, c := range s.Classes {
		out = append(out,
			reported{classKey(c.ID, "authorized"), c.Name + ": authorized", c.Authorized},
			reported{classKey(c.ID, "issued"), c.Name + ": issued", c.Issued},
			reported{classKey(c.ID, "outstanding"), c.Name + ": outstanding awards", c.Outstanding},
			reported{classKey(c.ID, "available"), c.Name + ": available", c.Available},
			reported{classKey(c.ID, "fullyDiluted"), c.Name + ": fully diluted", c.Shares})
	}
	for _, h := range s.Holders {
		out = append(out,
			reported{holderKey(h.ID, "issued"), h.Name + ": issued shares", h.Issued},
			reported{holderKey(h.ID, "awards"), h.Name + ": outstanding awards", h.Awards},
			reported{holderKey(h.ID, "fullyDiluted"), h.Name + ": fully diluted", h.Shares})
	}
	return out
}

// check is one line of the reconciliation.
type check struct {
	reported
	recomputed num.Num
	refs       []contribution // in stream order
}

// Matches reports whether the recomputed figure equals the reported one.
func (c check) matches() bool { return c.value.Equal(c.recomputed) }

// reconcile recomputes every reported figure from the contributions of its
// events. A figure the recomputation finds but the summary lacks (it should
// be zero) is added with a reported value of 0, so it cannot go unseen.
func reconcile(s captable.Summary, contribs []contribution) []check {
	by := map[string][]contribution{}
	for _, c := range contribs {
		by[c.figure] = append(by[c.figure], c)
	}
	var out []check
	seen := map[string]bool{}
	for _, r := range reportedFigures(s) {
		seen[r.key] = true
		out = append(out, checkOf(r, by[r.key]))
	}
	var extra []string
	for key := range by {
		if !seen[key] {
			extra = append(extra, key)
		}
	}
	sort.Strings(extra)
	for _, key := range extra {
		if c := checkOf(reported{key: key, label: key + " (not in the summary)"}, by[key]); !c.recomputed.IsZero() {
			out = append(out, c)
		}
	}
	return out
}

// checkOf sums a figure's contributions, in stream order; one event's
// contributions of the same description are merged (an exercise takes
// units out of a pool and puts shares into common), and dropped when they
// cancel out.
func checkOf(r reported, refs []contribution) check {
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].entry.Version < refs[j].entry.Version })
	var merged []contribution
	for _, c := range refs {
		if n := len(merged); n > 0 && merged[n-1].entry.Version == c.entry.Version && merged[n-1].what == c.what {
			merged[n-1].delta = merged[n-1].delta.Add(c.delta)
			continue
		}
		merged = append(merged, c)
	}
	out := merged[:0]
	sum := num.Zero
	for _, c := range merged {
		if !c.delta.IsZero() {
			out = append(out, c)
			sum = sum.Add(c.delta)
		}
	}
	return check{reported: r, recomputed: sum, refs: out}
}

// versions lists the distinct stream versions behind a figure (refs are
// in stream order) and counts them.
func versions(refs []contribution) (string, int) {
	var parts []string
	last := int64(-1)
	for _, c := range refs {
		if c.entry.Version != last {
			parts = append(parts, strconv.FormatInt(c.entry.Version, 10))
			last = c.entry.Version
		}
	}
	return strings.Join(parts, ", "), len(parts)
}
