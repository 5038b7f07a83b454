package builder

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/kernel"
)

// ModelWriter writes artifact views with the model path's model: it asks
// for JSON matching the view's schema (given in the prompt), checks the
// answer against the schema and, when it does not match, asks once more
// with the validator's complaint (one repair attempt); a second mismatch
// is the answer's fault, 502 schema_mismatch, never patched up.
type ModelWriter struct {
	gen       *ModelGenerator
	validator *artifacts.Validator
}

// NewModelWriter returns the model path's artifact writer.
func NewModelWriter(gen *ModelGenerator) (*ModelWriter, error) {
	v, err := artifacts.NewValidator()
	if err != nil {
		return nil, err
	}
	return &ModelWriter{gen: gen, validator: v}, nil
}

// Name implements ArtifactWriter.
func (*ModelWriter) Name() string { return builder.GeneratorModel }

// Provider implements ArtifactWriter.
func (w *ModelWriter) Provider() string { return w.gen.Provider() }

// Model implements ArtifactWriter.
func (w *ModelWriter) Model() string { return w.gen.Model() }

// Write implements ArtifactWriter.
func (w *ModelWriter) Write(ctx context.Context, in ArtifactInput) (Draft, error) {
	schema, ok := artifacts.Schema(in.View)
	if !ok {
		return Draft{}, kernel.Invalid("view", "unknown", "unknown view "+in.View)
	}
	spec, _ := json.Marshal(in.Basis.Spec)
	msgs := []sdk.ChatCompletionMessageParamUnion{
		sdk.SystemMessage("You write one planning artifact of a startup as JSON only (no prose, no code fences), matching this JSON Schema:\n" + string(schema)),
		sdk.UserMessage(fmt.Sprintf("View: %s\nTrack: %s\nCompany: %s\nIdea: %s\nReview notes: %s\nThe app as specified so far (JSON): %s",
			in.View, in.Track, in.CompanyName, in.Idea, in.Feedback, spec)),
	}
	for attempt := 0; attempt < 2; attempt++ {
		text, _, err := w.gen.complete(ctx, msgs)
		if err != nil {
			return Draft{}, err
		}
		content := []byte(stripFences(text))
		verr := w.validator.Validate(in.View, content)
		if verr == nil {
			derived, _ := json.Marshal(map[string]any{"generator": builder.GeneratorModel, "model": w.gen.Model(),
				"repaired": attempt > 0, "basis": in.Basis.Origin, "company_id": in.CompanyID})
			return Draft{Content: content, DerivedFrom: derived}, nil
		}
		msgs = append(msgs, sdk.AssistantMessage(text),
			sdk.UserMessage("That JSON does not match the schema: "+verr.Error()+". Answer with the corrected JSON only."))
	}
	return Draft{}, &kernel.Error{Kind: kernel.KindBadGateway, Field: "view", Rule: "schema_mismatch",
		Message: "the model's " + in.View + " did not match its schema, also after one repair attempt; nothing was recorded"}
}

// stripFences removes a Markdown code fence around an answer.
func stripFences(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

// ModelAnswerer answers Ask questions with the model, given only what is
// recorded about the company (the offline answerer's computed facts and
// the counts), and told to say when they do not answer the question.
type ModelAnswerer struct {
	gen *ModelGenerator
}

// NewModelAnswerer returns the model path's Ask answerer.
func NewModelAnswerer(gen *ModelGenerator) *ModelAnswerer { return &ModelAnswerer{gen: gen} }

// Name implements Answerer.
func (*ModelAnswerer) Name() string { return builder.GeneratorModel }

// Provider implements Answerer.
func (a *ModelAnswerer) Provider() string { return a.gen.Provider() }

// Model implements Answerer.
func (a *ModelAnswerer) Model() string { return a.gen.Model() }

// Answer implements Answerer.
func (a *ModelAnswerer) Answer(ctx context.Context, q AskRequest, facts artifacts.Facts) (artifacts.Reply, error) {
	offline := artifacts.Answer(q.Question.Question, facts)
	known := artifacts.Answer("how many versions files entities generations artifacts deploys", facts)
	msgs := []sdk.ChatCompletionMessageParamUnion{
		sdk.SystemMessage("You answer a founder's question about their company. Use only the recorded facts given; " +
			"never invent a number or an event. If the facts do not answer the question, say what is recorded and that the rest is not."),
		sdk.UserMessage(fmt.Sprintf("Idea: %s\nCompany: %s\nRecorded facts: %s\n%s\nQuestion: %s",
			q.Question.Idea, q.Question.CompanyName, known.Text, offline.Text, q.Question.Question)),
	}
	text, _, err := a.gen.complete(ctx, msgs)
	if err != nil {
		return artifacts.Reply{}, err
	}
	return artifacts.Reply{Text: strings.TrimSpace(text), Intents: offline.Intents, Sources: append(known.Sources, offline.Sources...)}, nil
}

// complete asks the model for one whole answer (not streamed): its text
// and the model the gateway says served it. A refused or broken call is
// 503 model_unavailable naming what the gateway said.
func (m *ModelGenerator) complete(ctx context.Context, msgs []sdk.ChatCompletionMessageParamUnion) (string, string, error) {
	params := sdk.ChatCompletionNewParams{Model: m.cfg.Model, Messages: msgs}
	if m.cfg.MaxTokens > 0 {
		params.MaxTokens = sdk.Int(int64(m.cfg.MaxTokens))
	}
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		ge, _ := modelError(err).(*GenError)
		return "", "", &kernel.Error{Kind: kernel.KindUnavailable, Rule: ge.Code, Message: ge.Message}
	}
	if len(resp.Choices) == 0 {
		return "", resp.Model, &kernel.Error{Kind: kernel.KindBadGateway, Rule: CodeInvalidOutput, Message: "the model answered no choice"}
	}
	return resp.Choices[0].Message.Content, resp.Model, nil
}
