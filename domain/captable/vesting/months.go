package vesting

import (
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// AddMonths returns the calendar day months months after start (before it
// when months is negative), at 00:00 UTC. The day of month is kept; a day the
// target month lacks falls on that month's last day, so 2024-01-31 + 1 is
// 2024-02-29 and 2023-01-31 + 1 is 2023-02-28. Schedules always add to the
// start date, never to a previous result: 2024-01-31 + 2 is 2024-03-31.
func AddMonths(start time.Time, months int) time.Time {
	y, m, d := DateOf(start).Date()
	// Month index counted from year 0 so that negative results floor.
	idx := y*12 + int(m-1) + months
	ty, tm := floorDiv(idx, 12), time.Month(idx-floorDiv(idx, 12)*12+1)
	if last := daysIn(ty, tm); d > last {
		d = last
	}
	return Date(ty, tm, d)
}

// floorDiv is a/b rounded toward minus infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// daysIn returns the number of days in month m of year y.
func daysIn(y int, m time.Month) int { return Date(y, m+1, 0).Day() }

// standard describes an equal-portion kind: n monthly portions, portion k
// (1..n) vesting at month k, except that the portions before month cliff
// vest together at month cliff.
type standard struct{ n, cliff int }

// standardOf returns the shape of the monthly kinds, and false for others.
func standardOf(k Kind) (standard, bool) {
	switch k {
	case FourYearOneYearCliff:
		return standard{n: 48, cliff: 12}, true
	case ThreeYearMonthly:
		return standard{n: 36, cliff: 1}, true
	}
	return standard{}, false
}

// installments lists the months cliff..n with the units each adds to the
// cumulative, omitting months that add nothing.
func (st standard) installments(start time.Time, total num.Num, r Rounding) []Installment {
	var ins []Installment
	prev := num.Zero
	for k := st.cliff; k <= st.n; k++ {
		cum := equalCumulative(total, k, st.n, r)
		if q := cum.Sub(prev); q.Sign() > 0 {
			ins = append(ins, Installment{Date: AddMonths(start, k), Quantity: q, Cumulative: cum})
		}
		prev = cum
	}
	return ins
}

// vestedAt returns the cumulative after the last month k in cliff..n whose
// date AddMonths(start, k) is on or before day, or 0 when there is none. It
// needs O(log n) date computations and one rounding, not the whole list.
func (st standard) vestedAt(start, day time.Time, total num.Num, r Rounding) num.Num {
	i := sort.Search(st.n-st.cliff+1, func(i int) bool { return AddMonths(start, st.cliff+i).After(day) })
	if i == 0 {
		return num.Zero
	}
	return equalCumulative(total, st.cliff+i-1, st.n, r)
}
