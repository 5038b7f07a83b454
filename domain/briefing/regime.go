package briefing

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Thresholds of market_sentiment (see marketSentiment).
const (
	dailyFresh   = 10 * day
	monthlyFresh = 62 * day

	vixHigh       = 30.0
	vixLow        = 20.0
	sahmTrigger   = 0.50
	sahmCalm      = 0.30
	fedFundsMove  = 0.25
	sahmMonths    = 15
	fedFundsMonth = 12
)

var regimeSeries = map[string]bool{
	SeriesVIX: false, SeriesSP500: false, SeriesSpread10y2y: false, SeriesTreasury10y: false, SeriesTreasury2y: false,
	SeriesFedFunds: true, SeriesUnemployment: true, // monthly
}

type point struct {
	date  time.Time
	value float64
}

// marketSentiment is market_sentiment: the market regime of the as-of
// day (RULES.md).
//
// Each series is read at its latest value dated on or before the as-of
// day, if that value is fresh: at most 10 days old for the daily series
// (VIXCLS, SP500, T10Y2Y, DGS10, DGS2), at most 62 days for the monthly
// ones (FEDFUNDS, UNRATE, keyed by their month's first day). Dates are
// the series' own dates, not the day a value was published. Two values of
// a series for one date (one month for a monthly series): the larger is
// kept.
//
// The yield curve is T10Y2Y, or DGS10-DGS2 on the latest date both have
// when that is later than T10Y2Y's latest date (or T10Y2Y has none),
// rounded to 4 decimals. The Sahm indicator is FRED's: the three-month
// average of UNRATE for the latest month less the minimum of the
// three-month averages of the 12 months before it, which takes 15
// consecutive months, rounded to 2 decimals as FRED publishes it. The fed
// funds direction compares the latest FEDFUNDS with the same month a year
// earlier: rising at +0.25 points or more, falling at -0.25 or less, flat
// between, "" without both.
//
// Classification, most restrictive first:
//   - risk_off when VIX > 30 or Sahm >= 0.50 (either one present suffices);
//   - risk_on when VIX < 20, the spread > 0 and Sahm < 0.30 (all three
//     needed);
//   - neutral otherwise, the rule saying which conditions failed or which
//     inputs were missing.
//
// Result.Inputs counts the readings the regime was decided on (Regime.
// Inputs: the latest value of each series, both fed funds values, the 15
// unemployment values of the Sahm indicator); with no fresh reading there
// is no regime (NoInput).
func marketSentiment(in Inputs, f frame) Result {
	byS := map[string][]point{}
	for _, x := range in.Indicators {
		monthly, ok := regimeSeries[x.Series]
		if !ok || !f.ind.has(x.Date) || math.IsNaN(x.Value) || math.IsInf(x.Value, 0) {
			continue
		}
		d := x.Date.UTC()
		if monthly {
			d = time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
		} else {
			d = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
		}
		byS[x.Series] = append(byS[x.Series], point{d, x.Value})
	}
	for s, ps := range byS {
		slices.SortFunc(ps, func(a, b point) int {
			if c := a.date.Compare(b.date); c != 0 {
				return c
			}
			return -cmpFloat(a.value, b.value) // larger first: it is kept
		})
		ps = slices.CompactFunc(ps, func(a, b point) bool { return a.date.Equal(b.date) })
		byS[s] = ps
	}
	g := &Regime{AsOf: f.day, Inputs: []Reading{}}
	read := func(series string, p point) { g.Inputs = append(g.Inputs, Reading{series, p.value, p.date}) }

	latest := func(series string) (int, bool) {
		ps := byS[series]
		if len(ps) == 0 {
			return 0, false
		}
		fresh := dailyFresh
		if regimeSeries[series] {
			fresh = monthlyFresh
		}
		i := len(ps) - 1
		return i, f.day.Sub(ps[i].date) <= fresh
	}
	var vixAt, spreadAt, sahmAt time.Time
	if i, ok := latest(SeriesVIX); ok {
		p := byS[SeriesVIX][i]
		g.VIX, vixAt = ptr(p.value), p.date
		read(SeriesVIX, p)
		switch {
		case p.value > vixHigh:
			g.VIXBand = "high"
		case p.value < vixLow:
			g.VIXBand = "low"
		default:
			g.VIXBand = "elevated"
		}
	}
	if i, ok := latest(SeriesSP500); ok {
		p := byS[SeriesSP500][i]
		g.SP500 = ptr(p.value)
		read(SeriesSP500, p)
	}
	spreadName := "10y-2y spread"
	t, tok := latest(SeriesSpread10y2y)
	d10, d2, dok := bothLatest(byS[SeriesTreasury10y], byS[SeriesTreasury2y])
	dok = dok && f.day.Sub(byS[SeriesTreasury10y][d10].date) <= dailyFresh
	switch {
	case dok && (!tok || byS[SeriesTreasury10y][d10].date.After(byS[SeriesSpread10y2y][t].date)):
		a, b := byS[SeriesTreasury10y][d10], byS[SeriesTreasury2y][d2]
		g.YieldCurve, spreadAt, spreadName = ptr(round4(a.value-b.value)), a.date, "10y-2y spread (DGS10-DGS2)"
		read(SeriesTreasury10y, a)
		read(SeriesTreasury2y, b)
	case tok:
		p := byS[SeriesSpread10y2y][t]
		g.YieldCurve, spreadAt = ptr(round4(p.value)), p.date
		read(SeriesSpread10y2y, p)
	}
	if i, ok := latest(SeriesFedFunds); ok {
		ps := byS[SeriesFedFunds]
		g.FedFunds = ptr(ps[i].value)
		read(SeriesFedFunds, ps[i])
		if j, ok := monthBefore(ps, i, fedFundsMonth); ok {
			read(SeriesFedFunds, ps[j])
			switch d := round4(ps[i].value - ps[j].value); {
			case d >= fedFundsMove:
				g.FedFundsDirection = "rising"
			case d <= -fedFundsMove:
				g.FedFundsDirection = "falling"
			default:
				g.FedFundsDirection = "flat"
			}
		}
	}
	if i, ok := latest(SeriesUnemployment); ok {
		ps := byS[SeriesUnemployment]
		g.Unemployment = ptr(ps[i].value)
		if s, ok := sahm(ps[:i+1]); ok {
			g.Sahm, sahmAt = ptr(s), ps[i].date
			for _, p := range ps[i+1-sahmMonths : i+1] {
				read(SeriesUnemployment, p)
			}
		} else {
			read(SeriesUnemployment, ps[i])
		}
	}
	slices.SortFunc(g.Inputs, func(a, b Reading) int {
		if c := strings.Compare(a.Series, b.Series); c != 0 {
			return c
		}
		return a.AsOf.Compare(b.AsOf)
	})
	g.Regime, g.Rule = classify(g, vixAt, spreadAt, sahmAt, spreadName)
	if len(g.Inputs) == 0 {
		return Result{} // nothing fresh: no regime
	}
	return Result{Inputs: len(g.Inputs), Regime: g}
}

