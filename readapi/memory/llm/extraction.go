package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/readapi/memory/openaiapi"
)

// ExtractMaxTokens bounds the answer of one extraction.
const ExtractMaxTokens = 2048

// ExtractSchemaName names the JSON schema extraction requests carry.
const ExtractSchemaName = "memory_facts"

// ExtractSystemPrompt is the system message of an extraction request; the
// memory's text is the user message.
var ExtractSystemPrompt = `You extract entities and facts from one note a user stored in their memory (founders' notes about their team, customers, vendors, tools, investors, places, family and plans). Answer with JSON only, matching the schema.

entities: every person, organisation, technology and concept the note names, each once, with the name as the note writes it (no determiners, no titles such as Dr.) and its kind:
- person: people (and the user's family members by name).
- org: companies, funds, universities, agencies; a vendor whose hosted service is named after the company (Stripe, Mailgun, Gusto, Datadog, Heroku) is an org whatever the verb.
- tech: languages, databases, frameworks, libraries, protocols, infrastructure software, and products named differently from their vendor (Kubernetes, PostgreSQL, React, AWS, GitHub Actions).
- concept: places, pets, and the things facts are about (a deal, a bug, a project, a feature, a hobby).
Do not list the values of role, title and status as entities.

relations: the facts the note states as holding now, as subject, predicate, object, with these predicates only:
works_at (employer), lives_in (a place), role (a job, value), title (value), status (the state of a person or a thing, value: part-time, on parental leave, fixed, closed, signed), reports_to, manages (leads, runs), founded, studied_at, located_in (an organisation's or a thing's place), uses (the user or a team uses, runs on, pays for or is served by a product or vendor), likes, dislikes, interested_in (learning, curious about), works_on (building), knows (met, had lunch or coffee with, friends with), married_to, owns (including pets), member_of, speaks (a human language), born_in.
The user who wrote the note is "user": use it for I, we, our, us, me and for notes without a subject. A role, title or status object is the value as written ("head of design", "fixed").
Leave out questions, negations, hypotheticals, plans and wishes. Facts that stopped holding (left, quit, no longer, used to, cancelled, switched from, dropped, replaced) go to ended, not to relations.
Use only names and values that occur in the note. When nothing applies, answer empty lists.`

// extractSchema is the strict JSON schema of an extraction answer.
func extractSchema() map[string]any {
	str := map[string]any{"type": "string"}
	fact := map[string]any{"type": "object", "additionalProperties": false,
		"required": []string{"subject", "predicate", "object"},
		"properties": map[string]any{"subject": str, "object": str,
			"predicate": map[string]any{"type": "string", "enum": extract.Predicates()}}}
	facts := map[string]any{"type": "array", "items": fact}
	return map[string]any{"type": "object", "additionalProperties": false,
		"required": []string{"entities", "relations", "ended"},
		"properties": map[string]any{
			"entities": map[string]any{"type": "array", "items": map[string]any{"type": "object",
				"additionalProperties": false, "required": []string{"name", "kind"},
				"properties": map[string]any{"name": str,
					"kind": map[string]any{"type": "string", "enum": []string{"person", "org", "tech", "concept"}}}}},
			"relations": facts,
			"ended":     facts,
		}}
}

// ExtractAnswer is the JSON an extraction request asks for.
type ExtractAnswer struct {
	Entities  []ExtractEntity `json:"entities"`
	Relations []ExtractFact   `json:"relations"`
	Ended     []ExtractFact   `json:"ended"`
}

// ExtractEntity is one entity of an ExtractAnswer.
type ExtractEntity struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// ExtractFact is one fact of an ExtractAnswer.
type ExtractFact struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
}

// ExtractFacts asks the model for the entities and facts of a memory's
// text, at temperature 0, against a strict JSON schema (structured
// outputs: response_format json_schema), and returns its answer as an
// extraction result: first-person facts have the subject "user"
// (memory.ModelSelf).
// An answer that is not the schema's JSON is an error. The answer is not
// checked against the text here: Remember does that (memory.Facts), so a
// name the text does not hold, a predicate outside the vocabulary or an
// unknown kind is dropped there.
func (c *Client) ExtractFacts(ctx context.Context, text string) (extract.Result, error) {
	body := map[string]any{
		"model": c.cfg.Model,
		"messages": []map[string]string{{"role": "system", "content": ExtractSystemPrompt},
			{"role": "user", "content": text}},
		"max_tokens":  ExtractMaxTokens,
		"temperature": 0,
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": ExtractSchemaName, "strict": true, "schema": extractSchema()}},
	}
	var ans struct {
		Choices []struct {
			FinishReason string `json:"finish_reason"`
			Message      struct {
				Content string `json:"content"`
				Refusal string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := openaiapi.Post(ctx, c.cfg.HTTP, "llm extract", c.url, c.cfg.APIKey, c.cfg.Timeout, body, &ans); err != nil {
		return extract.Result{}, err
	}
	if len(ans.Choices) == 0 {
		return extract.Result{}, fmt.Errorf("llm extract: the answer has no choice")
	}
	ch := ans.Choices[0]
	if ch.Message.Refusal != "" {
		return extract.Result{}, fmt.Errorf("llm extract: the model refused: %s", ch.Message.Refusal)
	}
	if ch.FinishReason == "length" {
		return extract.Result{}, fmt.Errorf("llm extract: the answer was cut at %d tokens", ExtractMaxTokens)
	}
	return ParseExtractAnswer(ch.Message.Content)
}

// ParseExtractAnswer reads an extraction answer: one JSON object with
// entities, relations and ended (each may be missing or empty), and
// nothing else.
func ParseExtractAnswer(content string) (extract.Result, error) {
	if !json.Valid([]byte(content)) || !strings.HasPrefix(strings.TrimSpace(content), "{") {
		return extract.Result{}, fmt.Errorf("llm extract: the answer is not one JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	var a ExtractAnswer
	if err := dec.Decode(&a); err != nil {
		return extract.Result{}, fmt.Errorf("llm extract: the answer is not the schema's JSON: %w", err)
	}
	var out extract.Result
	for _, e := range a.Entities {
		out.Entities = append(out.Entities, extract.Mention{Name: e.Name, Kind: extract.Kind(e.Kind)})
	}
	facts := func(fs []ExtractFact) []extract.Relation {
		var rs []extract.Relation
		for _, f := range fs {
			rs = append(rs, extract.Relation{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object})
		}
		return rs
	}
	out.Relations, out.Ended = facts(a.Relations), facts(a.Ended)
	return out, nil
}
