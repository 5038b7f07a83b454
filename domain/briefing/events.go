package briefing

import (
	"time"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/domain/kernel"
)

// Stream types of the briefing context.
const (
	// StreamBatch is one ingested batch of observations; id "briefing-batch:<batch id>".
	StreamBatch = "briefing.batch"
	// StreamRun is one algorithm's day: its runs and what they found; id
	// RunStream(algo, day).
	StreamRun = "briefing.run"
	// StreamConsumption is one agent's consumption of one signal; id
	// ConsumptionStream(agent, signal id). Its first append wins: an agent
	// consumes a signal once, whoever asks how often.
	StreamConsumption = "briefing.consumption"
)

// Day is t's UTC day at 00:00.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// BatchStream names a batch's stream.
func BatchStream(batchID string) string { return "briefing-batch:" + batchID }

// RunStream names the stream of algo's day.
func RunStream(algo string, day time.Time) string {
	return "briefing-run:" + algo + ":" + Day(day).Format(time.DateOnly)
}

// ConsumptionStream names an agent's consumption of a signal.
func ConsumptionStream(agent, signalID string) string {
	return "briefing-consumption:" + agent + ":" + signalID
}

// signalSpace is the UUID name space of signal ids.
var signalSpace = uuid.MustParse("5f0c1c3e-8a51-4d8e-9a52-3b1f9e0c7d21")

// SignalID is the id of algo's signal about subject on day: the same
// finding on the same day has the same id in every process and every
// rerun (a name-based UUID, RFC 9562 version 5).
func SignalID(algo, subject string, day time.Time) string {
	return uuid.NewSHA1(signalSpace, []byte(algo+"\x00"+subject+"\x00"+Day(day).Format(time.DateOnly))).String()
}

// ObservationsRecorded is one batch of observations, only those not
// recorded before (Duplicates counts the ones left out).
type ObservationsRecorded struct {
	BatchID      string        `json:"batch_id"`
	Via          string        `json:"via"` // api or import
	Observations []Observation `json:"observations"`
	Duplicates   int           `json:"duplicates"`
	At           time.Time     `json:"at"`
}

// AlgorithmRan records one run of an algorithm for a day: what it read
// and found (counts), or that it had no input.
type AlgorithmRan struct {
	RunID        string    `json:"run_id"`
	Algo         string    `json:"algo"`
	Day          time.Time `json:"day"`
	Trigger      string    `json:"trigger"` // schedule, cli, api
	Inputs       int       `json:"inputs"`
	NoInput      bool      `json:"no_input"`
	RuleVersion  string    `json:"rule_version"`
	Signals      int       `json:"signals"`      // new signals this run added
	Correlations int       `json:"correlations"` // correlations it scored (0: unchanged or none)
	At           time.Time `json:"at"`
}

// SignalDetected is a new signal. A rerun of the same day never repeats it
// (the id is the finding's, and the run's fold knows it).
type SignalDetected struct {
	SignalID string         `json:"signal_id"`
	Type     string         `json:"type"`
	Algo     string         `json:"algo"`
	Subject  string         `json:"subject"`
	Day      time.Time      `json:"day"`
	Score    float64        `json:"score"`
	Rule     string         `json:"rule"`
	Payload  map[string]any `json:"payload"`
	Evidence []Evidence     `json:"evidence"`
	RunID    string         `json:"run_id"`
	At       time.Time      `json:"at"`
}

// CorrelationsScored is the set of an algorithm's correlations for a day
// (the strongest MaxCorrelations), replacing the set scored before for
// that day; recorded only when it changed.
type CorrelationsScored struct {
	Algo         string        `json:"algo"`
	Day          time.Time     `json:"day"`
	Correlations []Correlation `json:"correlations"`
	RunID        string        `json:"run_id"`
	At           time.Time     `json:"at"`
}

// RegimeClassified is the market regime of a day, recorded when it differs
// from the one recorded for that day before.
type RegimeClassified struct {
	Regime Regime    `json:"regime"`
	RunID  string    `json:"run_id"`
	At     time.Time `json:"at"`
}

// TrendingScored is the day's trending companies, recorded when they
// changed.
type TrendingScored struct {
	Day      time.Time  `json:"day"`
	Trending []Trending `json:"trending"`
	RunID    string     `json:"run_id"`
	At       time.Time  `json:"at"`
}

// SignalConsumed is an agent's consumption of a signal.
type SignalConsumed struct {
	SignalID   string    `json:"signal_id"`
	Agent      string    `json:"agent"`
	SignalType string    `json:"signal_type"`
	At         time.Time `json:"at"`
}

func (ObservationsRecorded) EventType() string { return "briefing.observations_recorded" }
func (AlgorithmRan) EventType() string         { return "briefing.algorithm_ran" }
func (SignalDetected) EventType() string       { return "briefing.signal_detected" }
func (CorrelationsScored) EventType() string   { return "briefing.correlations_scored" }
func (RegimeClassified) EventType() string     { return "briefing.regime_classified" }
func (TrendingScored) EventType() string       { return "briefing.trending_scored" }
func (SignalConsumed) EventType() string       { return "briefing.signal_consumed" }

// Events lists the briefing context's event constructors.
func Events() []func() kernel.Event {
	return []func() kernel.Event{
		func() kernel.Event { return &ObservationsRecorded{} },
		func() kernel.Event { return &AlgorithmRan{} },
		func() kernel.Event { return &SignalDetected{} },
		func() kernel.Event { return &CorrelationsScored{} },
		func() kernel.Event { return &RegimeClassified{} },
		func() kernel.Event { return &TrendingScored{} },
		func() kernel.Event { return &SignalConsumed{} },
	}
}
