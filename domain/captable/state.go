package captable

import (
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/domain/kernel"
)

// Company is the fold of a company's events: the state its decisions run
// on, and the source of as-of views. The zero value is a company that does
// not exist yet; Apply builds it. Maps are keyed by id; the order slices keep
// creation order for stable listings.
type Company struct {
	ID      string
	Name    string
	Version int64 // stream version of the last applied event
	Members map[string]Role

	Stakeholders map[string]*StakeholderState
	Classes      map[string]*ClassState
	Grants       map[string]*GrantState
	SAFEs        map[string]*SAFEState
	Documents    map[string]*DocumentState
	Reports      map[string]*FinancialReport
	Valuations   []Valuation
	Rounds       []RoundClosed

	StakeholderOrder, ClassOrder, GrantOrder, SAFEOrder []string
	grantSeq                                            int
	// byNumber (grant number -> grant id) and byEmail (email -> live
	// stakeholder id) keep the uniqueness checks constant-time in large
	// companies.
	byNumber, byEmail map[string]string
}

// StakeholderState is a stakeholder and whether it was removed.
type StakeholderState struct {
	Stakeholder
	Removed bool
}

// ClassState is a share class's terms and its running totals. Issued is
// shares of this class outstanding (stock issuances, exercises into it, SAFE
// conversions). For a pool or warrant reserve, Used is what awards have
// taken from it (outstanding plus exercised); Outstanding is the awards not
// yet exercised, forfeited, expired or cancelled.
type ClassState struct {
	ShareClass
	// DatedChanges: a dated event (an authorization, an adjustment) has
	// changed the class's terms, so a later update of its terms is dated.
	DatedChanges bool
	Issued       num.Num
	Used         num.Num
	Outstanding  num.Num
}

// Available is what a pool or warrant reserve can still grant.
func (c *ClassState) Available() num.Num { return c.TotalShares.Sub(c.Used) }

// Unissued is what a stock class can still issue.
func (c *ClassState) Unissued() num.Num { return c.TotalShares.Sub(c.Issued) }

// IsReserve reports whether the class is a pool or warrant reserve (its
// grants are awards).
func (c *ClassState) IsReserve() bool { return c.Type == ClassPool || c.Type == ClassWarrant }

// GrantState is a grant's terms and lifecycle.
type GrantState struct {
	Grant
	Accepted    bool
	AcceptedOn  time.Time
	Exercised   num.Num
	Forfeited   num.Num
	Expired     num.Num
	Cancelled   num.Num
	Termination *vesting.Termination
	LastDate    time.Time // the latest business date among its lifecycle events
}

// Outstanding is what the grant still holds: for stock, shares issued and
// not repurchased or cancelled; for awards, units not exercised, forfeited,
// expired or cancelled.
func (g *GrantState) Outstanding() num.Num {
	return g.Quantity.Sub(g.Exercised).Sub(g.Forfeited).Sub(g.Expired).Sub(g.Cancelled)
}

// Status is the grant's status as recorded.
func (g *GrantState) Status() string {
	switch {
	case !g.Cancelled.IsZero() && g.Outstanding().IsZero() && g.Exercised.IsZero():
		return StatusCancelled
	case !g.Expired.IsZero() && g.Outstanding().IsZero():
		return StatusExpired
	case g.Termination != nil:
		if g.Outstanding().IsZero() && !g.Exercised.IsZero() {
			return StatusExercised
		}
		return StatusTerminated
	case !g.Exercised.IsZero() && g.Outstanding().IsZero():
		return StatusExercised
	case !g.Exercised.IsZero():
		return StatusPartiallyExercised
	case g.Accepted:
		return StatusActive
	}
	return StatusPending
}

// LapsedAt is what of the outstanding units has lapsed by day: vested units
// of a terminated award whose exercise window closed before day, or a whole
// award past its expiration date. The scheduler records it as GrantExpired;
// views as of a later day count it as expired even before that.
func (g *GrantState) LapsedAt(day time.Time) num.Num {
	if IsStock(g.GrantType) {
		return num.Zero
	}
	if g.Termination != nil && day.After(g.Termination.WindowEnds) {
		return g.Outstanding()
	}
	if g.ExpirationDate != nil && day.After(*g.ExpirationDate) {
		return g.Outstanding()
	}
	return num.Zero
}

