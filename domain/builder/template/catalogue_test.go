package template

import (
	"slices"
	"strings"
	"testing"
)

func TestLexiconIsConsistent(t *testing.T) {
	lex := Lexicon()
	var order []string
	owner := map[string]string{} // stemmed cue -> archetype
	for _, e := range lex {
		order = append(order, e.Archetype)
		if e.Label == "" || e.Summary == "" || len(e.Strong) == 0 {
			t.Errorf("%s: needs a label, a summary and at least one strong cue", e.Archetype)
		}
		for _, p := range slices.Concat(e.Strong, e.Signs, e.Hints) {
			if p != strings.ToLower(p) || strings.Join(strings.Fields(p), " ") != p {
				t.Errorf("%s: cue %q is not lower case with single spaces", e.Archetype, p)
			}
			key := strings.Join(stems(p), " ")
			if key == "" || len(stems(p)) != len(strings.Fields(p)) {
				t.Errorf("%s: cue %q loses words when tokenized", e.Archetype, p)
			}
			if prev, ok := owner[key]; ok {
				t.Errorf("cue %q (stem %q) is in both %s and %s", p, key, prev, e.Archetype)
			}
			owner[key] = e.Archetype
		}
	}
	if !slices.Equal(order, Archetypes()) {
		t.Errorf("lexicon order %q is not Archetypes() %q", order, Archetypes())
	}
	if !slices.Contains(Archetypes(), Fallback) {
		t.Errorf("fallback %q is not an archetype", Fallback)
	}
}

func TestCatalogueIsConsistent(t *testing.T) {
	var order []string
	for _, d := range Catalogue() {
		order = append(order, d.Archetype)
		if len(d.Core)+len(d.Fallback) == 0 {
			t.Errorf("%s has no entities", d.Archetype)
		}
		// Every archetype's core, plus every extra, makes a valid app.
		s := Spec{AppName: "Check", Slug: "check", Archetype: d.Archetype}
		for _, e := range slices.Concat(d.Core, d.Fallback) {
			s.Entities = append(s.Entities, toEntity(e, nil))
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s core: %v", d.Archetype, err)
		}
	}
	if !slices.Equal(order, Archetypes()) {
		t.Errorf("catalogue order %q is not Archetypes() %q", order, Archetypes())
	}
	triggers := map[string]string{}
	extras := map[string]bool{}
	for _, x := range Extras() {
		if extras[x.Name] {
			t.Errorf("extra %q is defined twice", x.Name)
		}
		extras[x.Name] = true
		s := Spec{AppName: "Check", Slug: "check", Archetype: Fallback, Entities: []Entity{toEntity(x.EntityDef, nil)}}
		if err := s.Validate(); err != nil {
			t.Errorf("extra %s: %v", x.Name, err)
		}
		if len(x.Triggers) == 0 {
			t.Errorf("extra %s has no trigger", x.Name)
		}
		for _, w := range x.Triggers {
			st := stems(w)
			if len(st) != 1 {
				t.Errorf("extra %s: trigger %q is not one word", x.Name, w)
				continue
			}
			if prev, ok := triggers[st[0]]; ok {
				t.Errorf("trigger %q (stem %q) brings both %s and %s", w, st[0], prev, x.Name)
			}
			triggers[st[0]] = x.Name
		}
	}
	// An entity that appears as core and as extra means the same thing.
	for _, d := range Catalogue() {
		for _, e := range slices.Concat(d.Core, d.Fallback) {
			for _, c := range e.Covers {
				if !extras[c] {
					t.Errorf("%s.%s covers %q, which is not an extra", d.Archetype, e.Name, c)
				}
			}
		}
	}
}

func TestEveryExtraCanJoinEveryArchetype(t *testing.T) {
	var words []string
	for _, x := range Extras() {
		words = append(words, x.Triggers[0])
	}
	for _, a := range Archetypes() {
		for i := 0; i < len(words); i += MaxExtras {
			group := words[i:min(i+MaxExtras, len(words))]
			ents, _ := pickEntities(a, tokenize(strings.Join(group, " ")))
			s := Spec{AppName: "Check", Slug: "check", Archetype: a, Entities: ents}
			if _, err := Generate(s); err != nil {
				t.Errorf("%s with %q: %v", a, group, err)
			}
		}
	}
}

func TestFieldTypesAreKnownToTheServer(t *testing.T) {
	server, err := assets.ReadFile("assets/server.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range FieldTypes() {
		if typ != TypeEnum && !strings.Contains(string(server), "\n  "+typ+": ") {
			t.Errorf("server.js has no check for field type %q", typ)
		}
	}
}

func TestValidateRefusesBadSpecs(t *testing.T) {
	good := func() Spec {
		s, _ := Plan("book yoga classes at my studio")
		return s
	}
	for _, c := range []struct {
		field string
		mod   func(*Spec)
	}{
		{"app_name", func(s *Spec) { s.AppName = "" }},
		{"slug", func(s *Spec) { s.Slug = "Yoga Bookings" }},
		{"slug", func(s *Spec) { s.Slug = "yoga--bookings" }},
		{"archetype", func(s *Spec) { s.Archetype = "bank" }},
		{"entities", func(s *Spec) { s.Entities = nil }},
		{"entities[1]", func(s *Spec) { s.Entities[1].Plural = s.Entities[0].Plural }},
		{"entities[0].name", func(s *Spec) { s.Entities[0].Name = "Service" }},
		{"entities[0].plural", func(s *Spec) { s.Entities[0].Plural = "../x" }},
		{"entities[0].fields[0].name", func(s *Spec) { s.Entities[0].Fields[0].Name = "id" }},
		{"entities[0].fields[1].name", func(s *Spec) { s.Entities[0].Fields[1].Name = "name" }},
		{"entities[0].fields[0].type", func(s *Spec) { s.Entities[0].Fields[0].Type = "string" }},
		{"entities[0].fields[0].options", func(s *Spec) { s.Entities[0].Fields[0].Options = []string{"a"} }},
		{"entities[1].fields[6].options", func(s *Spec) { s.Entities[1].Fields[6].Options = nil }},
		{"entities[1].fields[6].options[1]", func(s *Spec) { s.Entities[1].Fields[6].Options[1] = "requested" }},
	} {
		s := good()
		c.mod(&s)
		err := s.Validate()
		if kernelField(err) != c.field {
			t.Errorf("Validate after breaking %s: %v", c.field, err)
		}
		if _, gerr := Generate(s); gerr == nil {
			t.Errorf("Generate accepted a spec with a bad %s", c.field)
		}
	}
}
