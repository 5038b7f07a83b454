package captable

import (
	"fmt"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// ids mints "id-1", "id-2", ... for committed rounds.
func ids() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("id-%d", n) }
}

// ycBook is the YC post-money SAFE guide's company: 9,250,000 founder
// shares, a 750,000 pool with 300,000 options granted, SAFE A $200K at a
// $4M post-money cap and SAFE B $800K at $8M.
func ycBook(t *testing.T) *book {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 30_000_000)
	b.class("pool", "2024 Plan", ClassPool, 750_000)
	for _, p := range [][2]string{{"f", "Founders"}, {"e", "Employees"}, {"a", "Angel A"}, {"b", "Angel B"}, {"v", "VC"}} {
		b.person(p[0], p[1], "", StakeholderInvestor)
	}
	b.must(b.c.IssueGrant("g-f", GrantInput{StakeholderID: "f", ShareClassID: "common", GrantType: GrantRestrictedStock,
		Quantity: num.Int(9_250_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}, b.today))
	b.must(b.c.IssueGrant("g-e", GrantInput{StakeholderID: "e", ShareClassID: "pool", GrantType: GrantOption,
		Quantity: num.Int(300_000), StrikePrice: num.MustParse("0.10"), VestingSchedule: "4_YEAR_1_YEAR_CLIFF",
		GrantDate: DayOf(day("2024-02-01"))}, b.today))
	b.must(b.c.IssueSAFE("safe-a", SAFEInput{InvestorID: "a", InvestmentAmount: num.Int(200_000), ValuationCap: ptr(num.Int(4_000_000)),
		SafeType: SAFEPostMoney, IssueDate: DayOf(day("2024-03-01"))}, b.today))
	b.must(b.c.IssueSAFE("safe-b", SAFEInput{InvestorID: "b", InvestmentAmount: num.Int(800_000), ValuationCap: ptr(num.Int(8_000_000)),
		SafeType: SAFEPostMoney, IssueDate: DayOf(day("2024-04-01"))}, b.today))
	return b
}

func seriesA() CommitInput {
	return CommitInput{DilutionInput: DilutionInput{RoundSize: num.Int(5_000_000), PreMoneyValuation: num.Int(15_000_000),
		NewShareClassName: "Series A", OptionPoolIncrease: ptr(num.Int(1_695_000))},
		ClosingDate: DayOf(day("2025-06-30")), Investors: []RoundInvestor{{StakeholderID: "v", Amount: num.Int(5_000_000)}}}
}

func TestCloseRoundYCExample(t *testing.T) {
	b := ycBook(t)
	in := seriesA()
	in.PricePerShare = ptr(num.MustParse("1.114437"))
	evs, out, err := b.c.CloseRound(in, ids(), b.today)
	b.must(evs, err)
	newShares := num.Int(5_000_000).Div(out.Model.Price).Floor()
	if want := num.Int(4_486_568); !newShares.Equal(want) {
		t.Fatalf("new money shares %s, want %s", newShares, want)
	}
	a := b.c.Classes[out.ShareClassID]
	if a.Name != "Series A" || a.Type != ClassPreferred || !a.Issued.Equal(newShares.Add(num.Int(588_235+1_176_470))) || !a.Unissued().IsZero() {
		t.Fatalf("series A %+v", a)
	}
	if pool := b.c.Classes["pool"]; !pool.TotalShares.Equal(num.Int(750_000 + 1_695_000)) {
		t.Fatalf("pool total %s", pool.TotalShares)
	}
	for id, shares := range map[string]int64{"safe-a": 588_235, "safe-b": 1_176_470} {
		cv := b.c.SAFEs[id].Converted
		if cv == nil || !cv.Shares.Equal(num.Int(shares)) || cv.RoundID != out.RoundID || b.c.Grants[cv.GrantID].StakeholderID != b.c.SAFEs[id].InvestorID {
			t.Fatalf("%s conversion %+v", id, cv)
		}
	}
	s := b.c.Summary(day("2025-06-30"))
	wantFD := num.Int(10_000_000 + 1_695_000 + 588_235 + 1_176_470).Add(newShares)
	if !s.FullyDiluted.Equal(wantFD) {
		t.Fatalf("fully diluted %s, want %s", s.FullyDiluted, wantFD)
	}
	if len(b.c.Rounds) != 1 || b.c.Rounds[0].Name != "Series A" || !b.c.Rounds[0].PoolIncrease.Equal(num.Int(1_695_000)) {
		t.Fatalf("rounds %+v", b.c.Rounds)
	}
	before := Replay(b.events, day("2025-06-29")).Summary(day("2025-06-29"))
	if !before.FullyDiluted.Equal(num.Int(10_000_000)) {
		t.Fatalf("the day before closing shows %s fully diluted", before.FullyDiluted)
	}
	next := ids()
	for range 10 {
		next()
	}
	_, _, err = b.c.CloseRound(seriesA(), next, b.today)
	refused(t, err, "newShareClassName", "unique")
}

