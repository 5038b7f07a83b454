package builder_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/eventstore"
)

// Offline, dataModel and prd are produced from the app spec, labelled
// template, valid against their schemas and recorded; the seven views that
// need judgement answer 503 llm_unavailable naming the view, and nothing
// is recorded for them.
func TestArtifactViewsOffline(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	val, err := artifacts.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	const idea = "book yoga classes at my studio"
	for _, view := range artifacts.Views() {
		status, out := w.do("POST", "/api/build/artifact", jsonBody(map[string]string{"view": view, "idea": idea, "track": "app"}))
		if !artifacts.Derivable(view) {
			if status != 503 || out["rule"] != "llm_unavailable" || out["field"] != "view" || out["view"] != view ||
				!strings.Contains(out["detail"].(string), "the "+view+" view needs judgement") || out["content"] != nil {
				t.Fatalf("%s: %d %v", view, status, out)
			}
			continue
		}
		if status != 200 || out["view"] != view || out["generator"] != "template" || out["provider"] != "strata" ||
			out["model"] != template.Version || out["schema"] != artifacts.SchemaID(view) {
			t.Fatalf("%s: %d %v", view, status, out)
		}
		content, _ := json.Marshal(out["content"])
		if err := val.Validate(view, content); err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		d := out["derived_from"].(map[string]any)
		if d["kind"] != "app_spec" || d["origin"] != "idea" || d["specGenerator"] != "template" || d["archetype"] != "booking" ||
			d["feedbackApplied"] != false || !strings.Contains(d["note"].(string), "no model wrote any of it") {
			t.Fatalf("%s derived_from %v", view, d)
		}
	}
	// The two produced artifacts are events on the idea's stream.
	evs, err := w.store.Load(context.Background(), builder.IdeaArtifactsStream("app", idea), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var views []string
	for _, e := range evs {
		g := e.Event.(*builder.ArtifactGenerated)
		views = append(views, g.View)
		if g.Idea != idea || g.Generator != "template" || g.CompanyID != "" || len(g.Content) == 0 || g.Schema != artifacts.SchemaID(g.View) {
			t.Fatalf("%+v", g)
		}
	}
	if !slices.Equal(views, []string{"prd", "dataModel"}) {
		t.Fatalf("recorded %v", views)
	}
}

// An artifact for a company is derived from the spec of its current
// version and recorded on the company's stream; feedback is said not to
// be applied.
func TestArtifactForACompany(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	company := w.generate("a CRM for my real estate deals")
	ch, err := w.chats.Load(context.Background(), company)
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := ch.CurrentVersion()
	var spec template.Spec
	_ = json.Unmarshal(ch.Generations[0].Spec, &spec)
	status, out := w.do("POST", "/api/build/artifact", jsonBody(map[string]string{"view": "dataModel",
		"idea": "something else entirely", "track": "company", "companyName": "Acme", "companyId": company, "feedback": "add a field for the commission"}))
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	d := out["derived_from"].(map[string]any)
	if d["origin"] != "company" || d["companyId"] != company || d["versionId"] != cur.VersionID || d["version"] != 1.0 ||
		d["archetype"] != "crm" || !strings.Contains(d["note"].(string), "The feedback was not applied") {
		t.Fatalf("derived_from %v", d)
	}
	var names []string
	for _, e := range out["content"].(map[string]any)["entities"].([]any) {
		names = append(names, e.(map[string]any)["name"].(string))
	}
	var want []string
	for _, e := range spec.Entities {
		want = append(want, e.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("entities %v, the company's spec has %v", names, want)
	}
	evs, _ := w.store.Load(context.Background(), builder.ArtifactsStream(company), eventstore.LoadOptions{})
	if len(evs) != 1 || evs[0].Event.(*builder.ArtifactGenerated).ArtifactID != out["artifactId"] {
		t.Fatalf("%d events", len(evs))
	}
	// An unknown company is a 404; a judgement view for a company is still 503.
	if status, out := w.do("POST", "/api/build/artifact", jsonBody(map[string]string{"view": "prd", "idea": "x", "track": "app",
		"companyId": "chat_01ABCDEFGHJKMNPQRSTVWXYZ00"})); status != 404 {
		t.Fatalf("%d %v", status, out)
	}
	if status, out := w.do("POST", "/api/build/artifact", jsonBody(map[string]string{"view": "pricing", "idea": "x", "track": "company",
		"companyId": company})); status != 503 || out["rule"] != "llm_unavailable" {
		t.Fatalf("%d %v", status, out)
	}
}

// Bad input is a 400 naming the field and the rule, and nothing is
// recorded.
func TestArtifactRefusesBadInput(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	ok := map[string]any{"view": "prd", "idea": "a shop", "track": "app"}
	with := func(k string, v any) string {
		m := map[string]any{}
		for a, b := range ok {
			m[a] = b
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return jsonBody(m)
	}
	for name, c := range map[string]struct{ body, field, rule string }{
		"no view":       {with("view", nil), "view", "required"},
		"unknown view":  {with("view", "datamodel"), "view", "enum:thesis|wedge|prd|dataModel|icp|pricing|gtm|competitors|roadmap"},
		"view a number": {with("view", 3), "view", "type:string"},
		"no idea":       {with("idea", nil), "idea", "required"},
		"blank idea":    {with("idea", "  "), "idea", "required"},
		"long idea":     {with("idea", strings.Repeat("a", 4001)), "idea", "max_length:4000"},
		"no track":      {with("track", nil), "track", "required"},
		"bad track":     {with("track", "startup"), "track", "enum:app|company"},
		"unknown field": {with("colour", "red"), "colour", "unknown_field"},
		"bad company":   {with("companyId", "acme"), "companyId", "format"},
		"long feedback": {with("feedback", strings.Repeat("a", 4001)), "feedback", "max_length:4000"},
	} {
		status, out := w.do("POST", "/api/build/artifact", c.body)
		if status != 400 || out["field"] != c.field || out["rule"] != c.rule {
			t.Errorf("%s: %d %v", name, status, out)
		}
		if name == "unknown view" && !strings.Contains(out["detail"].(string), "thesis, wedge, prd, dataModel, icp, pricing, gtm, competitors, roadmap") {
			t.Errorf("the views are not listed: %v", out["detail"])
		}
	}
	if status, _ := w.do("POST", "/api/build/artifact", with("idea", strings.Repeat("é", 4000))); status != 200 {
		t.Fatalf("4000 characters: %d", status)
	}
	n, err := w.store.Version(context.Background(), builder.IdeaArtifactsStream("app", "a shop"))
	if err != nil || n != 0 {
		t.Fatalf("%d events recorded for refused requests (%v)", n, err)
	}
}
