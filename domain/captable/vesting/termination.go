package vesting

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// DefaultExerciseWindowDays is the post-termination exercise window used
// when Terminate is given no positive window.
const DefaultExerciseWindowDays = 90

// Termination is what ending a grant holder's service does to a schedule.
type Termination struct {
	On         time.Time `json:"terminatedOn"`         // the termination day, 00:00 UTC
	Vested     num.Num   `json:"vestedQuantity"`       // VestedAt(On): kept, exercisable
	Forfeited  num.Num   `json:"forfeitedQuantity"`    // Quantity - Vested: cancelled, returned to the pool
	WindowEnds time.Time `json:"exerciseWindowEndsOn"` // On + window days: the last day vested units may be exercised
}

// Terminate returns the termination of s on calendar day DateOf(on):
// Vested is s.VestedAt(on) (an installment dated on counts), Forfeited is
// s.Quantity - Vested (so Vested + Forfeited == s.Quantity, both >= 0), and
// WindowEnds is On plus windowDays calendar days, or plus
// DefaultExerciseWindowDays when windowDays <= 0. For an invalid s, Vested
// is 0 and Forfeited is s.Quantity.
func (s Schedule) Terminate(on time.Time, windowDays int) Termination {
	day := DateOf(on)
	if windowDays <= 0 {
		windowDays = DefaultExerciseWindowDays
	}
	vested := s.VestedAt(day)
	return Termination{
		On:         day,
		Vested:     vested,
		Forfeited:  s.Quantity.Sub(vested),
		WindowEnds: day.AddDate(0, 0, windowDays),
	}
}
