package captable

import "github.com/strata-platform/strata/domain/captable/rounds"

// ConventionNamingCooley marks a RoundClosed whose Convention uses the
// names of Cooley's SAFE conversion methods, as package rounds defines them
// since issue 19: PRE_MONEY prices at pre-money / (F + P), PERCENT_OWNERSHIP
// at pre-money / (F + P + S).
const ConventionNamingCooley = 1

// PricingConvention is the round's pricing convention under today's names.
// A round recorded before ConventionNaming existed was priced by the same
// arithmetic under swapped names: its "PRE_MONEY" is PERCENT_OWNERSHIP and
// its "PERCENT_OWNERSHIP" is PRE_MONEY; DOLLARS_INVESTED is unchanged.
func (e RoundClosed) PricingConvention() string {
	if e.ConventionNaming == ConventionNamingCooley {
		return e.Convention
	}
	switch e.Convention {
	case rounds.ConventionPreMoney:
		return rounds.ConventionPercentOwnership
	case rounds.ConventionPercentOwnership:
		return rounds.ConventionPreMoney
	}
	return e.Convention
}