// classify applies the regime rule to g's inputs and says in words, with
// the numbers, which rule fired.
func classify(g *Regime, vixAt, spreadAt, sahmAt time.Time, spreadName string) (string, string) {
	const dayF, monthF = "2006-01-02", "2006-01"
	var off []string
	if g.VIX != nil && *g.VIX > vixHigh {
		off = append(off, fmt.Sprintf("VIX %.2f > 30 (as of %s)", *g.VIX, vixAt.Format(dayF)))
	}
	if g.Sahm != nil && *g.Sahm >= sahmTrigger {
		off = append(off, fmt.Sprintf("Sahm indicator %.2f >= 0.50 (as of %s)", *g.Sahm, sahmAt.Format(monthF)))
	}
	if len(off) > 0 {
		return RegimeRiskOff, RegimeRiskOff + ": " + strings.Join(off, "; ")
	}
	if g.VIX != nil && g.YieldCurve != nil && g.Sahm != nil && *g.VIX < vixLow && *g.YieldCurve > 0 && *g.Sahm < sahmCalm {
		return RegimeRiskOn, fmt.Sprintf("%s: VIX %.2f < 20 (as of %s), %s %.2f > 0 (as of %s), Sahm indicator %.2f < 0.30 (as of %s)",
			RegimeRiskOn, *g.VIX, vixAt.Format(dayF), spreadName, *g.YieldCurve, spreadAt.Format(dayF), *g.Sahm, sahmAt.Format(monthF))
	}
	var notOff, notOn []string
	if g.VIX == nil {
		notOff, notOn = append(notOff, "VIX missing"), append(notOn, "VIX missing")
	} else {
		notOff = append(notOff, fmt.Sprintf("VIX %.2f <= 30", *g.VIX))
		if *g.VIX >= vixLow {
			notOn = append(notOn, fmt.Sprintf("VIX %.2f >= 20", *g.VIX))
		}
	}
	switch {
	case g.YieldCurve == nil:
		notOn = append(notOn, spreadName+" missing")
	case *g.YieldCurve <= 0:
		notOn = append(notOn, fmt.Sprintf("%s %.2f <= 0", spreadName, *g.YieldCurve))
	}
	if g.Sahm == nil {
		notOff, notOn = append(notOff, "Sahm indicator missing"), append(notOn, "Sahm indicator missing")
	} else {
		notOff = append(notOff, fmt.Sprintf("Sahm indicator %.2f < 0.50", *g.Sahm))
		if *g.Sahm >= sahmCalm {
			notOn = append(notOn, fmt.Sprintf("Sahm indicator %.2f >= 0.30", *g.Sahm))
		}
	}
	return RegimeNeutral, fmt.Sprintf("%s: not risk_off (%s); not risk_on (%s)", RegimeNeutral,
		strings.Join(notOff, ", "), strings.Join(notOn, ", "))
}

