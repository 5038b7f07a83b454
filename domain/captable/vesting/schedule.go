package vesting

import (
	"sort"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// MaxTranches is the largest number of tranches a Custom schedule may have.
const MaxTranches = 240

// MaxTrancheMonths is the latest a Custom tranche may vest, in months after
// the start (by Months, or by Date compared with AddMonths(Start, 1200)).
const MaxTrancheMonths = 1200

// Validate returns nil when s can be computed, or a *kernel.Error of kind
// invalid naming the offending JSON field ("vestingSchedule",
// "vestingStartDate", "quantity", "vestingRounding", "customTranches",
// "customTranches[i].months|date|quantity|percent") and the rule it broke.
// The first problem found is reported.
func (s Schedule) Validate() error {
	_, err := s.plan()
	return err
}

// Installments returns the days on which units vest, in strictly ascending
// date order: every Quantity is whole and > 0, the quantities sum exactly to
// s.Quantity, Cumulative is the running sum, and the last Cumulative equals
// s.Quantity. Days on which rounding leaves nothing to vest are omitted. It
// returns nil when s is invalid (see Validate). The slice is new on every
// call and the caller may keep or change it.
func (s Schedule) Installments() []Installment {
	ins, err := s.plan()
	if err != nil {
		return nil
	}
	return ins
}

// VestedAt returns the whole units vested on calendar day DateOf(d): the
// Cumulative of the last installment dated on or before that day (an
// installment dated that day counts), 0 before the first installment and
// s.Quantity on and after the last. It is non-decreasing in d. It returns 0
// when s is invalid.
func (s Schedule) VestedAt(d time.Time) num.Num {
	if st, ok := standardOf(s.Kind); ok {
		if s.validateHead() != nil {
			return num.Zero
		}
		return st.vestedAt(DateOf(s.Start), DateOf(d), s.Quantity, s.Rounding)
	}
	return vestedAt(s.Installments(), DateOf(d))
}

// vestedAt is VestedAt over computed installments, for a normalised day.
func vestedAt(ins []Installment, day time.Time) num.Num {
	i := sort.Search(len(ins), func(i int) bool { return ins[i].Date.After(day) })
	if i == 0 {
		return num.Zero
	}
	return ins[i-1].Cumulative
}

// FullyVestedDate returns the date of the last installment, the first day on
// which VestedAt is s.Quantity; the zero time when s is invalid.
func (s Schedule) FullyVestedDate() time.Time {
	ins := s.Installments()
	if len(ins) == 0 {
		return time.Time{}
	}
	return ins[len(ins)-1].Date
}

// plan validates s and computes its installments.
func (s Schedule) plan() ([]Installment, error) {
	if err := s.validateHead(); err != nil {
		return nil, err
	}
	start := DateOf(s.Start)
	if st, ok := standardOf(s.Kind); ok {
		return st.installments(start, s.Quantity, s.Rounding), nil
	}
	if s.Kind == Immediate {
		return []Installment{{Date: start, Quantity: s.Quantity, Cumulative: s.Quantity}}, nil
	}
	// Custom: validateHead refused every other kind.
	ps, err := s.customPortions(start)
	if err != nil {
		return nil, err
	}
	return s.collect(ps), nil
}

// validateHead checks everything but the content of custom tranches.
func (s Schedule) validateHead() error {
	switch {
	case s.Kind == "":
		return kernel.Invalid("vestingSchedule", "required", "vestingSchedule is required")
	case !validKind(s.Kind):
		names := make([]string, 0, 4)
		for _, k := range kinds() {
			names = append(names, string(k))
		}
		return kernel.Invalid("vestingSchedule", "one_of",
			"vestingSchedule must be one of "+strings.Join(names, ", "))
	case s.Start.IsZero():
		return kernel.Invalid("vestingStartDate", "required", "vestingStartDate is required")
	case s.Quantity.Sign() <= 0:
		return kernel.Invalid("quantity", "positive", "quantity must be greater than zero")
	case !s.Quantity.IsInt():
		return kernel.Invalid("quantity", "whole_shares", "quantity must be a whole number of shares")
	}
	if _, ok := ParseRounding(string(s.Rounding)); !ok {
		names := make([]string, 0, 4)
		for _, r := range roundings() {
			names = append(names, string(r))
		}
		return kernel.Invalid("vestingRounding", "one_of",
			"vestingRounding must be one of "+strings.Join(names, ", "))
	}
	switch {
	case s.Kind != Custom && len(s.Tranches) > 0:
		return kernel.Invalid("customTranches", "not_allowed",
			"customTranches are allowed only for the CUSTOM vestingSchedule")
	case s.Kind == Custom && len(s.Tranches) == 0:
		return kernel.Invalid("customTranches", "required",
			"customTranches are required for the CUSTOM vestingSchedule")
	case len(s.Tranches) > MaxTranches:
		return kernel.Invalid("customTranches", "too_many",
			"customTranches may have at most 240 tranches")
	}
	return nil
}

// validKind reports whether k is one of the four kinds.
func validKind(k Kind) bool {
	_, ok := ParseKind(string(k))
	return ok
}
