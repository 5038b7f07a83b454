package vesting

import (
	"fmt"
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// resolved is a checked custom tranche with its vesting day.
type resolved struct {
	index int       // position in Schedule.Tranches
	when  string    // "months" or "date": the field that gave the day
	date  time.Time // vesting day
	t     Tranche
}

// portion is one custom tranche before rounding: it vests on date and is
// worth weight (its percent / 100), or exactly *fixed units when fixed is set.
type portion struct {
	date   time.Time
	weight num.Num
	fixed  *num.Num
}

// customPortions checks s.Tranches (s.Kind is Custom, the head is valid)
// and returns one portion per tranche in ascending date order.
func (s Schedule) customPortions(start time.Time) ([]portion, error) {
	rs := make([]resolved, len(s.Tranches))
	byPercent := s.Tranches[0].Percent != nil && s.Tranches[0].Quantity == nil
	latest := AddMonths(start, MaxTrancheMonths)
	for i, t := range s.Tranches {
		r, err := checkTranche(i, t, start, latest, byPercent)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].date.Before(rs[b].date) })
	for k := 1; k < len(rs); k++ {
		if rs[k].date.Equal(rs[k-1].date) {
			// Name the tranche given later in the input.
			first, later := rs[k-1], rs[k]
			if later.index < first.index {
				first, later = later, first
			}
			f := fmt.Sprintf("customTranches[%d].%s", later.index, later.when)
			return nil, kernel.Invalid(f, "ascending_dates", fmt.Sprintf(
				"%s vests on %s like customTranches[%d]; tranche dates must be strictly ascending",
				f, later.date.Format(time.DateOnly), first.index))
		}
	}
	ps := make([]portion, len(rs))
	sum := num.Zero
	hundred := num.Int(100)
	for k, r := range rs {
		if byPercent {
			sum = sum.Add(*r.t.Percent)
			ps[k] = portion{date: r.date, weight: r.t.Percent.Div(hundred)}
		} else {
			sum = sum.Add(*r.t.Quantity)
			ps[k] = portion{date: r.date, fixed: r.t.Quantity}
		}
	}
	switch {
	case byPercent && !sum.Equal(hundred):
		return nil, kernel.Invalid("customTranches", "sum_mismatch", fmt.Sprintf(
			"customTranches percents must sum to exactly 100, not %s", sum))
	case !byPercent && !sum.Equal(s.Quantity):
		return nil, kernel.Invalid("customTranches", "sum_mismatch", fmt.Sprintf(
			"customTranches quantities must sum to exactly the quantity %s, not %s", s.Quantity, sum))
	}
	return ps, nil
}

// checkTranche checks tranche i on its own and resolves its vesting day.
func checkTranche(i int, t Tranche, start, latest time.Time, byPercent bool) (resolved, error) {
	f := func(sub string) string { return fmt.Sprintf("customTranches[%d].%s", i, sub) }
	r := resolved{index: i, t: t}
	switch {
	case (t.Months == nil) == (t.Date == nil):
		return r, kernel.Invalid(f("months"), "exactly_one",
			fmt.Sprintf("customTranches[%d] must give exactly one of months or date", i))
	case t.Months != nil && *t.Months < 0:
		return r, kernel.Invalid(f("months"), "non_negative", f("months")+" must be 0 or more")
	case t.Months != nil && *t.Months > MaxTrancheMonths:
		return r, kernel.Invalid(f("months"), "too_large", f("months")+" must be at most 1200")
	case t.Months != nil:
		r.when, r.date = "months", AddMonths(start, *t.Months)
	default:
		r.when, r.date = "date", DateOf(*t.Date)
		if r.date.Before(start) {
			return r, kernel.Invalid(f("date"), "not_before_start",
				f("date")+" must not be before vestingStartDate")
		}
		if r.date.After(latest) {
			return r, kernel.Invalid(f("date"), "too_late",
				f("date")+" must be at most 1200 months after vestingStartDate")
		}
	}
	switch {
	case (t.Quantity == nil) == (t.Percent == nil):
		return r, kernel.Invalid(f("quantity"), "exactly_one",
			fmt.Sprintf("customTranches[%d] must give exactly one of quantity or percent", i))
	case byPercent && t.Percent == nil:
		return r, kernel.Invalid(f("quantity"), "mixed_amounts",
			f("quantity")+" is not allowed: the customTranches give percents, so every tranche must give a percent")
	case !byPercent && t.Quantity == nil:
		return r, kernel.Invalid(f("percent"), "mixed_amounts",
			f("percent")+" is not allowed: the customTranches give quantities, so every tranche must give a quantity")
	case byPercent && t.Percent.Sign() <= 0:
		return r, kernel.Invalid(f("percent"), "positive", f("percent")+" must be greater than zero")
	case byPercent && t.Percent.Cmp(num.Int(100)) > 0:
		return r, kernel.Invalid(f("percent"), "too_large", f("percent")+" must be at most 100")
	case !byPercent && t.Quantity.Sign() <= 0:
		return r, kernel.Invalid(f("quantity"), "positive", f("quantity")+" must be greater than zero")
	case !byPercent && !t.Quantity.IsInt():
		return r, kernel.Invalid(f("quantity"), "whole_shares", f("quantity")+" must be a whole number of shares")
	}
	return r, nil
}

// collect turns custom portions in strictly ascending date order into
// installments: amounts are the fixed quantities or the rounded split of the
// total by weight, and zero amounts are dropped.
func (s Schedule) collect(ps []portion) []Installment {
	amounts := make([]num.Num, len(ps))
	if ps[0].fixed != nil {
		for i, p := range ps {
			amounts[i] = *p.fixed
		}
	} else {
		weights := make([]num.Num, len(ps))
		for i, p := range ps {
			weights[i] = p.weight
		}
		amounts = split(s.Quantity, weights, s.Rounding)
	}
	var ins []Installment
	cum := num.Zero
	for i, p := range ps {
		if amounts[i].IsZero() {
			continue
		}
		cum = cum.Add(amounts[i])
		ins = append(ins, Installment{Date: p.date, Quantity: amounts[i], Cumulative: cum})
	}
	return ins
}
