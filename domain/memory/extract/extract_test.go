package extract

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// ents renders entities as "Name/kind" for compact comparisons.
func ents(r Result) []string {
	out := []string{}
	for _, e := range r.Entities {
		out = append(out, e.Name+"/"+string(e.Kind))
	}
	return out
}

// rels renders relations as "S pred O".
func rels(rs []Relation) []string {
	out := []string{}
	for _, x := range rs {
		out = append(out, x.Subject+" "+x.Predicate+" "+x.Object)
	}
	return out
}

func TestEntities(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		// Ambiguous technology words.
		{"Go capitalised mid-sentence", "I write Go every day.", []string{"Go/tech"}},
		{"go the verb", "Let's go to the park.", []string{}},
		{"go lower-case after use", "we use go and postgres", []string{"Go/tech", "PostgreSQL/tech"}},
		{"Go at sentence start needs a cue", "Go ahead and book it.", []string{}},
		{"Go at sentence start with a cue", "Go is my favourite language.", []string{"Go/tech"}},
		{"rust the noun", "The rust on my bike needs fixing.", []string{}},
		{"Rust in a list", "Go and Rust are on the shortlist.", []string{"Go/tech", "Rust/tech"}},
		{"Swift the singer", "Taylor Swift is touring.", []string{"Taylor Swift/person"}},
		{"spring the season", "In spring we hire.", []string{}},
		{"Spring Boot", "Spring Boot powers billing.", []string{"Spring Boot/tech"}},
		{"Julia the person", "My wife Julia teaches.", []string{"Julia/person"}},
		{"Julia the language", "We should try Julia for the simulation code.", []string{"Julia/tech"}},
		{"Phoenix in a stack", "Our stack is Elixir, Phoenix and PostgreSQL.", []string{"Elixir/tech", "Phoenix/tech", "PostgreSQL/tech"}},
		{"Phoenix the city", "Visited Phoenix in May.", []string{"Phoenix/concept"}},
		// Aliases.
		{"aliases", "k8s, golang and postgres", []string{"Kubernetes/tech", "Go/tech", "PostgreSQL/tech"}},
		{"node", "The API runs on Node.js and C++.", []string{"Node.js/tech", "C++/tech"}},
		// Sentence-initial capitals.
		{"time words", "Today I met Priya Patel.", []string{"Priya Patel/person"}},
		{"weekday", "Monday: sync with Bob.", []string{"Bob/person"}},
		{"meeting", "Meeting with Sarah Kim tomorrow.", []string{"Sarah Kim/person"}},
		{"month name alone", "See you in May.", []string{}},
		{"month name as a name", "April Ludgate called.", []string{"April Ludgate/person"}},
		{"ambiguous name at sentence start", "Mark the calendar.", []string{}},
		{"ambiguous name mid-sentence", "Send the deck to Grace.", []string{"Grace/person"}},
		// Organisations.
		{"suffix", "Acme Robotics raised money.", []string{"Acme Robotics/org"}},
		{"university of", "She teaches at the University of Lagos.", []string{"University of Lagos/org"}},
		{"gazetteer alias", "Pitched a16z today.", []string{"Andreessen Horowitz/org"}},
		{"suffix inside a title", "Her title is Staff Software Engineer.", []string{}},
		{"object of works at", "Bob works at Zentrix.", []string{"Bob/person", "Zentrix/org"}},
		{"product that is a company", "Sarah is a designer at Figma.", []string{"Sarah/person", "Figma/org"}},
		// People.
		{"honorific with full name", "Dr. Amara Okafor called.", []string{"Amara Okafor/person"}},
		{"honorific with surname", "Met Ms. Alvarez today.", []string{"Ms. Alvarez/person"}},
		{"list", "Alice, Bob and Carol joined.", []string{"Alice/person", "Bob/person", "Carol/person"}},
		{"possessive", "Lena's favourite database is Postgres.", []string{"Lena/person", "PostgreSQL/tech"}},
		{"alias of a full name", "Alice Chen joined. Alice is great.", []string{"Alice Chen/person"}},
		{"unknown given name with surname", "Jin-woo Park is here.", []string{"Jin-woo Park/person"}},
		{"lower-case text", "alice loves hiking", []string{"Alice/person", "hiking/concept"}},
		{"named company is no person", "He started a company called Brightpath.", []string{}},
		// Places and concepts.
		{"places", "Moved from Lisbon, Portugal to NYC.", []string{"Lisbon/concept", "Portugal/concept", "New York/concept"}},
		{"concepts", "Discussed machine learning and pricing strategy.", []string{"machine learning/concept", "pricing strategy/concept"}},
		{"emoji and CJK", "我喜欢Python和Go。🎉", []string{"Python/tech", "Go/tech"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ents(Extract(c.text, Options{Self: "me"}))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%q\n got %v\nwant %v", c.text, got, c.want)
			}
		})
	}
}

