package community

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

var modNow = time.Date(2030, 1, 2, 3, 4, 5, 6789, time.UTC)

func modRule(t *testing.T, err error, field, rule string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid || ke.Field != field || ke.Rule != rule {
		t.Fatalf("err = %v, want invalid %s/%s", err, field, rule)
	}
}

func TestContainsWordWholeWords(t *testing.T) {
	for _, c := range []struct {
		s, term string
		want    bool
	}{
		{"ass", "ass", true},
		{"class", "ass", false},
		{"assert", "ass", false},
		{"ass!", "ass", true},
		{"(ass)", "ass", true},
		{"ass-hat", "ass", true},     // '-' is a boundary
		{"ass_hat", "ass", true},     // so is '_': only letters and digits join words
		{"ass1", "ass", false},       // digits join
		{"1ass", "ass", false},       // on either side
		{"classy ass", "ass", true},  // a later whole-word occurrence is found
		{"asss ass", "ass", true},    // after an overlapping non-match
		{"aass", "ass", false},       // overlap at the start
		{"café", "café", true},       // non-ASCII terms match
		{"cafés", "café", false},     // a following Unicode letter joins the word
		{"décafé", "café", false},    // a preceding Unicode letter joins it too
		{"le café.", "café", true},   // punctuation after a multibyte rune
		{"naïve", "na", false},       // 'ï' is a letter
		{"straße", "stra", false},    // 'ß' is a letter
		{"日本語", "日本", false},         // CJK ideographs are letters
		{"日本 語", "日本", true},         // a space separates them
		{"x²", "x", true},            // '²' is a number but not a decimal digit (unicode.IsDigit)
		{"x٣", "x", false},           // Arabic-Indic digit three is a digit
		{"buy now", "buy now", true}, // phrases
		{"buy nowhere", "buy now", false},
		{"rebuy now", "buy now", false},
		{"", "ass", false},
		{"as", "ass", false},
	} {
		if got := containsWord(c.s, c.term); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", c.s, c.term, got, c.want)
		}
	}
}

func blockTerms(t *testing.T, terms ...string) Policy {
	t.Helper()
	ev, err := SetPolicy("tenant", "admin", Policy{BlockedTerms: terms}, modNow)
	if err != nil {
		t.Fatal(err)
	}
	return ev.Policy
}

func TestPolicyCheckTerms(t *testing.T) {
	p := blockTerms(t, "  Buy   NOW ", "ass", "Café")
	for text, blocked := range map[string]bool{
		"You should BUY NOW!":        true,
		"buy   now":                  true, // collapsed white space in the text
		"buy\n\tnow":                 true, // line breaks too
		"buy\u00a0now":               true, // a no-break space is white space for strings.Fields
		"buynow":                     false,
		"buy, now":                   false, // punctuation is not white space
		"What a CLASS act":           false,
		"Kiss my Ass.":               true,
		"Le CAFÉ":                    true, // matched ignoring case, beyond ASCII
		"Les cafés":                  false,
		"a perfectly innocent text.": false,
	} {
		err := p.Check(text)
		if blocked {
			modRule(t, err, "comment", "moderation:blocked_term")
		} else if err != nil {
			t.Errorf("Check(%q) = %v, want allowed", text, err)
		}
	}
	if err := (Policy{}).Check("buy now, ass, café http://x.y"); err != nil {
		t.Fatalf("the zero policy refused: %v", err)
	}
}

func TestPolicyCheckLinks(t *testing.T) {
	for _, c := range []struct {
		text  string
		links int
	}{
		{"no links here", 0},
		{"see http://a.example", 1},
		{"HTTPS://A.EXAMPLE/path and www.b.example", 2},
		{"https://www.a.example counts once", 1},
		{"http://a.example,https://b.example", 1}, // a comma does not end a link
		{"http://a.example https://b.example www.c.example", 3},
		{"<a href=\"http://a.example\">x</a> www.b.example", 2},
		{"awww.example is no link", 0}, // www. must start a word
		{"http:// alone", 0},
		{"ftp://a.example", 0},
	} {
		for limit := max(c.links-1, 0); limit <= c.links; limit++ {
			p := Policy{MaxLinks: &limit}
			err := p.Check(c.text)
			if limit < c.links {
				modRule(t, err, "comment", "moderation:max_links")
				if want := fmt.Sprintf("it has %d links and at most %d", c.links, limit); !strings.Contains(err.Error(), want) {
					t.Errorf("Check(%q) = %v, want it to say %q", c.text, err, want)
				}
			} else if err != nil {
				t.Errorf("Check(%q) with max_links %d = %v, want allowed", c.text, limit, err)
			}
		}
	}
	if err := (Policy{}).Check("http://a www.b https://c"); err != nil {
		t.Fatalf("no max_links: %v", err)
	}
}

