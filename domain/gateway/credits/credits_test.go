package credits

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
)

func model(in, out, cache string) catalog.Model {
	return catalog.Model{ID: "m", Pricing: catalog.Pricing{Input: json.Number(in), Output: json.Number(out), CacheRead: json.Number(cache)}}
}

func TestCostIsExactAndRoundedUpOncePerRequest(t *testing.T) {
	cases := []struct {
		name string
		m    catalog.Model
		t    Tokens
		want Micro
	}{
		{"frontier input: $3 per 1M, 1,000 tokens = $0.003 = 3 credits", model("3", "15", "0.3"), Tokens{Input: 1000}, 3_000_000},
		{"frontier mixed", model("3", "15", "0.3"), Tokens{Input: 1234, Output: 567, CacheRead: 89}, 1234*3000 + 567*15000 + 89*300},
		{"code model: 0.2/0.6/0.05", model("0.2", "0.6", "0.05"), Tokens{Input: 7, Output: 3, CacheRead: 1}, 7*200 + 3*600 + 50},
		{"a fraction of a micro-credit rounds up", model("0.000001", "0", "0"), Tokens{Input: 1}, 1},
		{"parts add before rounding: 0.5 + 0.5 micro is 1, not 2", model("0.0005", "0.0005", "0"), Tokens{Input: 1, Output: 1}, 1},
		{"twelve decimal places stay exact", model("0.123456789012", "0", "0"), Tokens{Input: 1_000_000_000}, 123_456_789_012},
		{"and round up once below a micro-credit", model("0.123456789012", "0", "0"), Tokens{Input: 1_000_000}, 123_456_790},
		{"no tokens cost nothing", model("3", "15", "0.3"), Tokens{}, 0},
		{"zero prices", model("0", "0", "0"), Tokens{Input: 1e9}, 0},
	}
	for _, c := range cases {
		got, err := Cost(c.m, c.t)
		if err != nil || got != c.want {
			t.Errorf("%s: %d %v, want %d", c.name, got, err, c.want)
		}
	}
	free := model("3", "15", "0.3")
	free.Free = true
	if got, err := Cost(free, Tokens{Input: 1e6}); err != nil || got != 0 || !IsFree(free) {
		t.Errorf("free model: %d %v", got, err)
	}
	if IsFree(model("3", "0", "0")) || !IsFree(model("0", "0", "")) {
		t.Error("IsFree")
	}
	if _, err := Cost(model("3", "0", "0"), Tokens{Output: -1}); kernel.KindOf(err) != kernel.KindInvalid {
		t.Errorf("negative tokens: %v", err)
	}
	if _, err := Cost(model("1000000", "0", "0"), Tokens{Input: 1 << 60}); kernel.KindOf(err) != kernel.KindInvalid {
		t.Errorf("overflow: %v", err)
	}
	if _, err := Cost(model("0.1.2", "0", "0"), Tokens{Input: 1}); err == nil {
		t.Error("a malformed price was accepted")
	}
}

