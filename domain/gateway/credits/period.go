package credits

import (
	"time"
)

// Unlimited marks a limit that does not apply (domain/plans' Unlimited).
const Unlimited int64 = -1

// Entitlement is what an account's gateway plan gives, as the ledger needs
// it (the composition root reads it from the plans: domain/plans'
// gateway line, the plan that applies).
type Entitlement struct {
	Plan            string // the gateway plan that applies ("starter", "pro", ...)
	PlanName        string
	Paid            bool
	MonthlyCredits  int64 // whole credits granted each period
	RequestsPerHour int64 // Unlimited: no limit
	// Anchor is the end of the current billing period of the plan's
	// subscription (its renewal); nil when the plan has none (the free plan,
	// an operator's plan): periods are then calendar months in UTC.
	Anchor *time.Time
	// LegacyCredits is identity's credit balance from before the ledger
	// (set by `strata users set-plan --credits` then), carried over once.
	LegacyCredits int64
}

// maxAnchorMonths bounds how far back from its anchor a subscription's
// current period is looked for (a yearly subscription has 12 months).
const maxAnchorMonths = 24

// PeriodOf returns the credit period that contains now:
//   - without an anchor, the calendar month (UTC) of now;
//   - with one (a subscription's period end), the month ending at the
//     anchor, or the month of a longer (yearly) billing period that
//     contains now, stepping back from the anchor a month at a time (the
//     day clamped to the month's last: a period ending on March 31 starts
//     on February 28 or 29);
//   - ok is false once now has reached the anchor and the subscription has
//     not renewed yet (no new period is granted before the provider
//     reports the renewal), or when the plan grants nothing.
func PeriodOf(e Entitlement, now time.Time) (Period, bool) {
	now = now.UTC()
	if e.Anchor == nil {
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		return newPeriod(start, start.AddDate(0, 1, 0)), true
	}
	anchor := e.Anchor.UTC()
	if !now.Before(anchor) {
		return Period{}, false
	}
	end := anchor
	for k := 1; k <= maxAnchorMonths; k++ {
		start := addMonths(anchor, -k)
		if !now.Before(start) {
			return newPeriod(start, end), true
		}
		end = start
	}
	return Period{}, false
}

func newPeriod(start, end time.Time) Period {
	return Period{Key: start.Format(time.RFC3339) + "/" + end.Format(time.RFC3339), Start: start, End: end}
}

// addMonths moves t by n months keeping its day, clamped to the last day
// of the target month (time.AddDate would overflow into the next month).
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m, 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location()).AddDate(0, n, 0)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}
