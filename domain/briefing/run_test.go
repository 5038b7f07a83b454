package briefing

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// fold folds events as the store gives them back: through JSON.
func fold(t *testing.T, d *RunDay, evs []kernel.Event) {
	t.Helper()
	for _, e := range evs {
		raw, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back kernel.Event
		for _, c := range Events() {
			if c().EventType() == e.EventType() {
				back = c()
			}
		}
		if err := json.Unmarshal(raw, back); err != nil {
			t.Fatal(err)
		}
		d.Apply(back)
	}
}

func TestARerunAddsOnlyItsRecord(t *testing.T) {
	day := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	res := Result{Algo: AlgoAcquisition, AsOf: Day(day), Inputs: 3, RuleVersion: "v1",
		Signals: []Signal{{Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: "Acme", Score: 65, Rule: "r",
			Payload: map[string]any{"company": "Acme", "score": 65, "rules": []any{"sc13d"}}}},
		Correlations: []Correlation{{Algo: AlgoAcquisition, EntityA: "Acme", EntityB: "Beta", Type: "t", Score: 0.5, Metadata: map[string]any{"n": 2}}},
		Trending:     []Trending{{Name: "Acme", MentionScore: 1.25, Mentions: 2}}}
	var d RunDay
	first := DecideRun(d, res, "run-1", TriggerCLI, day)
	if len(first) != 4 {
		t.Fatalf("first run: %d events, want signal, correlations, trending and the run", len(first))
	}
	fold(t, &d, first)
	again := DecideRun(d, res, "run-2", TriggerSchedule, day.Add(time.Hour))
	if len(again) != 1 || again[0].EventType() != "briefing.algorithm_ran" {
		t.Fatalf("rerun: %v", again)
	}
	if ran := again[0].(*AlgorithmRan); ran.Signals != 0 || ran.Correlations != 0 {
		t.Errorf("rerun record: %+v", ran)
	}
	res.Signals = append(res.Signals, Signal{Type: SignalAcquisition, Algo: AlgoAcquisition, Subject: "Beta", Score: 50})
	more := DecideRun(d, res, "run-3", TriggerCLI, day)
	if len(more) != 2 || more[0].(*SignalDetected).Subject != "Beta" {
		t.Fatalf("a new finding: %v", more)
	}
	if SignalID(AlgoAcquisition, "Acme", day) != first[0].(*SignalDetected).SignalID ||
		SignalID(AlgoAcquisition, "Acme", day.Add(24*time.Hour)) == SignalID(AlgoAcquisition, "Acme", day) {
		t.Error("signal ids are not per algorithm, subject and day")
	}
}

func TestNoInputRecordsThatAndNothingElse(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	evs := DecideRun(RunDay{}, Result{Algo: AlgoSentiment, AsOf: day, NoInput: true}, "r", TriggerCLI, day)
	if len(evs) != 1 || !evs[0].(*AlgorithmRan).NoInput {
		t.Fatalf("no input: %v", evs)
	}
}
