package briefing

import (
	"slices"
	"testing"
)

// Every agent of the seed's mapping, with its signal types and algorithms.
func TestAgentMapping(t *testing.T) {
	as, err := NewAgents("acme_ir_agent", "acme_acquisition_agent")
	if err != nil {
		t.Fatal(err)
	}
	acq, comp := SignalAcquisition, SignalCompetitive
	want := map[string][2][]string{
		"ir_agent":               {{acq, comp}, {AlgoInfluence, AlgoContent}},
		"acme_ir_agent":          {{acq, comp}, {AlgoInfluence, AlgoContent}},
		"sales_agent":            {{acq, comp}, {AlgoAcquisition, AlgoInfluence}},
		"scout":                  {{comp}, {AlgoContent, AlgoSentiment}},
		"vega":                   {{comp}, {AlgoSentiment}},
		"vp_marketing":           {{comp}, {AlgoSentiment, AlgoContent}},
		"cfo":                    {{}, {AlgoSentiment}},
		"scc_outreach":           {{acq}, {AlgoAcquisition, AlgoEnvironmental}},
		"acme_acquisition_agent": {{acq}, {AlgoAcquisition}},
		"cos":                    {{acq, comp}, {AlgoSentiment}},
		"research":               {{}, {AlgoContent}},
	}
	if got := as.Names(); len(got) != len(want) {
		t.Fatalf("agents %v, want %d", got, len(want))
	}
	for name, w := range want {
		a, ok := as.Lookup(name)
		if !ok {
			t.Errorf("%s: unknown", name)
			continue
		}
		for _, s := range SignalTypes() {
			if a.Sees(s) != slices.Contains(w[0], s) {
				t.Errorf("%s sees %s: %v", name, s, a.Sees(s))
			}
		}
		for _, algo := range Algorithms() {
			if a.Uses(algo) != slices.Contains(w[1], algo) {
				t.Errorf("%s uses %s: %v", name, algo, a.Uses(algo))
			}
		}
	}
	if _, ok := as.Lookup("nobody"); ok {
		t.Error("an unknown agent was found")
	}
}

func TestAgentNamesAreChecked(t *testing.T) {
	for _, c := range [][2]string{{"ir_agent", "x_acq"}, {"x_ir", "x_ir"}, {"Bad Name", "x_acq"}, {"x_ir", ""}} {
		if _, err := NewAgents(c[0], c[1]); err == nil {
			t.Errorf("NewAgents(%q, %q) accepted", c[0], c[1])
		}
	}
}
