package memory

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/memory/extract"
)

func rel(s, p, o string) extract.Relation {
	return extract.Relation{Subject: s, Predicate: p, Object: o}
}

// triples prints relations as sorted "s p o" lines, kinds included.
func triples(rs []extract.Relation) string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s/%s %s %s/%s", r.Subject, r.SubjectKind, r.Predicate, r.Object, r.ObjectKind))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func mentions(ms []extract.Mention) string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m.Name)+"/"+string(m.Kind))
	}
	return strings.Join(out, "; ")
}

func TestCheckModelExtractionKeepsOnlyWhatTheTextSupports(t *testing.T) {
	text := "Also, we moved from postgres to Mailgun's   sister product; Priya Raman runs growth at Acme."
	model := extract.Result{
		Entities: []extract.Mention{
			{Name: "Priya  Raman", Kind: "Person"}, // spaces and case of a kind are forgiven
			{Name: "Acme", Kind: "org"},
			{Name: "acme", Kind: "org"},        // a duplicate
			{Name: "Mailgun", Kind: "product"}, // no such kind
			{Name: "OpenAI", Kind: "org"},      // not in the text
			{Name: "Al", Kind: "person"},       // only inside "Also"
			{Name: "postgres", Kind: "tech"},   // canonical: PostgreSQL
			{Name: "user", Kind: "person"},     // the self is no mention
			{Name: "PostgreSQL", Kind: "tech"}, // not written so, and not known: dropped
			{Name: "sister product", Kind: "concept"},
		},
		Relations: []extract.Relation{
			rel("Priya Raman", "Works At", "Acme"),    // normalised predicate
			rel("priya raman", "works_at", "ACME"),    // a duplicate, case ignored
			rel("Priya Raman", "invested_in", "Acme"), // not in the vocabulary
			rel("User", "uses", "Mailgun"),            // the self, any case
			rel("user", "uses", "Twilio"),             // Twilio is not in the text
			rel("Priya Raman", "role", "head of growth"),
			rel("Priya Raman", "knows", "priya raman"), // about itself
			rel("Priya Raman", "status", "user"),       // the self is no value
		},
		Ended: []extract.Relation{rel("user", "uses", "postgres"), rel("user", "likes", "")},
	}
	got, drop := CheckModelExtraction(text, model)
	if want := "Priya Raman/person; Acme/org; PostgreSQL/tech; sister product/concept"; mentions(got.Entities) != want {
		t.Errorf("entities = %s, want %s", mentions(got.Entities), want)
	}
	if want := "Priya Raman/person works_at Acme/org; user/ uses Mailgun/org"; triples(got.Relations) != want {
		t.Errorf("relations = %s, want %s", triples(got.Relations), want)
	}
	if want := "user/ uses PostgreSQL/tech"; triples(got.Ended) != want {
		t.Errorf("ended = %s, want %s", triples(got.Ended), want)
	}
	if want := (ModelDropped{Kind: 1, Predicate: 1, NotInText: 5, Malformed: 4}); drop != want {
		t.Errorf("dropped %+v, want %+v", drop, want)
	}
	if p := got.Entities[0]; text[p.Start:p.End] != "Priya Raman" {
		t.Errorf("Priya Raman's offsets point at %q", text[p.Start:p.End])
	}

	// A name the offline extractor found in its canonical form is known.
	got, drop = CheckModelExtraction(text, extract.Result{Entities: []extract.Mention{{Name: "PostgreSQL", Kind: "tech"}}},
		"PostgreSQL")
	if mentions(got.Entities) != "PostgreSQL/tech" || drop.Total() != 0 {
		t.Errorf("known canonical name: %s, dropped %+v", mentions(got.Entities), drop)
	}
}

