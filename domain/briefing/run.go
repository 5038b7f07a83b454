package briefing

import (
	"bytes"
	"encoding/json"
	"sort"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// MaxCorrelations bounds the correlations an algorithm records for a day:
// the strongest ones (a briefing shows at most its limit of them).
const MaxCorrelations = 200

// RunDay is the fold of one algorithm's day: the signals found so far and
// the last correlations, regime and trending recorded.
type RunDay struct {
	Signals      map[string]bool // ids
	Runs         int
	Correlations []Correlation
	Regime       *Regime
	Trending     []Trending
}

// Apply folds one event of the day's stream.
func (d *RunDay) Apply(e kernel.Event) {
	switch e := e.(type) {
	case *AlgorithmRan:
		d.Runs++
	case *SignalDetected:
		if d.Signals == nil {
			d.Signals = map[string]bool{}
		}
		d.Signals[e.SignalID] = true
	case *CorrelationsScored:
		d.Correlations = e.Correlations
	case *RegimeClassified:
		r := e.Regime
		d.Regime = &r
	case *TrendingScored:
		d.Trending = e.Trending
	}
}

// Trigger values of a run.
const (
	TriggerSchedule = "schedule"
	TriggerCLI      = "cli"
	TriggerAPI      = "api"
)

// DecideRun turns an algorithm's result into the day's new events: the
// signals not found before (by SignalID), the correlations, regime and
// trending when they differ from what the day recorded last, and the
// run's own record, always last. A rerun on the same inputs adds the run
// record only.
func DecideRun(d RunDay, res Result, runID, trigger string, now time.Time) []kernel.Event {
	day := Day(res.AsOf)
	var evs []kernel.Event
	added := 0
	for _, s := range res.Signals {
		id := SignalID(res.Algo, s.Subject, day)
		if d.Signals[id] {
			continue
		}
		added++
		evs = append(evs, &SignalDetected{SignalID: id, Type: s.Type, Algo: res.Algo, Subject: s.Subject, Day: day,
			Score: s.Score, Rule: s.Rule, Payload: s.Payload, Evidence: s.Evidence, RunID: runID, At: now})
	}
	corr := strongest(res.Correlations)
	scored := 0
	if !res.NoInput && !sameJSON(corr, d.Correlations) && (len(corr) > 0 || len(d.Correlations) > 0) {
		scored = len(corr)
		evs = append(evs, &CorrelationsScored{Algo: res.Algo, Day: day, Correlations: corr, RunID: runID, At: now})
	}
	if res.Regime != nil && (d.Regime == nil || !sameJSON(res.Regime, d.Regime)) {
		evs = append(evs, &RegimeClassified{Regime: *res.Regime, RunID: runID, At: now})
	}
	if !res.NoInput && !sameJSON(res.Trending, d.Trending) && (len(res.Trending) > 0 || len(d.Trending) > 0) {
		evs = append(evs, &TrendingScored{Day: day, Trending: res.Trending, RunID: runID, At: now})
	}
	evs = append(evs, &AlgorithmRan{RunID: runID, Algo: res.Algo, Day: day, Trigger: trigger, Inputs: res.Inputs,
		NoInput: res.NoInput, RuleVersion: res.RuleVersion, Signals: added, Correlations: scored, At: now})
	return evs
}

// strongest keeps the MaxCorrelations highest scores (ties by entities and
// type), in the order the algorithm gave otherwise.
func strongest(cs []Correlation) []Correlation {
	if len(cs) <= MaxCorrelations {
		return cs
	}
	out := append([]Correlation(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.EntityA != b.EntityA {
			return a.EntityA < b.EntityA
		}
		if a.EntityB != b.EntityB {
			return a.EntityB < b.EntityB
		}
		return a.Type < b.Type
	})
	return out[:MaxCorrelations]
}

// sameJSON compares two values by their JSON: a fold's values came back
// from JSON (numbers as float64), a fresh result's did not.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	if bytes.Equal(ja, jb) {
		return true
	}
	// nil and empty slices are the same outcome.
	empty := func(j []byte) bool { return string(j) == "null" || string(j) == "[]" }
	return empty(ja) && empty(jb)
}
