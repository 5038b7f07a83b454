package captable

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/domain/kernel"
)

// TrancheInput is one tranche of a CUSTOM vesting schedule: months after
// the vesting start or a date, and a quantity or a percent.
type TrancheInput struct {
	Months   *int     `json:"months,omitempty"`
	Date     *Day     `json:"date,omitempty"`
	Quantity *num.Num `json:"quantity,omitempty"`
	Percent  *num.Num `json:"percent,omitempty"`
}

// GrantInput is the body of a grant issue or update.
type GrantInput struct {
	GrantNumber            string         `json:"grantNumber"`
	StakeholderID          string         `json:"stakeholderId"`
	ShareClassID           string         `json:"shareClassId"`
	UnderlyingShareClassID string         `json:"underlyingShareClassId"`
	Quantity               num.Num        `json:"quantity"`
	GrantType              string         `json:"grantType"`
	StrikePrice            num.Num        `json:"strikePrice"`
	VestingSchedule        string         `json:"vestingSchedule"`
	VestingStartDate       Day            `json:"vestingStartDate"`
	VestingRounding        string         `json:"vestingRounding"`
	CustomTranches         []TrancheInput `json:"customTranches"`
	GrantDate              Day            `json:"grantDate"`
	ExpirationDate         Day            `json:"expirationDate"`
	ExerciseWindowDays     *int           `json:"exerciseWindowDays"`
	Notes                  string         `json:"notes"`
}

// maxWindowDays bounds the post-termination exercise window (10 years).
const maxWindowDays = 3650

// grantFrom validates in against the company and builds the grant's terms.
// self is the grant being updated (its own units do not count against the
// pool), or nil.
func (c *Company) grantFrom(id string, in GrantInput, self *GrantState, today time.Time) (Grant, error) {
	g := Grant{ID: id, GrantNumber: strings.TrimSpace(in.GrantNumber), StakeholderID: in.StakeholderID,
		ShareClassID: in.ShareClassID, GrantType: in.GrantType, Quantity: in.Quantity, StrikePrice: in.StrikePrice,
		GrantDate: in.GrantDate.Time, VestingStartDate: in.VestingStartDate.Time,
		ExpirationDate: in.ExpirationDate.timePtr(), Notes: in.Notes}
	if in.StakeholderID == "" {
		return g, kernel.Invalid("stakeholderId", "required", "stakeholderId is required")
	}
	if _, err := c.Stakeholder(in.StakeholderID); err != nil {
		return g, kernel.Invalid("stakeholderId", "exists", "stakeholderId names no stakeholder of this company")
	}
	if err := oneOf("grantType", in.GrantType, grantTypes); err != nil {
		return g, err
	}
	if in.ShareClassID == "" {
		return g, kernel.Invalid("shareClassId", "required", "shareClassId is required")
	}
	cl := c.Classes[in.ShareClassID]
	if cl == nil {
		return g, kernel.Invalid("shareClassId", "exists", "shareClassId names no share class of this company")
	}
	if err := classFits(in.GrantType, cl); err != nil {
		return g, err
	}
	if in.Quantity.Sign() < 0 {
		return g, kernel.Invalid("quantity", "non_negative", "quantity must not be negative")
	}
	if err := positiveWhole("quantity", in.Quantity); err != nil {
		return g, err
	}
	if err := nonNegative("strikePrice", in.StrikePrice); err != nil {
		return g, err
	}
	if (in.GrantType == GrantOption || in.GrantType == GrantWarrant) && in.StrikePrice.IsZero() {
		return g, kernel.Invalid("strikePrice", "required", "strikePrice is required for options and warrants (greater than 0)")
	}
	if err := dateRequired("grantDate", g.GrantDate, today); err != nil {
		return g, err
	}
	if g.VestingStartDate.IsZero() {
		g.VestingStartDate = g.GrantDate
	}
	if err := notBefore("vestingStartDate", g.VestingStartDate, "grantDate", g.GrantDate); err != nil {
		return g, err
	}
	if g.ExpirationDate != nil {
		if err := notBefore("expirationDate", *g.ExpirationDate, "grantDate", g.GrantDate); err != nil {
			return g, err
		}
	}
	if err := c.fillVesting(&g, in); err != nil {
		return g, err
	}
	if err := c.fillNumberAndWindow(&g, in, self); err != nil {
		return g, err
	}
	if err := c.fillUnderlying(&g, in); err != nil {
		return g, err
	}
	return g, c.checkRoom(g, cl, self)
}

// classFits checks that a grant type draws on the right kind of class.
func classFits(grantType string, cl *ClassState) error {
	want := map[string][]string{
		GrantOption: {ClassPool}, GrantRSU: {ClassPool}, GrantWarrant: {ClassWarrant},
		GrantRestrictedStock: {ClassCommon, ClassPreferred},
	}[grantType]
	for _, t := range want {
		if cl.Type == t {
			return nil
		}
	}
	return kernel.Invalid("shareClassId", "class_type",
		fmt.Sprintf("a %s grant must draw on a %s class, not %s", grantType, strings.Join(want, " or "), cl.Type))
}

