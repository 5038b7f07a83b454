package memory

import (
	"slices"
	"testing"
)

func TestParseQuestion(t *testing.T) {
	cases := []struct {
		q       string
		names   []string
		preds   []string
		history bool
	}{
		{"Where does Maria Lopez work?", []string{"Maria Lopez"}, []string{"works_at"}, false},
		{"Who is Maria Lopez's employer?", []string{"Maria Lopez"}, []string{"works_at"}, false},
		{"Which organization is Maria Lopez with?", []string{"Maria Lopez"}, []string{"works_at"}, false},
		{"Who does Tom Berg work for?", []string{"Tom Berg"}, []string{"works_at"}, false},
		{"Where has Maria Lopez worked over the years?", []string{"Maria Lopez"}, []string{"works_at"}, true},
		{"What companies has Maria Lopez been at?", []string{"Maria Lopez"}, []string{"works_at"}, true},
		{"Which city does Maria Lopez live in?", []string{"Maria Lopez"}, []string{"lives_in"}, false},
		{"Which town is home for Maria Lopez?", []string{"Maria Lopez"}, []string{"lives_in"}, false},
		{"Which cities has Maria Lopez lived in?", []string{"Maria Lopez"}, []string{"lives_in"}, true},
		{"What does Maria Lopez do for a living?", []string{"Maria Lopez"}, []string{"role"}, false},
		{"What line of work is Maria Lopez in?", []string{"Maria Lopez"}, []string{"role"}, false},
		{"How has Maria Lopez's job function changed?", []string{"Maria Lopez"}, []string{"role"}, true},
		{"What job title does Maria Lopez have?", []string{"Maria Lopez"}, []string{"title"}, false},
		{"How senior is Maria Lopez?", []string{"Maria Lopez"}, []string{"title"}, false},
		{"What titles has Maria Lopez held?", []string{"Maria Lopez"}, []string{"title"}, true},
		{"What kind of working arrangement does Maria Lopez have?", []string{"Maria Lopez"}, []string{"status"}, false},
		{"On what basis is Maria Lopez employed?", []string{"Maria Lopez"}, []string{"status"}, false},
		// Questions that ask for no fact.
		{"Which work projects is Maria Lopez in charge of?", []string{"Maria Lopez"}, nil, false},
		{"What roles is Maria Lopez hiring for?", []string{"Maria Lopez"}, nil, false},
		{"What gear has Maria Lopez bought for the home office?", []string{"Maria Lopez"}, nil, true},
		{"What database migrations has the team done?", nil, nil, true},
	}
	for _, c := range cases {
		got := ParseQuestion(c.q)
		if !slices.Equal(got.Names, c.names) || !slices.Equal(got.Predicates, c.preds) || got.History != c.history {
			t.Errorf("%q: got names %q predicates %q history %v; want %q %q %v", c.q, got.Names, got.Predicates, got.History,
				c.names, c.preds, c.history)
		}
	}
}

// Names no gazetteer knows are still offered, as capitalised runs.
func TestQuestionNamesIncludeUnknownNames(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"What job did Minjun Balogun do in Q2 2023?", []string{"Minjun Balogun"}},
		{"Which organization is Minjun Balogun with?", []string{"Minjun Balogun"}},
		{"What is Zorblax Quenby's role?", []string{"Zorblax Quenby"}},
		{"Where does Maria Lopez work?", []string{"Maria Lopez"}},
		{"Who does Quenby work for, Initech or Globex?", []string{"Quenby", "Initech", "Globex"}},
	}
	for _, c := range cases {
		if got := ParseQuestion(c.q).Names; !slices.Equal(got, c.want) {
			t.Errorf("%q: names %q, want %q", c.q, got, c.want)
		}
	}
}

func TestQuestionsAboutTheStateOfThings(t *testing.T) {
	cases := []struct {
		q     string
		names []string
		preds []string
	}{
		{"Is the checkout bug still open?", []string{"checkout bug"}, []string{"status"}},
		{"Did the Acme deal close?", []string{"Acme deal", "Acme"}, []string{"status"}},
		{"What's the status of ticket 42?", []string{"ticket 42"}, []string{"status"}},
		{"Who reported the checkout bug?", []string{"checkout bug"}, nil},
		{"Is Ana done with the deck?", []string{"Ana"}, nil},
	}
	for _, c := range cases {
		got := ParseQuestion(c.q)
		if !slices.Equal(got.Names, c.names) || !slices.Equal(got.Predicates, c.preds) {
			t.Errorf("%q: names %q predicates %q; want %q %q", c.q, got.Names, got.Predicates, c.names, c.preds)
		}
	}
}
