package text_test

import (
	"slices"
	"testing"

	"github.com/strata-platform/strata/domain/memory/text"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"stemming", "Running runners easily connected", []string{"run", "runner", "easili", "connect"}},
		{"stop words dropped", "The cat is on the mat and it was there", []string{"cat", "mat"}},
		{"contractions are stop words", "I'm sure we don't know", []string{"sure", "know"}},
		{"possessive removed", "Alice's dog's toys", []string{"alic", "dog", "toy"}},
		{"internal apostrophe kept then removed", "O'Brien rock'n'roll", []string{"obrien", "rocknrol"}},
		{"curly apostrophe", "Alice’s", []string{"alic"}},
		{"quotes are not apostrophes", "'quoted' words'", []string{"quot", "word"}},
		{"hyphen parts and joined", "e-mail state-of-the-art", []string{"e", "mail", "email", "state", "art", "stateoftheart"}},
		{"numbers kept", "Costs 1,000 dollars, 3.14 and 42 in 2023.", []string{"cost", "1000", "dollar", "3.14", "42", "2023"}},
		{"alphanumerics not stemmed", "gpt4 v1.2.3 covid-19", []string{"gpt4", "v1.2.3", "covid", "19", "covid19"}},
		{"accents folded", "Café naïve Straße Łódź", []string{"cafe", "naiv", "strass", "lodz"}},
		{"decomposed accent folded", "Cafe\u0301", []string{"cafe"}},
		{"CJK unigrams", "機器学習", []string{"機", "器", "学", "習"}},
		{"kana and hangul", "ありがとう 한국", []string{"あ", "り", "が", "と", "う", "한", "국"}},
		{"CJK next to latin", "Go言語", []string{"go", "言", "語"}},
		{"emoji are separators", "I ❤️ pizza🍕 and 👍🏽 tea👨‍👩‍👧", []string{"pizza", "tea"}},
		{"other scripts kept unstemmed", "Привет, Москва", []string{"привет", "москва"}},
		{"lowercase", "PostgreSQL NASA", []string{"postgresql", "nasa"}},
		{"empty", "  ...  ", nil},
		{"only stop words", "it is what it is", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := text.Tokens(tt.in)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"bigram", "machine learning", []string{"machin", "learn", "machin_learn"}},
		{"bigram skips stop words", "Bank of America", []string{"bank", "america", "bank_america"}},
		{"no bigram across punctuation", "tea, coffee", []string{"tea", "coffe"}},
		{"joined compound not in bigrams", "e-mail client", []string{"e", "mail", "email", "client", "e_mail", "mail_client"}},
		{"CJK bigrams", "学習", []string{"学", "習", "学_習"}},
		{"single word", "postgres", []string{"postgr"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := text.Terms(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAnalyzeFlags(t *testing.T) {
	toks := text.Analyze("Alice met Bob in 2023. Then state-of-the-art")
	want := []text.Token{
		{Stem: "alic", Word: "alice", Capitalised: true, Segment: 0},
		{Stem: "met", Word: "met", Segment: 0},
		{Stem: "bob", Word: "bob", Capitalised: true, Segment: 0},
		{Stem: "2023", Word: "2023", Number: true, Segment: 0},
		{Stem: "state", Word: "state", Segment: 1},
		{Stem: "art", Word: "art", Segment: 1},
		{Stem: "stateoftheart", Word: "stateoftheart", Joined: true, Segment: 1},
	}
	if !slices.Equal(toks, want) {
		t.Errorf("Analyze = %+v\nwant      %+v", toks, want)
	}
}

func TestAnalyzerMatchesAnalyze(t *testing.T) {
	var a text.Analyzer
	inputs := []string{
		"The runners were running quickly to Alice's house.",
		"PostgreSQL replication lag in 2024",
		"機器学習 and naïve cafés",
		"The runners were running quickly to Alice's house.", // memo hit
	}
	for _, in := range inputs {
		if got, want := a.Analyze(in), text.Analyze(in); !slices.Equal(got, want) {
			t.Errorf("Analyzer.Analyze(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestTokensDeterministic(t *testing.T) {
	in := "Alice Chen works at Acme Robotics since 2019; 機器学習 ❤️ e-mail"
	first := text.Terms(in)
	for range 50 {
		if got := text.Terms(in); !slices.Equal(got, first) {
			t.Fatalf("Terms not deterministic: %q vs %q", got, first)
		}
	}
}