func TestSetPolicyNormalizes(t *testing.T) {
	ev, err := SetPolicy("tenant", "admin", Policy{BlockedTerms: []string{"Zeta", " beta ", "ALPHA", "alpha", "buy \t now",
		"Buy Now", "Ünïcode"}, MaxLinks: new(int)}, modNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alpha", "beta", "buy now", "zeta", "ünïcode"}
	if !slices.Equal(ev.Policy.BlockedTerms, want) {
		t.Fatalf("terms = %q, want %q", ev.Policy.BlockedTerms, want)
	}
	if ev.TenantID != "tenant" || ev.By != "admin" || ev.Policy.MaxLinks == nil || *ev.Policy.MaxLinks != 0 ||
		!ev.At.Equal(modNow.Truncate(time.Microsecond)) {
		t.Fatalf("event = %+v", ev)
	}
	var m Moderation
	m.Apply(ev)
	if !slices.Equal(m.Policy.BlockedTerms, want) || m.UpdatedBy != "admin" || !m.UpdatedAt.Equal(ev.At) {
		t.Fatalf("fold = %+v", m)
	}
	if ev, err := SetPolicy("tenant", "admin", Policy{}, modNow); err != nil || len(ev.Policy.BlockedTerms) != 0 || ev.Policy.MaxLinks != nil {
		t.Fatalf("empty policy: %+v %v", ev, err)
	}
}

func TestSetPolicyLimits(t *testing.T) {
	set := func(p Policy) error {
		_, err := SetPolicy("tenant", "admin", p, modNow)
		return err
	}
	modRule(t, set(Policy{BlockedTerms: []string{"ok", " \n "}}), "blocked_terms", "non_empty")
	modRule(t, set(Policy{BlockedTerms: []string{""}}), "blocked_terms", "non_empty")
	// Length counts characters (not bytes) after collapsing white space.
	if err := set(Policy{BlockedTerms: []string{strings.Repeat("é", MaxTermLength)}}); err != nil {
		t.Fatalf("a %d-character term: %v", MaxTermLength, err)
	}
	if err := set(Policy{BlockedTerms: []string{"a" + strings.Repeat(" ", 50) + strings.Repeat("b", MaxTermLength-2)}}); err != nil {
		t.Fatalf("a term of %d characters once collapsed: %v", MaxTermLength, err)
	}
	modRule(t, set(Policy{BlockedTerms: []string{strings.Repeat("é", MaxTermLength+1)}}), "blocked_terms", "max_length:100")
	many := make([]string, 0, MaxBlockedTerms+1)
	for i := range MaxBlockedTerms {
		many = append(many, fmt.Sprint("term", i))
	}
	// Duplicates are dropped before counting.
	if err := set(Policy{BlockedTerms: append(slices.Clone(many), "TERM0", "term1 ")}); err != nil {
		t.Fatalf("%d terms with duplicates: %v", MaxBlockedTerms, err)
	}
	modRule(t, set(Policy{BlockedTerms: append(many, "one more")}), "blocked_terms", "max_items:500")
	for _, n := range []int{-1, MaxLinksLimit + 1} {
		modRule(t, set(Policy{MaxLinks: &n}), "max_links", "range")
	}
	for _, n := range []int{0, MaxLinksLimit} {
		if err := set(Policy{MaxLinks: &n}); err != nil {
			t.Fatalf("max_links %d: %v", n, err)
		}
	}
	_, err := SetPolicy("", "admin", Policy{}, modNow)
	modRule(t, err, "tenant", "required")
}