func TestMergeExtractionUnitesAndLetsTheOfflineKindWinButConcept(t *testing.T) {
	offline := extract.Result{
		Entities: []extract.Mention{{Name: "Datadog", Kind: extract.Tech}, {Name: "Pepper", Kind: extract.Concept},
			{Name: "Acme", Kind: extract.Concept}},
		Relations: []extract.Relation{{Subject: "user", SubjectKind: extract.Person, Predicate: "uses", Object: "Acme",
			ObjectKind: extract.Concept}},
		Ended: []extract.Relation{{Subject: "user", SubjectKind: extract.Person, Predicate: "uses", Object: "Heroku",
			ObjectKind: extract.Tech}},
	}
	model := extract.Result{
		Entities: []extract.Mention{{Name: "datadog", Kind: extract.Org}, {Name: "pepper", Kind: extract.Concept},
			{Name: "ACME", Kind: extract.Org}, {Name: "Mailgun", Kind: extract.Org}},
		Relations: []extract.Relation{
			{Subject: "USER", SubjectKind: extract.Person, Predicate: "uses", Object: "acme", ObjectKind: extract.Org},
			{Subject: "user", SubjectKind: extract.Person, Predicate: "uses", Object: "Heroku", ObjectKind: extract.Org},
			{Subject: "user", SubjectKind: extract.Person, Predicate: "owns", Object: "pepper", ObjectKind: extract.Person},
		},
		Ended: []extract.Relation{
			{Subject: "user", SubjectKind: extract.Person, Predicate: "uses", Object: "Acme", ObjectKind: extract.Org},
			{Subject: "user", SubjectKind: extract.Person, Predicate: "uses", Object: "Mailgun", ObjectKind: extract.Org},
		},
	}
	got := MergeExtraction(offline, model)
	if want := "Datadog/tech; Pepper/concept; Acme/org; Mailgun/org"; mentions(got.Entities) != want {
		t.Errorf("entities = %s, want %s", mentions(got.Entities), want)
	}
	// "uses Acme" once, with Acme now an org; the model's "uses Heroku" is
	// a fact the offline extractor says ended; Pepper stays a concept.
	if want := "user/person owns pepper/concept; user/person uses Acme/org"; triples(got.Relations) != want {
		t.Errorf("relations = %s, want %s", triples(got.Relations), want)
	}
	// "uses Acme" holds, so the model's ending of it is dropped.
	if want := "user/person uses Heroku/tech; user/person uses Mailgun/org"; triples(got.Ended) != want {
		t.Errorf("ended = %s, want %s", triples(got.Ended), want)
	}
	if same := MergeExtraction(offline, extract.Result{}); mentions(same.Entities) != mentions(offline.Entities) ||
		triples(same.Relations) != triples(offline.Relations) || triples(same.Ended) != triples(offline.Ended) {
		t.Errorf("merging nothing changed the offline result: %+v", same)
	}
}

func TestFactsMapTheModelsSelfToTheMemorysSelf(t *testing.T) {
	text := "Our dog Pepper chewed the router cable; Wei reports to me."
	model := &extract.Result{
		Entities:  []extract.Mention{{Name: "Pepper", Kind: "concept"}, {Name: "Wei", Kind: "person"}},
		Relations: []extract.Relation{rel("user", "owns", "Pepper"), rel("Wei", "reports_to", "user")},
	}
	got := Facts(text, extract.Options{Self: "Dana Whitfield", SelfKind: extract.Person}, model)
	for _, want := range []string{"Dana Whitfield/person owns Pepper/concept", "Wei/person reports_to Dana Whitfield/person"} {
		if !strings.Contains(triples(got.Relations), want) {
			t.Errorf("relations = %s, want %s among them", triples(got.Relations), want)
		}
	}
	for _, r := range Facts(text, extract.Options{}, model).Relations {
		if r.Subject == "" || r.Object == "" || strings.EqualFold(r.Subject, ModelSelf) || strings.EqualFold(r.Object, ModelSelf) {
			t.Errorf("with no self, %+v was kept", r)
		}
	}
	if off := Facts(text, extract.Options{Self: SelfName}, nil); triples(off.Relations) !=
		triples(extract.Extract(text, extract.Options{Self: SelfName}).Relations) {
		t.Errorf("without a model Facts is not the offline extractor's result: %s", triples(off.Relations))
	}
}

// A model's fact lands in the graph like an extracted one, and folding the
// recorded events again gives the same graph: replay needs no model.
func TestRememberRecordsTheModelsFactsMerged(t *testing.T) {
	h := newHarness(t)
	text := "Standup notes: Ines (Porto) pays Gusto for payroll."
	for _, r := range extract.Extract(text, extract.Options{Self: SelfName}).Relations {
		if r.Predicate == "lives_in" {
			t.Fatalf("the offline extractor finds %+v itself; this test needs a fact only the model states", r)
		}
	}
	h.remember(text, day(10), func(in *RememberInput) {
		in.Model = &extract.Result{Entities: []extract.Mention{{Name: "Gusto", Kind: "org"}, {Name: "Ines", Kind: "person"}},
			Relations: []extract.Relation{rel("Ines", "lives_in", "Porto"), rel("Ines", "pays_for", "Gusto"),
				rel("Ines", "lives_in", "Lisbon")}}
	})
	h.expect("Ines", "lives_in", "Porto@10..now")
	if e := h.s.Lookup("Gusto"); e == nil || e.Type != "org" {
		t.Fatalf("Gusto = %+v, want an org", e)
	}
	if h.s.Lookup("Lisbon") != nil {
		t.Fatal("a name the text does not hold became an entity")
	}
	h.refold()
}
