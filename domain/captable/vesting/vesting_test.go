package vesting

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

func n(i int64) num.Num { return num.Int(i) }

// checkInvariants asserts what Installments guarantees for a valid schedule.
func checkInvariants(t *testing.T, s Schedule) []Installment {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	ins := s.Installments()
	if len(ins) == 0 {
		t.Fatalf("no installments")
	}
	sum := num.Zero
	for i, in := range ins {
		if !in.Quantity.IsInt() || in.Quantity.Sign() <= 0 {
			t.Fatalf("installment %d quantity %s not whole and > 0", i, in.Quantity)
		}
		if i > 0 && !in.Date.After(ins[i-1].Date) {
			t.Fatalf("installment %d date %s not after %s", i, in.Date, ins[i-1].Date)
		}
		if !in.Date.Equal(DateOf(in.Date)) {
			t.Fatalf("installment %d date %s not a UTC day", i, in.Date)
		}
		sum = sum.Add(in.Quantity)
		if !in.Cumulative.Equal(sum) {
			t.Fatalf("installment %d cumulative %s, running sum %s", i, in.Cumulative, sum)
		}
	}
	if !sum.Equal(s.Quantity) {
		t.Fatalf("sum %s != quantity %s", sum, s.Quantity)
	}
	if last := ins[len(ins)-1]; !last.Cumulative.Equal(s.Quantity) || !s.FullyVestedDate().Equal(last.Date) {
		t.Fatalf("last installment %+v, quantity %s, fully vested %s", last, s.Quantity, s.FullyVestedDate())
	}
	return ins
}

type vestedCase struct {
	on   time.Time
	want int64
}

func checkVested(t *testing.T, s Schedule, cases []vestedCase) {
	t.Helper()
	for _, c := range cases {
		if got := s.VestedAt(c.on); !got.Equal(n(c.want)) {
			t.Errorf("VestedAt(%s) = %s, want %d", c.on.Format(time.DateOnly), got, c.want)
		}
	}
}

func TestFourYearCliff4800(t *testing.T) {
	s := Schedule{Kind: FourYearOneYearCliff, Start: Date(2024, 1, 15), Quantity: n(4800)}
	ins := checkInvariants(t, s)
	if len(ins) != 37 {
		t.Fatalf("%d installments, want 37", len(ins))
	}
	checkVested(t, s, []vestedCase{
		{Date(2024, 1, 15), 0}, {Date(2025, 1, 14), 0}, {Date(2025, 1, 15), 1200},
		{Date(2025, 2, 14), 1200}, {Date(2025, 2, 15), 1300}, {Date(2027, 12, 15), 4700},
		{Date(2028, 1, 14), 4700}, {Date(2028, 1, 15), 4800}, {Date(2040, 1, 1), 4800},
		{time.Date(2025, 1, 15, 23, 59, 0, 0, time.UTC), 1200},
	})
	if got := s.FullyVestedDate(); !got.Equal(Date(2028, 1, 15)) {
		t.Errorf("FullyVestedDate = %s", got)
	}
	if !ins[0].Quantity.Equal(n(1200)) || !ins[1].Quantity.Equal(n(100)) {
		t.Errorf("cliff %s, next %s", ins[0].Quantity, ins[1].Quantity)
	}
	term := s.Terminate(Date(2025, 7, 20), 0)
	want := Termination{On: Date(2025, 7, 20), Vested: n(1800), Forfeited: n(3000), WindowEnds: Date(2025, 10, 18)}
	if !term.On.Equal(want.On) || !term.Vested.Equal(want.Vested) || !term.Forfeited.Equal(want.Forfeited) || !term.WindowEnds.Equal(want.WindowEnds) {
		t.Errorf("Terminate = %+v, want %+v", term, want)
	}
}

func TestTerminate(t *testing.T) {
	s := Schedule{Kind: ThreeYearMonthly, Start: Date(2024, 1, 15), Quantity: n(3600)}
	for _, c := range []struct {
		on                time.Time
		window            int
		vested, forfeited int64
		windowEnds        time.Time
	}{
		{Date(2023, 6, 1), -5, 0, 3600, Date(2023, 8, 30)},
		{Date(2024, 2, 15), 30, 100, 3500, Date(2024, 3, 16)},
		{time.Date(2024, 3, 15, 18, 0, 0, 0, time.UTC), 1, 200, 3400, Date(2024, 3, 16)},
		{Date(2030, 1, 1), 0, 3600, 0, Date(2030, 4, 1)},
	} {
		got := s.Terminate(c.on, c.window)
		if !got.Vested.Equal(n(c.vested)) || !got.Forfeited.Equal(n(c.forfeited)) ||
			!got.WindowEnds.Equal(c.windowEnds) || !got.On.Equal(DateOf(c.on)) {
			t.Errorf("Terminate(%s, %d) = %+v", c.on, c.window, got)
		}
	}
}

func TestImmediate(t *testing.T) {
	s := Schedule{Kind: Immediate, Start: Date(2024, 5, 1), Quantity: n(7), Rounding: BackLoaded}
	ins := checkInvariants(t, s)
	if len(ins) != 1 || !ins[0].Date.Equal(Date(2024, 5, 1)) {
		t.Fatalf("installments %+v", ins)
	}
	checkVested(t, s, []vestedCase{{Date(2024, 4, 30), 0}, {Date(2024, 5, 1), 7}})
}

