package briefing

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// obs is one daily value.
func obs(series, day string, v float64) []Indicator { return []Indicator{{series, date(day), v}} }

// months is a monthly series from the month of first, one value a month.
func months(series, first string, vs ...float64) []Indicator {
	d := date(first)
	out := make([]Indicator, len(vs))
	for i, v := range vs {
		out[i] = Indicator{series, d.AddDate(0, i, 0), v}
	}
	return out
}

// flat is 15 months of unemployment at v ending with the month of last:
// a Sahm indicator of 0.00.
func flat(last string, v float64) []Indicator {
	vs := make([]float64, 15)
	for i := range vs {
		vs[i] = v
	}
	return months(SeriesUnemployment, date(last).AddDate(0, -14, 0).Format(time.DateOnly), vs...)
}

func join(parts ...[]Indicator) []Indicator {
	var out []Indicator
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// UNRATE as published, 2023-01 to 2024-10.
var unrate2024 = months(SeriesUnemployment, "2023-01-01",
	3.4, 3.6, 3.5, 3.4, 3.7, 3.6, 3.5, 3.8, 3.8, 3.8, 3.7, 3.7, // 2023
	3.7, 3.9, 3.8, 3.9, 4.0, 4.1, 4.3, 4.2, 4.1, 4.1) // 2024-01 .. 2024-10

func points(ind []Indicator) []point {
	ps := make([]point, len(ind))
	for i, x := range ind {
		ps[i] = point{x.Date, x.Value}
	}
	return ps
}

// The Sahm indicator by FRED's definition, against FRED's published
// SAHMREALTIME for June to October 2024 (0.43, 0.53, 0.57, 0.50, 0.43).
// July 2024 by hand: the three-month average of May-July is
// (4.0+4.1+4.3)/3 = 4.1333; the averages of the 12 months before (July
// 2023 to June 2024) have their minimum at July 2023, (3.7+3.6+3.5)/3 =
// 3.6; 4.1333-3.6 = 0.5333, 0.53. September: (4.3+4.2+4.1)/3 = 4.2 less
// January 2024's (3.7+3.7+3.7)/3 = 3.7 is 0.50 (in floating point
// 0.4999..., which the rounding to FRED's two decimals makes 0.50).
func TestSahmAgainstFRED(t *testing.T) {
	ps := points(unrate2024)
	for _, c := range []struct {
		month string
		want  float64
	}{
		{"2024-06-01", 0.43}, {"2024-07-01", 0.53}, {"2024-08-01", 0.57}, {"2024-09-01", 0.50}, {"2024-10-01", 0.43},
	} {
		last := monthIndex(date(c.month)) - monthIndex(ps[0].date)
		if got, ok := sahm(ps[:last+1]); !ok || got != c.want {
			t.Errorf("Sahm %s = %v %v, want %v", c.month, got, ok, c.want)
		}
	}
}

// A small series by hand: three-month averages of months 2..13 are 5,
// 4.6667, 4.3333, then 4; the last is (4.4+4.5+4.6)/3 = 4.5; 4.5-4 = 0.50.
// A dip makes a negative indicator; 14 months or a missing month make
// none.
func TestSahmByHand(t *testing.T) {
	rise := points(months(SeriesUnemployment, "2020-01-01", 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4.4, 4.5, 4.6))
	if got, ok := sahm(rise); !ok || got != 0.50 {
		t.Errorf("rise: %v %v", got, ok)
	}
	// last 3.7; minimum of the 12 before: month 13's (4+3.7+3.7)/3 = 3.8;
	// 3.7-3.8 = -0.10
	dip := points(months(SeriesUnemployment, "2020-01-01", 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3.7, 3.7, 3.7))
	if got, ok := sahm(dip); !ok || got != -0.10 {
		t.Errorf("dip: %v %v", got, ok)
	}
	if _, ok := sahm(rise[1:]); ok {
		t.Error("14 months make an indicator")
	}
	gap := append(points(months(SeriesUnemployment, "2019-11-01", 5)), rise[1:]...) // 2019-11, then 2020-02 on
	if _, ok := sahm(gap); ok {
		t.Error("a missing month makes an indicator")
	}
}

// The regime, table-driven over historical-style inputs. Sahm indicators
// by hand (averages of three months):
//   - 2017-05 (UNRATE 2016-03..2017-05): last 4.4, minimum of the 12
//     before is April 2017's (4.6+4.4+4.4)/3 = 4.4667: -0.07.
//   - 2020-02 (2018-12..2020-02): last (3.6+3.5+3.5)/3 = 3.5333, minimum
//     3.5667 (October 2019): -0.03.
//   - 2019-07 (2018-05..2019-07): last (3.6+3.6+3.7)/3 = 3.6333, minimum
//     3.6 (June 2019): 0.03.
//   - 2023-02 (2021-12..2023-02): last (3.5+3.4+3.6)/3 = 3.5, minimum 3.5
//     (January 2023): 0.00.
//   - flat series: 0.00; "to 0.30": twelve months at 4.0 then three at
//     4.3: last 4.3, minimum 4.0: 0.30.
func TestRegime(t *testing.T) {
	unrate2017 := months(SeriesUnemployment, "2016-03-01", 5.0, 5.1, 4.8, 4.9, 4.8, 4.9, 5.0, 4.9, 4.7, 4.7, 4.7, 4.6, 4.4, 4.4, 4.4)
	unrate2020 := months(SeriesUnemployment, "2018-12-01", 3.9, 4.0, 3.8, 3.8, 3.6, 3.6, 3.6, 3.7, 3.6, 3.5, 3.6, 3.6, 3.6, 3.5, 3.5)
	unrate2019 := months(SeriesUnemployment, "2018-05-01", 3.8, 4.0, 3.8, 3.8, 3.7, 3.8, 3.8, 3.9, 4.0, 3.8, 3.8, 3.6, 3.6, 3.6, 3.7)
	unrate2023 := months(SeriesUnemployment, "2021-12-01", 3.9, 4.0, 3.8, 3.6, 3.6, 3.6, 3.6, 3.5, 3.7, 3.5, 3.7, 3.6, 3.5, 3.4, 3.6)
	to030 := months(SeriesUnemployment, "2023-01-01", 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4.3, 4.3, 4.3)
	calm := func(vix float64) []Indicator { // to 2024-03: Sahm 0.00, spread 0.30
		return join(obs(SeriesVIX, "2024-04-01", vix), obs(SeriesSpread10y2y, "2024-04-01", 0.30), flat("2024-03-01", 4.0))
	}
	for _, c := range []struct {
		name   string
		asOf   string
		in     []Indicator
		want   string // regime
		rule   string
		band   string
		fed    string
		spread *float64
	}{
		{name: "calm 2017: risk_on", asOf: "2017-06-15",
			in: join(obs(SeriesVIX, "2017-06-14", 10.90), obs(SeriesSP500, "2017-06-14", 2437.92), obs(SeriesSpread10y2y, "2017-06-14", 0.83),
				unrate2017, months(SeriesFedFunds, "2016-05-01", 0.37), months(SeriesFedFunds, "2017-05-01", 0.91)),
			want: RegimeRiskOn, band: "low", fed: "rising", spread: ptr(0.83),
			rule: "risk_on: VIX 10.90 < 20 (as of 2017-06-14), 10y-2y spread 0.83 > 0 (as of 2017-06-14), Sahm indicator -0.07 < 0.30 (as of 2017-05)"},
		{name: "March 2020: VIX spike, risk_off", asOf: "2020-03-16",
			in:   join(obs(SeriesVIX, "2020-03-16", 82.69), obs(SeriesSpread10y2y, "2020-03-16", 0.47), unrate2020),
			want: RegimeRiskOff, band: "high", spread: ptr(0.47),
			rule: "risk_off: VIX 82.69 > 30 (as of 2020-03-16)"},
		{name: "August 2024: Sahm trigger with a calm VIX, risk_off", asOf: "2024-08-30",
			in: join(obs(SeriesVIX, "2024-08-30", 15.55), obs(SeriesSpread10y2y, "2024-08-30", -0.02), unrate2024[:20],
				months(SeriesFedFunds, "2023-08-01", 5.33), months(SeriesFedFunds, "2024-08-01", 5.33)),
			want: RegimeRiskOff, band: "low", fed: "flat", spread: ptr(-0.02),
			rule: "risk_off: Sahm indicator 0.57 >= 0.50 (as of 2024-08)"},
		{name: "Sahm exactly 0.50 (September 2024): risk_off", asOf: "2024-09-30",
			in:   join(obs(SeriesVIX, "2024-09-30", 16.73), obs(SeriesSpread10y2y, "2024-09-30", 0.14), unrate2024[:21]),
			want: RegimeRiskOff, band: "low", spread: ptr(0.14),
			rule: "risk_off: Sahm indicator 0.50 >= 0.50 (as of 2024-09)"},
		{name: "both VIX and Sahm", asOf: "2024-08-05",
			in:   join(obs(SeriesVIX, "2024-08-05", 38.57), unrate2024[:20]),
			want: RegimeRiskOff, band: "high",
			rule: "risk_off: VIX 38.57 > 30 (as of 2024-08-05); Sahm indicator 0.57 >= 0.50 (as of 2024-08)"},
		{name: "2019 curve inversion: neutral", asOf: "2019-08-28",
			in:   join(obs(SeriesVIX, "2019-08-28", 19.35), obs(SeriesSpread10y2y, "2019-08-28", -0.04), unrate2019),
			want: RegimeNeutral, band: "low", spread: ptr(-0.04),
			rule: "neutral: not risk_off (VIX 19.35 <= 30, Sahm indicator 0.03 < 0.50); not risk_on (10y-2y spread -0.04 <= 0)"},
		{name: "2023 deep inversion: neutral", asOf: "2023-03-08",
			in: join(obs(SeriesVIX, "2023-03-08", 19.11), obs(SeriesSpread10y2y, "2023-03-08", -1.07), unrate2023,
				months(SeriesFedFunds, "2022-02-01", 0.08), months(SeriesFedFunds, "2023-02-01", 4.57)),
			want: RegimeNeutral, band: "low", fed: "rising", spread: ptr(-1.07),
			rule: "neutral: not risk_off (VIX 19.11 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (10y-2y spread -1.07 <= 0)"},
		{name: "VIX exactly 30: not risk_off", asOf: "2024-04-01", in: calm(30),
			want: RegimeNeutral, band: "elevated", spread: ptr(0.30),
			rule: "neutral: not risk_off (VIX 30.00 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (VIX 30.00 >= 20)"},
		{name: "VIX 30.01: risk_off", asOf: "2024-04-01", in: calm(30.01),
			want: RegimeRiskOff, band: "high", spread: ptr(0.30), rule: "risk_off: VIX 30.01 > 30 (as of 2024-04-01)"},
		{name: "VIX exactly 20: not risk_on", asOf: "2024-04-01", in: calm(20),
			want: RegimeNeutral, band: "elevated", spread: ptr(0.30),
			rule: "neutral: not risk_off (VIX 20.00 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (VIX 20.00 >= 20)"},
		{name: "VIX 19.99: risk_on", asOf: "2024-04-01", in: calm(19.99),
			want: RegimeRiskOn, band: "low", spread: ptr(0.30),
			rule: "risk_on: VIX 19.99 < 20 (as of 2024-04-01), 10y-2y spread 0.30 > 0 (as of 2024-04-01), Sahm indicator 0.00 < 0.30 (as of 2024-03)"},
		{name: "Sahm exactly 0.30: not risk_on", asOf: "2024-04-01",
			in:   join(obs(SeriesVIX, "2024-04-01", 15), obs(SeriesSpread10y2y, "2024-04-01", 0.5), to030),
			want: RegimeNeutral, band: "low", spread: ptr(0.5),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator 0.30 < 0.50); not risk_on (Sahm indicator 0.30 >= 0.30)"},
		{name: "flat curve: not risk_on", asOf: "2024-04-01",
			in:   join(obs(SeriesVIX, "2024-04-01", 15), obs(SeriesSpread10y2y, "2024-04-01", 0), flat("2024-03-01", 4)),
			want: RegimeNeutral, band: "low", spread: ptr(0),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (10y-2y spread 0.00 <= 0)"},
		{name: "no VIX, Sahm trigger: risk_off", asOf: "2024-08-30", in: unrate2024[:20],
			want: RegimeRiskOff, rule: "risk_off: Sahm indicator 0.57 >= 0.50 (as of 2024-08)"},
		{name: "no VIX, otherwise risk_on: neutral", asOf: "2024-04-01",
			in:   join(obs(SeriesSpread10y2y, "2024-04-01", 0.5), flat("2024-03-01", 4)),
			want: RegimeNeutral, spread: ptr(0.5),
			rule: "neutral: not risk_off (VIX missing, Sahm indicator 0.00 < 0.50); not risk_on (VIX missing)"},
		{name: "VIX only", asOf: "2024-04-01", in: obs(SeriesVIX, "2024-04-01", 12),
			want: RegimeNeutral, band: "low",
			rule: "neutral: not risk_off (VIX 12.00 <= 30, Sahm indicator missing); not risk_on (10y-2y spread missing, Sahm indicator missing)"},
		{name: "VIX 10 days old is read", asOf: "2024-04-11",
			in:   join(obs(SeriesVIX, "2024-03-31", 45), obs(SeriesVIX, "2024-04-01", 12)),
			want: RegimeNeutral, band: "low",
			rule: "neutral: not risk_off (VIX 12.00 <= 30, Sahm indicator missing); not risk_on (10y-2y spread missing, Sahm indicator missing)"},
		{name: "VIX 11 days old is missing", asOf: "2024-04-12",
			in:   join(obs(SeriesVIX, "2024-04-01", 45), obs(SeriesSpread10y2y, "2024-04-12", 0.5)),
			want: RegimeNeutral, spread: ptr(0.5),
			rule: "neutral: not risk_off (VIX missing, Sahm indicator missing); not risk_on (VIX missing, Sahm indicator missing)"},
		{name: "a value after the as-of day is not read", asOf: "2024-04-01",
			in:   join(calm(15), obs(SeriesVIX, "2024-04-02", 45)),
			want: RegimeRiskOn, band: "low", spread: ptr(0.30),
			rule: "risk_on: VIX 15.00 < 20 (as of 2024-04-01), 10y-2y spread 0.30 > 0 (as of 2024-04-01), Sahm indicator 0.00 < 0.30 (as of 2024-03)"},
		{name: "unemployment 62 days old is read", asOf: "2024-05-02",
			in:   join(obs(SeriesVIX, "2024-05-02", 15), obs(SeriesSpread10y2y, "2024-05-02", 0.3), flat("2024-03-01", 4)),
			want: RegimeRiskOn, band: "low", spread: ptr(0.3),
			rule: "risk_on: VIX 15.00 < 20 (as of 2024-05-02), 10y-2y spread 0.30 > 0 (as of 2024-05-02), Sahm indicator 0.00 < 0.30 (as of 2024-03)"},
		{name: "unemployment 63 days old is missing", asOf: "2024-05-03",
			in:   join(obs(SeriesVIX, "2024-05-03", 15), obs(SeriesSpread10y2y, "2024-05-03", 0.3), flat("2024-03-01", 4)),
			want: RegimeNeutral, band: "low", spread: ptr(0.3),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator missing); not risk_on (Sahm indicator missing)"},
		{name: "14 months of unemployment: no Sahm", asOf: "2024-04-01",
			in:   join(obs(SeriesVIX, "2024-04-01", 15), obs(SeriesSpread10y2y, "2024-04-01", 0.3), flat("2024-03-01", 4)[1:]),
			want: RegimeNeutral, band: "low", spread: ptr(0.3),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator missing); not risk_on (Sahm indicator missing)"},
		{name: "DGS10-DGS2 when T10Y2Y lags", asOf: "2024-05-02",
			in: join(obs(SeriesVIX, "2024-05-02", 15), obs(SeriesSpread10y2y, "2024-05-01", 0.10),
				obs(SeriesTreasury10y, "2024-05-02", 4.63), obs(SeriesTreasury2y, "2024-05-02", 4.87), obs(SeriesTreasury10y, "2024-05-03", 1), flat("2024-04-01", 4)),
			want: RegimeNeutral, band: "low", spread: ptr(-0.24),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (10y-2y spread (DGS10-DGS2) -0.24 <= 0)"},
		{name: "T10Y2Y when it is as recent", asOf: "2024-05-02",
			in: join(obs(SeriesVIX, "2024-05-02", 15), obs(SeriesSpread10y2y, "2024-05-02", 0.10),
				obs(SeriesTreasury10y, "2024-05-02", 4.63), obs(SeriesTreasury2y, "2024-05-02", 4.87), flat("2024-04-01", 4)),
			want: RegimeRiskOn, band: "low", spread: ptr(0.10),
			rule: "risk_on: VIX 15.00 < 20 (as of 2024-05-02), 10y-2y spread 0.10 > 0 (as of 2024-05-02), Sahm indicator 0.00 < 0.30 (as of 2024-04)"},
		{name: "DGS10 without DGS2 on its latest date", asOf: "2024-05-02",
			in: join(obs(SeriesVIX, "2024-05-02", 15), obs(SeriesTreasury10y, "2024-05-02", 4.63), obs(SeriesTreasury10y, "2024-04-30", 4.68),
				obs(SeriesTreasury2y, "2024-04-30", 5.04), flat("2024-04-01", 4)),
			want: RegimeNeutral, band: "low", spread: ptr(-0.36),
			rule: "neutral: not risk_off (VIX 15.00 <= 30, Sahm indicator 0.00 < 0.50); not risk_on (10y-2y spread (DGS10-DGS2) -0.36 <= 0)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, AlgoSentiment, Inputs{Indicators: c.in}, date(c.asOf).Add(17*time.Hour))
			g := r.Regime
			if r.NoInput || g == nil {
				t.Fatalf("no regime: %+v", r)
			}
			if g.Regime != c.want || g.Rule != c.rule {
				t.Errorf("got %s\n  %q\nwant %s\n  %q", g.Regime, g.Rule, c.want, c.rule)
			}
			if g.VIXBand != c.band || g.FedFundsDirection != c.fed {
				t.Errorf("band %q fed %q, want %q %q", g.VIXBand, g.FedFundsDirection, c.band, c.fed)
			}
			if (g.YieldCurve == nil) != (c.spread == nil) || g.YieldCurve != nil && *g.YieldCurve != *c.spread {
				t.Errorf("yield curve %v, want %v", g.YieldCurve, c.spread)
			}
			if !g.AsOf.Equal(date(c.asOf)) || !r.AsOf.Equal(date(c.asOf)) {
				t.Errorf("as of %v %v", g.AsOf, r.AsOf)
			}
			if len(r.Signals)+len(r.Correlations)+len(r.Trending) != 0 {
				t.Errorf("a regime with other output: %+v", r)
			}
			if strings.Contains(g.Rule, "-0.00") {
				t.Errorf("negative zero in %q", g.Rule)
			}
		})
	}
}

// The 2017 case in full: every number and every reading used.
func TestRegimeInputs(t *testing.T) {
	unrate := months(SeriesUnemployment, "2016-03-01", 5.0, 5.1, 4.8, 4.9, 4.8, 4.9, 5.0, 4.9, 4.7, 4.7, 4.7, 4.6, 4.4, 4.4, 4.4)
	in := join(obs(SeriesVIX, "2017-06-14", 10.90), obs(SeriesVIX, "2017-06-13", 10.42), obs(SeriesSP500, "2017-06-14", 2437.92),
		obs(SeriesSpread10y2y, "2017-06-14", 0.83), unrate, months(SeriesFedFunds, "2016-04-01", 0.37, 0.37), months(SeriesFedFunds, "2017-05-01", 0.91),
		obs("GDP", "2017-04-01", 19000), obs(SeriesVIX, "2017-06-14", 10.80)) // another VIX for the same day: the larger is kept
	r := run(t, AlgoSentiment, Inputs{Indicators: in}, date("2017-06-15"))
	g := r.Regime
	// the readings used: VIX, SP500, T10Y2Y, UNRATE 15, FEDFUNDS 2 (not
	// 2016-04, not the older VIX, not GDP)
	if r.Inputs != 20 || r.Inputs != len(g.Inputs) {
		t.Errorf("inputs %d", r.Inputs)
	}
	if *g.VIX != 10.90 || *g.SP500 != 2437.92 || *g.FedFunds != 0.91 || *g.YieldCurve != 0.83 || *g.Unemployment != 4.4 || *g.Sahm != -0.07 {
		t.Errorf("%+v", g)
	}
	want := []Reading{{SeriesFedFunds, 0.37, date("2016-05-01")}, {SeriesFedFunds, 0.91, date("2017-05-01")},
		{SeriesSP500, 2437.92, date("2017-06-14")}, {SeriesSpread10y2y, 0.83, date("2017-06-14")}}
	for _, x := range unrate {
		want = append(want, Reading{x.Series, x.Value, x.Date})
	}
	want = append(want, Reading{SeriesVIX, 10.90, date("2017-06-14")})
	if !reflect.DeepEqual(g.Inputs, want) {
		t.Errorf("inputs\n got %+v\nwant %+v", g.Inputs, want)
	}
}

func TestFedFundsDirection(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want string
	}{
		{5.33, 5.58, "rising"}, {5.33, 5.57, "flat"}, {5.33, 5.08, "falling"}, {5.33, 5.09, "flat"}, {0.08, 4.57, "rising"},
	} {
		in := join(months(SeriesFedFunds, "2023-03-01", c.a), months(SeriesFedFunds, "2024-03-01", c.b))
		r := run(t, AlgoSentiment, Inputs{Indicators: in}, date("2024-04-01"))
		if g := r.Regime; g.FedFundsDirection != c.want {
			t.Errorf("%v -> %v: %q, want %q", c.a, c.b, g.FedFundsDirection, c.want)
		}
	}
	// no value 12 months before: no direction
	r := run(t, AlgoSentiment, Inputs{Indicators: months(SeriesFedFunds, "2024-02-01", 5, 5)}, date("2024-04-01"))
	if r.Regime.FedFundsDirection != "" || *r.Regime.FedFunds != 5 {
		t.Errorf("%+v", r.Regime)
	}
}

// Nothing fresh to decide on: no regime, not a neutral one.
func TestRegimeNoInput(t *testing.T) {
	for _, in := range [][]Indicator{
		nil,
		obs("GDP", "2024-04-01", 1),                 // a series it does not read
		obs(SeriesVIX, "2024-04-02", 12),            // after the as-of day
		obs(SeriesVIX, "2022-01-01", 12),            // before the window
		obs(SeriesVIX, "2024-03-21", 12),            // in the window, not fresh
		months(SeriesUnemployment, "2024-01-01", 4), // in the window, not fresh
		{{Series: SeriesVIX, Date: date("2024-04-01"), Value: nan()}}, // not a number
	} {
		wantNoInput(t, run(t, AlgoSentiment, Inputs{Indicators: in}, date("2024-04-01")), AlgoSentiment)
	}
}

func TestRegimeIsDeterministic(t *testing.T) {
	in := join(obs(SeriesVIX, "2024-08-30", 15.55), obs(SeriesVIX, "2024-08-30", 16), obs(SeriesVIX, "2024-08-29", 17),
		obs(SeriesSpread10y2y, "2024-08-30", -0.02), obs(SeriesTreasury10y, "2024-08-30", 3.91), obs(SeriesTreasury2y, "2024-08-30", 3.92),
		unrate2024, months(SeriesFedFunds, "2023-01-01", 4.33, 4.57, 4.65, 4.83, 5.06, 5.08, 5.12, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33, 5.33))
	sameWhenShuffled(t, AlgoSentiment, Inputs{Indicators: in}, date("2024-08-30"))
}

func nan() float64 { return math.NaN() }