// SAFEState is a SAFE and what became of it.
type SAFEState struct {
	SAFE
	Elected   *MFNElected
	Converted *SAFEConverted
}

// Effective returns the terms the SAFE converts with: an MFN's elected
// terms once elected.
func (s *SAFEState) Effective() SAFETerms {
	if s.Elected != nil {
		return s.Elected.Terms
	}
	return s.SAFETerms
}

// Exists reports whether the company has been created.
func (c *Company) Exists() bool { return c.ID != "" }

// Apply folds one event into the company. Events of other types are ignored.
func (c *Company) Apply(ev kernel.Event) {
	switch e := ev.(type) {
	case *CompanyCreated:
		c.ID, c.Name = e.CompanyID, e.Name
		c.Members = map[string]Role{}
		c.Stakeholders = map[string]*StakeholderState{}
		c.Classes = map[string]*ClassState{}
		c.Grants = map[string]*GrantState{}
		c.SAFEs = map[string]*SAFEState{}
		c.Documents = map[string]*DocumentState{}
		c.byNumber, c.byEmail = map[string]string{}, map[string]string{}
		c.Reports = map[string]*FinancialReport{}
	case *MemberAdded:
		c.Members[e.AccountID] = e.Role
	case *StakeholderAdded:
		c.Stakeholders[e.ID] = &StakeholderState{Stakeholder: e.Stakeholder}
		c.StakeholderOrder = append(c.StakeholderOrder, e.ID)
		c.index(&c.byEmail, "", e.Email, e.ID)
	case *StakeholderUpdated:
		if s := c.Stakeholders[e.ID]; s != nil {
			c.index(&c.byEmail, s.Email, e.Email, e.ID)
			s.Stakeholder = e.Stakeholder
		}
	case *StakeholderRemoved:
		if s := c.Stakeholders[e.StakeholderID]; s != nil {
			s.Removed = true
			c.index(&c.byEmail, s.Email, "", e.StakeholderID)
		}
	case *ShareClassCreated:
		c.Classes[e.ID] = &ClassState{ShareClass: e.ShareClass}
		c.ClassOrder = append(c.ClassOrder, e.ID)
	case *ShareClassUpdated:
		if cl := c.Classes[e.ID]; cl != nil {
			cl.ShareClass = e.ShareClass
		}
	case *ConversionAdjusted:
		if cl := c.Classes[e.ShareClassID]; cl != nil {
			cl.ConversionRatio = e.NewConversionRatio
			cl.DatedChanges = true
		}
	case *SharesAuthorized:
		if cl := c.Classes[e.ShareClassID]; cl != nil {
			cl.TotalShares = cl.TotalShares.Add(e.Increase)
			cl.DatedChanges = true
		}
	case *DocumentUploaded:
		c.Documents[e.ID] = &DocumentState{Document: e.Document}
	case *ReportGenerated:
		r := e.FinancialReport
		c.Reports[r.ID] = &r
	case *DocumentDeleted:
		if d := c.Documents[e.DocumentID]; d != nil {
			d.Deleted = true
		}
	case *ValuationRecorded:
		c.Valuations = append(c.Valuations, e.Valuation)
	case *RoundClosed:
		c.Rounds = append(c.Rounds, *e)
	default:
		c.applyGrantOrSAFE(ev)
	}
}

