// Package audit is the agent-readiness audit's domain: the rubric (seven
// checks, versioned, each split into documented sub-points with evidence
// and a fix), the grade, the list of AI agents robots.txt is read for,
// and the pure functions that score a snapshot of a site. Fetching is not
// here: commands/audit makes the requests (through the platform's
// SSRF-safe client) and hands their results over as a Snapshot.
package audit