func TestMonthEndClamping(t *testing.T) {
	s := Schedule{Kind: ThreeYearMonthly, Start: Date(2024, 1, 31), Quantity: n(36)}
	ins := checkInvariants(t, s)
	for i, want := range map[int]time.Time{
		0: Date(2024, 2, 29), 1: Date(2024, 3, 31), 2: Date(2024, 4, 30), 3: Date(2024, 5, 31),
		12: Date(2025, 2, 28), 35: Date(2027, 1, 31),
	} {
		if !ins[i].Date.Equal(want) {
			t.Errorf("installment %d on %s, want %s", i, ins[i].Date.Format(time.DateOnly), want.Format(time.DateOnly))
		}
	}
}

func TestAddMonths(t *testing.T) {
	for _, c := range []struct {
		start  time.Time
		months int
		want   time.Time
	}{
		{Date(2024, 1, 31), 1, Date(2024, 2, 29)},
		{Date(2023, 1, 31), 1, Date(2023, 2, 28)},
		{Date(2024, 1, 31), 2, Date(2024, 3, 31)},
		{Date(2024, 2, 29), 12, Date(2025, 2, 28)},
		{Date(2024, 2, 29), 48, Date(2028, 2, 29)},
		{Date(2024, 1, 15), 0, Date(2024, 1, 15)},
		{Date(2024, 1, 15), 48, Date(2028, 1, 15)},
		{Date(2024, 3, 31), -1, Date(2024, 2, 29)},
		{Date(2024, 1, 31), -2, Date(2023, 11, 30)},
		{Date(2024, 12, 31), 12 * 100, Date(2124, 12, 31)},
		{time.Date(2024, 1, 31, 15, 4, 5, 6, time.UTC), 3, Date(2024, 4, 30)},
	} {
		if got := AddMonths(c.start, c.months); !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("AddMonths(%s, %d) = %s, want %s", c.start, c.months, got, c.want)
		}
	}
}

func TestDateOf(t *testing.T) {
	east := time.FixedZone("east", 5*3600)
	for _, c := range []struct{ in, want time.Time }{
		{time.Date(2024, 3, 10, 23, 59, 59, 999, time.UTC), Date(2024, 3, 10)},
		{time.Date(2024, 3, 10, 2, 0, 0, 0, east), Date(2024, 3, 9)},
		{Date(2024, 3, 10), Date(2024, 3, 10)},
	} {
		if got := DateOf(c.in); !got.Equal(c.want) || got.Location() != time.UTC || got != DateOf(got) {
			t.Errorf("DateOf(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Kind
		ok   bool
	}{
		{"4_YEAR_1_YEAR_CLIFF", FourYearOneYearCliff, true}, {"3_YEAR_MONTHLY", ThreeYearMonthly, true},
		{"IMMEDIATE", Immediate, true}, {"CUSTOM", Custom, true}, {"custom", "", false}, {"", "", false},
	} {
		if got, ok := ParseKind(c.in); got != c.want || ok != c.ok {
			t.Errorf("ParseKind(%q) = %q, %v", c.in, got, ok)
		}
	}
	for _, c := range []struct {
		in   string
		want Rounding
		ok   bool
	}{
		{"", CumulativeRoundDown, true}, {"CUMULATIVE_ROUND_DOWN", CumulativeRoundDown, true},
		{"CUMULATIVE_ROUNDING", CumulativeRounding, true}, {"FRONT_LOADED", FrontLoaded, true},
		{"BACK_LOADED", BackLoaded, true}, {"ROUND_UP", "", false},
	} {
		if got, ok := ParseRounding(c.in); got != c.want || ok != c.ok {
			t.Errorf("ParseRounding(%q) = %q, %v", c.in, got, ok)
		}
	}
}

func TestInvalidScheduleComputesNothing(t *testing.T) {
	s := Schedule{Kind: "WEEKLY", Start: Date(2024, 1, 1), Quantity: n(10)}
	if s.Installments() != nil || !s.VestedAt(Date(2030, 1, 1)).IsZero() || !s.FullyVestedDate().IsZero() {
		t.Fatal("invalid schedule computed installments")
	}
	if term := s.Terminate(Date(2030, 1, 1), 0); !term.Vested.IsZero() || !term.Forfeited.Equal(n(10)) {
		t.Fatalf("Terminate = %+v", term)
	}
}

func TestJSON(t *testing.T) {
	s := Schedule{Kind: FourYearOneYearCliff, Start: Date(2024, 1, 15), Quantity: n(4800)}
	b, err := json.Marshal(s.Installments()[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"date":"2025-01-15T00:00:00Z","quantity":1200,"cumulative":1200}` {
		t.Errorf("installment JSON %s", got)
	}
	b, _ = json.Marshal(s.Terminate(Date(2025, 7, 20), 0))
	want := `{"terminatedOn":"2025-07-20T00:00:00Z","vestedQuantity":1800,"forfeitedQuantity":3000,"exerciseWindowEndsOn":"2025-10-18T00:00:00Z"}`
	if string(b) != want {
		t.Errorf("termination JSON %s", b)
	}
	var tr []Tranche
	if err := json.Unmarshal([]byte(`[{"months":0,"percent":25},{"date":"2025-01-15T00:00:00Z","quantity":"75"}]`), &tr); err != nil {
		t.Fatal(err)
	}
	if *tr[0].Months != 0 || !tr[0].Percent.Equal(n(25)) || tr[0].Date != nil || tr[0].Quantity != nil ||
		!tr[1].Date.Equal(Date(2025, 1, 15)) || !tr[1].Quantity.Equal(n(75)) {
		t.Errorf("tranches %+v", tr)
	}
}
