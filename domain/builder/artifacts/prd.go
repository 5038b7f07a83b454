package artifacts

import (
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/builder/template"
)

// PRD is the content of the prd view (schemas/prd.json). Offline it is a
// skeleton: the sections an app spec determines are filled from it (the
// idea in the founder's words, the features each entity's list, create,
// edit and delete give, the entities, the spec's assumptions), and the
// sections that need judgement (problem statement, personas, goals,
// success metrics, non-goals, risks) are null and listed in Missing.
type PRD struct {
	Title          string        `json:"title"`
	Status         string        `json:"status"` // "skeleton" offline; "draft" from a model
	App            AppRef        `json:"app"`
	Track          string        `json:"track"`
	CompanyName    *string       `json:"companyName"`
	Problem        PRDProblem    `json:"problem"`
	Solution       PRDSolution   `json:"solution"`
	Users          PRDUsers      `json:"users"`
	Goals          []string      `json:"goals"`
	SuccessMetrics []string      `json:"successMetrics"`
	NonGoals       []string      `json:"nonGoals"`
	Risks          []string      `json:"risks"`
	Features       []PRDFeature  `json:"features"`
	Entities       []PRDEntity   `json:"entities"`
	Assumptions    []string      `json:"assumptions"`
	Missing        []MissingPart `json:"missing"`
}

// PRDProblem is the problem section: the idea as the founder wrote it,
// and a statement of the problem (null offline).
type PRDProblem struct {
	Idea      string  `json:"idea"`
	Statement *string `json:"statement"`
}

// PRDSolution is what the app does, from its archetype.
type PRDSolution struct {
	Archetype string  `json:"archetype"`
	Summary   *string `json:"summary"` // the lexicon's description of the archetype; null when the spec is not the template's
}

// PRDUsers is the users section; personas need judgement (null offline).
type PRDUsers struct {
	Personas []Persona `json:"personas"`
}

// Persona is one kind of user (written by a model or the founder).
type Persona struct {
	Name  string   `json:"name"`
	Needs []string `json:"needs"`
}

// PRDFeature is one feature with its acceptance criteria.
type PRDFeature struct {
	ID         string   `json:"id"`
	Entity     string   `json:"entity"`
	Action     string   `json:"action"` // list, create, edit, delete
	Title      string   `json:"title"`
	Acceptance []string `json:"acceptance"`
}

// PRDEntity is an entity as the PRD names it (the dataModel view has the
// fields).
type PRDEntity struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Summary  *string  `json:"summary"`
	Fields   int      `json:"fields"`
	Required []string `json:"required"` // labels of the required fields
}

// MissingPart is a section left empty because it needs judgement.
type MissingPart struct {
	Section string `json:"section"`
	Needs   string `json:"needs"` // "model_or_founder"
	Reason  string `json:"reason"`
}

// missingParts are the PRD's judgement sections, in document order.
func missingParts() []MissingPart {
	part := func(section, reason string) MissingPart {
		return MissingPart{Section: section, Needs: "model_or_founder", Reason: reason}
	}
	return []MissingPart{
		part("problem.statement", "why the problem matters and to whom is a judgement the app spec does not contain"),
		part("users.personas", "who the users are and what they need is not in the app spec"),
		part("goals", "goals are the founder's choice"),
		part("successMetrics", "what counts as success, and how much of it, is not in the app spec"),
		part("nonGoals", "what the product will not do is the founder's choice"),
		part("risks", "risks need judgement about the market and the founder's situation"),
	}
}