func (c *Company) applyGrantOrSAFE(ev kernel.Event) {
	switch e := ev.(type) {
	case *GrantIssued:
		c.index(&c.byNumber, "", e.GrantNumber, e.ID)
		g := &GrantState{Grant: e.Grant, LastDate: e.GrantDate}
		c.Grants[e.ID] = g
		c.GrantOrder = append(c.GrantOrder, e.ID)
		c.grantSeq++
		c.move(g, g.Quantity, true)
	case *GrantUpdated:
		if g := c.Grants[e.ID]; g != nil {
			c.index(&c.byNumber, g.GrantNumber, e.GrantNumber, e.ID)
			c.move(g, g.Quantity, false)
			g.Grant = e.Grant
			g.LastDate = e.GrantDate
			c.move(g, g.Quantity, true)
		}
	case *GrantAccepted:
		if g := c.Grants[e.GrantID]; g != nil {
			g.Accepted, g.AcceptedOn, g.LastDate = true, e.On, e.On
		}
	case *GrantExercised:
		if g := c.Grants[e.GrantID]; g != nil {
			g.Exercised = g.Exercised.Add(e.Quantity)
			g.LastDate = e.On
			if cl := c.Classes[g.ShareClassID]; cl != nil {
				cl.Outstanding = cl.Outstanding.Sub(e.Quantity)
			}
			if cl := c.Classes[e.ShareClassID]; cl != nil {
				cl.Issued = cl.Issued.Add(e.Quantity)
			}
		}
	case *GrantTerminated:
		if g := c.Grants[e.GrantID]; g != nil {
			t := e.Termination
			g.Termination, g.LastDate = &t, e.On
			g.Forfeited = g.Forfeited.Add(e.Forfeited)
			c.move(g, e.Forfeited, false)
		}
	case *GrantExpired:
		if g := c.Grants[e.GrantID]; g != nil {
			g.Expired, g.LastDate = g.Expired.Add(e.Quantity), e.On
			c.move(g, e.Quantity, false)
		}
	case *GrantCancelled:
		if g := c.Grants[e.GrantID]; g != nil {
			g.Cancelled, g.LastDate = g.Cancelled.Add(e.Quantity), e.On
			c.move(g, e.Quantity, false)
		}
	case *SAFEIssued:
		c.SAFEs[e.ID] = &SAFEState{SAFE: e.SAFE}
		c.SAFEOrder = append(c.SAFEOrder, e.ID)
	case *SAFEUpdated:
		if s := c.SAFEs[e.ID]; s != nil {
			s.SAFE = e.SAFE
		}
	case *MFNElected:
		if s := c.SAFEs[e.SAFEID]; s != nil {
			el := *e
			s.Elected = &el
		}
	case *SAFEConverted:
		if s := c.SAFEs[e.SAFEID]; s != nil {
			cv := *e
			s.Converted = &cv
		}
	}
}

// move adds (in) or removes (!in) qty of a grant's units to or from its
// class's totals: issued shares for stock, used and outstanding for awards.
func (c *Company) move(g *GrantState, qty num.Num, in bool) {
	cl := c.Classes[g.ShareClassID]
	if cl == nil {
		return
	}
	if !in {
		qty = qty.Neg()
	}
	if IsStock(g.GrantType) {
		cl.Issued = cl.Issued.Add(qty)
		return
	}
	cl.Used = cl.Used.Add(qty)
	cl.Outstanding = cl.Outstanding.Add(qty)
}

// index moves id's entry in an index from key from to key to ("" for
// none), leaving another id's entry alone.
func (c *Company) index(m *map[string]string, from, to, id string) {
	if *m == nil {
		*m = map[string]string{}
	}
	if from != "" && (*m)[from] == id {
		delete(*m, from)
	}
	if to != "" {
		(*m)[to] = id
	}
}

// NextGrantNumber is the number the next grant gets unless the caller
// names one: "G-0001", "G-0002", ...
func (c *Company) NextGrantNumber() string {
	n := strconv.Itoa(c.grantSeq + 1)
	for len(n) < 4 {
		n = "0" + n
	}
	return "G-" + n
}

// Dated reports an event's business date, if it has one.
func Dated(ev kernel.Event) (time.Time, bool) {
	if d, ok := ev.(kernel.Dated); ok && !d.OccurredAt().IsZero() {
		return d.OccurredAt(), true
	}
	return time.Time{}, false
}

// Replay folds events into a company as of a day: dated events whose
// business date falls after day are skipped; undated events (reference
// data) always apply. A zero day applies everything.
func Replay(events []kernel.Event, day time.Time) *Company {
	c := &Company{}
	for _, ev := range events {
		if d, ok := Dated(ev); ok && !day.IsZero() && vesting.DateOf(d).After(day) {
			continue
		}
		c.Apply(ev)
	}
	return c
}
