package extract

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixture is one labelled sentence of testdata/{dev,test}.jsonl. The
// first person is "user" (Options.Self).
type fixture struct {
	Text      string      `json:"text"`
	Entities  [][2]string `json:"entities"`  // name, kind
	Relations [][3]string `json:"relations"` // subject, predicate, object
	Ended     [][3]string `json:"ended"`     // facts that stopped
}

const fixtureSelf = "user"

func loadFixtures(t *testing.T, split string) []fixture {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", split+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fixture
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var fx fixture
		if err := json.Unmarshal(sc.Bytes(), &fx); err != nil {
			t.Fatalf("%s.jsonl:%d: %v", split, line, err)
		}
		out = append(out, fx)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// counts is true positives, false positives and false negatives.
type counts struct{ tp, fp, fn int }

func (c counts) precision() float64 {
	if c.tp+c.fp == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fp)
}

func (c counts) recall() float64 {
	if c.tp+c.fn == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fn)
}

// score compares gold and predicted keys of one sentence.
func score(c *counts, gold, pred map[string]bool, diff *[]string) {
	for k := range pred {
		if gold[k] {
			c.tp++
		} else {
			c.fp++
			*diff = append(*diff, "  + "+k)
		}
	}
	for k := range gold {
		if !pred[k] {
			c.fn++
			*diff = append(*diff, "  - "+k)
		}
	}
}

func relKey(s, p, o string) string { return strings.ToLower(s + " | " + p + " | " + o) }

// evaluate scores a split: per entity kind, relations and ended facts.
// With EXTRACT_FIXTURE_DIFF set to the split's name it also logs every
// mismatch (for tuning on dev).
func evaluate(t *testing.T, split string) map[string]counts {
	res := map[string]counts{}
	showDiff := os.Getenv("EXTRACT_FIXTURE_DIFF") == split
	for _, fx := range loadFixtures(t, split) {
		r := Extract(fx.Text, Options{Self: fixtureSelf})
		var diff []string
		for _, kind := range []Kind{Person, Org, Tech, Concept} {
			gold, pred := map[string]bool{}, map[string]bool{}
			for _, e := range fx.Entities {
				if Kind(e[1]) == kind {
					gold[strings.ToLower(e[0])+" /"+e[1]] = true
				}
			}
			for _, e := range r.Entities {
				if e.Kind == kind {
					pred[strings.ToLower(e.Name)+" /"+string(kind)] = true
				}
			}
			c := res[string(kind)]
			score(&c, gold, pred, &diff)
			res[string(kind)] = c
		}
		for name, pair := range map[string][2][]Relation{
			"relations": {goldRelations(fx.Relations), r.Relations},
			"ended":     {goldRelations(fx.Ended), r.Ended},
		} {
			gold, pred := map[string]bool{}, map[string]bool{}
			for _, x := range pair[0] {
				gold[relKey(x.Subject, x.Predicate, x.Object)] = true
			}
			for _, x := range pair[1] {
				pred[relKey(x.Subject, x.Predicate, x.Object)] = true
			}
			c := res[name]
			score(&c, gold, pred, &diff)
			res[name] = c
		}
		if showDiff && len(diff) > 0 {
			sort.Strings(diff)
			t.Logf("%q\n%s", fx.Text, strings.Join(diff, "\n"))
		}
	}
	return res
}

func goldRelations(g [][3]string) []Relation {
	out := make([]Relation, len(g))
	for i, x := range g {
		out[i] = Relation{Subject: x[0], Predicate: x[1], Object: x[2]}
	}
	return out
}

// TestQualityPerKind measures precision and recall per entity kind and
// for relations on the labelled dev and held-out test splits, and holds
// the held-out split to the quality bar.
func TestQualityPerKind(t *testing.T) {
	rows := []string{"person", "org", "tech", "concept", "relations", "ended"}
	dev, test := evaluate(t, "dev"), evaluate(t, "test")
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-10s | %-6s %-6s %-11s | %-6s %-6s %s\n", "row", "dev P", "dev R", "tp/fp/fn", "test P", "test R", "tp/fp/fn")
	for _, row := range rows {
		d, x := dev[row], test[row]
		fmt.Fprintf(&b, "%-10s | %-6.2f %-6.2f %-11s | %-6.2f %-6.2f %s\n", row, d.precision(), d.recall(),
			fmt.Sprintf("%d/%d/%d", d.tp, d.fp, d.fn), x.precision(), x.recall(), fmt.Sprintf("%d/%d/%d", x.tp, x.fp, x.fn))
	}
	t.Log(b.String())
	for _, row := range rows[:4] {
		c := test[row]
		if c.precision() < 0.85 || c.recall() < 0.75 {
			t.Errorf("held-out %s: precision %.2f (want ≥ 0.85), recall %.2f (want ≥ 0.75)", row, c.precision(), c.recall())
		}
	}
	if c := test["relations"]; c.precision() < 0.85 || c.recall() < 0.65 {
		t.Errorf("held-out relations: precision %.2f (want ≥ 0.85), recall %.2f (want ≥ 0.65)", c.precision(), c.recall())
	}
}
