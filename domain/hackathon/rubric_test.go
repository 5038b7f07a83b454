package hackathon_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/hackathon"
	"github.com/strata-platform/strata/domain/hackathon/judging"
	"github.com/strata-platform/strata/domain/kernel"
)

func crit(key, weight, min, max string) hackathon.Criterion {
	return hackathon.Criterion{Key: key, Weight: weight, Min: min, Max: max}
}

func rubricOf(cs ...hackathon.Criterion) hackathon.Rubric {
	return hackathon.Rubric{Name: "R", Criteria: cs}
}

func TestRubricNormalizeRefuses(t *testing.T) {
	many := func(n int) hackathon.Rubric {
		r := rubricOf()
		for i := range n {
			r.Criteria = append(r.Criteria, crit(fmt.Sprintf("c%d", i), "", "", ""))
		}
		return r
	}
	withLadder := func(l ...string) hackathon.Rubric {
		r := rubricOf(crit("impact", "", "", ""))
		r.TieBreak = l
		return r
	}
	tests := []struct {
		name  string
		r     hackathon.Rubric
		field string
	}{
		{"no name", hackathon.Rubric{Criteria: []hackathon.Criterion{crit("a", "", "", "")}}, "name"},
		{"no criteria", rubricOf(), "criteria"},
		{"more than 20 criteria", many(hackathon.MaxCriteria + 1), "criteria"},
		{"duplicate keys", rubricOf(crit("impact", "", "", ""), crit("impact", "2", "", "")), "criteria[1].key"},
		{"duplicate keys after trimming", rubricOf(crit("impact", "", "", ""), crit(" impact ", "", "", "")), "criteria[1].key"},
		{"upper-case key", rubricOf(crit("Impact", "", "", "")), "criteria[0].key"},
		{"key starting with a digit", rubricOf(crit("1st", "", "", "")), "criteria[0].key"},
		{"key with a dash", rubricOf(crit("a-b", "", "", "")), "criteria[0].key"},
		{"key of 41 characters", rubricOf(crit("a"+strings.Repeat("b", 40), "", "", "")), "criteria[0].key"},
		{"empty key", rubricOf(crit("", "", "", "")), "criteria[0].key"},
		{"name with a control character", rubricOf(hackathon.Criterion{Key: "a", Name: "x\x1by"}), "criteria[0].name"},
		{"weight zero", rubricOf(crit("a", "0", "", "")), "criteria[0].weight"},
		{"negative weight", rubricOf(crit("a", "-1", "", "")), "criteria[0].weight"},
		{"weight with five decimals", rubricOf(crit("a", "0.00001", "", "")), "criteria[0].weight"},
		{"weight not a number", rubricOf(crit("a", "heavy", "", "")), "criteria[0].weight"},
		{"weight above the limit", rubricOf(crit("a", "1000001", "", "")), "criteria[0].weight"},
		{"min equal to max", rubricOf(crit("a", "", "5", "5")), "criteria[0].max"},
		{"min above max", rubricOf(crit("a", "", "6", "")), "criteria[0].max"},
		{"max below the default min", rubricOf(crit("a", "", "", "0")), "criteria[0].max"},
		{"min with three decimals", rubricOf(crit("a", "", "1.125", "")), "criteria[0].min"},
		{"max beyond the limit", rubricOf(crit("a", "", "", "1000000.5")), "criteria[0].max"},
		{"unknown rung", withLadder("raw_mean", "luck", "id"), "tie_break"},
		{"rung twice", withLadder("raw_mean", "raw_mean", "id"), "tie_break"},
		{"id not last", withLadder("id", "raw_mean"), "tie_break"},
		{"no id rung", withLadder("normalised", "raw_mean"), "tie_break"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.r.Normalize()
			if kernel.KindOf(err) != kernel.KindInvalid || field(err) != tt.field {
				t.Fatalf("err %v (field %q), want invalid %s", err, field(err), tt.field)
			}
		})
	}
}

func TestRubricNormalizeDefaults(t *testing.T) {
	in := rubricOf(hackathon.Criterion{Key: " impact "}, crit("tech", "0.50", "0.00", "10.50"))
	r, err := in.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := []hackathon.Criterion{
		{Key: "impact", Name: "impact", Weight: "1", Min: "1", Max: "5"},
		{Key: "tech", Name: "tech", Weight: "0.5", Min: "0", Max: "10.5"},
	}
	if !slices.Equal(r.Criteria, want) {
		t.Fatalf("criteria %+v, want %+v", r.Criteria, want)
	}
	if !slices.Equal(r.TieBreak, judging.DefaultLadder()) {
		t.Fatalf("ladder %v", r.TieBreak)
	}
	if in.Criteria[0].Key != " impact " {
		t.Fatal("Normalize changed its input")
	}

	if _, err := rubricOf(crit("a"+strings.Repeat("b", 39), "", "-5", "-1")).Normalize(); err != nil {
		t.Fatalf("40-character key, negative scale: %v", err)
	}
	r20, err := func() (hackathon.Rubric, error) {
		r := rubricOf()
		for i := range hackathon.MaxCriteria {
			r.Criteria = append(r.Criteria, crit(fmt.Sprintf("c%d", i), "", "", ""))
		}
		return r.Normalize()
	}()
	if err != nil || len(r20.Criteria) != hackathon.MaxCriteria {
		t.Fatalf("20 criteria: %v", err)
	}

	ladder := []string{"raw_mean", "submitted_at", "id"}
	withLadder := rubricOf(crit("a", "", "", ""))
	withLadder.TieBreak = ladder
	r, err = withLadder.Normalize()
	if err != nil || !slices.Equal(r.TieBreak, ladder) {
		t.Fatalf("ladder %v, err %v", r.TieBreak, err)
	}
	ladder[0] = "normalised"
	if r.TieBreak[0] != "raw_mean" {
		t.Fatal("the normalised ladder shares the caller's slice")
	}
}

