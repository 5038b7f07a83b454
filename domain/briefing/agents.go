package briefing

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
)

// Agent is an internal agent and what its briefing shows: the signal types
// it is given (and may consume) and the algorithms whose correlations,
// regime and trending companies it reads.
type Agent struct {
	Name       string   `json:"name"`
	Signals    []string `json:"signals"`
	Algorithms []string `json:"algorithms"`
}

// Sees reports whether the agent is given signals of type t.
func (a Agent) Sees(t string) bool { return slices.Contains(a.Signals, t) }

// Uses reports whether the agent reads algo's outputs.
func (a Agent) Uses(algo string) bool { return slices.Contains(a.Algorithms, algo) }

// Default names of the two agents whose names carry the product name (the
// seed does not print them; configuration may rename them).
const (
	DefaultIRAlias          = "strata_ir_agent"
	DefaultAcquisitionAgent = "strata_acquisition_agent"
)

// agentName is what an agent's name may be.
var agentName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// ValidAgentName reports whether s can name an agent.
func ValidAgentName(s string) bool { return agentName.MatchString(s) }

// Agents is the seed's agent mapping with the two configured names.
type Agents struct {
	byName map[string]Agent
	names  []string
}

// NewAgents builds the mapping: irAlias maps as ir_agent does,
// acquisitionAgent is the acquisition agent. Both must be valid, distinct
// names that no other agent has.
func NewAgents(irAlias, acquisitionAgent string) (Agents, error) {
	table := []Agent{
		{Name: "ir_agent", Signals: []string{SignalAcquisition, SignalCompetitive}, Algorithms: []string{AlgoInfluence, AlgoContent}},
		{Name: "sales_agent", Signals: []string{SignalAcquisition, SignalCompetitive}, Algorithms: []string{AlgoAcquisition, AlgoInfluence}},
		{Name: "scout", Signals: []string{SignalCompetitive}, Algorithms: []string{AlgoContent, AlgoSentiment}},
		{Name: "vega", Signals: []string{SignalCompetitive}, Algorithms: []string{AlgoSentiment}},
		{Name: "vp_marketing", Signals: []string{SignalCompetitive}, Algorithms: []string{AlgoSentiment, AlgoContent}},
		{Name: "cfo", Signals: []string{}, Algorithms: []string{AlgoSentiment}},
		{Name: "scc_outreach", Signals: []string{SignalAcquisition}, Algorithms: []string{AlgoAcquisition, AlgoEnvironmental}},
		{Name: acquisitionAgent, Signals: []string{SignalAcquisition}, Algorithms: []string{AlgoAcquisition}},
		{Name: "cos", Signals: []string{SignalAcquisition, SignalCompetitive}, Algorithms: []string{AlgoSentiment}},
		{Name: "research", Signals: []string{}, Algorithms: []string{AlgoContent}},
	}
	ir := table[0]
	table = append(table, Agent{Name: irAlias, Signals: ir.Signals, Algorithms: ir.Algorithms})
	out := Agents{byName: map[string]Agent{}}
	for _, a := range table {
		if !ValidAgentName(a.Name) {
			return Agents{}, fmt.Errorf("agent name %q: lower-case letters, digits and _ only, starting with a letter, at most 64", a.Name)
		}
		if _, dup := out.byName[a.Name]; dup {
			return Agents{}, fmt.Errorf("agent name %q is used twice", a.Name)
		}
		out.byName[a.Name] = a
		out.names = append(out.names, a.Name)
	}
	sort.Strings(out.names)
	return out, nil
}

// Lookup finds an agent by name.
func (as Agents) Lookup(name string) (Agent, bool) {
	a, ok := as.byName[name]
	return a, ok
}

// Names lists the agents' names, sorted.
func (as Agents) Names() []string { return slices.Clone(as.names) }
