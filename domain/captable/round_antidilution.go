package captable

import (
	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/captable/rounds"
)

// antiDilution adjusts every earlier preferred class whose conversion price
// (issue price / conversion ratio) is above the round's price, by its
// protection: the weighted averages count as A the fully diluted shares
// before the round (broad-based) or the preferred outstanding as converted
// (narrow-based), and as new shares the new money's shares (conversions of
// SAFEs are excluded, as standard terms exclude them). The new ratio is
// issue price / new conversion price, recorded to 12 decimals.
func (b *roundBuilder) antiDilution() error {
	newShares := b.res.NewShares
	if newShares.Sign() <= 0 {
		return nil
	}
	s := b.c.Summary(b.day)
	narrow := num.Zero
	for _, l := range s.Classes {
		if l.Type == ClassPreferred {
			narrow = narrow.Add(l.Shares)
		}
	}
	for _, id := range b.c.ClassOrder {
		cl := b.c.Classes[id]
		if cl.Type != ClassPreferred || cl.AntiDilution == AntiDilutionNone || cl.PricePerShare.Sign() <= 0 {
			continue
		}
		cp1 := cl.PricePerShare.Div(cl.ratio())
		if b.res.Price.Cmp(cp1) >= 0 {
			continue
		}
		a := s.FullyDiluted
		if cl.AntiDilution == AntiDilutionNarrowBased {
			a = narrow
		}
		cp2, err := rounds.AdjustConversionPrice(rounds.Protection(cl.AntiDilution), cp1, b.res.Price, newShares, a)
		if err != nil {
			return err
		}
		cp2 = cp2.Round(ratioPlaces)
		ratio, err := rounds.ConversionRatio(cl.PricePerShare, cp2)
		if err != nil {
			return err
		}
		ratio = ratio.Round(ratioPlaces)
		if ratio.Equal(cl.ratio()) {
			continue
		}
		b.evs = append(b.evs, &ConversionAdjusted{ShareClassID: cl.ID, RoundID: b.out.RoundID, OldConversionPrice: cp1.Round(ratioPlaces),
			NewConversionPrice: cp2, NewConversionRatio: ratio, On: b.day})
		b.out.Adjustments = append(b.out.Adjustments, AdjustedClass{ShareClassID: cl.ID, OldConversionPrice: cp1.Round(ratioPlaces),
			NewConversionPrice: cp2, NewConversionRatio: ratio})
	}
	return nil
}
