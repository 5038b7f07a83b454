package catalog

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestClassify(t *testing.T) {
	long := strings.Repeat("The quarterly figures were discussed at length. ", 200)
	cases := []struct {
		text  string
		tools int
		task  string
		rule  string
	}{
		{"What's the weather like on Mars?", 2, TaskSoftwareEngineering, RuleTools},
		{"Why does this fail?\n```\nx := nil\n```", 0, TaskSoftwareEngineering, RuleCodeBlock},
		{"Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>", 0, TaskSoftwareEngineering, RuleStackTrace},
		{"Exception in thread \"main\" java.lang.NullPointerException\n\tat com.acme.App.run(App.java:12)", 0, TaskSoftwareEngineering, RuleStackTrace},
		{"panic: runtime error: index out of range\n\ngoroutine 1 [running]:", 0, TaskSoftwareEngineering, RuleStackTrace},
		{"the build stops at main.go:42 every time", 0, TaskSoftwareEngineering, RuleStackTrace},
		{"Refactor this Python function so it is faster", 0, TaskSoftwareEngineering, RuleProgrammingWords},
		{"Write a blog post about Python for beginners", 0, TaskWriting, RuleWritingWords},
		{long, 0, TaskKnowledgeBase, RuleLongDocument},
		{"According to the attached report, what was revenue in Q3?", 0, TaskKnowledgeBase, RuleRetrievalWords},
		{"Answer with citations from our knowledge base.", 0, TaskKnowledgeBase, RuleRetrievalWords},
		{"Draft a friendly email declining the invitation.", 0, TaskWriting, RuleWritingWords},
		{"Rewrite this paragraph in a warmer tone.", 0, TaskWriting, RuleWritingWords},
		{"What is the capital of Australia?", 0, TaskGeneral, RuleNoSignal},
		{"", 0, TaskGeneral, RuleNoSignal},
		{"Is a code of conduct a legal document?", 0, TaskGeneral, RuleNoSignal}, // one programming word is not enough
	}
	for _, c := range cases {
		task, rule := Classify(c.text, c.tools)
		if task != c.task || rule != c.rule {
			t.Errorf("Classify(%.50q, %d) = %s %s, want %s %s", c.text, c.tools, task, rule, c.task, c.rule)
		}
		if t2, r2 := Classify(c.text, c.tools); t2 != task || r2 != rule {
			t.Errorf("Classify(%.50q) is not deterministic", c.text)
		}
	}
}

func TestPlanMapping(t *testing.T) {
	cases := []struct {
		platform, gateway string
		want              Tier
	}{
		{"free", "starter", TierFree},
		{"", "", TierFree},
		{"basic", "starter", TierBasic},
		{"free", "pro", TierProfessional},
		{"basic", "pro", TierProfessional},
		{"professional", "", TierProfessional},
		{"free", "business", TierEnterprise},
		{"enterprise", "starter", TierEnterprise},
		{"professional", "enterprise", TierEnterprise},
		{"PROFESSIONAL", "", TierProfessional},
		{"gold", "platinum", TierFree},
	}
	for _, c := range cases {
		if got := TierOf(c.platform, c.gateway); got != c.want {
			t.Errorf("TierOf(%q, %q) = %s, want %s", c.platform, c.gateway, got, c.want)
		}
	}
}

