// Package artifacts is the builder's planning artifacts (/api/build/artifact)
// and the offline side of its Ask thread (/api/build/ask), as pure code:
//
//   - the nine views (Views) and the JSON Schema (draft 2020-12) of each
//     view's content, embedded from schemas/ (Schema, Validator);
//   - the offline derivation of the two views that an app spec determines
//     without judgement: DataModel and PRD (a skeleton whose judgement
//     sections are null and listed as missing). The other seven views need
//     a model; offline they are never written (Derivable);
//   - the Ask thread's offline answerer: a deterministic intent matcher
//     (Intents, Match) over documented keywords and the answers computed
//     from a company's recorded state (Facts, Answer). A question that
//     matches no intent gets NoModelAnswer, never invented prose.
//
// Nothing here reads a store or calls a model; commands/builder feeds it
// what the events say.
package artifacts

// Labels of what the offline code produces. The artifacts are labelled with
// the template generator (template.Generator, template.Version): they are
// derived from its app spec.
const (
	// Provider is the provider of every offline output: Strata itself.
	Provider = "strata"
	// AskGenerator labels the offline Ask answers: computed from facts
	// (recorded events), not written by a model.
	AskGenerator = "facts"
	// AskVersion is the offline answerer's version (its intents, keywords
	// and sentences); it changes whenever an answer to some question about
	// some state changes.
	AskVersion = "ask-facts/1"
)