func (c *Company) fillVesting(g *Grant, in GrantInput) error {
	kind, ok := vesting.ParseKind(in.VestingSchedule)
	if !ok {
		return oneOf("vestingSchedule", in.VestingSchedule, []string{"4_YEAR_1_YEAR_CLIFF", "3_YEAR_MONTHLY", "IMMEDIATE", "CUSTOM"})
	}
	rounding, ok := vesting.ParseRounding(in.VestingRounding)
	if !ok {
		return oneOf("vestingRounding", in.VestingRounding,
			[]string{"CUMULATIVE_ROUND_DOWN", "CUMULATIVE_ROUNDING", "FRONT_LOADED", "BACK_LOADED"})
	}
	g.VestingSchedule, g.VestingRounding = kind, rounding
	for _, t := range in.CustomTranches {
		vt := vesting.Tranche{Months: t.Months, Quantity: t.Quantity, Percent: t.Percent}
		if t.Date != nil && !t.Date.IsZero() {
			d := t.Date.Time
			vt.Date = &d
		}
		g.Tranches = append(g.Tranches, vt)
	}
	return g.Schedule().Validate()
}

func (c *Company) fillNumberAndWindow(g *Grant, in GrantInput, self *GrantState) error {
	if g.GrantNumber == "" {
		if self != nil {
			g.GrantNumber = self.GrantNumber
		} else {
			g.GrantNumber = c.NextGrantNumber()
		}
	}
	if len(g.GrantNumber) > 64 {
		return kernel.Invalid("grantNumber", "max_length", "grantNumber must be at most 64 characters")
	}
	if other, ok := c.byNumber[g.GrantNumber]; ok && other != g.ID {
		return conflict("grantNumber", "unique", "grant number "+g.GrantNumber+" is already used in this company")
	}
	g.ExerciseWindowDays = vesting.DefaultExerciseWindowDays
	if in.ExerciseWindowDays != nil {
		if *in.ExerciseWindowDays < 0 || *in.ExerciseWindowDays > maxWindowDays {
			return kernel.Invalid("exerciseWindowDays", "range", fmt.Sprintf("exerciseWindowDays must be between 0 and %d", maxWindowDays))
		}
		g.ExerciseWindowDays = *in.ExerciseWindowDays
	}
	return nil
}

// fillUnderlying names the common class an award exercises into: the one
// given, or the company's first common class.
func (c *Company) fillUnderlying(g *Grant, in GrantInput) error {
	if IsStock(g.GrantType) {
		if in.UnderlyingShareClassID != "" {
			return kernel.Invalid("underlyingShareClassId", "not_allowed", "underlyingShareClassId applies to options, RSUs and warrants only")
		}
		return nil
	}
	if in.UnderlyingShareClassID == "" {
		common := c.firstCommon()
		if common == nil {
			return kernel.Invalid("underlyingShareClassId", "required",
				"underlyingShareClassId is required: the company has no COMMON class for exercised shares")
		}
		g.UnderlyingShareClassID = common.ID
		return nil
	}
	u := c.Classes[in.UnderlyingShareClassID]
	if u == nil || u.Type != ClassCommon {
		return kernel.Invalid("underlyingShareClassId", "common_class", "underlyingShareClassId must name a COMMON class of this company")
	}
	g.UnderlyingShareClassID = u.ID
	return nil
}

// checkRoom refuses a grant larger than what its class can still give.
func (c *Company) checkRoom(g Grant, cl *ClassState, self *GrantState) error {
	room := cl.Available()
	what := "the pool's available shares"
	if cl.Type == ClassWarrant {
		what = "the warrant reserve's available shares"
	}
	if !cl.IsReserve() {
		room, what = cl.Unissued(), "the class's unissued authorized shares"
	}
	if self != nil && self.ShareClassID == cl.ID {
		room = room.Add(self.Quantity)
	}
	if room.Less(g.Quantity) {
		return kernel.Invalid("quantity", "exceeds_available",
			fmt.Sprintf("quantity %s exceeds %s (%s available in %s)", g.Quantity, what, room, cl.Name))
	}
	return nil
}

// IssueGrant records a grant (status PENDING).
func (c *Company) IssueGrant(id string, in GrantInput, today time.Time) ([]kernel.Event, error) {
	g, err := c.grantFrom(id, in, nil, today)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&GrantIssued{g}}, nil
}

// Grant returns a grant or a not-found error.
func (c *Company) Grant(id string) (*GrantState, error) {
	g := c.Grants[id]
	if g == nil {
		return nil, notFound("equity grant", id)
	}
	return g, nil
}

// UpdateGrant replaces the terms of a pending grant; fields absent from in
// keep their values. Accepted grants change only through their lifecycle.
func (c *Company) UpdateGrant(id string, in GrantInput, today time.Time) ([]kernel.Event, error) {
	cur, err := c.Grant(id)
	if err != nil {
		return nil, err
	}
	if cur.Status() != StatusPending {
		return nil, kernel.Invalid("status", "pending_only",
			"only a PENDING grant's terms can change; this grant is "+cur.Status())
	}
	g, err := c.grantFrom(id, mergeGrant(cur.Grant, in), cur, today)
	if err != nil {
		return nil, err
	}
	return []kernel.Event{&GrantUpdated{g}}, nil
}
