// Package briefing is the agent-briefing domain: observations ingested
// from outside (market indicators, company mentions, filings, documents,
// developer activity), the six daily algorithms that turn them into
// signals, correlations, a market regime and trending companies, the
// agents and what each may see, and the per-agent consumption of signals.
//
// Every algorithm is a deterministic function of its inputs and an as-of
// day (algorithms.go); every output carries the rule that produced it and
// the inputs it used, so a briefing can be traced back to its
// observations. Nothing here reads a clock, a database or the network.
package briefing
