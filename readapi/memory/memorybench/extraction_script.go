package memorybench

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

// The scripted model of the extraction figures. It is no model: its
// answer to a labelled sentence is the sentence's gold labels with errors
// of the kinds language models make, chosen by a hash of the sentence (so
// every run gives the same answers). The rates are per item, in percent.
const (
	scriptDropEntity   = 10 // an entity left out
	scriptWrongKind    = 8  // an entity given another kind
	scriptBadKind      = 4  // an entity given a kind outside the four (the check drops it)
	scriptDropFact     = 15 // a fact left out
	scriptWrongPred    = 6  // a fact given a wrong predicate of the vocabulary
	scriptEndedAsFact  = 25 // an ended fact given as holding
	scriptInvented     = 12 // per sentence: a name the text does not hold (the check drops it)
	scriptBadPredicate = 10 // per sentence: a fact with a predicate outside the vocabulary (dropped)
	scriptValueEntity  = 30 // per value fact: its value also listed as a concept
	scriptOverreach    = 30 // per sentence with no gold fact: a fact read into a plan, question or negation
)

// scriptRoll is a number in [0, 100) fixed by the sentence and what is
// being decided.
func scriptRoll(text, what string) int {
	h := fnv.New64a()
	_, _ = h.Write([]byte(text + "\x00" + what))
	return int(h.Sum64() % 100)
}

// scriptWrongKinds is the kind a mistyping model gives each kind.
var scriptWrongKinds = map[string]string{"org": "tech", "tech": "org", "person": "org", "concept": "org"}

// scriptWrongPredicates are plausible confusions within the vocabulary.
var scriptWrongPredicates = map[string]string{"works_at": "member_of", "uses": "likes", "manages": "works_on",
	"lives_in": "located_in", "role": "title", "knows": "works_at", "owns": "likes",
	"member_of": "works_at", "founded": "works_at", "likes": "uses", "studied_at": "member_of"}

// scriptInventions are names a model might bring in from its own
// knowledge; one not in the sentence is used.
var scriptInventions = []string{"OpenAI", "Salesforce", "Sarah Kim", "Acme Corp", "San Francisco"}

// scriptAsWritten maps canonical gold names to the spelling a sentence may
// use ("Postgres", "k8s"): a model names things as the text does.
var scriptAsWritten = map[string][]string{"postgresql": {"Postgres"}, "kubernetes": {"k8s"}}

// scriptedAnswer is the scripted model's JSON answer for l.
func scriptedAnswer(l corpus.Labelled) string {
	var a llm.ExtractAnswer
	text, low := l.Text, strings.ToLower(l.Text)
	written := func(name string) string {
		if strings.Contains(low, strings.ToLower(name)) {
			return name
		}
		for _, w := range scriptAsWritten[strings.ToLower(name)] {
			if strings.Contains(low, strings.ToLower(w)) {
				return w
			}
		}
		return name
	}
	for i, e := range l.Entities {
		key := e[0] + "#" + strconv.Itoa(i)
		kind := e[1]
		switch r := scriptRoll(text, "entity "+key); {
		case r < scriptDropEntity:
			continue
		case r < scriptDropEntity+scriptWrongKind:
			kind = scriptWrongKinds[kind]
		case r < scriptDropEntity+scriptWrongKind+scriptBadKind:
			kind = "product"
		}
		a.Entities = append(a.Entities, llm.ExtractEntity{Name: written(e[0]), Kind: kind})
	}
	fact := func(f [3]string) llm.ExtractFact {
		return llm.ExtractFact{Subject: written(f[0]), Predicate: f[1], Object: written(f[2])}
	}
	for i, f := range l.Relations {
		key := strings.Join(f[:], " ") + "#" + strconv.Itoa(i)
		x := fact(f)
		switch r := scriptRoll(text, "fact "+key); {
		case r < scriptDropFact:
			continue
		case r < scriptDropFact+scriptWrongPred && scriptWrongPredicates[f[1]] != "":
			x.Predicate = scriptWrongPredicates[f[1]]
		}
		a.Relations = append(a.Relations, x)
		if (f[1] == "role" || f[1] == "title" || f[1] == "status") && scriptRoll(text, "value "+key) < scriptValueEntity {
			a.Entities = append(a.Entities, llm.ExtractEntity{Name: f[2], Kind: "concept"})
		}
	}
	for i, f := range l.Ended {
		key := strings.Join(f[:], " ") + "#" + strconv.Itoa(i)
		switch r := scriptRoll(text, "ended "+key); {
		case r < scriptDropFact:
		case r < scriptDropFact+scriptEndedAsFact:
			a.Relations = append(a.Relations, fact(f))
		default:
			a.Ended = append(a.Ended, fact(f))
		}
	}
	if len(l.Relations)+len(l.Ended) == 0 && len(l.Entities) > 0 && scriptRoll(text, "overreach") < scriptOverreach {
		e := l.Entities[0]
		pred := map[string]string{"person": "knows", "org": "uses", "tech": "uses", "concept": "lives_in"}[e[1]]
		a.Relations = append(a.Relations, llm.ExtractFact{Subject: corpus.SelfSubject, Predicate: pred, Object: written(e[0])})
	}
	if scriptRoll(text, "invent") < scriptInvented {
		for _, n := range scriptInventions {
			if !strings.Contains(low, strings.ToLower(n)) {
				a.Entities = append(a.Entities, llm.ExtractEntity{Name: n, Kind: "org"})
				a.Relations = append(a.Relations, llm.ExtractFact{Subject: corpus.SelfSubject, Predicate: "knows", Object: n})
				break
			}
		}
	}
	if scriptRoll(text, "predicate") < scriptBadPredicate && len(l.Entities) > 0 {
		a.Relations = append(a.Relations, llm.ExtractFact{Subject: corpus.SelfSubject, Predicate: "customer_of",
			Object: written(l.Entities[0][0])})
	}
	if a.Entities == nil {
		a.Entities = []llm.ExtractEntity{}
	}
	if a.Relations == nil {
		a.Relations = []llm.ExtractFact{}
	}
	if a.Ended == nil {
		a.Ended = []llm.ExtractFact{}
	}
	raw, err := json.Marshal(a)
	if err != nil {
		panic(err) // strings and slices only
	}
	return string(raw)
}
