package sentiment

import "testing"

func TestScores(t *testing.T) {
	cases := []struct {
		text  string
		label string
	}{
		{"Thank you so much, that was really helpful and the fix works great", "positive"},
		{"This is terrible, the service is broken and I am very frustrated", "negative"},
		{"I would like to check my order number please", "positive"}, // "like" counts +1: the lexicon is literal
		{"The meeting is on Tuesday at noon", "neutral"},
		{"It was not good at all", "negative"},
		{"", "neutral"},
	}
	for _, c := range cases {
		s := Of(c.text)
		if s.Label != c.label || s.Method != Method || s.Version != Version || s.Score < -1 || s.Score > 1 {
			t.Errorf("%q: %+v, want %s", c.text, s, c.label)
		}
	}
}

func TestNegationAndIntensity(t *testing.T) {
	if g, vg := Of("good").Sum, Of("very good").Sum; vg <= g {
		t.Fatalf("very good %v <= good %v", vg, g)
	}
	if s := Of("not good").Sum; s != -1 {
		t.Fatalf("not good = %v, want -1 (2 * -0.5)", s)
	}
	if s := Of("slightly bad").Sum; s != -1.7 {
		t.Fatalf("slightly bad = %v, want -1.7", s)
	}
	s := Of("great great great great great great")
	if s.Score >= 1 || s.Score < 0.9 || len(s.Matched) != 6 {
		t.Fatalf("normalisation: %+v", s)
	}
}

func TestLexiconValences(t *testing.T) {
	for w, v := range Lexicon {
		if v < -3 || v > 3 || v == 0 {
			t.Errorf("%s: valence %d", w, v)
		}
	}
}