func TestMicroDecimalAndCeil(t *testing.T) {
	for m, want := range map[Micro]string{0: "0", 1_500_000: "1.5", -250: "-0.00025", 1: "0.000001", 1_000_000_000: "1000",
		-1_000_001: "-1.000001"} {
		if got := m.Decimal(); got != want {
			t.Errorf("%d: %q, want %q", m, got, want)
		}
	}
	for m, want := range map[Micro]int64{0: 0, 1: 1, 999_999: 1, 1_000_000: 1, 1_000_001: 2, -1: 0, -999_999: 0, -1_000_000: -1, -1_500_000: -1} {
		if got := m.CeilCredits(); got != want {
			t.Errorf("ceil %d: %d, want %d", m, got, want)
		}
	}
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestPeriods(t *testing.T) {
	anchor := func(s string) *time.Time { a := ts(s); return &a }
	cases := []struct {
		name       string
		e          Entitlement
		now        string
		start, end string
		ok         bool
	}{
		{"calendar month", Entitlement{}, "2026-10-17T08:00:00Z", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", true},
		{"calendar month, last instant", Entitlement{}, "2026-12-31T23:59:59Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z", true},
		{"monthly subscription", Entitlement{Anchor: anchor("2026-11-15T10:00:00Z")}, "2026-10-20T00:00:00Z", "2026-10-15T10:00:00Z", "2026-11-15T10:00:00Z", true},
		{"yearly subscription: the month of now", Entitlement{Anchor: anchor("2027-03-15T10:00:00Z")}, "2026-07-01T00:00:00Z", "2026-06-15T10:00:00Z", "2026-07-15T10:00:00Z", true},
		{"anchor on the 31st clamps to February's end", Entitlement{Anchor: anchor("2028-03-31T00:00:00Z")}, "2028-03-01T00:00:00Z", "2028-02-29T00:00:00Z", "2028-03-31T00:00:00Z", true},
		{"lapsed: no renewal reported yet", Entitlement{Anchor: anchor("2026-11-15T10:00:00Z")}, "2026-11-15T10:00:00Z", "", "", false},
	}
	for _, c := range cases {
		p, ok := PeriodOf(c.e, ts(c.now))
		if ok != c.ok || ok && (!p.Start.Equal(ts(c.start)) || !p.End.Equal(ts(c.end)) || p.Key != c.start+"/"+c.end) {
			t.Errorf("%s: %+v %v", c.name, p, ok)
		}
	}
}

func TestDecidePeriodGrantsOncePerPeriodAndTopsUpUpgrades(t *testing.T) {
	now := ts("2026-10-17T08:00:00Z")
	starter := Entitlement{Plan: "starter", MonthlyCredits: 1000}
	pro := Entitlement{Plan: "pro", MonthlyCredits: 50000}
	var a Account
	a.AccountID = "acc"
	apply := func(evs []kernel.Event) {
		for _, e := range evs {
			a.Apply(e)
		}
	}
	first := DecidePeriod(a, starter, now)
	if len(first) != 1 || first[0].(*Granted).AmountMicro != FromCredits(1000) || first[0].(*Granted).Reason != ReasonPlanPeriod {
		t.Fatalf("first grant: %+v", first)
	}
	apply(first)
	if evs := DecidePeriod(a, starter, now.Add(time.Hour)); len(evs) != 0 {
		t.Errorf("the same period again: %+v", evs)
	}
	up := DecidePeriod(a, pro, now.Add(2*time.Hour))
	if len(up) != 1 || up[0].(*Granted).AmountMicro != FromCredits(49000) {
		t.Fatalf("upgrade top-up: %+v", up)
	}
	apply(up)
	if evs := DecidePeriod(a, starter, now.Add(3*time.Hour)); len(evs) != 0 {
		t.Errorf("downgrade: %+v", evs)
	}
	next := DecidePeriod(a, starter, ts("2026-11-01T00:00:00Z"))
	if len(next) != 1 || next[0].(*Granted).AmountMicro != FromCredits(1000) {
		t.Fatalf("next month: %+v", next)
	}
	apply(next)
	if a.Balance != FromCredits(51000) {
		t.Errorf("balance %s", a.Balance.Decimal())
	}
	u, ok := a.Use(next[0].(*Granted).Period.Key)
	if !ok || u.Granted != FromCredits(1000) || u.Plan != "starter" {
		t.Errorf("period use: %+v", u)
	}
	legacy := starter
	legacy.LegacyCredits = 250
	evs := DecidePeriod(a, legacy, ts("2026-11-02T00:00:00Z"))
	if len(evs) != 1 || evs[0].(*Adjusted).AmountMicro != FromCredits(250) {
		t.Fatalf("legacy carry-over: %+v", evs)
	}
	apply(evs)
	if evs := DecidePeriod(a, legacy, ts("2026-11-03T00:00:00Z")); len(evs) != 0 {
		t.Errorf("legacy carried twice: %+v", evs)
	}
}

// The fold gives the same state whatever the order of the events, which
// lets every reader fold in its own order.
func TestFoldIsOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var evs []kernel.Event
	periods := []Period{}
	for m := 1; m <= 5; m++ {
		p, _ := PeriodOf(Entitlement{}, time.Date(2026, time.Month(m), 3, 0, 0, 0, 0, time.UTC))
		periods = append(periods, p)
		evs = append(evs, &Granted{AccountID: "a", AmountMicro: FromCredits(1000), Reason: ReasonPlanPeriod, Period: &p, Plan: "starter"})
	}
	for i := range 200 {
		p := periods[rng.IntN(len(periods))]
		switch i % 4 {
		case 0, 1:
			evs = append(evs, &Debited{AccountID: "a", RequestID: "r", AmountMicro: Micro(rng.IntN(1e6)), Period: &p})
		case 2:
			evs = append(evs, &Refunded{AccountID: "a", AmountMicro: Micro(rng.IntN(1e3)), Period: &p})
		default:
			evs = append(evs, &Adjusted{AccountID: "a", AmountMicro: Micro(rng.IntN(1e6) - 5e5)})
		}
	}
	fold := func(evs []kernel.Event) string {
		var a Account
		for _, e := range evs {
			a.Apply(e)
		}
		raw, _ := json.Marshal(a)
		return string(raw)
	}
	want := fold(evs)
	for range 20 {
		rng.Shuffle(len(evs), func(i, j int) { evs[i], evs[j] = evs[j], evs[i] })
		if got := fold(evs); got != want {
			t.Fatalf("order changed the fold:\n%s\n%s", got, want)
		}
	}
	var a Account
	for _, e := range evs {
		a.Apply(e)
	}
	if len(a.Periods) != MaxPeriods || a.Periods[0].Start.Month() != 3 {
		t.Errorf("kept periods: %+v", a.Periods)
	}
	if a.Balance != a.Granted-a.Debited+a.Refunded+a.Adjusted {
		t.Errorf("balance %d is not its parts", a.Balance)
	}
}

func TestRefundsAdmissionAndUsage(t *testing.T) {
	now := ts("2026-10-17T08:00:00Z")
	d := Debit{AccountID: "a", RequestID: "r1", AmountMicro: 500}
	if r, err := DecideRefund(d, 0, "upstream error", "ops", now); err != nil || r.AmountMicro != 500 {
		t.Errorf("whole refund: %+v %v", r, err)
	}
	if _, err := DecideRefund(d, 501, "x", "ops", now); kernel.KindOf(err) != kernel.KindInvalid {
		t.Errorf("refund above the debit: %v", err)
	}
	if _, err := DecideRefund(Debit{AmountMicro: 0}, 0, "x", "ops", now); kernel.KindOf(err) != kernel.KindInvalid {
		t.Errorf("refund of a free request: %v", err)
	}
	paid, free := model("3", "15", "0"), model("0", "0", "0")
	if Admit(paid, 1) != nil || Admit(free, -5) != nil {
		t.Error("admission refused a positive balance or a free model")
	}
	for _, bal := range []Micro{0, -1} {
		err := Admit(paid, bal)
		var ke *kernel.Error
		if kernel.KindOf(err) != kernel.KindPaymentRequired || !errors.As(err, &ke) || ke.Rule != RuleInsufficientCredits {
			t.Errorf("balance %d: %v", bal, err)
		}
	}
	u := Usage{AccountID: "a", RequestID: "r", Model: model("3", "15", "0"), Tokens: Tokens{Input: 10, Output: 2},
		Status: StatusDisconnected, Latency: 1500 * time.Millisecond, At: now}
	deb, err := NewDebit(u, nil)
	if err != nil || deb.AmountMicro != 10*3000+2*15000 || deb.LatencyMS != 1500 || deb.Pricing.Input != "3" {
		t.Errorf("debit: %+v %v", deb, err)
	}
	for _, bad := range []func(*Usage){
		func(u *Usage) { u.RequestID = "" },
		func(u *Usage) { u.Status = "ok" },
		func(u *Usage) { u.Model.ID = "" },
		func(u *Usage) { u.At = time.Time{} },
		func(u *Usage) { u.RequestID = string(make([]byte, 201)) },
	} {
		v := u
		bad(&v)
		if _, err := NewDebit(v, nil); kernel.KindOf(err) != kernel.KindInvalid {
			t.Errorf("bad usage %+v accepted: %v", v, err)
		}
	}
}
