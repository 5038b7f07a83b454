package credits

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Micro is an amount of credits in micro-credits (a millionth of a credit,
// US$1e-9): every amount in the ledger is an exact integer of them.
type Micro int64

// MicroPerCredit is how many micro-credits make one credit.
const MicroPerCredit Micro = 1_000_000

// CreditUSD is what one credit is worth in US dollars, as an exact decimal.
const CreditUSD = "0.001"

// FromCredits returns n whole credits in micro-credits.
func FromCredits(n int64) Micro { return Micro(n) * MicroPerCredit }

// Decimal writes m in credits as an exact decimal without trailing zeros:
// 1500000 → "1.5", -250 → "-0.00025", 0 → "0".
func (m Micro) Decimal() string {
	neg := m < 0
	u := uint64(m)
	if neg {
		u = uint64(-m)
	}
	whole, frac := u/uint64(MicroPerCredit), u%uint64(MicroPerCredit)
	s := strconv.FormatUint(whole, 10)
	if frac != 0 {
		f := strconv.FormatUint(frac, 10)
		f = strings.Repeat("0", 6-len(f)) + f
		s += "." + strings.TrimRight(f, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Number is m in credits as an exact JSON number.
func (m Micro) Number() json.Number { return json.Number(m.Decimal()) }

// CeilCredits is m in whole credits, rounded up: 0.2 credits is 1, -0.2 is
// 0. A balance is positive exactly when its CeilCredits is, which is what
// key verification's integer credits_remaining needs (insufficient_credits
// when it is 0 or less).
func (m Micro) CeilCredits() int64 {
	q, r := int64(m/MicroPerCredit), int64(m%MicroPerCredit)
	if r > 0 {
		q++
	}
	return q
}