// DerivePRD derives the PRD skeleton from b's spec for track and
// companyName (as the founder gave them). Deterministic; nothing in it is
// invented: every filled value comes from the spec, the catalogue or the
// request.
func DerivePRD(b Basis, track, companyName string) PRD {
	s := b.Spec
	p := PRD{Title: s.AppName + ": product requirements (skeleton)", Status: "skeleton",
		App: AppRef{Name: s.AppName, Slug: s.Slug, Archetype: s.Archetype}, Track: track,
		Problem:     PRDProblem{Idea: s.Idea},
		Solution:    PRDSolution{Archetype: s.Archetype},
		Features:    []PRDFeature{},
		Entities:    make([]PRDEntity, 0, len(s.Entities)),
		Assumptions: nonNil(s.Assumptions),
		Missing:     missingParts()}
	if companyName != "" {
		p.CompanyName = &companyName
	}
	if b.FromTemplate() {
		p.Solution.Summary = archetypeSummary(s.Archetype)
	}
	for _, e := range s.Entities {
		var req []string
		for _, f := range e.Fields {
			if f.Required {
				req = append(req, f.Label)
			}
		}
		pe := PRDEntity{Name: e.Name, Label: e.Label, Fields: len(e.Fields), Required: nonNil(req)}
		if b.FromTemplate() {
			pe.Summary = catalogueSummary(s.Archetype, e.Name)
		}
		p.Entities = append(p.Entities, pe)
		p.Features = append(p.Features, crudFeatures(e, req)...)
	}
	return p
}

// crudFeatures are an entity's list, create, edit and delete features,
// with acceptance criteria from its fields.
func crudFeatures(e template.Entity, required []string) []PRDFeature {
	plural := strings.ReplaceAll(e.Plural, "_", " ")
	one := article(e.Label) + " " + e.Label // "an Invoice"
	create := []string{fmt.Sprintf("%s can be saved with the fields %s", capital(one), labels(e.Fields))}
	if len(required) > 0 {
		create = append(create, fmt.Sprintf("%s is not saved unless %s %s filled in", capital(one), andList(required), isAre(len(required))))
	}
	for _, f := range e.Fields {
		if c := typeRule(f); c != "" {
			create = append(create, c)
		}
	}
	return []PRDFeature{
		{ID: e.Plural + ".list", Entity: e.Name, Action: "list", Title: "List " + plural,
			Acceptance: []string{fmt.Sprintf("Every saved %s appears in the list of %s", e.Label, plural)}},
		{ID: e.Plural + ".create", Entity: e.Name, Action: "create", Title: "Create " + one, Acceptance: create},
		{ID: e.Plural + ".edit", Entity: e.Name, Action: "edit", Title: "Edit " + one,
			Acceptance: []string{fmt.Sprintf("Any field of a saved %s can be changed, under the rules of creating one", e.Label)}},
		{ID: e.Plural + ".delete", Entity: e.Name, Action: "delete", Title: "Delete " + one,
			Acceptance: []string{fmt.Sprintf("A deleted %s no longer appears in the list of %s", e.Label, plural)}},
	}
}

// typeRule states what a field of a checked type must hold ("" for free
// text).
func typeRule(f template.Field) string {
	what := map[string]string{
		template.TypeNumber: "a number", template.TypeMoney: "an amount with at most two decimal places",
		template.TypeDate: "a date", template.TypeTime: "a time of day", template.TypeEmail: "an email address",
		template.TypeURL: "an http or https address", template.TypePhone: "a phone number", template.TypeBool: "yes or no",
	}[f.Type]
	if f.Type == template.TypeEnum {
		what = "one of " + andList(f.Options)
	}
	if what == "" {
		return ""
	}
	return fmt.Sprintf("%s must be %s", f.Label, what)
}

func labels(fs []template.Field) string {
	l := make([]string, len(fs))
	for i, f := range fs {
		l[i] = f.Label
	}
	return andList(l)
}

// article is "an" before a label that starts with a vowel letter, else
// "a" (spelling, not sound: the catalogue's labels need no more).
func article(label string) string {
	if label != "" && strings.ContainsRune("AEIOUaeiou", rune(label[0])) {
		return "an"
	}
	return "a"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// andList joins words: "a", "a and b", "a, b and c".
func andList(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// archetypeSummary is the lexicon's description of an archetype, as "An
// app that ...", or nil.
func archetypeSummary(archetype string) *string {
	for _, e := range template.Lexicon() {
		if e.Archetype == archetype && e.Summary != "" {
			s := "An app that " + e.Summary
			return &s
		}
	}
	return nil
}
