package waterfall

import (
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/captable/num"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestValidationRefusals(t *testing.T) {
	base := func() Input {
		return Input{ExitValue: d("10000000"), Classes: []Class{common8M(), participating("3")},
			Awards: []Award{{ID: "opt", HolderID: "e", Quantity: d("1000"), Strike: d("1")}}}
	}
	cases := []struct {
		name, field, rule string
		edit              func(*Input)
	}{
		{"negative exit", "exitValue", "non_negative", func(in *Input) { in.ExitValue = d("-1") }},
		{"negative debt", "debt", "non_negative", func(in *Input) { in.Debt = d("-0.01") }},
		{"negative costs", "transactionCosts", "non_negative", func(in *Input) { in.TransactionCosts = d("-5") }},
		{"no classes", "classes", "required", func(in *Input) { in.Classes = nil }},
		{"no shares at all", "classes", "positive", func(in *Input) {
			in.Classes = []Class{{ID: "c", Shares: num.Zero}}
		}},
		{"negative shares", "classes[1].shares", "non_negative", func(in *Input) {
			in.Classes[1].Shares, in.Classes[1].Holders = d("-1"), nil
		}},
		{"negative issue price", "classes[1].issuePrice", "non_negative", func(in *Input) { in.Classes[1].IssuePrice = d("-1") }},
		{"negative multiple", "classes[1].preferenceMultiple", "non_negative", func(in *Input) { in.Classes[1].PreferenceMultiple = d("-1") }},
		{"negative conversion ratio", "classes[1].conversionRatio", "non_negative", func(in *Input) { in.Classes[1].ConversionRatio = d("-1") }},
		{"holders not summing to shares", "classes[0].holders", "sum_equals_shares", func(in *Input) {
			in.Classes[0].Holders[0].Shares = d("7999999")
		}},
		{"holder without id", "classes[0].holders[0].holderId", "required", func(in *Input) { in.Classes[0].Holders[0].HolderID = "" }},
		{"cap below 1x", "classes[1].participationCap", "cap_below_preference", func(in *Input) { in.Classes[1].ParticipationCap = d("0.5") }},
		{"cap below the multiple", "classes[1].participationCap", "cap_below_preference", func(in *Input) {
			in.Classes[1].PreferenceMultiple, in.Classes[1].ParticipationCap = d("2"), d("1.5")
		}},
		{"cap without participation", "classes[1].participationCap", "requires_participation", func(in *Input) { in.Classes[1].Participating = false }},
		{"preferred without seniority", "classes[1].seniority", "positive", func(in *Input) { in.Classes[1].Seniority = 0 }},
		{"common with a preference", "classes[0].preferenceMultiple", "not_preferred", func(in *Input) { in.Classes[0].PreferenceMultiple = d("1") }},
		{"common participating", "classes[0].participating", "not_preferred", func(in *Input) { in.Classes[0].Participating = true }},
		{"class without id", "classes[1].id", "required", func(in *Input) { in.Classes[1].ID = "" }},
		{"duplicate class id", "classes[1].id", "unique", func(in *Input) { in.Classes[1].ID = "common" }},
		{"award id used by a class", "awards[0].id", "unique", func(in *Input) { in.Awards[0].ID = "a" }},
		{"award without holder", "awards[0].holderId", "required", func(in *Input) { in.Awards[0].HolderID = "" }},
		{"negative quantity", "awards[0].quantity", "non_negative", func(in *Input) { in.Awards[0].Quantity = d("-1") }},
		{"negative strike", "awards[0].strike", "non_negative", func(in *Input) { in.Awards[0].Strike = d("-1") }},
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("base input refused: %v", err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			in.Classes = append([]Class(nil), in.Classes...)
			for i := range in.Classes {
				in.Classes[i].Holders = append([]Holding(nil), in.Classes[i].Holders...)
			}
			tc.edit(&in)
			for _, err := range []error{in.Validate(), runErr(in)} {
				var ke *kernel.Error
				if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != tc.field || ke.Rule != tc.rule {
					t.Fatalf("error %v, want invalid %s %s", err, tc.field, tc.rule)
				}
			}
		})
	}
}

func runErr(in Input) error {
	_, err := Run(in)
	return err
}

func TestBreakpointsValidate(t *testing.T) {
	in := Input{ExitValue: d("-1"), Classes: []Class{common8M(), seriesA()}}
	if _, err := Breakpoints(in, d("1000")); err != nil {
		t.Fatalf("Breakpoints must ignore the exit value: %v", err)
	}
	var ke *kernel.Error
	if _, err := Breakpoints(in, num.Zero); !errors.As(err, &ke) || ke.Field != "maxExit" || ke.Rule != "positive" {
		t.Fatalf("maxExit 0: %v", err)
	}
	in.Classes[1].Shares = d("-1")
	in.Classes[1].Holders = nil
	if _, err := Breakpoints(in, d("1000")); !errors.As(err, &ke) || ke.Field != "classes[1].shares" {
		t.Fatalf("negative shares: %v", err)
	}
}
