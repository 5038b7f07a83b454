package captable

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
)

// AdjustedClass is an anti-dilution adjustment a round makes: the class's
// conversion price and ratio before and after, and the common shares its
// holders gain as converted (issued × the ratio's increase).
type AdjustedClass struct {
	ShareClassID       string  `json:"shareClassId"`
	OldConversionPrice num.Num `json:"oldConversionPrice"`
	NewConversionPrice num.Num `json:"newConversionPrice"`
	NewConversionRatio num.Num `json:"newConversionRatio"`
	AdditionalShares   num.Num `json:"additionalShares"`
	// AntiDilutionBase is the base a NARROW_BASED adjustment counted
	// (empty for the other protections).
	AntiDilutionBase string `json:"antiDilutionBase,omitempty"`
}

// Adjustments are the anti-dilution adjustments a round priced as res makes
// on the company as it stands on day (before the round): every preferred
// class with shares issued, a protection, and a conversion price (issue
// price / conversion ratio) above the round's price. The weighted averages
// count as A the fully diluted shares before the round (broad-based) or the
// class's narrow base (narrow-based): the preferred outstanding as converted
// (OUTSTANDING_PREFERRED, the default), or every outstanding share, common
// and preferred as converted, without options, RSUs, warrants and the
// unissued pool (OUTSTANDING_SHARES); and as new shares the new money's shares (SAFE conversions are excluded, as standard terms
// exclude them). Prices and ratios are recorded to 12 decimals. The round's
// price is solved without these shares: the adjustment follows the closing,
// so every holder, the new investors included, bears it.
func (c *Company) Adjustments(day time.Time, res rounds.Result) ([]AdjustedClass, error) {
	out := []AdjustedClass{}
	newShares := res.NewShares
	if newShares.Sign() <= 0 {
		return out, nil
	}
	s := c.Summary(day)
	narrow := map[string]num.Num{}
	for _, l := range s.Classes {
		switch l.Type {
		case ClassPreferred:
			narrow[AntiDilutionBaseOutstandingPreferred] = narrow[AntiDilutionBaseOutstandingPreferred].Add(l.Shares)
			narrow[AntiDilutionBaseOutstandingShares] = narrow[AntiDilutionBaseOutstandingShares].Add(l.Shares)
		case ClassCommon:
			narrow[AntiDilutionBaseOutstandingShares] = narrow[AntiDilutionBaseOutstandingShares].Add(l.Shares)
		}
	}
	for _, id := range c.ClassOrder {
		cl := c.Classes[id]
		if cl.Type != ClassPreferred || cl.AntiDilution == AntiDilutionNone || cl.PricePerShare.Sign() <= 0 || cl.Issued.Sign() <= 0 {
			continue
		}
		cp1 := cl.PricePerShare.Div(cl.ratio())
		if res.Price.Cmp(cp1) >= 0 {
			continue
		}
		a, base := s.FullyDiluted, ""
		if cl.AntiDilution == AntiDilutionNarrowBased {
			base = cl.NarrowBase()
			a = narrow[base]
		}
		cp2, err := rounds.AdjustConversionPrice(rounds.Protection(cl.AntiDilution), cp1, res.Price, newShares, a)
		if err != nil {
			return nil, err
		}
		cp2 = cp2.Round(ratioPlaces)
		ratio, err := rounds.ConversionRatio(cl.PricePerShare, cp2)
		if err != nil {
			return nil, err
		}
		ratio = ratio.Round(ratioPlaces)
		if ratio.Equal(cl.ratio()) {
			continue
		}
		out = append(out, AdjustedClass{ShareClassID: cl.ID, OldConversionPrice: cp1.Round(ratioPlaces), NewConversionPrice: cp2,
			NewConversionRatio: ratio, AdditionalShares: rounds.AdditionalShares(cl.Issued, cl.ratio(), ratio), AntiDilutionBase: base})
	}
	return out, nil
}

// antiDilution records the round's adjustments.
func (b *roundBuilder) antiDilution() error {
	adj, err := b.c.Adjustments(b.day, b.res)
	if err != nil {
		return err
	}
	for _, a := range adj {
		b.evs = append(b.evs, &ConversionAdjusted{ShareClassID: a.ShareClassID, RoundID: b.out.RoundID,
			OldConversionPrice: a.OldConversionPrice, NewConversionPrice: a.NewConversionPrice, NewConversionRatio: a.NewConversionRatio, On: b.day})
	}
	b.out.Adjustments = adj
	return nil
}
