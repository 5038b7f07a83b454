package rounds

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestAdjustConversionPrice(t *testing.T) {
	broad := n("1.00").Mul(n("10500000")).Div(n("11000000"))
	for _, tc := range []struct {
		name       string
		protection Protection
		cp1, p2, a string
		want       string
	}{
		{"broad-based", ProtectionBroadBased, "1.00", "0.50", "10000000", broad.String()},
		{"narrow-based", ProtectionNarrowBased, "1.00", "0.50", "2000000", "0.833333333333"},
		{"full ratchet", ProtectionFullRatchet, "1.00", "0.50", "10000000", "0.5"},
		{"none", ProtectionNone, "1.00", "0.50", "10000000", "1"},
		{"up round", ProtectionBroadBased, "1.00", "1.20", "10000000", "1"},
		{"flat round", ProtectionFullRatchet, "1.00", "1.00", "10000000", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AdjustConversionPrice(tc.protection, n(tc.cp1), n(tc.p2), n("1000000"), n(tc.a))
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want {
				t.Fatalf("CP2 = %s, want %s", got, tc.want)
			}
		})
	}
	b, _ := AdjustConversionPrice(ProtectionBroadBased, n("1"), n("0.5"), n("1000000"), n("10000000"))
	eq(t, "broad exact", b, n("10500000").Div(n("11000000")))
	nb, _ := AdjustConversionPrice(ProtectionNarrowBased, n("1"), n("0.5"), n("1000000"), n("2000000"))
	eq(t, "narrow exact", nb, n("2500000").Div(n("3000000")))
	if !nb.Less(b) {
		t.Errorf("narrow-based %s should be below broad-based %s", nb, b)
	}
}

func TestAdjustConversionPriceRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, field, rule string
		protection        Protection
		cp1, p2, shares   string
		a                 string
	}{
		{"unknown", "protection", "one_of", "PARTIAL", "1", "0.5", "10", "10"},
		{"cp1", "conversionPrice", "positive", ProtectionBroadBased, "0", "0.5", "10", "10"},
		{"p2", "newPrice", "positive", ProtectionBroadBased, "1", "0", "10", "10"},
		{"shares", "newShares", "positive", ProtectionBroadBased, "1", "0.5", "0", "10"},
		{"a", "sharesOutstanding", "positive", ProtectionNarrowBased, "1", "0.5", "10", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := AdjustConversionPrice(tc.protection, n(tc.cp1), n(tc.p2), n(tc.shares), n(tc.a))
			var ke *kernel.Error
			if !errors.As(err, &ke) || ke.Field != tc.field || ke.Rule != tc.rule || ke.Kind != kernel.KindInvalid {
				t.Fatalf("err %v, want invalid %s %s", err, tc.field, tc.rule)
			}
		})
	}
}

func TestConversionRatioAndAdditionalShares(t *testing.T) {
	cp2, _ := AdjustConversionPrice(ProtectionFullRatchet, n("1"), n("0.5"), n("1000000"), n("0"))
	oldRatio, err := ConversionRatio(n("1"), n("1"))
	if err != nil {
		t.Fatal(err)
	}
	newRatio, err := ConversionRatio(n("1"), cp2)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "new ratio", newRatio, n("2"))
	eq(t, "additional", AdditionalShares(n("3000000"), oldRatio, newRatio), n("3000000"))
	if _, err := ConversionRatio(n("1"), n("0")); !errors.Is(err, kernel.ErrInvalid) {
		t.Fatalf("err %v", err)
	}
}
