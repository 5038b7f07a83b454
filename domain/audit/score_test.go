package audit

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestGradeOf(t *testing.T) {
	for score, want := range map[int]string{
		100: "A+", 95: "A+", 94: "A", 85: "A", 84: "B", 70: "B", 69: "C", 55: "C", 54: "D", 40: "D", 39: "F", 0: "F", -1: "F",
	} {
		if got := GradeOf(score); got != want {
			t.Errorf("GradeOf(%d) = %s, want %s", score, got, want)
		}
	}
}

func TestScoreDeterministic(t *testing.T) {
	for _, f := range fixtures() {
		a, b := Score(f.snap), Score(f.snap)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs differ", f.name)
		}
		ja, _ := json.Marshal(a)
		for i := 0; i < 2; i++ {
			jb, _ := json.Marshal(Score(f.snap))
			if string(ja) != string(jb) {
				t.Fatalf("%s: JSON differs between runs:\n%s\n%s", f.name, ja, jb)
			}
		}
	}
}

func TestScoreDoesNotMutate(t *testing.T) {
	s := excellent()
	before, _ := json.Marshal(s)
	body := string(s.Home.Body)
	Score(s)
	after, _ := json.Marshal(s)
	if string(before) != string(after) || string(s.Home.Body) != body {
		t.Error("Score changed its snapshot")
	}
}

func TestEvidenceExcerptsAreShort(t *testing.T) {
	long := make([]byte, 5000)
	for i := range long {
		long[i] = 'x'
	}
	if n := len([]rune(excerpt(long))); n > excerptMax {
		t.Errorf("excerpt of %d runes", n)
	}
	if got := excerptString("a\n\n  b\tc"); got != "a b c" {
		t.Errorf("%q", got)
	}
	if got := excerpt([]byte("\xff\xfeab")); !json.Valid([]byte(`"` + got + `"`)) {
		t.Errorf("invalid UTF-8 kept: %q", got)
	}
}

func TestCheckPassedThreshold(t *testing.T) {
	for _, c := range []struct {
		score, max int
		want       bool
	}{{11, 15, true}, {10, 15, false}, {7, 10, true}, {6, 10, false}, {0, 0, false}} {
		if got := checkPassed(c.score, c.max); got != c.want {
			t.Errorf("%d/%d: %v", c.score, c.max, got)
		}
	}
}

func TestEmptySnapshot(t *testing.T) {
	// Nothing fetched at all (the zero Snapshot): no panic, zero score, F.
	sc := Score(Snapshot{Target: origin + "/", At: scanAt})
	if sc.Score != 0 || sc.Grade != "F" || len(sc.Checks) != 7 {
		t.Errorf("%d %s", sc.Score, sc.Grade)
	}
	assertWellFormed(t, sc)
}

func TestScoreSurvivesGarbage(t *testing.T) {
	bodies := []string{
		"\x00\xff\xfe garbage \x89PNG",
		`{"openapi": "3.0.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/a/b/c/d"}}}}}}`,
		"openapi: 3.1.0\npaths: [not, a, map]\n",
		"swagger: '2.0'\npaths: 7\n",
		`<script type="application/ld+json">` + deepJSON(5000) + `</script>`,
		"# T\n> s\n## A\n- [x](\n- [](/)\n```\n",
		"User-agent: *\nDisallow: /*****************************************$\n",
	}
	for _, b := range bodies {
		s := excellent()
		for _, r := range []*Response{s.Home, s.LLMsTxt, s.Robots, s.OpenAPI, s.AcceptJSON, s.NotFound, s.Unauthenticated, s.WrongMethod, s.AuthServerMeta} {
			r.Body = []byte(b)
		}
		sc := Score(s)
		assertWellFormed(t, sc)
	}
}

func deepJSON(n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += `{"@type":"Thing","a":`
	}
	out += "1"
	for i := 0; i < n; i++ {
		out += "}"
	}
	return out
}
