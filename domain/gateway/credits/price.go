package credits

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"

	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
)

// Tokens are what a request used, as the upstream reported it (or, for a
// stream cut off midway, what was delivered).
type Tokens struct {
	Input     int64 `json:"input_tokens"`
	Output    int64 `json:"output_tokens"`
	CacheRead int64 `json:"cache_read_tokens"`
}

// microPerUSDPerMillion converts a price in US dollars per million tokens
// to micro-credits per token: $1 is 1,000 credits, 10^9 micro-credits, and
// per million tokens that is 1,000 micro-credits a token.
const microPerUSDPerMillion = 1000

// IsFree reports whether a model costs nothing: marked free, or every
// price zero.
func IsFree(m catalog.Model) bool {
	if m.Free {
		return true
	}
	for _, p := range []json.Number{m.Pricing.Input, m.Pricing.Output, m.Pricing.CacheRead} {
		if r, ok := catalog.ParsePrice(p); !ok || r.Sign() != 0 {
			return false
		}
	}
	return true
}

// Cost is what a request on a model of pricing costs: Σ tokens × price ×
// 1,000 micro-credits over input, output and cache-read tokens, computed
// exactly and rounded up once to a whole micro-credit. A free model costs
// 0. Negative token counts, a price that is not an exact non-negative
// decimal, or a cost beyond an int64 of micro-credits are refused.
func Cost(m catalog.Model, t Tokens) (Micro, error) {
	for _, c := range []struct {
		field string
		n     int64
	}{{"input_tokens", t.Input}, {"output_tokens", t.Output}, {"cache_read_tokens", t.CacheRead}} {
		if c.n < 0 {
			return 0, kernel.Invalid(c.field, "min:0", c.field+" must not be negative")
		}
	}
	if m.Free {
		return 0, nil
	}
	sum := new(big.Rat)
	for _, c := range []struct {
		name  string
		price json.Number
		n     int64
	}{{"input", m.Pricing.Input, t.Input}, {"output", m.Pricing.Output, t.Output},
		{"cache_read", m.Pricing.CacheRead, t.CacheRead}} {
		p, ok := catalog.ParsePrice(c.price)
		if !ok {
			return 0, fmt.Errorf("credits: model %s: pricing.%s %q is not an exact non-negative price", m.ID, c.name, c.price)
		}
		sum.Add(sum, new(big.Rat).Mul(p, new(big.Rat).SetInt64(c.n)))
	}
	sum.Mul(sum, big.NewRat(microPerUSDPerMillion, 1))
	ceil := new(big.Int).Quo(sum.Num(), sum.Denom()) // sum ≥ 0: truncation is the floor
	if new(big.Rat).SetInt(ceil).Cmp(sum) < 0 {
		ceil.Add(ceil, big.NewInt(1))
	}
	if !ceil.IsInt64() || ceil.Int64() == math.MaxInt64 {
		return 0, kernel.Invalid("usage", "max_cost", fmt.Sprintf("the cost of this usage on %s is beyond what the ledger holds", m.ID))
	}
	return Micro(ceil.Int64()), nil
}
