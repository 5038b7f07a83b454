// Package extract finds entities and relations in short memory texts
// ("Alice Chen works at Acme Robotics as a senior engineer", "Moved to
// Berlin last spring", "we use postgres and k8s") with gazetteers, word
// patterns and a small trigger grammar. It needs no model, no network and
// only the standard library; it is deterministic and safe for concurrent
// use.
//
// # Entities
//
// Four kinds: Person (given-name and surname gazetteers, honorifics,
// "met X", "my wife X", subjects of person predicates), Org (suffixes
// such as Inc, Labs, University; "University of X"; a gazetteer of
// well-known organisations; objects of works_at, joined, studied_at),
// Tech (a gazetteer of languages, databases, frameworks, clouds, tools and
// protocols with aliases: "postgres" is PostgreSQL, "k8s" Kubernetes,
// "golang" Go; words that are also common words or names, such as Go,
// Rust, Swift, Spring, Julia, need a capital away from a sentence start
// or a technical cue) and Concept (domain concepts such as "machine
// learning"; places, which the platform has no kind for; spoken
// languages; and the noun phrases people like, dislike, are interested
// in, work on, own or manage).
//
// # Relations
//
// The vocabulary (Predicates returns it):
//
//	works_at      X works at/for, joined, is employed by, is an engineer at, teaches at, is now at Y;
//	              "left A for B" and "joined B from A": B now, A ended; "left A": A ended
//	lives_in      X lives in, moved to, relocated to, is based in Y (a place);
//	              "moved/relocated from A to B", "left A for B": B now, A ended (A a known place)
//	role          X is a/the ROLE [at Y], works as ROLE, joined Y as ROLE; my role is ROLE
//	title         X's title is Y
//	status        X's status is Y; X is part-time, on leave, a contractor; the state of a thing
//	              (states.go): "the checkout bug was fixed", "the Acme deal closed", "we cancelled
//	              the Heroku plan", "ticket #42 is still open"
//	reports_to    X reports to Y; X's manager/boss is Y; Y is my manager
//	manages       X manages/leads/oversees Y
//	founded       X founded/co-founded Y; X is the founder of Y; Y was founded by X
//	studied_at    X studied (CS) at, graduated from, is an alumnus of Y
//	located_in    X (an org) is headquartered/located/based in Y
//	uses          X uses/relies on/is written in/switched to/deployed to Y; our stack is Y
//	likes         X likes/loves/enjoys/prefers/is into/is a fan of Y; Y is my favourite
//	dislikes      X dislikes/hates/can't stand/doesn't like/is not a fan of Y
//	interested_in X is interested in/curious about/passionate about/learning Y
//	works_on      X works on/is building Y
//	knows         X knows/met/had lunch with/is friends with Y
//	married_to    X is married to Y; X's wife/husband is Y; my wife Y
//	owns          X owns/bought Y
//	member_of     X is a member of/part of Y; X joined/is on the Y team
//	speaks        X speaks/is fluent in Y (a human language)
//	born_in       X was born in Y
//
// First-person sentences ("I work at Acme", "my role is CTO", "we use
// Go") and subjectless notes ("Moved to Berlin.", "Loves hiking.") are
// about Options.Self. "he"/"she" resolve only when the text names exactly
// one person before them.
//
// Precision comes first: questions, hypotheticals ("might join", "if",
// "wants to move"), negations ("doesn't work at") and future plans give no
// relation. Facts that stopped ("left Google", "no longer works at Uber",
// "used to live in Paris", "switched from Heroku") go to Result.Ended,
// never to Result.Relations.
package extract
