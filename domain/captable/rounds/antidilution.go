package rounds

import (
	"fmt"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

// Protection is a preferred class's anti-dilution protection.
type Protection string

// The protections.
const (
	ProtectionNone        Protection = "NONE"
	ProtectionBroadBased  Protection = "BROAD_BASED"  // broad-based weighted average
	ProtectionNarrowBased Protection = "NARROW_BASED" // narrow-based weighted average
	ProtectionFullRatchet Protection = "FULL_RATCHET" // conversion price drops to the new price
)

// AdjustConversionPrice returns the new conversion price CP2 of a class with
// conversion price cp1 when newShares are issued at price p2. It is exact:
//
//	BROAD_BASED:  CP2 = CP1 * (A + B) / (A + C), where A = a, all common
//	              outstanding on a fully diluted basis before the issue,
//	              B = newShares * p2 / CP1 (the shares the money would buy
//	              at CP1) and C = newShares
//	NARROW_BASED: the same formula, with a = the narrow base the caller
//	              chose (definitions differ: the outstanding preferred
//	              only, or all outstanding shares without options and the
//	              unissued pool)
//	FULL_RATCHET: CP2 = p2
//
// It returns cp1 unchanged when p2 >= cp1 or the protection is NONE, and
// never returns more than cp1 or less than p2. Bad input (an unknown
// protection, cp1 or p2 not positive, newShares not positive, or, for the
// weighted averages, a not positive) returns an invalid-kind *kernel.Error.
func AdjustConversionPrice(protection Protection, cp1, p2, newShares, a num.Num) (num.Num, error) {
	switch protection {
	case ProtectionNone, ProtectionBroadBased, ProtectionNarrowBased, ProtectionFullRatchet:
	default:
		return num.Num{}, kernel.Invalid("protection", "one_of",
			fmt.Sprintf("protection must be one of NONE, BROAD_BASED, NARROW_BASED, FULL_RATCHET, not %q", string(protection)))
	}
	switch {
	case cp1.Sign() <= 0:
		return num.Num{}, kernel.Invalid("conversionPrice", "positive", "conversionPrice must be positive")
	case p2.Sign() <= 0:
		return num.Num{}, kernel.Invalid("newPrice", "positive", "newPrice must be positive")
	case newShares.Sign() <= 0:
		return num.Num{}, kernel.Invalid("newShares", "positive", "newShares must be positive")
	}
	if protection == ProtectionNone || p2.Cmp(cp1) >= 0 {
		return cp1, nil
	}
	if protection == ProtectionFullRatchet {
		return p2, nil
	}
	if a.Sign() <= 0 {
		return num.Num{}, kernel.Invalid("sharesOutstanding", "positive", "sharesOutstanding (A of the weighted average) must be positive")
	}
	b := newShares.Mul(p2).Div(cp1)
	return cp1.Mul(a.Add(b)).Div(a.Add(newShares)), nil
}

// ConversionRatio returns issuePrice / conversionPrice: the common shares one
// preferred share converts into. conversionPrice must be positive.
func ConversionRatio(issuePrice, conversionPrice num.Num) (num.Num, error) {
	if conversionPrice.Sign() <= 0 {
		return num.Num{}, kernel.Invalid("conversionPrice", "positive", "conversionPrice must be positive")
	}
	return issuePrice.Div(conversionPrice), nil
}

// AdditionalShares returns shares * (newRatio - oldRatio), exactly: the extra
// common shares a holder of shares preferred shares receives on conversion
// after an adjustment. The caller rounds (usually down, with Floor).
func AdditionalShares(shares, oldRatio, newRatio num.Num) num.Num {
	return shares.Mul(newRatio.Sub(oldRatio))
}