func normalized(t *testing.T, r hackathon.Rubric) hackathon.Rubric {
	t.Helper()
	n, err := r.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRubricScoreTotals(t *testing.T) {
	std := normalized(t, stdRubric())
	quarter := normalized(t, rubricOf(crit("a", "0.5", "", ""), crit("b", "0.25", "", "")))
	third := normalized(t, rubricOf(crit("a", "0.3333", "", "")))
	signed := normalized(t, rubricOf(crit("a", "2", "-2", "2")))
	s := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		r      hackathon.Rubric
		scores map[string]string
		total  string
		want   string // the recorded total; "" when refused
	}{
		{"exact total", std, s("impact", "4", "design", "3", "tech", "5"), "16", "16"},
		{"total 0.004 above", std, s("impact", "4", "design", "3", "tech", "5"), "16.004", "16"},
		{"total 0.004 below", std, s("impact", "4", "design", "3", "tech", "5"), "15.996", "16"},
		{"total 0.005 above", std, s("impact", "4", "design", "3", "tech", "5"), "16.005", "16"},
		{"total 0.0051 above", std, s("impact", "4", "design", "3", "tech", "5"), "16.0051", ""},
		{"total 0.006 above", std, s("impact", "4", "design", "3", "tech", "5"), "16.006", ""},
		{"total 0.01 below", std, s("impact", "4", "design", "3", "tech", "5"), "15.99", ""},
		{"unweighted sum", std, s("impact", "4", "design", "3", "tech", "5"), "12", ""},
		{"decimal scores", std, s("impact", "4.25", "design", "3.5", "tech", "1.01"), "13.01", "13.01"},
		{"weights 0.5 and 0.25", quarter, s("a", "3", "b", "5"), "2.75", "2.75"},
		{"weights 0.5 and 0.25, decimals", quarter, s("a", "4.99", "b", "1.01"), "2.7475", "2.7475"},
		{"weight 0.3333 kept exact", third, s("a", "3"), "1", "0.9999"},
		{"negative scale", signed, s("a", "-1.5"), "-3", "-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, total, err := tt.r.Score(tt.scores, tt.total)
			if tt.want == "" {
				if kernel.KindOf(err) != kernel.KindUnprocessable {
					t.Fatalf("want unprocessable, got %v", err)
				}
				mentions(t, err, "total_score must equal the rubric's weighted total")
				return
			}
			if err != nil || total != tt.want || len(out) != len(tt.r.Criteria) {
				t.Fatalf("total %q, scores %v, err %v; want total %s", total, out, err, tt.want)
			}
		})
	}
}

func TestRubricScoreNamesTheExpectedTotal(t *testing.T) {
	_, _, err := normalized(t, stdRubric()).Score(map[string]string{"impact": "4", "design": "3", "tech": "5"}, "20")
	if kernel.KindOf(err) != kernel.KindUnprocessable {
		t.Fatalf("err %v", err)
	}
	mentions(t, err, "weighted total (the sum of weight × score) 16 (got 20)")
	_, _, err = normalized(t, rubricOf(crit("a", "0.5", "", ""), crit("b", "0.25", "", ""))).Score(map[string]string{"a": "3", "b": "5"}, "8")
	mentions(t, err, "2.75 (got 8)")
}

func TestRubricScoreCanonicalText(t *testing.T) {
	out, total, err := normalized(t, stdRubric()).Score(map[string]string{"impact": " 4.50 ", "design": "3.0", "tech": "5"}, "17.000")
	want := map[string]string{"impact": "4.5", "design": "3", "tech": "5"}
	if err != nil || total != "17" || !maps.Equal(out, want) {
		t.Fatalf("scores %v total %q err %v", out, total, err)
	}
	for _, bad := range []string{"+4", "4.", ".5", "4e0", "1/2", "--4", "4,5", ""} {
		_, _, err := normalized(t, stdRubric()).Score(map[string]string{"impact": bad, "design": "3", "tech": "5"}, "16")
		if kernel.KindOf(err) != kernel.KindInvalid || field(err) != "scores.impact" {
			t.Errorf("score %q: %v", bad, err)
		}
	}
}

func TestTopCriterion(t *testing.T) {
	tests := []struct {
		r    hackathon.Rubric
		want string
	}{
		{normalized(t, stdRubric()), "impact"},
		{normalized(t, rubricOf(crit("a", "1", "", ""), crit("b", "2.5", "", ""), crit("c", "2.5", "", ""))), "b"},
		{normalized(t, rubricOf(crit("a", "0.25", "", ""), crit("b", "0.5", "", ""))), "b"},
		{normalized(t, rubricOf(crit("a", "10", "", ""), crit("b", "9.9999", "", ""))), "a"},
		{hackathon.Rubric{}, ""},
	}
	for _, tt := range tests {
		if got := tt.r.TopCriterion(); got != tt.want {
			t.Errorf("TopCriterion of %v = %q, want %q", tt.r.Criteria, got, tt.want)
		}
	}
}