func TestResolve(t *testing.T) {
	c := imported(t, Builtin()).Snapshot()
	cases := []struct {
		name   string
		id     string
		tier   Tier
		f      Features
		model  string // the model used, when served
		status int    // the refusal's status, when refused
		code   string
	}{
		{name: "a free model on free", id: "strata-dev-7b-text", tier: TierFree, model: "strata-dev-7b-text"},
		{name: "the default of free", id: "", tier: TierFree, model: "strata-dev-7b-text"},
		{name: "the default of professional", id: "", tier: TierProfessional, model: "strata-dev-32b-code"},
		{name: "unknown", id: "gpt-nothing", tier: TierEnterprise, status: 404, code: CodeModelNotFound},
		{name: "a retired alias", id: "strata-dev-text-legacy", tier: TierEnterprise, status: 400, code: CodeModelDeprecated},
		{name: "above the tier", id: "strata-dev-32b-code", tier: TierBasic, status: 403, code: CodeTierRequired},
		{name: "tools to a model without tools", id: "strata-dev-reasoning", tier: TierBasic, f: Features{Tools: 1},
			status: 400, code: CodeToolsUnsupported},
		{name: "tools to a model with tools", id: "strata-dev-frontier", tier: TierBasic, f: Features{Tools: 3}, model: "strata-dev-frontier"},
		{name: "images to a text model", id: "strata-dev-32b-code", tier: TierProfessional, f: Features{Images: true},
			status: 400, code: CodeImagesUnsupported},
		{name: "chat to an embeddings model", id: "strata-dev-embed", tier: TierFree, status: 400, code: CodeKindUnsupported},
		{name: "embeddings", id: "strata-dev-embed", tier: TierFree, f: Features{Kind: KindEmbeddings}, model: "strata-dev-embed"},
		{name: "max_tokens above the ceiling", id: "strata-dev-frontier", tier: TierBasic, f: Features{MaxTokens: 9000},
			status: 400, code: CodeMaxTokens},
		{name: "max_tokens at the ceiling", id: "strata-dev-32b-code", tier: TierProfessional, f: Features{MaxTokens: 32768},
			model: "strata-dev-32b-code"},
		{name: "a router below professional", id: "software-engineering", tier: TierBasic, status: 403, code: CodeTierRequired},
		{name: "a router: code", id: "general", tier: TierProfessional, f: Features{Text: "fix this Python function bug"},
			model: "strata-dev-32b-code"},
		{name: "a router: general", id: "general", tier: TierProfessional, f: Features{Text: "hello"}, model: "strata-dev-reasoning"},
		{name: "a router: its own speciality", id: "software-engineering", tier: TierEnterprise, f: Features{Text: "hello"},
			model: "strata-dev-32b-code"},
		{name: "a router falls back for images", id: "general", tier: TierProfessional,
			f: Features{Text: "what is in this picture?", Images: true}, model: "strata-dev-frontier"},
		{name: "a router for embeddings", id: "general", tier: TierProfessional, f: Features{Kind: KindEmbeddings},
			status: 400, code: CodeKindUnsupported},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Resolve(tc.id, tc.tier, tc.f)
			if tc.model != "" {
				if err != nil || res.Model.ID != tc.model {
					t.Fatalf("got %s, %v; want %s", res.Model.ID, err, tc.model)
				}
				if res.Model.Kind == KindChat && (res.MaxTokens < 1 || res.MaxTokens > res.Model.MaxTokens) {
					t.Fatalf("max_tokens %d outside 1..%d", res.MaxTokens, res.Model.MaxTokens)
				}
				return
			}
			var ref *Refusal
			if !errors.As(err, &ref) || ref.Code != tc.code || statusOf(err) != tc.status {
				t.Fatalf("got %v (%+v), want %d %s", err, ref, tc.status, tc.code)
			}
		})
	}
	_, err := c.Resolve("strata-dev-text-legacy", TierFree, Features{})
	var ref *Refusal
	if !errors.As(err, &ref) || ref.ReplacedBy != "strata-dev-7b-text" || !strings.Contains(err.Error(), `"strata-dev-7b-text"`) {
		t.Fatalf("model_deprecated names no replacement: %v", err)
	}
	res, _ := c.Resolve("software-engineering", TierProfessional, Features{Text: "Draft an essay"})
	if res.Router != "software-engineering" || res.Task != TaskWriting || res.Rule != RuleWritingWords || res.Model.ID != "strata-dev-frontier" {
		t.Fatalf("a router's resolution: %+v", res)
	}
}

func statusOf(err error) int {
	switch kernel.KindOf(err) {
	case kernel.KindInvalid:
		return http.StatusBadRequest
	case kernel.KindForbidden:
		return http.StatusForbidden
	case kernel.KindNotFound:
		return http.StatusNotFound
	}
	return 0
}
