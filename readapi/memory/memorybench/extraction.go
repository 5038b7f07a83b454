package memorybench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/llm/llmtest"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

// Extraction paths.
const (
	PathOffline = "offline"       // domain/memory/extract alone
	PathModel   = "offline+model" // merged with a model's checked answer (memory.Facts)
)

// PRF counts the items of one score: true positives, false positives and
// false negatives.
type PRF struct{ TP, FP, FN int }

// Precision is TP / (TP + FP); 1 when nothing was predicted.
func (c PRF) Precision() float64 {
	if c.TP+c.FP == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FP)
}

// Recall is TP / (TP + FN); 1 when nothing was to be found.
func (c PRF) Recall() float64 {
	if c.TP+c.FN == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FN)
}

// F1 is the harmonic mean of precision and recall.
func (c PRF) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func (c *PRF) add(gold, pred map[string]bool) {
	for k := range pred {
		if gold[k] {
			c.TP++
		} else {
			c.FP++
		}
	}
	for k := range gold {
		if !pred[k] {
			c.FN++
		}
	}
}

// ExtractionScore is one extraction path scored on a labelled set.
type ExtractionScore struct {
	Path      string
	Sentences int
	// Entities match by name, case ignored; EntitiesTyped also by kind.
	Entities, EntitiesTyped PRF
	// Relations and Ended match by subject, predicate and object, case
	// ignored.
	Relations, Ended PRF
}

// ScoreExtraction runs run on each sentence of set and scores what it
// found against the gold labels (micro-averaged over the set). The first
// person of the gold labels is corpus.SelfSubject, so run should extract
// with that self.
func ScoreExtraction(path string, set []corpus.Labelled, run func(text string) extract.Result) ExtractionScore {
	s := ExtractionScore{Path: path, Sentences: len(set)}
	for _, l := range set {
		got := run(l.Text)
		gold, goldTyped, pred, predTyped := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, e := range l.Entities {
			gold[strings.ToLower(e[0])] = true
			goldTyped[strings.ToLower(e[0])+"\x00"+e[1]] = true
		}
		for _, m := range got.Entities {
			pred[strings.ToLower(m.Name)] = true
			predTyped[strings.ToLower(m.Name)+"\x00"+string(m.Kind)] = true
		}
		s.Entities.add(gold, pred)
		s.EntitiesTyped.add(goldTyped, predTyped)
		s.Relations.add(goldFacts(l.Relations), foundFacts(got.Relations))
		s.Ended.add(goldFacts(l.Ended), foundFacts(got.Ended))
	}
	return s
}

func factKey(s, p, o string) string { return strings.ToLower(s + "\x00" + p + "\x00" + o) }

func goldFacts(fs [][3]string) map[string]bool {
	out := map[string]bool{}
	for _, f := range fs {
		out[factKey(f[0], f[1], f[2])] = true
	}
	return out
}

func foundFacts(rs []extract.Relation) map[string]bool {
	out := map[string]bool{}
	for _, r := range rs {
		out[factKey(r.Subject, r.Predicate, r.Object)] = true
	}
	return out
}

// extractionRun is the outcome of measuring both paths.
type extractionRun struct {
	scores  []ExtractionScore
	dropped memory.ModelDropped // what checking the scripted answers dropped
	failed  int                 // model calls that failed (offline facts only)
	answers int                 // items in the scripted answers
}

// measureExtraction scores the offline extractor and the offline+model
// path on the labelled set; the model is llm.Client.ExtractFacts against
// a loopback server (llmtest) answering each sentence with its scripted
// answer (scriptedAnswer), merged as Remember merges it (memory.Facts).
func measureExtraction(ctx context.Context) (extractionRun, error) {
	set, err := corpus.ExtractionSet()
	if err != nil {
		return extractionRun{}, err
	}
	var out extractionRun
	opt := extract.Options{Self: corpus.SelfSubject}
	out.scores = append(out.scores, ScoreExtraction(PathOffline, set, func(text string) extract.Result {
		return extract.Extract(text, opt)
	}))

	answers := map[string]string{}
	for _, l := range set {
		a := scriptedAnswer(l)
		answers[l.Text] = a
		if r, err := llm.ParseExtractAnswer(a); err == nil {
			out.answers += len(r.Entities) + len(r.Relations) + len(r.Ended)
		}
	}
	srv := llmtest.New()
	defer srv.Close()
	srv.SetScript(func(_, user string) (string, bool) {
		a, ok := answers[user]
		return a, ok
	})
	client, err := llm.New(llm.Config{URL: srv.URL + "/v1", Model: "scripted"})
	if err != nil {
		return extractionRun{}, err
	}
	out.scores = append(out.scores, ScoreExtraction(PathModel, set, func(text string) extract.Result {
		mctx, cancel := context.WithTimeout(ctx, cmd.DefaultExtractTimeout)
		defer cancel()
		raw, err := client.ExtractFacts(mctx, text)
		if err != nil { // as the command layer does: the offline facts stand
			out.failed++
			return extract.Extract(text, opt)
		}
		offline := extract.Extract(text, opt)
		known := make([]string, len(offline.Entities))
		for i, m := range offline.Entities {
			known[i] = m.Name
		}
		_, drop := memory.CheckModelExtraction(text, raw, known...)
		out.dropped.Kind += drop.Kind
		out.dropped.Predicate += drop.Predicate
		out.dropped.NotInText += drop.NotInText
		out.dropped.Malformed += drop.Malformed
		return memory.Facts(text, opt, &raw)
	}))
	return out, nil
}

// extractionNotes say what the extraction section measures.
func extractionNotes(r extractionRun) []string {
	n := 0
	if len(r.scores) > 0 {
		n = r.scores[0].Sentences
	}
	return []string{
		fmt.Sprintf("extraction: %d hand-written, hand-labelled sentences (memorybench/corpus/extraction.jsonl, rules in "+
			"extraction.md); entities match by name, case ignored (typed: and kind), relations and ended facts by subject, "+
			"predicate and object, case ignored; micro-averaged; first person = %q", n, corpus.SelfSubject),
		fmt.Sprintf("extraction offline+model: NOT a real model. A loopback server (llmtest) answers each sentence with a "+
			"scripted answer derived from its gold labels with deliberate errors (omitted and mistyped entities, omitted "+
			"facts, wrong vocabulary predicates, ended facts given as current, facts stated for plans, invented names, "+
			"predicates outside the vocabulary, unknown kinds); it measures the request, parsing, checking and merge path "+
			"(llm.ExtractFacts, memory.Facts), not a model's quality. The check dropped %d of the %d answered items "+
			"(%d names not in the text, %d predicates outside the vocabulary, %d unknown kinds, %d malformed); %d calls failed",
			r.dropped.Total(), r.answers, r.dropped.NotInText, r.dropped.Predicate, r.dropped.Kind, r.dropped.Malformed, r.failed),
	}
}

// RunExtraction measures the extraction section alone (no database):
// `strata bench memory --extraction`.
func RunExtraction(ctx context.Context, progress io.Writer) (Report, error) {
	begin := time.Now()
	rep := Report{Bench: "memory", Mode: "extraction", CPUs: runtime.GOMAXPROCS(0),
		Server: "no database (the extraction section alone)"}
	Options{Progress: progress}.Logf("scoring extraction on the labelled set (offline, offline+model) ...")
	r, err := measureExtraction(ctx)
	if err != nil {
		return rep, err
	}
	rep.Extraction, rep.Notes = r.scores, extractionNotes(r)
	rep.Elapsed = time.Since(begin)
	return rep, nil
}
