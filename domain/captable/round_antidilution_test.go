package captable

import (
	"encoding/json"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
)

// narrowBook is a company for the narrow-based bases: 7,000,000 common
// (founder), 2,000,000 Series A at $2.50 with NARROW_BASED protection on
// the given base (VC), and a 1,000,000 pool with 400,000 options granted:
// 10,000,000 fully diluted.
func narrowBook(t *testing.T, base *string) *book {
	b := newBook(t)
	b.class("common", "Common", ClassCommon, 20_000_000)
	b.class("pool", "Plan", ClassPool, 1_000_000)
	name, typ, narrow := "Series A", ClassPreferred, AntiDilutionNarrowBased
	b.must(b.c.CreateClass("a", ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(2_000_000)),
		PricePerShare: ptr(num.MustParse("2.5")), AntiDilution: &narrow, AntiDilutionBase: base}, b.today))
	b.person("f", "Founder", "", StakeholderFounder)
	b.person("v", "VC", "", StakeholderInvestor)
	b.person("e", "Employee", "", StakeholderEmployee)
	for _, g := range []GrantInput{
		{StakeholderID: "f", ShareClassID: "common", GrantType: GrantRestrictedStock, Quantity: num.Int(7_000_000)},
		{StakeholderID: "v", ShareClassID: "a", GrantType: GrantRestrictedStock, Quantity: num.Int(2_000_000), StrikePrice: num.MustParse("2.5")},
		{StakeholderID: "e", ShareClassID: "pool", GrantType: GrantOption, Quantity: num.Int(400_000), StrikePrice: num.MustParse("0.1")},
	} {
		g.VestingSchedule, g.GrantDate = "IMMEDIATE", DayOf(day("2024-01-01"))
		b.must(b.c.IssueGrant("g-"+g.StakeholderID, g, b.today))
	}
	return b
}

// TestNarrowBasedBases: a $2M round at $10M pre-money prices at $1.00
// (10,000,000 fully diluted, no SAFEs) and issues C = 2,000,000 new shares,
// below Series A's $2.50 conversion price. Weighted average CP2 = CP1 *
// (A + B) / (A + C) with B = C * p / CP1 = 800,000:
//
//	OUTSTANDING_PREFERRED (default): A = 2,000,000 Series A as converted,
//	  CP2 = 2.5 * 2,800,000 / 4,000,000 = 7/4 = 1.75; ratio 2.5 / 1.75 =
//	  10/7, recorded to 12 places 1.428571428571.
//	OUTSTANDING_SHARES: A = 7,000,000 common + 2,000,000 preferred (the
//	  400,000 options and 600,000 unallocated pool left out) = 9,000,000,
//	  CP2 = 2.5 * 9,800,000 / 11,000,000 = 49/22 = 2.227272727273 (12
//	  places); ratio 2.5 / 2.227272727273 = 1.122448979592 (12 places).
//
// (Broad-based, for contrast, takes A = 10,000,000: CP2 = 9/4.)
func TestNarrowBasedBases(t *testing.T) {
	pref, shares, none := AntiDilutionBaseOutstandingPreferred, AntiDilutionBaseOutstandingShares, ""
	for _, tc := range []struct {
		name         string
		base         *string
		recorded     string
		price, ratio string
	}{
		{"default", nil, AntiDilutionBaseOutstandingPreferred, "1.75", "1.428571428571"},
		{"empty is the default", &none, AntiDilutionBaseOutstandingPreferred, "1.75", "1.428571428571"},
		{"outstanding preferred", &pref, AntiDilutionBaseOutstandingPreferred, "1.75", "1.428571428571"},
		{"outstanding shares", &shares, AntiDilutionBaseOutstandingShares, "2.227272727273", "1.122448979592"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := narrowBook(t, tc.base)
			created := b.events[classCreated(b, "a")].(*ShareClassCreated)
			if created.AntiDilutionBase != tc.recorded {
				t.Fatalf("class created with base %q, want %q recorded in the event", created.AntiDilutionBase, tc.recorded)
			}
			in := CommitInput{DilutionInput: DilutionInput{RoundSize: num.Int(2_000_000), PreMoneyValuation: num.Int(10_000_000),
				NewShareClassName: "Series B"}, Investors: []RoundInvestor{{"v", num.Int(2_000_000)}}}
			evs, out, err := b.c.CloseRound(in, ids(), b.today)
			b.must(evs, err)
			if !out.Model.Price.Equal(num.Int(1)) || !out.Model.NewShares.Equal(num.Int(2_000_000)) {
				t.Fatalf("price %s new shares %s", out.Model.Price, out.Model.NewShares)
			}
			ratio := num.MustParse(tc.ratio)
			if len(out.Adjustments) != 1 {
				t.Fatalf("adjustments %+v", out.Adjustments)
			}
			adj := out.Adjustments[0]
			if !adj.NewConversionPrice.Equal(num.MustParse(tc.price)) || !adj.NewConversionRatio.Equal(ratio) ||
				!adj.AdditionalShares.Equal(num.Int(2_000_000).Mul(ratio.Sub(num.Int(1)))) || adj.AntiDilutionBase != tc.recorded {
				t.Fatalf("adjustment %+v, want price %s ratio %s base %s", adj, tc.price, tc.ratio, tc.recorded)
			}
			if !b.c.Classes["a"].ConversionRatio.Equal(ratio) {
				t.Fatalf("Series A ratio %s", b.c.Classes["a"].ConversionRatio)
			}
		})
	}
}

