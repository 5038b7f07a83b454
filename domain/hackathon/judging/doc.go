// Package judging holds the pure algorithms behind hackathon judging: per-judge
// z-score normalisation of rubric totals, ranking with a published tie-break
// ladder, fair assignment of judges to submissions, and Gavel's Crowd-BT model
// for pairwise judging.
//
// The package imports only the standard library, keeps no package-level
// mutable state and never reads the clock or a random source: every function
// is deterministic for equal input, so its results can be recomputed from the
// event log and compared bit for bit.
package judging