func TestCloseRoundRefusals(t *testing.T) {
	b := ycBook(t)
	for _, tc := range []struct {
		name        string
		edit        func(*CommitInput)
		field, rule string
		kind        kernel.Kind
	}{
		{"no investors", func(in *CommitInput) { in.Investors = nil }, "investors", "required", kernel.KindInvalid},
		{"sum short", func(in *CommitInput) { in.Investors[0].Amount = num.Int(4_000_000) }, "investors", "sum_equals_round_size", kernel.KindInvalid},
		{"unknown investor", func(in *CommitInput) { in.Investors[0].StakeholderID = "nobody" }, "investors[0].stakeholderId", "exists", kernel.KindInvalid},
		{"negative amount", func(in *CommitInput) {
			in.Investors = []RoundInvestor{{"v", num.Int(-1)}, {"a", num.Int(5_000_001)}}
		}, "investors[0].amount", "positive", kernel.KindInvalid},
		{"future", func(in *CommitInput) { in.ClosingDate = DayOf(day("2027-01-01")) }, "closingDate", "not_future", kernel.KindInvalid},
		{"before last transaction", func(in *CommitInput) { in.ClosingDate = DayOf(day("2024-03-15")) }, "closingDate", "after_last_transaction", kernel.KindInvalid},
		{"price moved", func(in *CommitInput) { in.PricePerShare = ptr(num.MustParse("1.5")) }, "pricePerShare", "price_changed", kernel.KindConflict},
		{"class name taken", func(in *CommitInput) { in.NewShareClassName = "common" }, "newShareClassName", "unique", kernel.KindConflict},
		{"no round size", func(in *CommitInput) { in.RoundSize = num.Zero }, "roundSize", "positive", kernel.KindInvalid},
		{"less than a share", func(in *CommitInput) {
			in.Investors = []RoundInvestor{{"v", num.MustParse("0.5")}, {"a", num.MustParse("4999999.5")}}
		}, "investors[0].amount", "at_least_one_share", kernel.KindInvalid},
		{"bad pool", func(in *CommitInput) { in.PoolShareClassID = "common" }, "poolShareClassId", "pool_class", kernel.KindInvalid},
		{"bad anti-dilution", func(in *CommitInput) { in.AntiDilution = ptr("SOMETIMES") }, "antiDilution", "one_of", kernel.KindInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := seriesA()
			tc.edit(&in)
			_, _, err := b.c.CloseRound(in, ids(), b.today)
			refused(t, err, tc.field, tc.rule)
			if kernel.KindOf(err) != tc.kind {
				t.Fatalf("kind %v, want %v", kernel.KindOf(err), tc.kind)
			}
		})
	}
}

