package captable

import (
	"encoding/json"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
)

// Rounds closed before issue 19 recorded the pricing convention under the
// swapped names (their "PRE_MONEY" priced p = pre-money / (F + P + S), the
// percentage-ownership method). A round closed now records the names as
// Cooley gives them and says so; PricingConvention reads both right.
func TestRoundClosedConventionNames(t *testing.T) {
	b := ycBook(t)
	in := seriesA()
	in.PricingConvention = rounds.ConventionPreMoney
	evs, _, err := b.c.CloseRound(in, ids(), b.today)
	b.must(evs, err)
	var closed *RoundClosed
	for _, e := range evs {
		if rc, ok := e.(*RoundClosed); ok {
			closed = rc
		}
	}
	if closed == nil || closed.Convention != rounds.ConventionPreMoney || closed.ConventionNaming != ConventionNamingCooley ||
		closed.PricingConvention() != rounds.ConventionPreMoney {
		t.Fatalf("round closed %+v", closed)
	}
	for recorded, means := range map[string]string{
		"PRE_MONEY":         rounds.ConventionPercentOwnership,
		"PERCENT_OWNERSHIP": rounds.ConventionPreMoney,
		"DOLLARS_INVESTED":  rounds.ConventionDollarsInvested,
	} {
		var old RoundClosed // a stored payload from before the field existed
		raw := `{"roundId":"r","name":"Seed","shareClassId":"c","price":1,"roundSize":1,"preMoneyValuation":1,"postMoneyValuation":0,` +
			`"poolIncrease":0,"convention":"` + recorded + `","closedOn":"2025-01-01T00:00:00Z"}`
		if err := json.Unmarshal([]byte(raw), &old); err != nil {
			t.Fatal(err)
		}
		if got := old.PricingConvention(); got != means || !old.Price.Equal(num.Int(1)) {
			t.Errorf("old %s reads as %s, want %s", recorded, got, means)
		}
	}
}
