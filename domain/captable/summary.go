package captable

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// ClassLine is one share class in a cap table. Shares is the class's part
// of the fully diluted count: issued shares for common, issued shares as
// converted for preferred, outstanding awards plus the unallocated pool for
// a pool, outstanding warrants for a warrant reserve.
type ClassLine struct {
	ID          string  `json:"shareClassId"`
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Authorized  num.Num `json:"authorizedShares"`
	Issued      num.Num `json:"issuedShares"`
	Outstanding num.Num `json:"outstandingAwards"`
	Available   num.Num `json:"availableShares"`
	Shares      num.Num `json:"shares"`
	Ownership   num.Num `json:"ownership"`
}

// HolderLine is one stakeholder in a cap table: Shares is its fully diluted
// holding (issued shares as converted plus outstanding awards).
type HolderLine struct {
	ID        string  `json:"stakeholderId"`
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	Issued    num.Num `json:"issuedShares"`
	Awards    num.Num `json:"outstandingAwards"`
	Shares    num.Num `json:"shares"`
	Ownership num.Num `json:"ownership"`
}

// Summary is a cap table on a day. FullyDiluted = issued shares (preferred
// as converted) + outstanding options, RSUs and warrants + the unallocated
// pool; the classes' Shares sum to it, and so do the holders' Shares plus
// UnallocatedPool. TotalAuthorized and TotalIssued count the stock classes
// (common and preferred; a pool or warrant reserve is a reservation of
// common, not stock of its own). Holders are sorted by Shares, largest
// first, then by name.
type Summary struct {
	CompanyID         string       `json:"companyId"`
	AsOf              time.Time    `json:"asOfDate"`
	TotalAuthorized   num.Num      `json:"totalAuthorizedShares"`
	TotalIssued       num.Num      `json:"totalIssuedShares"`
	FullyDiluted      num.Num      `json:"fullyDilutedShares"`
	OutstandingAwards num.Num      `json:"outstandingAwards"`
	UnallocatedPool   num.Num      `json:"unallocatedPool"`
	Classes           []ClassLine  `json:"shareClasses"`
	Holders           []HolderLine `json:"stakeholders"`
}

// Summary computes the company's cap table on day from the events applied
// so far (Replay(events, day) gives the company as of day). Awards whose
// exercise window or term lapsed before day count as expired even when the
// scheduler has not recorded it yet.
func (c *Company) Summary(day time.Time) Summary {
	lapsed := map[string]num.Num{} // per reserve class
	holders := map[string]*HolderLine{}
	var order []string
	for _, id := range c.GrantOrder {
		g := c.Grants[id]
		cl := c.Classes[g.ShareClassID]
		if cl == nil {
			continue
		}
		h := holders[g.StakeholderID]
		if h == nil {
			h = &HolderLine{ID: g.StakeholderID}
			if st := c.Stakeholders[g.StakeholderID]; st != nil {
				h.Name, h.Type = st.Name, st.Type
			}
			holders[g.StakeholderID] = h
			order = append(order, g.StakeholderID)
		}
		if IsStock(g.GrantType) {
			h.Issued = h.Issued.Add(g.Outstanding().Mul(cl.ratio()))
		} else {
			l := g.LapsedAt(day)
			lapsed[cl.ID] = lapsed[cl.ID].Add(l)
			h.Awards = h.Awards.Add(g.Outstanding().Sub(l))
		}
		if !g.Exercised.IsZero() {
			h.Issued = h.Issued.Add(g.Exercised) // exercised into common, one for one
		}
	}
	classes := make([]ClassTotals, 0, len(c.ClassOrder))
	for _, id := range c.ClassOrder {
		cl := c.Classes[id]
		classes = append(classes, ClassTotals{Class: cl.ShareClass, Issued: cl.Issued, Used: cl.Used,
			Outstanding: cl.Outstanding, Lapsed: lapsed[id]})
	}
	lines := make([]HolderLine, 0, len(order))
	for _, id := range order {
		lines = append(lines, *holders[id])
	}
	return Tally(c.ID, day, classes, lines)
}

// ClassTotals are a share class's running totals on a day, as the fold and
// the read model both keep them; Lapsed is what of Outstanding lapsed
// before the day without an expiry recorded yet.
type ClassTotals struct {
	Class                             ShareClass
	Issued, Used, Outstanding, Lapsed num.Num
}

// Tally turns class totals and holders' issued and award counts (lapsed
// awards already taken out) into a Summary: each class's part of the fully
// diluted count, the totals, ownership fractions, holders with nothing
// dropped and the rest sorted by Shares, largest first, then by name and
// id. It is the one rule behind both the replayed and the live cap table.
func Tally(companyID string, day time.Time, classes []ClassTotals, holders []HolderLine) Summary {
	s := Summary{CompanyID: companyID, AsOf: day}
	for _, t := range classes {
		cl := ClassState{ShareClass: t.Class}
		line := ClassLine{ID: cl.ID, Name: cl.Name, Type: cl.Type, Authorized: cl.TotalShares, Issued: t.Issued}
		out := t.Outstanding.Sub(t.Lapsed)
		free := cl.TotalShares.Sub(t.Used).Add(t.Lapsed)
		switch cl.Type {
		case ClassCommon, ClassPreferred:
			line.Shares = t.Issued.Mul(cl.ratio())
			line.Available = cl.TotalShares.Sub(t.Issued)
			s.TotalAuthorized = s.TotalAuthorized.Add(cl.TotalShares)
			s.TotalIssued = s.TotalIssued.Add(t.Issued)
		case ClassPool:
			line.Outstanding, line.Available, line.Shares = out, free, out.Add(free)
			s.UnallocatedPool = s.UnallocatedPool.Add(free)
			s.OutstandingAwards = s.OutstandingAwards.Add(out)
		case ClassWarrant:
			line.Outstanding, line.Available, line.Shares = out, free, out
			s.OutstandingAwards = s.OutstandingAwards.Add(out)
		}
		s.FullyDiluted = s.FullyDiluted.Add(line.Shares)
		s.Classes = append(s.Classes, line)
	}
	for i := range s.Classes {
		s.Classes[i].Ownership = fraction(s.Classes[i].Shares, s.FullyDiluted)
	}
	for _, h := range holders {
		h.Shares = h.Issued.Add(h.Awards)
		if h.Shares.IsZero() {
			continue
		}
		h.Ownership = fraction(h.Shares, s.FullyDiluted)
		s.Holders = append(s.Holders, h)
	}
	sort.SliceStable(s.Holders, func(i, j int) bool {
		if c := s.Holders[i].Shares.Cmp(s.Holders[j].Shares); c != 0 {
			return c > 0
		}
		if s.Holders[i].Name != s.Holders[j].Name {
			return s.Holders[i].Name < s.Holders[j].Name
		}
		return s.Holders[i].ID < s.Holders[j].ID
	})
	return s
}

// ratio is the class's conversion ratio into common (1 when unset).
func (c *ClassState) ratio() num.Num {
	if c.Type != ClassPreferred || c.ConversionRatio.IsZero() {
		return num.Int(1)
	}
	return c.ConversionRatio
}

func fraction(part, whole num.Num) num.Num {
	if whole.IsZero() {
		return num.Zero
	}
	return part.Div(whole)
}
