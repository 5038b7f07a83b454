package wordnet

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestKindsClimbTheHypernymsOfTheFixture(t *testing.T) {
	db, err := Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		word  string
		lemma string
		want  []string
	}{
		{"corgis", "corgi", []string{"welsh_corgi", "dog", "domestic_dog", "animal"}}, // plural, compound synonym, no "entity"
		{"geese", "goose", []string{"animal"}},                                        // noun.exc
		{"vacations", "vacation", []string{"holiday"}},                                // synonyms share a synset
		{"lisbon", "lisbon", []string{"city"}},                                        // instance hypernym
		{"running", "", nil},                                                          // no noun
		{"domestic_dog", "domestic_dog", []string{"dog", "animal"}},                   // a compound
		{"running_dog", "", nil},
	} {
		lemma, got := db.Kinds(c.word)
		if lemma != c.lemma || !slices.Equal(got, c.want) {
			t.Errorf("Kinds(%q) = %q, %q; want %q, %q", c.word, lemma, got, c.lemma, c.want)
		}
	}
	if _, memo := db.kinds["running_dog"]; memo {
		t.Error("an unknown compound was memoised")
	}
	if got := db.Lemma("holidays"); got != "holiday" {
		t.Errorf("Lemma(holidays) = %q", got)
	}
}

func TestOpenRejectsAMissingOrEmptyDatabase(t *testing.T) {
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("Open of an empty directory succeeded")
	}
	dir := t.TempDir()
	for _, f := range []string{"data.noun", "index.noun", "noun.exc"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("  licence only\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(dir); err == nil {
		t.Error("Open of a database without synsets succeeded")
	}
}

// The installed database (Debian's wordnet-base), when present, knows that
// a corgi is an animal and a holiday a vacation.
func TestInstalledDatabase(t *testing.T) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		t.Skip("wordnet-base is not installed")
	}
	db, err := Open(DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	for word, kind := range map[string]string{"corgis": "animal", "holidays": "vacation", "sushi": "food", "sister": "relative", "cycling": "sport"} {
		if _, kinds := db.Kinds(word); !slices.Contains(kinds, kind) {
			t.Errorf("Kinds(%q) = %q, lacks %q", word, kinds, kind)
		}
	}
}
