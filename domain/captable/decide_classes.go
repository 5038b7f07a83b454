package captable

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// ClassInput is the body of a share class create or update. Absent fields
// take defaults on create (liquidationPreference 1 and seniority 1 for
// preferred, conversionRatio 1, antiDilution NONE, antiDilutionBase
// OUTSTANDING_PREFERRED for NARROW_BASED) and keep their value on update,
// except antiDilutionBase, which a class leaving NARROW_BASED drops.
type ClassInput struct {
	Name                  *string  `json:"name"`
	Type                  *string  `json:"type"`
	TotalShares           *num.Num `json:"totalShares"`
	PricePerShare         *num.Num `json:"pricePerShare"`
	LiquidationPreference *num.Num `json:"liquidationPreference"`
	ConversionRatio       *num.Num `json:"conversionRatio"`
	Participating         *bool    `json:"participating"`
	ParticipationCap      *num.Num `json:"participationCap"`
	Seniority             *int     `json:"seniority"`
	AntiDilution          *string  `json:"antiDilution"`
	AntiDilutionBase      *string  `json:"antiDilutionBase"`
}

// merge applies the input's present fields over base.
func (in ClassInput) merge(base ShareClass) ShareClass {
	set := func(dst *num.Num, src *num.Num) {
		if src != nil {
			*dst = *src
		}
	}
	if in.Name != nil {
		base.Name = strings.TrimSpace(*in.Name)
	}
	if in.Type != nil {
		base.Type = *in.Type
	}
	set(&base.TotalShares, in.TotalShares)
	set(&base.PricePerShare, in.PricePerShare)
	set(&base.LiquidationPreference, in.LiquidationPreference)
	set(&base.ConversionRatio, in.ConversionRatio)
	set(&base.ParticipationCap, in.ParticipationCap)
	if in.Participating != nil {
		base.Participating = *in.Participating
	}
	if in.Seniority != nil {
		base.Seniority = *in.Seniority
	}
	if in.AntiDilution != nil {
		base.AntiDilution = *in.AntiDilution
	}
	switch {
	case in.AntiDilutionBase != nil:
		base.AntiDilutionBase = *in.AntiDilutionBase
	case base.AntiDilution != AntiDilutionNarrowBased:
		base.AntiDilutionBase = ""
	}
	if base.AntiDilution == AntiDilutionNarrowBased && base.AntiDilutionBase == "" {
		base.AntiDilutionBase = AntiDilutionBaseOutstandingPreferred // recorded, not implied
	}
	return base
}

func (c *Company) checkClass(cl ShareClass) error {
	if err := required("name", cl.Name); err != nil {
		return err
	}
	if err := oneOf("type", cl.Type, classTypes); err != nil {
		return err
	}
	for _, id := range c.ClassOrder {
		if id != cl.ID && strings.EqualFold(c.Classes[id].Name, cl.Name) {
			return conflict("name", "unique", "a share class named "+cl.Name+" already exists in this company")
		}
	}
	if err := positiveWhole("totalShares", cl.TotalShares); err != nil {
		return err
	}
	if err := nonNegative("pricePerShare", cl.PricePerShare); err != nil {
		return err
	}
	if err := nonNegative("liquidationPreference", cl.LiquidationPreference); err != nil {
		return err
	}
	if err := positive("conversionRatio", cl.ConversionRatio); err != nil {
		return err
	}
	if err := nonNegative("participationCap", cl.ParticipationCap); err != nil {
		return err
	}
	if err := oneOf("antiDilution", cl.AntiDilution, antiDilutions); err != nil {
		return err
	}
	if cl.AntiDilutionBase != "" {
		if cl.AntiDilution != AntiDilutionNarrowBased {
			return kernel.Invalid("antiDilutionBase", "narrow_based_only", "antiDilutionBase applies only to NARROW_BASED antiDilution")
		}
		if err := oneOf("antiDilutionBase", cl.AntiDilutionBase, antiDilutionBases); err != nil {
			return err
		}
	}
	if cl.Seniority < 1 {
		return kernel.Invalid("seniority", "min", "seniority must be 1 (paid first) or more")
	}
	if cl.Type != ClassPreferred {
		if cl.Participating || !cl.ParticipationCap.IsZero() || cl.AntiDilution != AntiDilutionNone || !cl.LiquidationPreference.IsZero() {
			return kernel.Invalid("type", "preferred_terms", "liquidationPreference, participating, participationCap and antiDilution apply to PREFERRED classes only")
		}
		return nil
	}
	if !cl.ParticipationCap.IsZero() {
		if !cl.Participating {
			return kernel.Invalid("participationCap", "requires_participating", "participationCap applies only when participating is true")
		}
		if cl.ParticipationCap.Less(cl.LiquidationPreference) {
			return kernel.Invalid("participationCap", "cap_below_preference", "participationCap must be at least the liquidationPreference multiple")
		}
	}
	return nil
}

// CreateClass records a new share class.
func (c *Company) CreateClass(id string, in ClassInput, now time.Time) ([]kernel.Event, error) {
	base := ShareClass{ID: id, ConversionRatio: num.Int(1), Seniority: 1, AntiDilution: AntiDilutionNone, At: now}
	if in.Type != nil && *in.Type == ClassPreferred {
		base.LiquidationPreference = num.Int(1)
	}
	cl := in.merge(base)
	if err := c.checkClass(cl); err != nil {
		return nil, err
	}
	return []kernel.Event{&ShareClassCreated{cl}}, nil
}

// Class returns a share class or a not-found error.
func (c *Company) Class(id string) (*ClassState, error) {
	cl := c.Classes[id]
	if cl == nil {
		return nil, notFound("share class", id)
	}
	return cl, nil
}

// UpdateClass changes a class's terms. Its type cannot change, and its
// authorized shares cannot fall below what is issued or granted from it.
func (c *Company) UpdateClass(id string, in ClassInput, now time.Time) ([]kernel.Event, error) {
	cur, err := c.Class(id)
	if err != nil {
		return nil, err
	}
	if in.Type != nil && *in.Type != cur.Type {
		return nil, kernel.Invalid("type", "immutable", "a share class's type cannot change")
	}
	cl := in.merge(cur.ShareClass)
	cl.At = now
	if err := c.checkClass(cl); err != nil {
		return nil, err
	}
	floor := cur.Issued
	if cur.IsReserve() {
		floor = cur.Used
	}
	if cl.TotalShares.Less(floor) {
		return nil, kernel.Invalid("totalShares", "below_issued",
			fmt.Sprintf("totalShares must be at least the %s shares already issued or granted from the class", floor))
	}
	ev := &ShareClassUpdated{ShareClass: cl}
	if cur.DatedChanges {
		d := DayOf(now).Time
		ev.EffectiveDate = &d
	}
	return []kernel.Event{ev}, nil
}

// firstCommon is the company's first common class, where exercises land by
// default.
func (c *Company) firstCommon() *ClassState {
	for _, id := range c.ClassOrder {
		if cl := c.Classes[id]; cl.Type == ClassCommon {
			return cl
		}
	}
	return nil
}
