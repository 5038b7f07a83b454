package catalog

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Task types the classifier tells apart; they are also the four router ids.
const (
	TaskSoftwareEngineering = "software-engineering"
	TaskKnowledgeBase       = "knowledge-base"
	TaskWriting             = "writing"
	TaskGeneral             = "general"
)

// Tasks lists the task types in the order a router falls back through them
// (see Resolve).
func Tasks() []string {
	return []string{TaskSoftwareEngineering, TaskGeneral, TaskKnowledgeBase, TaskWriting}
}

// RouterIDs lists the smart routers' ids (the seed's): one per task type.
func RouterIDs() []string { return Tasks() }

// Router is a smart router: a request naming its id is classified by task
// type (Classify) and served by the model Routes names for that task. The
// table is catalog data; a router's own task's model is its speciality,
// and its "general" route is what it does with a request of no particular
// type.
type Router struct {
	ID     string            `json:"id"`
	Label  string            `json:"label,omitempty"`
	Tier   Tier              `json:"tier"`   // the tier a caller needs (the seed: Professional and up)
	Routes map[string]string `json:"routes"` // task type -> model id, every task type
}

// LongDocumentRunes is the length from which a request is a long document
// (knowledge-base): about 2,000 tokens of English.
const LongDocumentRunes = 8000

// Classification rules, as Classify reports them.
const (
	RuleTools            = "tools"
	RuleCodeBlock        = "code_block"
	RuleStackTrace       = "stack_trace"
	RuleProgrammingWords = "programming_words"
	RuleLongDocument     = "long_document"
	RuleRetrievalWords   = "retrieval_words"
	RuleWritingWords     = "writing_words"
	RuleNoSignal         = "no_signal"
)

// stackTrace matches the lines of the common stack traces and compiler
// errors: Python ("Traceback (most recent call last)", `File "x.py", line
// 3`), Java and JavaScript ("at pkg.Fn(File.java:12)"), Go ("panic:",
// "goroutine 1 [running]"), and a source file with a line number
// ("main.go:12", "app.ts:4:7").
var stackTrace = regexp.MustCompile(`(?i)traceback \(most recent call last\)|exception in thread|file "[^"]+", line \d+|` +
	`\n\s*at [\w$.<>/]+ ?\(.*:\d+(:\d+)?\)|^panic: |\npanic: |goroutine \d+ \[|` +
	`\b[\w./-]+\.(go|py|js|jsx|ts|tsx|java|kt|rs|rb|c|cc|cpp|h|hpp|cs|swift|php|scala):\d+\b`)

// wordRE splits text into words; "c++", "c#" and "node.js" stay whole.
var wordRE = regexp.MustCompile(`[a-z0-9][a-z0-9+#]*(?:\.[a-z0-9]+)*`)

// programmingWords are words that mark a software task; two distinct ones
// make a request software-engineering (one alone, as in "a blog post about
// Python", does not).
var programmingWords = wordSet(`function functions method class variable compile compiler compiling bug bugs debug
	debugging refactor refactoring regex sql api apis endpoint json yaml http python golang javascript typescript java
	rust kotlin swift ruby php c++ c# html css react node.js npm pip docker kubernetes git github repository repo
	exception stacktrace segfault null pointer algorithm recursion array struct library dependency script bash shell
	terminal linux database schema backend frontend deploy deployment runtime syntax code coding programming unittest
	lambda async await mutex goroutine`)

// retrievalPhrases mark a question over documents (knowledge-base).
var retrievalPhrases = []string{"according to", "based on the", "in the document", "in this document", "the attached",
	"attached document", "from the context", "knowledge base", "cite", "citation", "citations", "sources",
	"source document", "look up", "retrieve", "documentation", "faq", "the following document", "the text above",
	"the passage", "the transcript", "the report above", "the manual", "search the"}

// writingWords mark a prose-writing task: writing verbs and the kinds of
// prose.
var writingWords = wordSet(`write rewrite draft compose proofread paraphrase polish edit essay blog article story poem
	email letter newsletter headline tagline slogan caption speech announcement bio biography toast eulogy lyrics
	tweet post copywriting`)

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// Classify is the routers' deterministic classifier: it reads a request's
// text (the system prompt and the user messages' text, joined) and its
// tool count, and returns the task type and the rule that decided. The
// first rule that holds wins:
//
//  1. the request carries tools → software-engineering (tool use is what
//     the coding models do reliably);
//  2. a fenced code block (```) → software-engineering;
//  3. a stack trace or compiler error (see stackTrace) → software-engineering;
//  4. two or more distinct programming words → software-engineering;
//  5. LongDocumentRunes characters or more → knowledge-base;
//  6. a retrieval phrase ("according to", "the attached", "cite", ...) →
//     knowledge-base;
//  7. a writing verb or a kind of prose ("draft", "rewrite", "essay",
//     "email", ...) → writing;
//  8. otherwise → general.
//
// Words are matched whole and case-insensitively; the same request always
// gets the same answer.
func Classify(text string, tools int) (task, rule string) {
	switch {
	case tools > 0:
		return TaskSoftwareEngineering, RuleTools
	case strings.Contains(text, "```"):
		return TaskSoftwareEngineering, RuleCodeBlock
	case stackTrace.MatchString(text):
		return TaskSoftwareEngineering, RuleStackTrace
	}
	lower := strings.ToLower(text)
	words := wordRE.FindAllString(lower, -1)
	if distinct(words, programmingWords) >= 2 {
		return TaskSoftwareEngineering, RuleProgrammingWords
	}
	if utf8.RuneCountInString(text) >= LongDocumentRunes {
		return TaskKnowledgeBase, RuleLongDocument
	}
	joined := " " + strings.Join(words, " ") + " "
	for _, p := range retrievalPhrases {
		if strings.Contains(joined, " "+p+" ") {
			return TaskKnowledgeBase, RuleRetrievalWords
		}
	}
	if distinct(words, writingWords) >= 1 {
		return TaskWriting, RuleWritingWords
	}
	return TaskGeneral, RuleNoSignal
}

// distinct counts the distinct words of words that set holds.
func distinct(words []string, set map[string]bool) int {
	seen := map[string]bool{}
	for _, w := range words {
		if set[w] {
			seen[w] = true
		}
	}
	return len(seen)
}
