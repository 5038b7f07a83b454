// Package waterfall computes a cap table's exit waterfall: who receives what
// when the company is sold for an exit value. Transaction costs and debt are
// paid first, then the preferred classes' preferences by seniority, then the
// residual per as-converted common share, with participation caps. Every
// preferred class chooses whether to convert and every award chooses whether
// to exercise; the result is an equilibrium of those choices. All arithmetic
// is exact (num.Num); nothing is rounded unless RoundCents is asked to.
package waterfall

import (
	"fmt"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Limits on the size of an input, so that a request cannot make the
// equilibrium search arbitrarily expensive.
const (
	// MaxClasses is the largest number of share classes Validate accepts.
	MaxClasses = 100
	// MaxAwards is the largest number of awards Validate accepts.
	MaxAwards = 10000
	// MaxStrikes is the largest number of distinct award strikes Validate
	// accepts (awards with equal strikes choose together).
	MaxStrikes = 100
)

// Class is one share class. A common class (Preferred false) has no
// preference and always shares the residual; a preferred class may convert to
// common or keep its preference (and participation, if participating).
type Class struct {
	ID, Name  string
	Preferred bool
	// Shares is the number of issued shares of the class (>= 0).
	Shares num.Num
	// IssuePrice is the original issue price per share.
	IssuePrice num.Num
	// PreferenceMultiple scales the preference: Shares*IssuePrice*multiple
	// (0 = no preference).
	PreferenceMultiple num.Num
	// ConversionRatio is the common shares per share when converted or
	// participating; 0 means 1.
	ConversionRatio num.Num
	// Participating classes keep their preference and also share the residual.
	Participating bool
	// ParticipationCap is a multiple of Shares*IssuePrice capping the total
	// (preference + participation) of a participating class; 0 = uncapped.
	ParticipationCap num.Num
	// Seniority orders preferences: 1 is paid first; equal numbers are pari
	// passu. Required (>= 1) for preferred classes, ignored for common.
	Seniority int
	// Holders split the class's payout pro rata; when non-empty their shares
	// sum to Shares.
	Holders []Holding
}

// Holding is a holder's shares in one class.
type Holding struct {
	HolderID string
	Shares   num.Num
}

// Award is an option, warrant or RSU over common: its holder exercises
// (paying Strike per unit) when that pays.
type Award struct {
	ID, HolderID string
	Quantity     num.Num
	// Strike is the exercise price per unit (0 for RSUs).
	Strike num.Num
}

// Input is a cap table and an exit: Validate states which inputs Run and
// Breakpoints accept; amounts are in one currency, exact.
type Input struct {
	ExitValue, Debt, TransactionCosts num.Num
	Classes                           []Class
	Awards                            []Award
}

func invalid(field, rule, format string, args ...any) error {
	return kernel.Invalid(field, rule, fmt.Sprintf(format, args...))
}

func nonNegative(field string, n num.Num) error {
	if n.Sign() < 0 {
		return invalid(field, "non_negative", "%s must not be negative (rule non_negative)", field)
	}
	return nil
}

// Validate reports the first problem with in as a *kernel.Error of kind
// invalid naming the field (camelCase JSON path) and the rule it broke, or
// nil when Run can distribute in. Amounts must not be negative; IDs are
// required and unique across classes and awards; a preferred class needs a
// seniority >= 1; a common class carries no preference, participation or
// cap; a cap needs a participating class and may not be below 1x nor below
// the preference multiple; holders' shares must sum to the class's shares;
// at least one class must issue shares.
func (in Input) Validate() error {
	if err := nonNegative("exitValue", in.ExitValue); err != nil {
		return err
	}
	return in.validateTable()
}

// validateTable checks everything but the exit value (Breakpoints ignores it).
func (in Input) validateTable() error {
	if err := nonNegative("debt", in.Debt); err != nil {
		return err
	}
	if err := nonNegative("transactionCosts", in.TransactionCosts); err != nil {
		return err
	}
	if len(in.Classes) == 0 {
		return invalid("classes", "required", "classes is required: a cap table needs at least one class (rule required)")
	}
	if len(in.Classes) > MaxClasses {
		return invalid("classes", fmt.Sprintf("max_items:%d", MaxClasses), "classes may hold at most %d classes", MaxClasses)
	}
	if len(in.Awards) > MaxAwards {
		return invalid("awards", fmt.Sprintf("max_items:%d", MaxAwards), "awards may hold at most %d awards", MaxAwards)
	}
	ids := make(map[string]bool, len(in.Classes)+len(in.Awards))
	total := num.Zero
	for i, c := range in.Classes {
		if err := validateClass(i, c, ids); err != nil {
			return err
		}
		total = total.Add(c.Shares)
	}
	if total.Sign() <= 0 {
		return invalid("classes", "positive", "classes must issue at least one share in total (rule positive)")
	}
	strikes := map[string]bool{}
	for j, a := range in.Awards {
		p := fmt.Sprintf("awards[%d]", j)
		switch {
		case a.ID == "":
			return invalid(p+".id", "required", "%s.id is required (rule required)", p)
		case ids[a.ID]:
			return invalid(p+".id", "unique", "%s.id %q is already used by a class or award (rule unique)", p, a.ID)
		case a.HolderID == "":
			return invalid(p+".holderId", "required", "%s.holderId is required (rule required)", p)
		}
		ids[a.ID] = true
		if err := nonNegative(p+".quantity", a.Quantity); err != nil {
			return err
		}
		if err := nonNegative(p+".strike", a.Strike); err != nil {
			return err
		}
		strikes[a.Strike.Rat().RatString()] = true
	}
	if len(strikes) > MaxStrikes {
		return invalid("awards", fmt.Sprintf("max_strikes:%d", MaxStrikes), "awards may use at most %d distinct strikes", MaxStrikes)
	}
	return nil
}

func validateClass(i int, c Class, ids map[string]bool) error {
	p := fmt.Sprintf("classes[%d]", i)
	if c.ID == "" {
		return invalid(p+".id", "required", "%s.id is required (rule required)", p)
	}
	if ids[c.ID] {
		return invalid(p+".id", "unique", "%s.id %q is already used by another class (rule unique)", p, c.ID)
	}
	ids[c.ID] = true
	for _, f := range []struct {
		name string
		n    num.Num
	}{{"shares", c.Shares}, {"issuePrice", c.IssuePrice}, {"preferenceMultiple", c.PreferenceMultiple},
		{"conversionRatio", c.ConversionRatio}, {"participationCap", c.ParticipationCap}} {
		if err := nonNegative(p+"."+f.name, f.n); err != nil {
			return err
		}
	}
	if !c.Preferred {
		switch {
		case c.PreferenceMultiple.Sign() > 0:
			return invalid(p+".preferenceMultiple", "not_preferred", "%s.preferenceMultiple must be 0 for a common class (rule not_preferred)", p)
		case c.Participating:
			return invalid(p+".participating", "not_preferred", "%s.participating must be false for a common class (rule not_preferred)", p)
		case c.ParticipationCap.Sign() > 0:
			return invalid(p+".participationCap", "not_preferred", "%s.participationCap must be 0 for a common class (rule not_preferred)", p)
		}
	} else {
		if c.Seniority < 1 {
			return invalid(p+".seniority", "positive", "%s.seniority must be at least 1 for a preferred class (rule positive)", p)
		}
		if c.ParticipationCap.Sign() > 0 {
			if !c.Participating {
				return invalid(p+".participationCap", "requires_participation", "%s.participationCap needs a participating class (rule requires_participation)", p)
			}
			if c.ParticipationCap.Less(num.Int(1)) || c.ParticipationCap.Less(c.PreferenceMultiple) {
				return invalid(p+".participationCap", "cap_below_preference", "%s.participationCap must be at least 1x and at least the preference multiple (rule cap_below_preference)", p)
			}
		}
	}
	return validateHolders(p, c)
}

func validateHolders(p string, c Class) error {
	if len(c.Holders) == 0 {
		return nil
	}
	sum := num.Zero
	for k, h := range c.Holders {
		hp := fmt.Sprintf("%s.holders[%d]", p, k)
		if h.HolderID == "" {
			return invalid(hp+".holderId", "required", "%s.holderId is required (rule required)", hp)
		}
		if err := nonNegative(hp+".shares", h.Shares); err != nil {
			return err
		}
		sum = sum.Add(h.Shares)
	}
	if !sum.Equal(c.Shares) {
		return invalid(p+".holders", "sum_equals_shares", "%s.holders must hold exactly %s.shares (%s), not %s (rule sum_equals_shares)", p, p, c.Shares, sum)
	}
	return nil
}
