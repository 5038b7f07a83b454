package captable

import (
	"fmt"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/vesting"
	"github.com/strata-platform/strata/domain/kernel"
)

// mergeGrant lays the present fields of in over the terms of g.
func mergeGrant(g Grant, in GrantInput) GrantInput {
	out := GrantInput{GrantNumber: g.GrantNumber, StakeholderID: g.StakeholderID, ShareClassID: g.ShareClassID,
		UnderlyingShareClassID: g.UnderlyingShareClassID, Quantity: g.Quantity, GrantType: g.GrantType,
		StrikePrice: g.StrikePrice, VestingSchedule: string(g.VestingSchedule), VestingStartDate: DayOf(g.VestingStartDate),
		VestingRounding: string(g.VestingRounding), GrantDate: DayOf(g.GrantDate), Notes: g.Notes}
	if IsStock(g.GrantType) {
		out.UnderlyingShareClassID = ""
	}
	if g.ExpirationDate != nil {
		out.ExpirationDate = DayOf(*g.ExpirationDate)
	}
	w := g.ExerciseWindowDays
	out.ExerciseWindowDays = &w
	for _, t := range g.Tranches {
		ti := TrancheInput{Months: t.Months, Quantity: t.Quantity, Percent: t.Percent}
		if t.Date != nil {
			d := DayOf(*t.Date)
			ti.Date = &d
		}
		out.CustomTranches = append(out.CustomTranches, ti)
	}
	str := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	str(&out.GrantNumber, in.GrantNumber)
	str(&out.StakeholderID, in.StakeholderID)
	str(&out.ShareClassID, in.ShareClassID)
	str(&out.UnderlyingShareClassID, in.UnderlyingShareClassID)
	str(&out.GrantType, in.GrantType)
	str(&out.VestingSchedule, in.VestingSchedule)
	str(&out.VestingRounding, in.VestingRounding)
	str(&out.Notes, in.Notes)
	if !in.Quantity.IsZero() {
		out.Quantity = in.Quantity
	}
	if !in.StrikePrice.IsZero() {
		out.StrikePrice = in.StrikePrice
	}
	for dst, src := range map[*Day]Day{&out.VestingStartDate: in.VestingStartDate, &out.GrantDate: in.GrantDate, &out.ExpirationDate: in.ExpirationDate} {
		if !src.IsZero() {
			*dst = src
		}
	}
	if in.ExerciseWindowDays != nil {
		out.ExerciseWindowDays = in.ExerciseWindowDays
	}
	if in.CustomTranches != nil {
		out.CustomTranches = in.CustomTranches
	}
	return out
}

// lifecycleDate checks a lifecycle event's date: required, not in the
// future, and not before the grant's latest recorded date (so that a grant's
// history read by business date is the order it happened in).
func lifecycleDate(field string, on time.Time, g *GrantState, today time.Time) error {
	if err := dateRequired(field, on, today); err != nil {
		return err
	}
	return notBeforeRule(field, on, "not_before_last_grant_event", "the grant's last recorded date", g.LastDate)
}

// Accept moves a PENDING grant to ACTIVE.
func (c *Company) Accept(id string, on, today time.Time) ([]kernel.Event, error) {
	g, err := c.Grant(id)
	if err != nil {
		return nil, err
	}
	if g.Status() != StatusPending {
		return nil, transition(g, "accepted", StatusPending)
	}
	if err := lifecycleDate("acceptedOn", on, g, today); err != nil {
		return nil, err
	}
	return []kernel.Event{&GrantAccepted{GrantID: id, On: on}}, nil
}

