package briefing

import "time"

// Algorithm names, as the agent mapping of the seed writes them.
const (
	AlgoAcquisition   = "acquisition_signal"   // acquisition signal detection
	AlgoEnvironmental = "environmental_risk"   // environmental risk scoring
	AlgoInfluence     = "developer_influence"  // developer influence ranking
	AlgoSentiment     = "market_sentiment"     // market sentiment tracking (regime classification)
	AlgoContent       = "content_intelligence" // content intelligence extraction
	AlgoCompetitive   = "competitive_movement" // competitive movement detection
)

// Algorithms lists the six algorithms in the order a daily run takes them.
func Algorithms() []string {
	return []string{AlgoSentiment, AlgoContent, AlgoInfluence, AlgoAcquisition, AlgoEnvironmental, AlgoCompetitive}
}

// Signal types.
const (
	SignalAcquisition = "acquisition_opportunity"
	SignalCompetitive = "competitive_filing"
)

// SignalTypes lists the signal types.
func SignalTypes() []string { return []string{SignalAcquisition, SignalCompetitive} }

// Regime labels.
const (
	RegimeRiskOff = "risk_off"
	RegimeRiskOn  = "risk_on"
	RegimeNeutral = "neutral"
)

// Signal is a finding an algorithm made about a subject on its as-of day.
// (Algo, Subject, day) identifies it: a rerun for the same day finds the
// same subject and adds nothing. Rule names the rule that fired; Evidence
// lists the observations (kind and source id) it rests on.
type Signal struct {
	Type     string         `json:"type"`
	Algo     string         `json:"algo"`
	Subject  string         `json:"subject"` // what it is about: a company, a filing
	Score    float64        `json:"score"`
	Rule     string         `json:"rule"`
	Payload  map[string]any `json:"payload"`
	Evidence []Evidence     `json:"evidence"`
}

// Evidence points at one observation an output rests on.
type Evidence struct {
	Kind     string `json:"kind"`
	Source   string `json:"source"`
	SourceID string `json:"source_id"`
}

// Correlation relates two entities, scored by an algorithm on its as-of day.
type Correlation struct {
	Algo     string         `json:"algo"`
	EntityA  string         `json:"entity_a"`
	EntityB  string         `json:"entity_b"`
	Type     string         `json:"type"`
	Score    float64        `json:"score"`
	Metadata map[string]any `json:"metadata"`
}

// Reading is one input of the regime: a series' value and the date it is
// as of.
type Reading struct {
	Series string    `json:"series"`
	Value  float64   `json:"value"`
	AsOf   time.Time `json:"as_of"`
}

// Regime is the market regime on a day: the label, the inputs it was
// decided on (nil when a series had no value in its window) and the rule
// that fired.
type Regime struct {
	Regime       string   `json:"regime"`
	VIX          *float64 `json:"vix"`
	SP500        *float64 `json:"sp500"`
	FedFunds     *float64 `json:"fed_funds"`
	YieldCurve   *float64 `json:"yield_curve"` // 10y-2y spread, percent points
	Unemployment *float64 `json:"unemployment"`
	// Sahm is the Sahm rule indicator (FRED's definition: the three-month
	// average of the unemployment rate less the minimum of the three-month
	// averages over the previous 12 months), nil without 15 months of data.
	Sahm *float64 `json:"sahm"`
	// FedFundsDirection is rising, falling or flat over 12 months (a move
	// of at least 0.25 points), "" without the data.
	FedFundsDirection string    `json:"fed_funds_direction"`
	VIXBand           string    `json:"vix_band"` // low (<20), elevated (20-30), high (>30)
	Rule              string    `json:"rule"`     // the rule that fired, in words with the numbers
	AsOf              time.Time `json:"as_of"`
	Inputs            []Reading `json:"inputs"`
}

// Trending is a company's mention score on a day.
type Trending struct {
	Name         string  `json:"name"`
	MentionScore float64 `json:"mention_score"`
	Mentions     int     `json:"mentions"`
}

// Result is what one algorithm found for one as-of day. Inputs counts the
// observations it read; with none, Result says so (NoInput) and holds no
// output: nothing is invented.
type Result struct {
	Algo         string        `json:"algo"`
	AsOf         time.Time     `json:"as_of"` // the day, 00:00 UTC
	Inputs       int           `json:"inputs"`
	NoInput      bool          `json:"no_input"`
	Signals      []Signal      `json:"signals"`
	Correlations []Correlation `json:"correlations"`
	Regime       *Regime       `json:"regime,omitempty"`
	Trending     []Trending    `json:"trending"`
	// RuleVersion is the version of the algorithm's rules (thresholds,
	// weights) that produced this result.
	RuleVersion string `json:"rule_version"`
}
