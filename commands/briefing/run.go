package briefing

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// maxRunClashes bounds how often a run decides again after another run of
// the same algorithm and day appended first.
const maxRunClashes = 5

// RunReport is what one algorithm's run for a day did.
type RunReport struct {
	RunID        string    `json:"run_id"`
	Algo         string    `json:"algo"`
	Day          string    `json:"day"`
	Inputs       int       `json:"inputs"`
	NoInput      bool      `json:"no_input"`
	NewSignals   int       `json:"new_signals"`
	Signals      int       `json:"signals"` // found by this run, new or not
	Correlations int       `json:"correlations"`
	Regime       string    `json:"regime,omitempty"`
	Trending     int       `json:"trending"`
	RuleVersion  string    `json:"rule_version"`
	Took         string    `json:"took"`
	At           time.Time `json:"at"`
}

// CheckAlgo checks an algorithm's name.
func CheckAlgo(algo string) error {
	if !slices.Contains(briefing.Algorithms(), algo) {
		return kernel.Invalid("algo", "enum", "algo must be one of "+strings.Join(briefing.Algorithms(), ", "))
	}
	return nil
}

// RunAll runs the six algorithms for asOf's day, one run id for all.
func (s *Service) RunAll(ctx context.Context, asOf time.Time, trigger string) ([]RunReport, error) {
	if err := s.catchUp(ctx); err != nil {
		return nil, err
	}
	runID := newID()
	var out []RunReport
	for _, algo := range briefing.Algorithms() {
		r, err := s.run(ctx, runID, algo, asOf, trigger)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Run runs one algorithm for asOf's day (UTC): it waits for the read model
// to show every observation committed before, reads the algorithm's
// window, runs it and appends what is new on the day's stream.
func (s *Service) Run(ctx context.Context, algo string, asOf time.Time, trigger string) (RunReport, error) {
	if err := CheckAlgo(algo); err != nil {
		return RunReport{}, err
	}
	if err := s.catchUp(ctx); err != nil {
		return RunReport{}, err
	}
	return s.run(ctx, newID(), algo, asOf, trigger)
}

func (s *Service) run(ctx context.Context, runID, algo string, asOf time.Time, trigger string) (RunReport, error) {
	start := time.Now()
	day := briefing.Day(asOf)
	w, ok := briefing.WindowOf(algo)
	if !ok {
		return RunReport{}, CheckAlgo(algo)
	}
	in, err := s.load(ctx, w, day.Add(24*time.Hour))
	if err != nil {
		return RunReport{}, err
	}
	res, err := briefing.Run(algo, in, day)
	if err != nil {
		return RunReport{}, err
	}
	stream := eventstore.Stream{Type: briefing.StreamRun, ID: briefing.RunStream(algo, day)}
	var evs []kernel.Event
	var app eventstore.Appended
	for attempt := 0; ; attempt++ {
		envs, err := s.store.Load(ctx, stream.ID, eventstore.LoadOptions{})
		if err != nil {
			return RunReport{}, err
		}
		var d briefing.RunDay
		var version int64
		for _, e := range envs {
			d.Apply(e.Event)
			version = e.StreamVersion
		}
		evs = briefing.DecideRun(d, res, runID, trigger, s.Now())
		app, err = s.store.Append(ctx, stream, version, evs...)
		if kernel.KindOf(err) == kernel.KindConflict && attempt < maxRunClashes {
			continue
		}
		if err != nil {
			return RunReport{}, fmt.Errorf("briefing: record the %s run of %s: %w", algo, day.Format(time.DateOnly), err)
		}
		break
	}
	if err := s.settle(ctx, app.Last); err != nil {
		return RunReport{}, err
	}
	ran := evs[len(evs)-1].(*briefing.AlgorithmRan)
	rep := RunReport{RunID: runID, Algo: algo, Day: day.Format(time.DateOnly), Inputs: res.Inputs, NoInput: res.NoInput,
		NewSignals: ran.Signals, Signals: len(res.Signals), Correlations: len(res.Correlations), Trending: len(res.Trending),
		RuleVersion: res.RuleVersion, Took: time.Since(start).Round(time.Millisecond).String(), At: ran.At}
	if res.Regime != nil {
		rep.Regime = res.Regime.Regime
	}
	s.log.Info("briefing: algorithm ran", "algo", algo, "day", rep.Day, "inputs", rep.Inputs, "no_input", rep.NoInput,
		"new_signals", rep.NewSignals, "took", rep.Took, "trigger", trigger)
	return rep, nil
}