// Exercise exercises (options, warrants) or settles (RSUs) qty vested
// units on on: the grant must be accepted, the units vested and not yet
// exercised, within the exercise window after a termination, and the
// underlying common class must have the shares authorized.
func (c *Company) Exercise(id string, qty num.Num, on, today time.Time) ([]kernel.Event, error) {
	g, err := c.Grant(id)
	if err != nil {
		return nil, err
	}
	if IsStock(g.GrantType) {
		return nil, kernel.Invalid("grantType", "award_only", "restricted stock is already issued; only options, RSUs and warrants are exercised")
	}
	switch g.Status() {
	case StatusActive, StatusPartiallyExercised, StatusTerminated:
	default:
		return nil, transition(g, "exercised", StatusActive, StatusPartiallyExercised, StatusTerminated)
	}
	if err := positiveWhole("quantity", qty); err != nil {
		return nil, err
	}
	if err := lifecycleDate("exerciseDate", on, g, today); err != nil {
		return nil, err
	}
	if g.Termination != nil && on.After(g.Termination.WindowEnds) {
		return nil, kernel.Invalid("exerciseDate", "window_closed",
			"the post-termination exercise window closed on "+g.Termination.WindowEnds.Format(time.DateOnly))
	}
	if g.ExpirationDate != nil && on.After(*g.ExpirationDate) {
		return nil, kernel.Invalid("exerciseDate", "expired", "the grant expired on "+g.ExpirationDate.Format(time.DateOnly))
	}
	exercisable := g.Schedule().VestedAt(on).Sub(g.Exercised)
	if g.Termination != nil {
		exercisable = num.Min(exercisable, g.Outstanding())
	}
	if exercisable.Less(qty) {
		return nil, kernel.Invalid("quantity", "exceeds_vested",
			fmt.Sprintf("quantity %s exceeds the %s vested units not yet exercised on %s", qty, exercisable, on.Format(time.DateOnly)))
	}
	under := c.Classes[g.UnderlyingShareClassID]
	if under == nil || under.Unissued().Less(qty) {
		return nil, kernel.Invalid("quantity", "exceeds_authorized",
			"the underlying common class does not have enough authorized unissued shares; raise its totalShares first")
	}
	return []kernel.Event{&GrantExercised{GrantID: id, Quantity: qty, StrikePaid: qty.Mul(g.StrikePrice),
		ShareClassID: under.ID, On: on}}, nil
}

// Terminate ends the holder's service on on: unvested units are forfeited
// (returned to the pool, or repurchased for stock); vested awards stay
// exercisable for windowDays (nil: the grant's window, default 90 days).
func (c *Company) Terminate(id string, on time.Time, windowDays *int, today time.Time) ([]kernel.Event, error) {
	g, err := c.Grant(id)
	if err != nil {
		return nil, err
	}
	switch g.Status() {
	case StatusPending, StatusActive, StatusPartiallyExercised:
	default:
		return nil, transition(g, "terminated", StatusPending, StatusActive, StatusPartiallyExercised)
	}
	if err := lifecycleDate("terminationDate", on, g, today); err != nil {
		return nil, err
	}
	days := g.ExerciseWindowDays
	if windowDays != nil {
		if *windowDays < 0 || *windowDays > maxWindowDays {
			return nil, kernel.Invalid("exerciseWindowDays", "range", fmt.Sprintf("exerciseWindowDays must be between 0 and %d", maxWindowDays))
		}
		days = *windowDays
	}
	t := g.Schedule().Terminate(on, days)
	if days == 0 {
		t.WindowEnds = t.On
	}
	return []kernel.Event{&GrantTerminated{GrantID: id, Termination: t}}, nil
}

// Cancel cancels every outstanding unit of a grant that was not exercised.
func (c *Company) Cancel(id, reason string, on, today time.Time) ([]kernel.Event, error) {
	g, err := c.Grant(id)
	if err != nil {
		return nil, err
	}
	switch g.Status() {
	case StatusPending, StatusActive, StatusPartiallyExercised, StatusTerminated:
	default:
		return nil, transition(g, "cancelled", StatusPending, StatusActive, StatusPartiallyExercised, StatusTerminated)
	}
	if err := lifecycleDate("cancellationDate", on, g, today); err != nil {
		return nil, err
	}
	return []kernel.Event{&GrantCancelled{GrantID: id, Quantity: g.Outstanding(), Reason: reason, On: on}}, nil
}

// ExpireLapsed returns a GrantExpired for every award whose exercise window
// or term lapsed on or before today with units still outstanding, dated the
// day after the last exercisable day. The scheduler appends them.
func (c *Company) ExpireLapsed(today time.Time) []kernel.Event {
	var out []kernel.Event
	for _, id := range c.GrantOrder {
		g := c.Grants[id]
		if l := g.LapsedAt(today); !l.IsZero() {
			end := g.ExpirationDate
			if g.Termination != nil && (end == nil || g.Termination.WindowEnds.Before(*end)) {
				end = &g.Termination.WindowEnds
			}
			out = append(out, &GrantExpired{GrantID: id, Quantity: l, On: vesting.DateOf(end.AddDate(0, 0, 1))})
		}
	}
	return out
}

func transition(g *GrantState, verb string, from ...string) error {
	return kernel.Invalid("status", "transition",
		fmt.Sprintf("a %s grant cannot be %s (allowed from %v)", g.Status(), verb, from))
}
