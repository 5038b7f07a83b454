package briefing

import (
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/briefing"
)

// maxSignalRecommendations bounds the recommendations drawn from signals.
const maxSignalRecommendations = 10

// recommend derives the briefing's recommendations, each from one signal
// shown (the strongest first) or from the regime shown, and says which.
func recommend(b *Briefing) {
	add := func(r Recommendation) {
		b.Sources = append(b.Sources, r)
		b.Recommendations = append(b.Recommendations, r.Text)
	}
	if r := b.MarketRegime; r != nil {
		add(Recommendation{From: "regime", Text: fmt.Sprintf("Market regime %s as of %s (%s): %s",
			r.Regime, r.AsOf.Format("2006-01-02"), r.Rule, regimeAdvice(r.Regime))})
	}
	order := make([]Signal, len(b.Signals))
	copy(order, b.Signals)
	// strongest first, stable on the briefing's order
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && order[j].Score > order[j-1].Score; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for i, s := range order {
		if i == maxSignalRecommendations {
			break
		}
		add(Recommendation{From: "signal", SignalID: s.ID, Text: fmt.Sprintf("%s on %s (score %s, %s): %s [signal %s]",
			strings.ReplaceAll(s.Type, "_", " "), s.Subject, trimFloat(s.Score), s.Rule, signalAdvice(s.Type), s.ID)})
	}
}

func regimeAdvice(regime string) string {
	switch regime {
	case briefing.RegimeRiskOff:
		return "favour capital preservation; defer discretionary raises and outreach that depends on risk appetite"
	case briefing.RegimeRiskOn:
		return "conditions favour outreach, fundraising and expansion"
	default:
		return "no strong market tilt; proceed on company-specific evidence"
	}
}

func signalAdvice(typ string) string {
	switch typ {
	case briefing.SignalAcquisition:
		return "review the evidence and decide whether to open a conversation"
	case briefing.SignalCompetitive:
		return "read the filing and note what it changes for positioning"
	default:
		return "review it"
	}
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.4f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
