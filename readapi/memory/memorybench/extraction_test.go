package memorybench

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/memorybench/corpus"
)

// The scorer on a two-sentence set with a known answer.
func TestScoreExtractionCountsByNameKindAndFact(t *testing.T) {
	set := []corpus.Labelled{
		{Text: "one", Entities: [][2]string{{"Ana", "person"}, {"Acme", "org"}},
			Relations: [][3]string{{"Ana", "works_at", "Acme"}}},
		{Text: "two", Entities: [][2]string{{"Go", "tech"}}, Relations: [][3]string{{"user", "uses", "Go"}},
			Ended: [][3]string{{"user", "uses", "Ruby"}}},
	}
	found := map[string]extract.Result{
		"one": {Entities: []extract.Mention{{Name: "ana", Kind: extract.Person}, {Name: "ACME", Kind: extract.Tech},
			{Name: "Bob", Kind: extract.Person}},
			Relations: []extract.Relation{{Subject: "ana", Predicate: "works_at", Object: "acme"},
				{Subject: "Ana", Predicate: "knows", Object: "Bob"}}},
		"two": {Entities: []extract.Mention{{Name: "Go", Kind: extract.Tech}},
			Ended: []extract.Relation{{Subject: "User", Predicate: "uses", Object: "ruby"}}},
	}
	s := ScoreExtraction("test", set, func(text string) extract.Result { return found[text] })
	for _, c := range []struct {
		name    string
		got     PRF
		want    PRF
		p, r, f float64
	}{
		{"entities", s.Entities, PRF{TP: 3, FP: 1, FN: 0}, 0.75, 1, 6.0 / 7},
		{"entities, typed", s.EntitiesTyped, PRF{TP: 2, FP: 2, FN: 1}, 0.5, 2.0 / 3, 4.0 / 7},
		{"relations", s.Relations, PRF{TP: 1, FP: 1, FN: 1}, 0.5, 0.5, 0.5},
		{"ended", s.Ended, PRF{TP: 1}, 1, 1, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
		for _, v := range [][2]float64{{c.got.Precision(), c.p}, {c.got.Recall(), c.r}, {c.got.F1(), c.f}} {
			if math.Abs(v[0]-v[1]) > 1e-9 {
				t.Errorf("%s: P/R/F1 %.4f %.4f %.4f, want %.4f %.4f %.4f", c.name, c.got.Precision(), c.got.Recall(),
					c.got.F1(), c.p, c.r, c.f)
				break
			}
		}
	}
	if s.Sentences != 2 || s.Path != "test" {
		t.Errorf("score = %+v", s)
	}
	if (PRF{}).F1() != 1 || (PRF{FP: 2, FN: 1}).F1() != 0 {
		t.Errorf("F1 of nothing to find and nothing found %v, of only misses %v", (PRF{}).F1(), (PRF{FP: 2, FN: 1}).F1())
	}
}

// The scripted answers are the schema's JSON, the same every run, and
// imperfect: scored alone (unchecked) they neither match the gold nor miss it.
func TestScriptedAnswersAreValidDeterministicAndImperfect(t *testing.T) {
	set, err := corpus.ExtractionSet()
	if err != nil {
		t.Fatal(err)
	}
	s := ScoreExtraction("script", set, func(text string) extract.Result {
		for _, l := range set {
			if l.Text == text {
				a := scriptedAnswer(l)
				if a != scriptedAnswer(l) {
					t.Fatalf("two answers for %q", text)
				}
				r, err := llm.ParseExtractAnswer(a)
				if err != nil {
					t.Fatalf("%q: %v", a, err)
				}
				return r
			}
		}
		return extract.Result{}
	})
	for name, c := range map[string]PRF{"entities": s.Entities, "relations": s.Relations} {
		if c.Precision() >= 0.99 || c.Recall() >= 0.99 || c.Recall() < 0.6 {
			t.Errorf("scripted %s: P %.3f R %.3f, want imperfect but close to the gold", name, c.Precision(), c.Recall())
		}
	}
}

// Both paths are measured; the model path goes through the loopback server
// for every sentence, its check drops the scripted inventions, and its
// merge finds facts the offline extractor missed.
func TestRunExtractionMeasuresBothPaths(t *testing.T) {
	r, err := measureExtraction(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.scores) != 2 || r.scores[0].Path != PathOffline || r.scores[1].Path != PathModel {
		t.Fatalf("scores = %+v", r.scores)
	}
	off, mod := r.scores[0], r.scores[1]
	if r.failed != 0 || r.dropped.NotInText == 0 || r.dropped.Predicate == 0 || r.dropped.Kind == 0 {
		t.Fatalf("failed %d, dropped %+v", r.failed, r.dropped)
	}
	if mod.Relations.TP <= off.Relations.TP || mod.Entities.TP < off.Entities.TP {
		t.Fatalf("the merge lost or added nothing: offline %+v, offline+model %+v", off, mod)
	}
	rep, err := RunExtraction(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"extraction (184 labelled sentences)", "offline+model  entities, typed", "NOT a real model",
		fmt.Sprintf("%d calls failed", 0)} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
	t.Log("\n" + b.String())
}
