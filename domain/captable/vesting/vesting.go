// Package vesting computes equity-grant vesting exactly: which whole units of
// a grant vest on which calendar day, how many are vested on any day, and what
// a termination leaves vested and forfeits.
//
// Quantities are num.Num (exact rationals) and are always whole; float64
// never appears. Dates are plain calendar days held as time.Time at 00:00
// UTC; every date the package receives is first normalised with DateOf.
// The package is pure: no I/O, no clock, no package-level mutable state.
package vesting

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// Kind names a vesting schedule. Only the four constants below are valid.
type Kind string

// The schedule kinds.
const (
	// FourYearOneYearCliff vests 48 monthly portions: nothing before month
	// 12, the first 12 portions together at month 12 (the cliff), then one
	// portion each month up to month 48.
	FourYearOneYearCliff Kind = "4_YEAR_1_YEAR_CLIFF"
	// ThreeYearMonthly vests 36 monthly portions, the first at month 1.
	ThreeYearMonthly Kind = "3_YEAR_MONTHLY"
	// Immediate vests the whole quantity on the start date.
	Immediate Kind = "IMMEDIATE"
	// Custom vests the schedule's Tranches.
	Custom Kind = "CUSTOM"
)

// kinds lists the valid kinds in their documented order.
func kinds() []Kind { return []Kind{FourYearOneYearCliff, ThreeYearMonthly, Immediate, Custom} }

// ParseKind returns the Kind spelled exactly s and true, or "" and false when
// s is not one of the four kinds.
func ParseKind(s string) (Kind, bool) {
	for _, k := range kinds() {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// Rounding names how a fractional entitlement becomes whole units. Every
// rule gives whole, non-negative installments that sum exactly to the grant.
type Rounding string

// The rounding rules.
const (
	// CumulativeRoundDown (the default): the cumulative vested after
	// portion k is floor(total × cumulative fraction k); the last portion
	// takes the remainder, so the final cumulative is the total.
	CumulativeRoundDown Rounding = "CUMULATIVE_ROUND_DOWN"
	// CumulativeRounding: the cumulative after portion k is rounded to the
	// nearest whole unit, halves up; the last portion takes the remainder.
	CumulativeRounding Rounding = "CUMULATIVE_ROUNDING"
	// FrontLoaded: each portion gets floor(total × its fraction) and the
	// units left over go one each to the earliest portions.
	FrontLoaded Rounding = "FRONT_LOADED"
	// BackLoaded: each portion gets floor(total × its fraction) and the
	// units left over go one each to the latest portions.
	BackLoaded Rounding = "BACK_LOADED"
)

// roundings lists the valid rounding rules in their documented order.
func roundings() []Rounding {
	return []Rounding{CumulativeRoundDown, CumulativeRounding, FrontLoaded, BackLoaded}
}

// ParseRounding returns the Rounding spelled exactly s and true; "" gives
// CumulativeRoundDown and true; anything else gives "" and false.
func ParseRounding(s string) (Rounding, bool) {
	if s == "" {
		return CumulativeRoundDown, true
	}
	for _, r := range roundings() {
		if string(r) == s {
			return r, true
		}
	}
	return "", false
}

// Tranche is one vesting event of a Custom schedule. A valid tranche gives
// exactly one of Months or Date, and exactly one of Quantity or Percent;
// all tranches of a schedule give Quantity, or all give Percent.
type Tranche struct {
	Months   *int       `json:"months,omitempty"`   // months after the vesting start (0 allowed)
	Date     *time.Time `json:"date,omitempty"`     // a calendar day on or after the start
	Quantity *num.Num   `json:"quantity,omitempty"` // whole units, > 0
	Percent  *num.Num   `json:"percent,omitempty"`  // 0 < p <= 100
}

// Schedule is a grant's vesting: Quantity whole units vesting from Start
// under Kind, with fractions made whole by Rounding.
type Schedule struct {
	Kind     Kind
	Start    time.Time // vesting start date
	Quantity num.Num   // whole number of units, > 0
	Rounding Rounding  // "" means CumulativeRoundDown
	Tranches []Tranche // CUSTOM only
}

// Installment is one day on which units vest.
type Installment struct {
	Date       time.Time `json:"date"`       // 00:00 UTC
	Quantity   num.Num   `json:"quantity"`   // whole units vesting on Date, > 0
	Cumulative num.Num   `json:"cumulative"` // whole units vested on or before Date
}

// Date returns the calendar day y-m-d at 00:00 UTC. Out-of-range values are
// normalised as time.Date does (month 13 is January of the next year).
func Date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// DateOf returns the UTC calendar day of t at 00:00 UTC: t is converted to
// UTC and its time of day dropped. DateOf(DateOf(t)) == DateOf(t).
func DateOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return Date(y, m, d)
}