func TestRelations(t *testing.T) {
	cases := []struct {
		name, text  string
		want, ended []string
	}{
		{"first person", "I work at Acme Corp.", []string{"me works_at Acme Corp"}, nil},
		{"subjectless note", "Moved to Berlin last year.", []string{"me lives_in Berlin"}, nil},
		{"imperative is no fact", "Use Docker for local dev.", nil, nil},
		{"role and employer", "Bob Martinez is the CTO of Zentrix.", []string{"Bob Martinez role CTO", "Bob Martinez works_at Zentrix"}, nil},
		{"engineer at", "I'm a product manager at Shopify.", []string{"me role product manager", "me works_at Shopify"}, nil},
		{"joined as", "Mark Lee joined OpenAI as a research scientist.", []string{"Mark Lee works_at OpenAI", "Mark Lee role research scientist"}, nil},
		{"founder", "Emma is the founder of Nordlys Ventures.", []string{"Emma founded Nordlys Ventures"}, nil},
		{"passive founded", "Nuvola Labs was founded by Ahmed Hassan and Li Na.", []string{"Ahmed Hassan founded Nuvola Labs", "Li Na founded Nuvola Labs"}, nil},
		{"possessive title", "Lena's title is Head of Growth.", []string{"Lena title Head of Growth"}, nil},
		{"possessive manager", "Bob's manager is Alice Wong.", []string{"Bob reports_to Alice Wong"}, nil},
		{"title ends before an adjunct", "Lena's title is Director according to the org chart.", []string{"Lena title Director"}, nil},
		{"title after an adverb", "Per her signature, Lena's job title is now Principal.", []string{"Lena title Principal"}, nil},
		{"qualified title", "Omar confirmed that his official title is Vice President.", []string{"Omar title Vice President"}, nil},
		{"got the title", "Omar got the title Senior Lead this cycle.", []string{"Omar title Senior Lead"}, nil},
		{"named keeps holding", "This cycle Omar was named Director, so congratulate him.", []string{"Omar title Director"}, nil},
		{"designation", "The org chart lists Omar Haddad with the designation Principal.", []string{"Omar Haddad title Principal"}, nil},
		{"signature reads", "Omar Haddad's email signature now reads Senior Lead, which is official.", []string{"Omar Haddad title Senior Lead"}, nil},
		{"org name after a tech word", "Callum Reyes works at Obsidian Energy.", []string{"Callum Reyes works_at Obsidian Energy"}, nil},
		{"at present before the verb", "Otieno Mehta at present is employed by Crescent Dynamics.", []string{"Otieno Mehta works_at Crescent Dynamics"}, nil},
		{"current role", "Heads-up that Priya's current role is data engineer, which changes reviews.", []string{"Priya role data engineer"}, nil},
		{"role on the team", "Priya's role on the team is QA analyst at the moment.", []string{"Priya role QA analyst"}, nil},
		{"has the role of", "Priya now has the role of product manager.", []string{"Priya role product manager"}, nil},
		{"serves as", "Since Priya Nair serves as security engineer, ask her.", []string{"Priya Nair role security engineer"}, nil},
		{"functions as the team's", "Priya functions as the team's technical writer right now.", []string{"Priya role technical writer"}, nil},
		{"employment status", "Jonas's employment status is part-time for now.", []string{"Jonas status part-time"}, nil},
		{"status after be", "Jonas Berg is currently on parental leave.", []string{"Jonas Berg status on parental leave"}, nil},
		{"listed as", "Jonas Berg is listed as a contractor at present.", []string{"Jonas Berg status a contractor"}, nil},
		{"four-day week", "Jonas is on a four-day week until June.", []string{"Jonas status on a four-day week"}, nil},
		{"an intern at is a role", "Felix is an intern at CERN.", []string{"Felix role intern", "Felix works_at CERN"}, nil},
		{"a mood is no status", "Jonas is happy with the plan.", nil, nil},
		{"employed, told as a gerund", "Over coffee, Nadia Petrova told me about being on staff at Stripe now.", []string{"Nadia Petrova works_at Stripe"}, nil},
		{"employed, shared as a gerund", "Nadia Petrova shared being employed by Stripe at this point.", []string{"Nadia Petrova works_at Stripe"}, nil},

		{"my manager", "My manager is Dana Kim.", []string{"me reports_to Dana Kim"}, nil},
		{"reverse favourite", "Go is my favourite language.", []string{"me likes Go"}, nil},
		{"list subjects", "Alice, Bob and Carol work at Initech.", []string{"Alice works_at Initech", "Bob works_at Initech", "Carol works_at Initech"}, nil},
		{"list objects", "We use Postgres, Redis and k8s.", []string{"me uses PostgreSQL", "me uses Redis", "me uses Kubernetes"}, nil},
		{"org located", "Acme Corp is headquartered in Austin.", []string{"Acme Corp located_in Austin"}, nil},
		{"person from org", "Had coffee with Valentina Rossi from Stripe.", []string{"me knows Valentina Rossi", "Valentina Rossi works_at Stripe"}, nil},
		{"pronoun with one person", "Lucas moved to Oslo. He joined Lyft.", []string{"Lucas lives_in Oslo", "Lucas works_at Lyft"}, nil},
		{"pronoun with two people", "Alice told Bob she works at Google.", nil, nil},
		{"speaks", "Carlos speaks Spanish and fluent English.", []string{"Carlos speaks Spanish", "Carlos speaks English"}, nil},
		{"studied", "Isabella studied physics at MIT.", []string{"Isabella studied_at MIT"}, nil},
		{"relative clause", "Samir, who works at Cisco, likes Go.", []string{"Samir works_at Cisco", "Samir likes Go"}, nil},
		{"line label", "Sam: prefers tea; hates meetings.", []string{"Sam likes tea", "Sam dislikes meetings"}, nil},
		{"the user", "User prefers concise answers.", []string{"me likes concise answers"}, nil},
		{"conjoined predicates", "Raj graduated from IIT Bombay and now works for Google.", []string{"Raj studied_at IIT Bombay", "Raj works_at Google"}, nil},
		{"unknown company is no resident", "Acme is based in Toronto.", nil, nil},
		{"known company located", "Stripe is headquartered in San Francisco.", []string{"Stripe located_in San Francisco"}, nil},
		{"team", "Hannah just joined the platform team.", []string{"Hannah member_of platform team"}, nil},
		{"vague object", "I love my job.", nil, nil},
		{"possessive head", "Alice is building Acme's new billing system.", nil, nil},
		{"present perfect still holds", "I've worked at Microsoft for 10 years.", []string{"me works_at Microsoft"}, nil},
		{"present perfect summary", "I've worked at Google and Meta.", nil, nil},
		// Negation, modality, questions and ended facts.
		{"negation", "I don't work at Google.", nil, nil},
		{"negated like is dislike", "I don't like Java.", []string{"me dislikes Java"}, nil},
		{"modal", "Zoe might move to Berlin.", nil, nil},
		{"hedge", "If Nadia joins Canva, she moved to Sydney.", nil, nil},
		{"embedded question", "Ask Tom whether he still uses Vim.", nil, nil},
		{"question", "Does Hassan work at Oracle?", nil, nil},
		{"left", "Tom left Microsoft and joined Anthropic.", []string{"Tom works_at Anthropic"}, []string{"Tom works_at Microsoft"}},
		{"no longer", "Lucas is no longer at Uber.", nil, []string{"Lucas works_at Uber"}},
		{"used to", "Daniel used to live in Paris.", nil, []string{"Daniel lives_in Paris"}},
		{"switched", "Switched from Heroku to Fly.io.", []string{"me uses Fly.io"}, []string{"me uses Heroku"}},
		{"former role", "Sarah is a former engineer at Intel.", nil, []string{"Sarah role engineer", "Sarah works_at Intel"}},
		{"future is no fact", "Priya is moving to Tokyo next month.", nil, nil},
		// Moves: the new value holds, the old one ended.
		{"moved from to", "Ana moved from Porto to Madrid.", []string{"Ana lives_in Madrid"}, []string{"Ana lives_in Porto"}},
		{"relocated from to", "I relocated from Berlin to Lisbon in May.", []string{"me lives_in Lisbon"}, []string{"me lives_in Berlin"}},
		{"left a place for", "Ana left Porto for Madrid.", []string{"Ana lives_in Madrid"}, []string{"Ana lives_in Porto"}},
		{"left an employer for", "Ana left Globex for Initech.", []string{"Ana works_at Initech"}, []string{"Ana works_at Globex"}},
		{"joined from", "Ana joined Initech from Globex.", []string{"Ana works_at Initech"}, []string{"Ana works_at Globex"}},
		{"is now at", "Ana is now at Initech.", []string{"Ana works_at Initech"}, nil},
		{"planned move is no fact", "Ana might move from Porto to Madrid.", nil, nil},
		{"subject after a preposition", "Everyone at Globex Corporation uses Teams.", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Extract(c.text, Options{Self: "me"})
			if got := rels(r.Relations); !sameSet(got, c.want) {
				t.Errorf("%q relations\n got %v\nwant %v", c.text, got, c.want)
			}
			if got := rels(r.Ended); !sameSet(got, c.ended) {
				t.Errorf("%q ended\n got %v\nwant %v", c.text, got, c.ended)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestOptions(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
		want []Relation
	}{
		{"no self drops first person", Options{}, nil},
		{"self is a person by default", Options{Self: "Ann"},
			[]Relation{{Subject: "Ann", SubjectKind: Person, Predicate: "works_at", Object: "Stripe", ObjectKind: Org}}},
		{"self kind", Options{Self: "acme-bot", SelfKind: Tech},
			[]Relation{{Subject: "acme-bot", SubjectKind: Tech, Predicate: "works_at", Object: "Stripe", ObjectKind: Org}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Extract("I work at Stripe.", c.opt).Relations; !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestOffsetsAndDedup(t *testing.T) {
	text := "We moved from postgres to k8s; postgres was slow. Alice Chen agreed, Alice said."
	r := Extract(text, Options{})
	want := map[string]string{"PostgreSQL": "postgres", "Kubernetes": "k8s", "Alice Chen": "Alice Chen"}
	if len(r.Entities) != len(want) {
		t.Fatalf("entities %v, want one each of %v", ents(r), want)
	}
	for _, e := range r.Entities {
		if got := text[e.Start:e.End]; got != want[e.Name] {
			t.Errorf("%s spans %q, want %q", e.Name, got, want[e.Name])
		}
	}
	if first := strings.Index(text, "postgres"); r.Entities[0].Start != first {
		t.Errorf("PostgreSQL starts at %d, want the first occurrence %d", r.Entities[0].Start, first)
	}
}

func TestClassify(t *testing.T) {
	cases := map[string]Kind{
		"Alice Chen": Person, "alice-chen": Person, "Dr. Patel": Person, "Zorblat Quux": Person,
		"Acme Corp": Org, "acme-corp": Org, "Acme Robotics": Org, "Google": Org, "University of Lagos": Org,
		"Zentrix": Org, "IBM": Org,
		"kubernetes": Tech, "k8s": Tech, "PostgreSQL": Tech, "Go": Tech, "Node.js": Tech, "FooDB": Tech,
		"pricing strategy": Concept, "machine learning": Concept, "Berlin": Concept, "remote work": Concept,
		"CTO": Concept, "Oracle": Org, "": Concept,
	}
	for name, want := range cases {
		if got := Classify(name); got != want {
			t.Errorf("Classify(%q) = %s, want %s", name, got, want)
		}
	}
}

// TestVocabulary keeps the trigger table inside the documented vocabulary.
func TestVocabulary(t *testing.T) {
	vocab := Predicates()
	for _, s := range triggerSpecs {
		if !slices.Contains(vocab, s.pred) {
			t.Errorf("trigger %q uses predicate %q outside Predicates()", s.pat, s.pred)
		}
	}
}

func TestConcurrentAndDeterministic(t *testing.T) {
	texts := []string{benchText, "I work at Stripe.", "Tom left Microsoft and joined Anthropic."}
	want := make([]string, len(texts))
	for i, s := range texts {
		want[i] = fmt.Sprintf("%+v", Extract(s, Options{Self: "me"}))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 50; n++ {
				i := n % len(texts)
				if got := fmt.Sprintf("%+v", Extract(texts[i], Options{Self: "me"})); got != want[i] {
					t.Errorf("run %d differs:\n%s\n%s", n, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// benchText is a 300-character note.
const benchText = "Alice Chen works at Acme Robotics as a senior engineer and moved to Berlin last spring. " +
	"She prefers Go over Java, uses Postgres and k8s daily, and is interested in machine learning. " +
	"Her manager is Dana Kim. Met Dr. Schmidt from Siemens on Monday; he no longer works at SAP. " +
	"We use Terraform!"

func BenchmarkExtract(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		Extract(benchText, Options{Self: "me"})
	}
}

// FuzzExtract checks that any input extracts without panicking and that
// every mention's offsets lie inside the text.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{benchText, "", "I'm", "Dr.", "'s", "n't", "Go.", "a16z", ":", "我喜欢Go。",
		"Alice's", "Inc. Corp.", "University of", "moved from to", "switched from X to", "my wife ,", "C++#",
		".NET", "— Alice", "\n\nBob:\nlikes", "O'Brien's", "is the head of", "founded by"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := Extract(text, Options{Self: "me"})
		for _, e := range r.Entities {
			if e.Start < 0 || e.End > len(text) || e.Start >= e.End || e.Name == "" {
				t.Fatalf("bad mention %+v in %q", e, text)
			}
		}
		_ = Classify(text)
	})
}
