package artifacts

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestMatch(t *testing.T) {
	for q, want := range map[string][]string{
		"How many versions are there?":             {IntentVersions},
		"how many FILES and entities?":             {IntentFiles, IntentEntities},
		"What's in the data model":                 {IntentEntities},
		"did the last build fail or has it failed": {IntentGenerations},
		"which artifacts do I have":                {IntentArtifacts},
		"is my app live?":                          {IntentDeploy},
		"give me a status":                         {IntentVersions, IntentFiles, IntentEntities, IntentGenerations, IntentArtifacts, IntentDeploy},
		"what should my pricing be?":               nil,
		"update my profiles":                       nil, // "profiles" is not "file"
		"":                                         nil,
		"Wie viele Versionen?":                     nil, // no stemming, no other languages
	} {
		if got := Match(q); !slices.Equal(got, want) {
			t.Errorf("Match(%q) = %v, want %v", q, got, want)
		}
	}
	for _, in := range Intents() {
		if in.Answers == "" || len(in.Keywords) == 0 {
			t.Fatalf("%s is undocumented", in.Name)
		}
	}
}

// chat folds a company from events: two generations (one completed with
// version 1, one failed), then a restore of version 1 as version 2.
func chat(t *testing.T) *builder.Chat {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b := basis(t, "book yoga classes at my studio")
	spec, _ := json.Marshal(b.Spec)
	files := []builder.FileRef{{Path: "server.js", SHA256: "a", Size: 100}, {Path: "spec.json", SHA256: "b", Size: 23}}
	evs := []kernel.Event{
		&builder.GenerationStarted{ChatID: "chat_01ABCDEFGHJK", GenerationID: "gen_1", Message: "book yoga", Generator: "template", Provider: "strata", Model: "template/1", At: at},
		&builder.GenerationPlanned{GenerationID: "gen_1", Archetype: "booking", Spec: spec, At: at},
		&builder.FileWritten{GenerationID: "gen_1", File: files[0], At: at},
		&builder.FileWritten{GenerationID: "gen_1", File: files[1], At: at},
		&builder.VersionCreated{VersionID: "ver_1", Number: 1, GenerationID: "gen_1", Generator: "template", Files: files, At: at},
		&builder.GenerationCompleted{GenerationID: "gen_1", VersionID: "ver_1", At: at},
		&builder.GenerationStarted{ChatID: "chat_01ABCDEFGHJK", GenerationID: "gen_2", Message: "again", Generator: "template", At: at},
		&builder.GenerationFailed{GenerationID: "gen_2", Code: "generation_failed", Reason: "the generation failed 5 times", At: at},
		&builder.VersionCreated{VersionID: "ver_2", Number: 2, RestoredFrom: "ver_1", Generator: "template", Files: files, At: at},
	}
	ch := &builder.Chat{}
	for i, e := range evs {
		ch.Apply(e, int64(i+1))
	}
	return ch
}

// Every sentence is computed from the events; the sources say which.
func TestAnswerComputesFromEvents(t *testing.T) {
	ch := chat(t)
	at := time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)
	f := Facts{Chat: ch, ArtifactsStream: builder.ArtifactsStream(ch.ID), ArtifactsVersion: 2, Artifacts: []builder.ArtifactGenerated{
		{View: ViewDataModel, Generator: "template", Model: "template/1", At: at},
		{View: ViewPRD, Generator: "template", Model: "template/1", At: at},
	}, DeploysStream: builder.DeploysStream(ch.ID), DeploysVersion: 2, Deploys: []builder.AppDeployed{
		{CompanyID: ch.ID, VersionID: "ver_1", Switched: true, Probes: 2, Trigger: builder.TriggerPreview, At: at},
		{CompanyID: ch.ID, VersionID: "ver_2", Previous: "ver_1", Switched: false, Reason: "no healthy probe within 10s", Probes: 5, Trigger: builder.TriggerRedeploy, At: at},
	}}
	for q, want := range map[string]string{
		"how many versions?": "This company has 2 versions; the current one is version 2 (ver_2). 1 of them was restored from an older version.",
		"how many files?":    "Version 2 has 2 files, 123 bytes in all.",
		"which entities?":    "The app spec of version 2 has 3 entities: Service (4 fields), Booking (8 fields) and Class (5 fields); 17 fields in all.",
		"any failed builds?": "There were 2 generations: 1 completed, 1 failed, 0 running. The latest (gen_2, generator template) failed with generation_failed: the generation failed 5 times.",
		"list artifacts":     "2 artifacts are recorded for this company: 1 prd and 1 dataModel. The latest is a prd of 2026-01-03T00:00:00Z (generator template, model template/1).",
		"is it deployed?": "2 deploys are recorded for this company. The last one that took the traffic deployed version 1 (ver_1) at " +
			"2026-01-03T00:00:00Z (preview), after 2 health probes. The latest attempt, version 2 (ver_2) at 2026-01-03T00:00:00Z (redeploy), " +
			"did not switch: no healthy probe within 10s. These are records of deploys: whether the app is up at this moment is not recorded.",
	} {
		r := Answer(q, f)
		if r.Text != want {
			t.Errorf("%q:\n got %s\nwant %s", q, r.Text, want)
		}
		if len(r.Sources) != len(r.Intents) || len(r.Sources) == 0 {
			t.Errorf("%q: sources %v for intents %v", q, r.Sources, r.Intents)
		}
	}
	src := Answer("versions", f).Sources[0]
	if src.Stream != ch.ID || src.UpToVersion != 9 || !slices.Equal(src.EventTypes, []string{"builder.version_created"}) {
		t.Fatalf("%+v", src)
	}
	if s := Answer("artifacts", f).Sources[0]; s.Stream != "builder-artifacts:"+ch.ID || s.UpToVersion != 2 {
		t.Fatalf("%+v", s)
	}
	if s := Answer("deploy", f).Sources[0]; s.Stream != "builder-deploys:"+ch.ID || s.EventTypes[0] != "builder.app_deployed" {
		t.Fatalf("%+v", s)
	}
}