// A class created before antiDilutionBase existed decodes from its stored
// payload (schema version 1, no such field) with the default base.
func TestNarrowBaseOfOldEvents(t *testing.T) {
	b := narrowBook(t, ptr(AntiDilutionBaseOutstandingShares))
	i := classCreated(b, "a")
	raw, err := json.Marshal(b.events[i])
	if err != nil {
		t.Fatal(err)
	}
	var payload map[string]any
	if err := json.Unmarshal(raw, &payload); err != nil {
		t.Fatal(err)
	}
	delete(payload, "antiDilutionBase")
	raw, _ = json.Marshal(payload)
	var old ShareClassCreated
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	if old.AntiDilutionBase != "" || old.NarrowBase() != AntiDilutionBaseOutstandingPreferred {
		t.Fatalf("old event base %q, narrow base %q", old.AntiDilutionBase, old.NarrowBase())
	}
	b.events[i] = &old
	c := Replay(b.events, b.today)
	adj, err := c.Adjustments(b.today, mustModelRound(t, c))
	if err != nil || len(adj) != 1 || !adj[0].NewConversionPrice.Equal(num.MustParse("1.75")) {
		t.Fatalf("adjustments %+v, %v", adj, err)
	}
}

func mustModelRound(t *testing.T, c *Company) rounds.Result {
	t.Helper()
	res, err := c.ModelRound(day("2026-11-01"), DilutionInput{RoundSize: num.Int(2_000_000), PreMoneyValuation: num.Int(10_000_000),
		NewShareClassName: "Series B"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// antiDilutionBase is refused outside its rules, naming the field; a class
// that leaves NARROW_BASED drops its base.
func TestNarrowBaseRefusals(t *testing.T) {
	b := narrowBook(t, nil)
	name, typ, broad, bad, shares := "Seed", ClassPreferred, AntiDilutionBroadBased, "BROAD", AntiDilutionBaseOutstandingShares
	_, err := b.c.CreateClass("s", ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(1)), AntiDilution: &broad,
		AntiDilutionBase: &shares}, b.today)
	refused(t, err, "antiDilutionBase", "narrow_based_only")
	narrow := AntiDilutionNarrowBased
	_, err = b.c.CreateClass("s", ClassInput{Name: &name, Type: &typ, TotalShares: ptr(num.Int(1)), AntiDilution: &narrow,
		AntiDilutionBase: &bad}, b.today)
	refused(t, err, "antiDilutionBase", "one_of")
	b.must(b.c.UpdateClass("a", ClassInput{AntiDilutionBase: &shares}, b.today))
	if got := b.c.Classes["a"].AntiDilutionBase; got != shares {
		t.Fatalf("updated base %q", got)
	}
	b.must(b.c.UpdateClass("a", ClassInput{AntiDilution: &broad}, b.today))
	if got := b.c.Classes["a"].AntiDilutionBase; got != "" {
		t.Fatalf("a BROAD_BASED class keeps base %q", got)
	}
}

// classCreated is the index of the event that created class id.
func classCreated(b *book, id string) int {
	for i, e := range b.events {
		if cc, ok := e.(*ShareClassCreated); ok && cc.ID == id {
			return i
		}
	}
	b.t.Fatalf("no class %s created", id)
	return -1
}
