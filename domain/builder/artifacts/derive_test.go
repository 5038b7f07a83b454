package artifacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/builder/template"
)

func ideas() []string {
	return []string{
		"a marketplace for handmade pottery",
		"book yoga classes at my studio",
		"a CRM for my real estate deals",
		"online store for vintage sneakers",
		"directory of vegan restaurants in Berlin",
		"helpdesk for my SaaS customers",
		"sell cooking courses online",
		"send invoices to my freelance clients",
		"a community for indie game developers",
		"track my running workouts",
		"  just an app  ",
		"an online shop for my bakery where customers can book cake tastings, pay a deposit and leave reviews",
	}
}

func validator(t *testing.T) *Validator {
	t.Helper()
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func basis(t *testing.T, idea string) Basis {
	t.Helper()
	b, err := IdeaBasis(idea)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every view has an embedded schema with its own $id and title, and the
// schemas compile against the draft 2020-12 meta-schema.
func TestEverySchemaIsEmbeddedAndCompiles(t *testing.T) {
	validator(t)
	for _, v := range Views() {
		b, ok := Schema(v)
		if !ok {
			t.Fatalf("no schema for %s", v)
		}
		var doc struct {
			Schema string `json:"$schema"`
			ID     string `json:"$id"`
			Title  string `json:"title"`
			Desc   string `json:"description"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Schema != "https://json-schema.org/draft/2020-12/schema" || doc.ID != SchemaID(v) || doc.Title != v || doc.Desc == "" {
			t.Fatalf("%s: %+v", v, doc)
		}
		if !Derivable(v) && !strings.Contains(doc.Desc, "llm_unavailable") {
			t.Fatalf("%s: the description does not say the view is a model's only", v)
		}
	}
	if _, ok := Schema("nope"); ok {
		t.Fatal("a schema for an unknown view")
	}
}

// The data model and the PRD of a dozen ideas are valid against their
// schemas, and the same idea gives the same bytes.
func TestOfflineViewsAreSchemaValidAndDeterministic(t *testing.T) {
	val := validator(t)
	for _, idea := range ideas() {
		b := basis(t, idea)
		for view, content := range map[string]any{
			ViewDataModel: DeriveDataModel(b),
			ViewPRD:       DerivePRD(b, TrackApp, ""),
		} {
			raw, err := json.Marshal(content)
			if err != nil {
				t.Fatal(err)
			}
			if err := val.Validate(view, raw); err != nil {
				t.Fatalf("%q %s: %v\n%s", idea, view, err, raw)
			}
			again, _ := json.Marshal(map[string]any{ViewDataModel: DeriveDataModel(basis(t, idea)),
				ViewPRD: DerivePRD(basis(t, idea), TrackApp, "")}[view])
			if !bytes.Equal(raw, again) {
				t.Fatalf("%q %s differs between two derivations", idea, view)
			}
		}
	}
}

// The data model is the spec's entities and fields, nothing more; a text
// field named after another entity is a relation to it.
func TestDataModelComesFromTheSpec(t *testing.T) {
	b := basis(t, "book yoga classes at my studio")
	m := DeriveDataModel(b)
	if len(m.Entities) != len(b.Spec.Entities) || m.App.Archetype != "booking" {
		t.Fatalf("%+v", m)
	}
	for i, e := range b.Spec.Entities {
		me := m.Entities[i]
		if me.Name != e.Name || me.Resource != "/api/"+e.Plural || len(me.Fields) != len(e.Fields) || me.Summary == nil {
			t.Fatalf("entity %d: %+v", i, me)
		}
		for j, f := range e.Fields {
			mf := me.Fields[j]
			if mf.Name != f.Name || mf.Type != f.Type || mf.Required != f.Required || !slices.Equal(mf.Options, f.Options) {
				t.Fatalf("%s.%s: %+v", e.Name, f.Name, mf)
			}
		}
	}
	want := Relation{From: "booking", Field: "service", To: "service", Cardinality: "many_to_one", Kind: "by_name", Enforced: false, Rule: relationRule}
	if !slices.Contains(m.Relations, want) {
		t.Fatalf("relations %+v", m.Relations)
	}
	for _, r := range m.Relations {
		if r.From == r.To {
			t.Fatalf("self relation %+v", r)
		}
	}
	// A spec the template did not plan gets no catalogue descriptions.
	b.SpecGenerator = "model"
	for _, e := range DeriveDataModel(b).Entities {
		if e.Summary != nil {
			t.Fatalf("%s has a summary from the catalogue for a model's spec", e.Name)
		}
	}
}

// The PRD fills what the spec gives and leaves every judgement section
// null, each listed in missing; nothing else is null.
func TestPRDSkeletonMarksWhatIsMissing(t *testing.T) {
	b := basis(t, "a CRM for my real estate deals")
	p := DerivePRD(b, TrackCompany, "Acme Realty")
	if p.Status != "skeleton" || p.Problem.Idea != b.Spec.Idea || p.Problem.Statement != nil || p.CompanyName == nil ||
		*p.CompanyName != "Acme Realty" || p.Track != TrackCompany || p.Solution.Summary == nil {
		t.Fatalf("%+v", p)
	}
	if p.Users.Personas != nil || p.Goals != nil || p.SuccessMetrics != nil || p.NonGoals != nil || p.Risks != nil {
		t.Fatal("a judgement section is filled offline")
	}
	var sections []string
	for _, m := range p.Missing {
		sections = append(sections, m.Section)
	}
	if !slices.Equal(sections, []string{"problem.statement", "users.personas", "goals", "successMetrics", "nonGoals", "risks"}) {
		t.Fatalf("missing %v", sections)
	}
	if len(p.Features) != 4*len(b.Spec.Entities) || !slices.Equal(p.Assumptions, b.Spec.Assumptions) {
		t.Fatalf("%d features for %d entities", len(p.Features), len(b.Spec.Entities))
	}
	create := p.Features[1]
	if create.ID != "contacts.create" || create.Action != "create" ||
		!slices.Contains(create.Acceptance, "A Contact is not saved unless Name is filled in") ||
		!slices.Contains(create.Acceptance, "Email must be an email address") {
		t.Fatalf("%+v", create)
	}
	inv := DerivePRD(basis(t, "send invoices to my freelance clients"), TrackApp, "").Features[5]
	if inv.Title != "Create an Invoice" || !strings.HasPrefix(inv.Acceptance[1], "An Invoice is not saved unless Invoice number, Client,") {
		t.Fatalf("%+v", inv)
	}
	// The nulls in the JSON are exactly the missing sections (and the
	// optional companyName, summaries).
	raw, _ := json.Marshal(DerivePRD(b, TrackApp, ""))
	var doc map[string]any
	_ = json.Unmarshal(raw, &doc)
	for _, s := range sections {
		cur := any(doc)
		for _, k := range strings.Split(s, ".") {
			cur = cur.(map[string]any)[k]
		}
		if cur != nil {
			t.Fatalf("%s is %v, not null", s, cur)
		}
	}
}

// The validator refuses content that breaks its schema, and says so.
func TestValidatorRefusesBadContent(t *testing.T) {
	val := validator(t)
	good, _ := json.Marshal(DeriveDataModel(basis(t, "track my running workouts")))
	for name, c := range map[string]struct{ view, doc string }{
		"unknown type":  {ViewDataModel, strings.Replace(string(good), `"type":"date"`, `"type":"blob"`, 1)},
		"extra member":  {ViewDataModel, strings.Replace(string(good), `{"app":`, `{"invented":1,"app":`, 1)},
		"not json":      {ViewDataModel, `{"app":`},
		"empty thesis":  {ViewThesis, `{"statement":"","problem":"p","insight":"i","whyNow":"w","risks":["r"]}`},
		"float price":   {ViewPricing, `{"model":"subscription","currency":"EUR","tiers":[{"name":"Pro","price":"9.999","period":"month","includes":[]}],"rationale":"r"}`},
		"draft missing": {ViewPRD, strings.Replace(prdJSON(t), `"status":"skeleton"`, `"status":"draft"`, 1)},
	} {
		if c.doc == string(good) || c.doc == prdJSON(t) {
			t.Fatalf("%s: the test changed nothing", name)
		}
		err := val.Validate(c.view, []byte(c.doc))
		if !errors.Is(err, ErrInvalidContent) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if err := val.Validate("nope", good); err == nil || errors.Is(err, ErrInvalidContent) {
		t.Fatalf("unknown view: %v", err)
	}
}

func prdJSON(t *testing.T) string {
	b, _ := json.Marshal(DerivePRD(basis(t, "track my running workouts"), TrackApp, ""))
	return string(b)
}

// The schemas of the views that need a model accept well-formed content,
// so a model path has a target to write to.
func TestJudgementSchemasAcceptWellFormedContent(t *testing.T) {
	val := validator(t)
	for view, doc := range map[string]string{
		ViewThesis:      `{"statement":"s","problem":"p","insight":"i","whyNow":"w","risks":["r"],"assumptions":["a"]}`,
		ViewWedge:       `{"wedge":"w","segment":"s","firstProduct":"f","whyThisFirst":"y","expansion":["e"]}`,
		ViewICP:         `{"primary":"A","segments":[{"name":"A","description":"d","traits":["t"],"pains":["p"],"buyingTrigger":"b"}]}`,
		ViewPricing:     `{"model":"subscription","currency":"EUR","tiers":[{"name":"Free","price":"0","period":"month","includes":["x"]},{"name":"Pro","price":"29.00","period":"month","includes":[]}],"rationale":"r"}`,
		ViewGTM:         `{"motion":"self_serve","channels":[{"name":"n","tactic":"t","metric":"m"}],"firstSteps":["s"],"metrics":["m"]}`,
		ViewCompetitors: `{"competitors":[{"name":"n","url":null,"category":"substitute","strengths":[],"weaknesses":[]}],"differentiation":"d"}`,
		ViewRoadmap:     `{"horizons":[{"name":"now","items":[{"title":"t","why":"w","entities":["booking"]}]}]}`,
	} {
		if err := val.Validate(view, []byte(doc)); err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		if err := val.Validate(view, []byte(`{}`)); !errors.Is(err, ErrInvalidContent) {
			t.Fatalf("%s accepts {}", view)
		}
	}
}

// The planner's refusal of an idea names the field idea.
func TestIdeaBasisNamesTheIdea(t *testing.T) {
	_, err := IdeaBasis("   ")
	if err == nil || !strings.Contains(err.Error(), "field idea") {
		t.Fatalf("%v", err)
	}
	if b := basis(t, "x"); b.Origin != OriginIdea || b.SpecModel != template.Version || !b.FromTemplate() {
		t.Fatalf("%+v", b)
	}
}