// A company with nothing recorded yet gets zeros and "no", never a guess.
func TestAnswerAboutAnEmptyCompany(t *testing.T) {
	ch := &builder.Chat{}
	ch.Apply(&builder.GenerationStarted{ChatID: "chat_01ABCDEFGHJK", GenerationID: "gen_1", Generator: "template"}, 1)
	r := Answer("status", Facts{Chat: ch})
	for _, want := range []string{"This company has no version yet.", "There are no files yet", "no entities to count",
		"There was 1 generation: 0 completed, 0 failed, 1 running. The latest (gen_1, generator template) is still running.",
		"No artifact is recorded for this company yet.", "No deploy is recorded for this company"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("%q lacks %q", r.Text, want)
		}
	}
}

// Outside the matcher, the answer is the plain no-model answer; without
// a company, the state questions say there is no state to read.
func TestAnswerNeverInvents(t *testing.T) {
	for _, q := range []string{"what should my pricing be?", "who are my competitors", "write me a tagline"} {
		if r := Answer(q, Facts{Chat: chat(t)}); r.Text != NoModelAnswer || len(r.Sources) != 0 {
			t.Fatalf("%q: %+v", q, r)
		}
	}
	if r := Answer("how many versions", Facts{}); r.Text != NoCompanyAnswer || r.Intents[0] != IntentVersions {
		t.Fatalf("%+v", r)
	}
}

func TestRequestChecks(t *testing.T) {
	ok := Request{View: ViewPRD, Idea: "an idea", Track: TrackApp}
	long := strings.Repeat("é", MaxIdea+1)
	for name, c := range map[string]struct {
		r           Request
		field, rule string
	}{
		"no view":      {Request{Idea: "i", Track: "app"}, "view", "required"},
		"unknown view": {Request{View: "datamodel", Idea: "i", Track: "app"}, "view", "enum:thesis|wedge|prd|dataModel|icp|pricing|gtm|competitors|roadmap"},
		"no idea":      {Request{View: "prd", Idea: " \n", Track: "app"}, "idea", "required"},
		"long idea":    {Request{View: "prd", Idea: long, Track: "app"}, "idea", "max_length:4000"},
		"no track":     {Request{View: "prd", Idea: "i"}, "track", "required"},
		"bad track":    {Request{View: "prd", Idea: "i", Track: "startup"}, "track", "enum:app|company"},
		"long name":    {Request{View: "prd", Idea: "i", Track: "app", CompanyName: strings.Repeat("x", 201)}, "companyName", "max_length:200"},
		"long notes":   {Request{View: "prd", Idea: "i", Track: "app", Feedback: strings.Repeat("x", 4001)}, "feedback", "max_length:4000"},
	} {
		var ke *kernel.Error
		if err := c.r.Check(); !errors.As(err, &ke) || ke.Field != c.field || ke.Rule != c.rule || ke.Kind != kernel.KindInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	if err := (Request{View: "thesis", Idea: "i", Track: "app"}).Check(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		q     Question
		field string
	}{
		"no question":   {Question{Idea: "i"}, "question"},
		"long question": {Question{Question: strings.Repeat("?", MaxQuestion+1), Idea: "i"}, "question"},
		"no idea":       {Question{Question: "q"}, "idea"},
		"bad track":     {Question{Question: "q", Idea: "i", Track: "apps"}, "track"},
	} {
		var ke *kernel.Error
		if err := c.q.Check(); !errors.As(err, &ke) || ke.Field != c.field {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := (Question{Question: "q", Idea: "i"}).Check(); err != nil {
		t.Fatal(err)
	}
}
