package vesting

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

func ip(i int) *int                        { return &i }
func np(s string) *num.Num                 { v := num.MustParse(s); return &v }
func dp(t time.Time) *time.Time            { return &t }
func byMonths(m int, pct string) Tranche   { return Tranche{Months: ip(m), Percent: np(pct)} }
func byDate(d time.Time, q string) Tranche { return Tranche{Date: dp(d), Quantity: np(q)} }

func TestCustomMonthsPercent(t *testing.T) {
	start := Date(2024, 1, 31)
	tranches := []Tranche{byMonths(12, "33.34"), byMonths(0, "33.33"), byMonths(1, "33.33")}
	for _, c := range []struct {
		rounding Rounding
		want     [3]int64
	}{
		{"", [3]int64{2, 2, 3}}, // floor(2.3331)=2, floor(4.6662)=4, last 3
		{CumulativeRoundDown, [3]int64{2, 2, 3}},
		{CumulativeRounding, [3]int64{2, 3, 2}}, // 2.3331->2, 4.6662->5, last 2
		{FrontLoaded, [3]int64{3, 2, 2}},        // floors 2,2,2; 1 left to the earliest
		{BackLoaded, [3]int64{2, 2, 3}},         // floors 2,2,2; 1 left to the latest
	} {
		s := Schedule{Kind: Custom, Start: start, Quantity: n(7), Rounding: c.rounding, Tranches: tranches}
		ins := checkInvariants(t, s)
		dates := []time.Time{Date(2024, 1, 31), Date(2024, 2, 29), Date(2025, 1, 31)}
		if len(ins) != 3 {
			t.Fatalf("%s: %d installments", c.rounding, len(ins))
		}
		for i := range ins {
			if !ins[i].Date.Equal(dates[i]) || !ins[i].Quantity.Equal(n(c.want[i])) {
				t.Errorf("%s: installment %d = %s %s, want %s %d", c.rounding, i,
					ins[i].Date.Format(time.DateOnly), ins[i].Quantity, dates[i].Format(time.DateOnly), c.want[i])
			}
		}
	}
}

func TestCustomPercentRoundsToZeroIsOmitted(t *testing.T) {
	s := Schedule{Kind: Custom, Start: Date(2024, 1, 1), Quantity: n(1),
		Tranches: []Tranche{byMonths(0, "50"), byMonths(6, "50")}}
	ins := checkInvariants(t, s)
	if len(ins) != 1 || !ins[0].Date.Equal(Date(2024, 7, 1)) {
		t.Fatalf("installments %+v", ins)
	}
}

func TestCustomDatesQuantities(t *testing.T) {
	start := Date(2024, 3, 1)
	s := Schedule{Kind: Custom, Start: start, Quantity: n(1000), Tranches: []Tranche{
		byDate(Date(2026, 3, 1), "500"),
		byDate(time.Date(2024, 3, 1, 17, 30, 0, 0, time.UTC), "100"), // on the start day
		{Months: ip(12), Quantity: np("400")},
	}}
	ins := checkInvariants(t, s)
	want := []Installment{
		{Date(2024, 3, 1), n(100), n(100)},
		{Date(2025, 3, 1), n(400), n(500)},
		{Date(2026, 3, 1), n(500), n(1000)},
	}
	if len(ins) != len(want) {
		t.Fatalf("installments %+v", ins)
	}
	for i := range want {
		if !ins[i].Date.Equal(want[i].Date) || !ins[i].Quantity.Equal(want[i].Quantity) || !ins[i].Cumulative.Equal(want[i].Cumulative) {
			t.Errorf("installment %d = %+v, want %+v", i, ins[i], want[i])
		}
	}
	checkVested(t, s, []vestedCase{{Date(2024, 2, 29), 0}, {start, 100}, {Date(2025, 2, 28), 100}, {Date(2025, 3, 1), 500}, {Date(2026, 3, 1), 1000}})
	// Rounding does not change given quantities.
	s.Rounding = BackLoaded
	if got := s.Installments(); !got[0].Quantity.Equal(n(100)) {
		t.Errorf("back loaded changed quantities: %+v", got)
	}
}

