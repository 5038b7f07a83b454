package artifacts

import (
	"slices"
	"strings"
	"unicode"
)

// The intents of the offline Ask answerer: the facts about a company it
// can compute from recorded events.
const (
	IntentVersions    = "versions"
	IntentFiles       = "files"
	IntentEntities    = "entities"
	IntentGenerations = "generations"
	IntentArtifacts   = "artifacts"
	IntentDeploy      = "deploy"
	IntentSummary     = "summary" // all of the above
)

// Intent is one kind of question the offline answerer answers, and the
// keywords that select it.
type Intent struct {
	Name     string
	Keywords []string // whole words, or phrases of words separated by single spaces
	Answers  string   // what the answer says, for the documentation
}

// Intents returns the intents in their fixed order (the order of the
// sentences of an answer). This list is the documentation of the matcher:
//
//   - a question is lower-cased and split into words at every character
//     that is not a letter or a digit ("what's" gives "what" and "s");
//   - a keyword matches a whole word, never part of one ("profiles" does
//     not match "file"); a phrase matches its words in a row;
//   - there is no stemming: every form that matches is listed;
//   - every intent whose keywords occur is answered, in this order;
//     summary stands for all the others;
//   - a question that matches no intent gets NoModelAnswer.
func Intents() []Intent {
	return []Intent{
		{Name: IntentVersions, Answers: "how many versions the company has, which is current, how many are restores",
			Keywords: []string{"version", "versions", "checkpoint", "checkpoints", "restore", "restores", "restored"}},
		{Name: IntentFiles, Answers: "how many files the current version has and their size",
			Keywords: []string{"file", "files"}},
		{Name: IntentEntities, Answers: "the entities of the current version's app spec and their fields",
			Keywords: []string{"entity", "entities", "table", "tables", "field", "fields", "data model", "datamodel", "schema"}},
		{Name: IntentGenerations, Answers: "how many generations ran and how each ended; the latest one's status",
			Keywords: []string{"generation", "generations", "build", "builds", "failed", "failure", "failures"}},
		{Name: IntentArtifacts, Answers: "which artifacts are recorded for the company",
			Keywords: []string{"artifact", "artifacts"}},
		{Name: IntentDeploy, Answers: "the recorded deploys: the last one that took the traffic and a later one that failed its probes",
			Keywords: []string{"deploy", "deploys", "deployed", "deployment", "deployments", "redeploy", "redeployed",
				"live", "online", "hosted", "health", "healthy", "uptime"}},
		{Name: IntentSummary, Answers: "all of the above",
			Keywords: []string{"status", "state", "overview", "summary", "stats", "statistics"}},
	}
}

// Words splits a question into lower-case words (see Intents).
func Words(question string) []string {
	return strings.FieldsFunc(strings.ToLower(question), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Match returns the names of the intents question matches, in the order of
// Intents, with summary expanded into the others. Deterministic.
func Match(question string) []string {
	words := Words(question)
	var out []string
	for _, in := range Intents() {
		for _, k := range in.Keywords {
			if containsPhrase(words, strings.Split(k, " ")) {
				out = append(out, in.Name)
				break
			}
		}
	}
	if slices.Contains(out, IntentSummary) {
		out = []string{IntentVersions, IntentFiles, IntentEntities, IntentGenerations, IntentArtifacts, IntentDeploy}
	}
	return out
}

func containsPhrase(words, phrase []string) bool {
	for i := 0; i+len(phrase) <= len(words); i++ {
		if slices.Equal(words[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}

// NoModelAnswer is the answer to a question the offline answerer cannot
// compute: it says so, and what it can answer.
const NoModelAnswer = "No model is configured for the builder, so I can only answer questions about this company's " +
	"recorded state (versions, files, entities, generations, artifacts, deploys). Ask e.g. 'how many versions are there?'"

// NoCompanyAnswer is the answer to a question about recorded state when
// the request named no company.
const NoCompanyAnswer = "No companyId was given, so there is no recorded state to read. Ask again with companyId " +
	"(the chatId of the generation that built the company) for its versions, files, entities, generations, artifacts and deploys."