// A down round adjusts earlier preferred by its protection.
func TestCloseRoundAntiDilution(t *testing.T) {
	for _, tc := range []struct{ protection, price, ratio string }{
		{AntiDilutionBroadBased, "1.875000009375", "1.066666661333"},
		{AntiDilutionFullRatchet, "1.5", "1.333333333333"},
		{AntiDilutionNone, "", ""},
	} {
		t.Run(tc.protection, func(t *testing.T) {
			b := newBook(t)
			b.class("common", "Common", ClassCommon, 30_000_000)
			name, typ := "Seed", ClassPreferred
			b.must(b.c.CreateClass("seed", ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(1_000_000)),
				PricePerShare: ptr(num.Int(2)), AntiDilution: &tc.protection}, b.today))
			b.person("f", "Founder", "", StakeholderFounder)
			b.person("s", "Seed fund", "", StakeholderInvestor)
			b.must(b.c.IssueGrant("g-f", GrantInput{StakeholderID: "f", ShareClassID: "common", GrantType: GrantRestrictedStock,
				Quantity: num.Int(9_000_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}, b.today))
			b.must(b.c.IssueGrant("g-s", GrantInput{StakeholderID: "s", ShareClassID: "seed", GrantType: GrantRestrictedStock,
				Quantity: num.Int(1_000_000), StrikePrice: num.Int(2), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}, b.today))
			in := CommitInput{DilutionInput: DilutionInput{RoundSize: num.Int(5_000_000), PreMoneyValuation: num.Int(15_000_000),
				NewShareClassName: "Series A"}, Investors: []RoundInvestor{{"s", num.Int(5_000_000)}}}
			evs, out, err := b.c.CloseRound(in, ids(), b.today)
			b.must(evs, err)
			if !out.Model.Price.Equal(num.MustParse("1.5")) || !out.Model.NewShares.Equal(num.Int(3_333_333)) {
				t.Fatalf("price %s new shares %s", out.Model.Price, out.Model.NewShares)
			}
			seed := b.c.Classes["seed"]
			if tc.ratio == "" {
				if len(out.Adjustments) != 0 || !seed.ConversionRatio.Equal(num.Int(1)) {
					t.Fatalf("unprotected class adjusted: %+v", out.Adjustments)
				}
				return
			}
			extra := num.Int(1_000_000).Mul(num.MustParse(tc.ratio).Sub(num.Int(1)))
			if len(out.Adjustments) != 1 || !out.Adjustments[0].NewConversionPrice.Equal(num.MustParse(tc.price)) ||
				!seed.ConversionRatio.Equal(num.MustParse(tc.ratio)) || !out.Adjustments[0].AdditionalShares.Equal(extra) {
				t.Fatalf("adjustments %+v ratio %s", out.Adjustments, seed.ConversionRatio)
			}
			// The seed holders' as-converted shares grow with the ratio.
			s := b.c.Summary(b.today)
			for _, l := range s.Classes {
				if l.ID == "seed" && !l.Shares.Equal(num.Int(1_000_000).Mul(num.MustParse(tc.ratio))) {
					t.Fatalf("seed as converted %s", l.Shares)
				}
			}
		})
	}
}

// A protected class with nothing issued has nothing to protect: it does not
// block (or take part in) a down round.
func TestCloseRoundSkipsUnissuedProtectedClass(t *testing.T) {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 30_000_000)
	name, typ, narrow := "Seed", ClassPreferred, AntiDilutionNarrowBased
	b.must(b.c.CreateClass("seed", ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(1_000_000)),
		PricePerShare: ptr(num.Int(2)), AntiDilution: &narrow}, b.today))
	b.person("f", "Founder", "", StakeholderFounder)
	b.must(b.c.IssueGrant("g-f", GrantInput{StakeholderID: "f", ShareClassID: "common", GrantType: GrantRestrictedStock,
		Quantity: num.Int(10_000_000), VestingSchedule: "IMMEDIATE", GrantDate: DayOf(day("2024-01-01"))}, b.today))
	evs, out, err := b.c.CloseRound(CommitInput{DilutionInput: DilutionInput{RoundSize: num.Int(5_000_000), PreMoneyValuation: num.Int(15_000_000),
		NewShareClassName: "Series A"}, Investors: []RoundInvestor{{"f", num.Int(5_000_000)}}}, ids(), b.today)
	b.must(evs, err)
	if len(out.Adjustments) != 0 {
		t.Fatalf("adjusted an unissued class: %+v", out.Adjustments)
	}
}

// Updating a class after a round changed it (authorized the pool's
// increase) takes effect on the update's day: the cap table before the
// closing still shows the pool as it was.
func TestClassUpdateAfterRoundKeepsHistory(t *testing.T) {
	b := ycBook(t)
	evs, _, err := b.c.CloseRound(seriesA(), ids(), b.today)
	b.must(evs, err)
	rename := "2024 Plan (amended)"
	b.must(b.c.UpdateClass("pool", ClassInput{Name: &rename}, b.today))
	before := Replay(b.events, day("2025-06-29"))
	if got := before.Classes["pool"]; !got.TotalShares.Equal(num.Int(750_000)) || got.Name != "2024 Plan" {
		t.Fatalf("the pool before the closing: %s authorized, named %q", got.TotalShares, got.Name)
	}
	after := Replay(b.events, b.today)
	if got := after.Classes["pool"]; !got.TotalShares.Equal(num.Int(750_000+1_695_000)) || got.Name != rename {
		t.Fatalf("the pool after the update: %s authorized, named %q", got.TotalShares, got.Name)
	}
	// A class no dated event touched stays reference data.
	common := "Common stock"
	evs, err = b.c.UpdateClass("common", ClassInput{Name: &common}, b.today)
	if err != nil || evs[0].(*ShareClassUpdated).EffectiveDate != nil {
		t.Fatalf("an untouched class's update is dated: %v", err)
	}
}