func TestRefusals(t *testing.T) {
	start := Date(2024, 1, 15)
	ok := func() Schedule { return Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(4800)} }
	custom := func(ts ...Tranche) Schedule {
		return Schedule{Kind: Custom, Start: start, Quantity: n(100), Tranches: ts}
	}
	many := make([]Tranche, MaxTranches+1)
	for i := range many {
		many[i] = Tranche{Months: ip(i), Quantity: np("1")}
	}
	allowedMax := make([]Tranche, MaxTranches)
	copy(allowedMax, many)
	if s := (Schedule{Kind: Custom, Start: start, Quantity: n(MaxTranches), Tranches: allowedMax}); s.Validate() != nil {
		t.Fatalf("240 tranches refused: %v", s.Validate())
	}
	for _, c := range []struct {
		name        string
		s           Schedule
		field, rule string
	}{
		{"no kind", func() Schedule { s := ok(); s.Kind = ""; return s }(), "vestingSchedule", "required"},
		{"unknown kind", func() Schedule { s := ok(); s.Kind = "WEEKLY"; return s }(), "vestingSchedule", "one_of"},
		{"no start", func() Schedule { s := ok(); s.Start = time.Time{}; return s }(), "vestingStartDate", "required"},
		{"zero quantity", func() Schedule { s := ok(); s.Quantity = num.Zero; return s }(), "quantity", "positive"},
		{"negative quantity", func() Schedule { s := ok(); s.Quantity = n(-5); return s }(), "quantity", "positive"},
		{"fractional quantity", func() Schedule { s := ok(); s.Quantity = num.MustParse("10.5"); return s }(), "quantity", "whole_shares"},
		{"unknown rounding", func() Schedule { s := ok(); s.Rounding = "UP"; return s }(), "vestingRounding", "one_of"},
		{"tranches on standard kind", func() Schedule { s := ok(); s.Tranches = []Tranche{byMonths(0, "100")}; return s }(), "customTranches", "not_allowed"},
		{"custom without tranches", custom(), "customTranches", "required"},
		{"too many tranches", custom(many...), "customTranches", "too_many"},
		{"neither months nor date", custom(Tranche{Quantity: np("100")}), "customTranches[0].months", "exactly_one"},
		{"months and date", custom(Tranche{Months: ip(1), Date: dp(start), Quantity: np("100")}), "customTranches[0].months", "exactly_one"},
		{"negative months", custom(Tranche{Months: ip(-1), Quantity: np("100")}), "customTranches[0].months", "non_negative"},
		{"months too large", custom(Tranche{Months: ip(1201), Quantity: np("100")}), "customTranches[0].months", "too_large"},
		{"date before start", custom(byDate(Date(2024, 1, 14), "100")), "customTranches[0].date", "not_before_start"},
		{"date too late", custom(byDate(Date(2124, 1, 16), "100")), "customTranches[0].date", "too_late"},
		{"neither quantity nor percent", custom(Tranche{Months: ip(1)}), "customTranches[0].quantity", "exactly_one"},
		{"quantity and percent", custom(Tranche{Months: ip(1), Quantity: np("100"), Percent: np("100")}), "customTranches[0].quantity", "exactly_one"},
		{"mixed: quantity after percent", custom(byMonths(0, "50"), Tranche{Months: ip(1), Quantity: np("50")}), "customTranches[1].quantity", "mixed_amounts"},
		{"mixed: percent after quantity", custom(byDate(start, "50"), byMonths(1, "50")), "customTranches[1].percent", "mixed_amounts"},
		{"zero quantity tranche", custom(byDate(start, "100"), byDate(Date(2025, 1, 1), "0")), "customTranches[1].quantity", "positive"},
		{"fractional quantity tranche", custom(byDate(start, "99.5"), byDate(Date(2025, 1, 1), "0.5")), "customTranches[0].quantity", "whole_shares"},
		{"zero percent", custom(byMonths(0, "100"), byMonths(1, "0")), "customTranches[1].percent", "positive"},
		{"negative percent", custom(byMonths(0, "100"), byMonths(1, "-10")), "customTranches[1].percent", "positive"},
		{"percent over 100", custom(byMonths(0, "100.01")), "customTranches[0].percent", "too_large"},
		{"percents under 100", custom(byMonths(0, "50"), byMonths(1, "49.99")), "customTranches", "sum_mismatch"},
		{"percents over 100", custom(byMonths(0, "50"), byMonths(1, "50.01")), "customTranches", "sum_mismatch"},
		{"quantities under", custom(byDate(start, "50"), byDate(Date(2025, 1, 1), "49")), "customTranches", "sum_mismatch"},
		{"quantities over", custom(byDate(start, "50"), byDate(Date(2025, 1, 1), "51")), "customTranches", "sum_mismatch"},
		{"duplicate months", custom(byMonths(6, "50"), byMonths(0, "25"), byMonths(6, "25")), "customTranches[2].months", "ascending_dates"},
		{"date equal to months", custom(byMonths(12, "50"), Tranche{Date: dp(Date(2025, 1, 15)), Percent: np("50")}), "customTranches[1].date", "ascending_dates"},
		{"months equal to date", custom(Tranche{Date: dp(Date(2025, 1, 15)), Percent: np("50")}, byMonths(12, "50")), "customTranches[1].months", "ascending_dates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.Validate()
			var ke *kernel.Error
			if !errors.As(err, &ke) {
				t.Fatalf("Validate() = %v, want *kernel.Error", err)
			}
			if ke.Kind != kernel.KindInvalid || ke.Field != c.field || ke.Rule != c.rule {
				t.Fatalf("got kind %s field %q rule %q, want invalid %q %q", ke.Kind, ke.Field, ke.Rule, c.field, c.rule)
			}
			if !errors.Is(err, kernel.ErrInvalid) || ke.Message == "" {
				t.Fatalf("error %v", err)
			}
			if root, _, _ := strings.Cut(c.field, "."); !strings.Contains(ke.Message, root) {
				t.Errorf("message %q does not name %s", ke.Message, root)
			}
			if c.s.Installments() != nil {
				t.Errorf("invalid schedule has installments")
			}
		})
	}
}

func TestUnknownKindMessageListsKinds(t *testing.T) {
	err := Schedule{Kind: "X", Start: Date(2024, 1, 1), Quantity: n(1)}.Validate()
	for _, k := range []Kind{FourYearOneYearCliff, ThreeYearMonthly, Immediate, Custom} {
		if !strings.Contains(err.Error(), string(k)) {
			t.Errorf("%v does not list %s", err, k)
		}
	}
}
