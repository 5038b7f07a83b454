package vesting

import (
	"testing"
	"time"
)

func TestRoundingRules(t *testing.T) {
	start := Date(2024, 1, 15)
	m := func(k int) time.Time { return AddMonths(start, k) }
	for _, c := range []struct {
		name     string
		s        Schedule
		count    int           // installments
		first    time.Time     // first installment date
		vested   []vestedCase  // cumulative on dates
		quantity map[int]int64 // installment index -> quantity
	}{
		{
			name: "1000 3yr round down", count: 36, first: m(1),
			s:        Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1000)},
			vested:   []vestedCase{{m(1), 27}, {m(2), 55}, {m(3), 83}, {m(18), 500}, {m(35), 972}, {m(36), 1000}},
			quantity: map[int]int64{0: 27, 1: 28, 35: 28},
		},
		{
			name: "1000 3yr cumulative rounding", count: 36, first: m(1),
			s:        Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1000), Rounding: CumulativeRounding},
			vested:   []vestedCase{{m(1), 28}, {m(2), 56}, {m(3), 83}, {m(35), 972}, {m(36), 1000}},
			quantity: map[int]int64{0: 28, 1: 28, 2: 27, 35: 28},
		},
		{
			name: "1000 3yr front loaded", count: 36, first: m(1),
			s:        Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1000), Rounding: FrontLoaded},
			vested:   []vestedCase{{m(1), 28}, {m(28), 784}, {m(29), 811}, {m(36), 1000}},
			quantity: map[int]int64{0: 28, 27: 28, 28: 27, 35: 27},
		},
		{
			name: "1000 3yr back loaded", count: 36, first: m(1),
			s:        Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1000), Rounding: BackLoaded},
			vested:   []vestedCase{{m(1), 27}, {m(8), 216}, {m(9), 244}, {m(36), 1000}},
			quantity: map[int]int64{0: 27, 7: 27, 8: 28, 35: 28},
		},
		{
			// floor(10k/48) changes at months 12 (2), 15, 20, 24, 29, 34, 39, 44, 48.
			name: "10 cliff round down", count: 9, first: m(12),
			s:        Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(10)},
			vested:   []vestedCase{{m(12).AddDate(0, 0, -1), 0}, {m(12), 2}, {m(14), 2}, {m(15), 3}, {m(19), 3}, {m(20), 4}, {m(47), 9}, {m(48), 10}},
			quantity: map[int]int64{0: 2, 1: 1, 8: 1},
		},
		{
			// round(10k/48) halves up: 2.5 -> 3 at the cliff.
			name: "10 cliff cumulative rounding", count: 8, first: m(12),
			s:        Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(10), Rounding: CumulativeRounding},
			vested:   []vestedCase{{m(11), 0}, {m(12), 3}, {m(16), 3}, {m(17), 4}, {m(46), 10}},
			quantity: map[int]int64{0: 3, 1: 1},
		},
		{
			// floor(10/48) = 0 a month; the 10 left over go to months 1..10, all at the cliff.
			name: "10 cliff front loaded", count: 1, first: m(12),
			s:        Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(10), Rounding: FrontLoaded},
			vested:   []vestedCase{{m(12).AddDate(0, 0, -1), 0}, {m(12), 10}},
			quantity: map[int]int64{0: 10},
		},
		{
			// the 10 left over go to months 39..48: the cliff vests nothing and is omitted.
			name: "10 cliff back loaded", count: 10, first: m(39),
			s:        Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(10), Rounding: BackLoaded},
			vested:   []vestedCase{{m(12), 0}, {m(38), 0}, {m(39), 1}, {m(40), 2}, {m(48), 10}},
			quantity: map[int]int64{0: 1, 9: 1},
		},
		{
			// floor(7k/48) reaches 1 at month 12 (84/48), 2 at 14, ... 7 at 48.
			name: "7 cliff round down", count: 7, first: m(12),
			s:        Schedule{Kind: FourYearOneYearCliff, Start: start, Quantity: n(7)},
			vested:   []vestedCase{{m(12), 1}, {m(13), 1}, {m(14), 2}, {m(47), 6}, {m(48), 7}},
			quantity: map[int]int64{0: 1, 6: 1},
		},
		{
			name: "1 share 3yr round down", count: 1, first: m(36),
			s:      Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1)},
			vested: []vestedCase{{m(35), 0}, {m(36), 1}},
		},
		{
			name: "1 share 3yr front loaded", count: 1, first: m(1),
			s:      Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1), Rounding: FrontLoaded},
			vested: []vestedCase{{m(1), 1}},
		},
		{
			name: "1 share 3yr cumulative rounding", count: 1, first: m(18),
			s:      Schedule{Kind: ThreeYearMonthly, Start: start, Quantity: n(1), Rounding: CumulativeRounding},
			vested: []vestedCase{{m(17), 0}, {m(18), 1}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			ins := checkInvariants(t, c.s)
			if len(ins) != c.count {
				t.Errorf("%d installments, want %d", len(ins), c.count)
			}
			if !ins[0].Date.Equal(c.first) {
				t.Errorf("first installment on %s, want %s", ins[0].Date.Format(time.DateOnly), c.first.Format(time.DateOnly))
			}
			checkVested(t, c.s, c.vested)
			for i, q := range c.quantity {
				if !ins[i].Quantity.Equal(n(q)) {
					t.Errorf("installment %d quantity %s, want %d", i, ins[i].Quantity, q)
				}
			}
		})
	}
}

func TestRoundDownMatchesFormula(t *testing.T) {
	start := Date(2023, 8, 31)
	for _, q := range []int64{1, 7, 10, 47, 48, 49, 1000, 4801, 123457} {
		for _, k := range []struct {
			kind     Kind
			n, cliff int
		}{{FourYearOneYearCliff, 48, 12}, {ThreeYearMonthly, 36, 1}} {
			s := Schedule{Kind: k.kind, Start: start, Quantity: n(q)}
			checkInvariants(t, s)
			for m := 0; m <= k.n+1; m++ {
				want := int64(0)
				if m >= k.cliff {
					want = q * int64(min(m, k.n)) / int64(k.n)
				}
				if got := s.VestedAt(AddMonths(start, m)); !got.Equal(n(want)) {
					t.Errorf("%s q=%d month %d: vested %s, want %d", k.kind, q, m, got, want)
				}
			}
		}
	}
}