// sahm is FRED's Sahm rule indicator for the last month of ps (monthly
// points in date order, one per month): the three-month average of that
// month less the minimum three-month average of the 12 months before,
// rounded to 2 decimals; false without 15 consecutive months.
func sahm(ps []point) (float64, bool) {
	if len(ps) < sahmMonths {
		return 0, false
	}
	ps = ps[len(ps)-sahmMonths:]
	if monthIndex(ps[len(ps)-1].date)-monthIndex(ps[0].date) != sahmMonths-1 {
		return 0, false // a month is missing
	}
	sum3 := func(k int) float64 { return ps[k-2].value + ps[k-1].value + ps[k].value }
	low := math.Inf(1)
	for k := 2; k < sahmMonths-1; k++ {
		low = min(low, sum3(k))
	}
	return roundTo((sum3(sahmMonths-1)-low)/3, 100), true
}

func monthIndex(t time.Time) int { return t.Year()*12 + int(t.Month()) - 1 }

// monthBefore finds the point k months before ps[i].
func monthBefore(ps []point, i, k int) (int, bool) {
	want := monthIndex(ps[i].date) - k
	for j := i - 1; j >= 0; j-- {
		switch m := monthIndex(ps[j].date); {
		case m == want:
			return j, true
		case m < want:
			return 0, false
		}
	}
	return 0, false
}

// bothLatest finds the latest date a and b (each in date order, one point
// a date) both have.
func bothLatest(a, b []point) (int, int, bool) {
	i, j := len(a)-1, len(b)-1
	for i >= 0 && j >= 0 {
		switch c := a[i].date.Compare(b[j].date); {
		case c == 0:
			return i, j, true
		case c > 0:
			i--
		default:
			j--
		}
	}
	return 0, 0, false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func ptr(v float64) *float64 { return &v }
