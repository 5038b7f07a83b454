package builder

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/template"
)

// Plan is a generator's plan of an app: what the founder is shown as
// assumptions, and the spec the files are generated from.
type Plan struct {
	Archetype   string
	Matched     []string
	Assumptions []string
	Spec        json.RawMessage
}

// GenFile is one generated file.
type GenFile struct {
	Path    string
	Content []byte
}

// Produced is what a generator's Files reports: who produced the files
// (the gateway's report on the model path) and what it used.
type Produced struct {
	Provider     string
	Model        string
	InputTokens  int
	OutputTokens int
}

// Generator turns a founder's message into a plan, and a plan into files,
// handed to emit as they are made (emit stores each before the next).
// Name is what the outputs are labelled with (builder.GeneratorTemplate
// or builder.GeneratorModel); Provider and Model say which one exactly
// (model is the request's override, "" for the configured one). A
// *GenError is an honest failure of the generation itself (recorded, not
// retried); any other error is retried.
type Generator interface {
	Name() string
	Provider() string
	Model() string
	Plan(ctx context.Context, message string) (Plan, error)
	Files(ctx context.Context, message, model string, p Plan, emit func(GenFile) error) (Produced, error)
}

// GenError is a generation's own failure, with its stable code
// (budget_exceeded, model_unavailable, invalid_output).
type GenError struct {
	Code    string
	Message string
}

func (e *GenError) Error() string { return e.Code + ": " + e.Message }

// TemplateGenerator is the offline, deterministic generator
// (domain/builder/template): the same idea gives byte-identical files.
type TemplateGenerator struct{}

// Name implements Generator.
func (TemplateGenerator) Name() string { return builder.GeneratorTemplate }

// Provider implements Generator: Strata itself, no model.
func (TemplateGenerator) Provider() string { return "strata" }

// Model implements Generator: the template generator's version.
func (TemplateGenerator) Model() string { return template.Version }

// Plan implements Generator.
func (TemplateGenerator) Plan(_ context.Context, message string) (Plan, error) {
	s, err := template.Plan(message)
	if err != nil {
		return Plan{}, err
	}
	spec, err := json.Marshal(s)
	if err != nil {
		return Plan{}, fmt.Errorf("template plan: %w", err)
	}
	return Plan{Archetype: s.Archetype, Matched: s.Matched, Assumptions: s.Assumptions, Spec: spec}, nil
}

// Files implements Generator.
func (g TemplateGenerator) Files(_ context.Context, _, _ string, p Plan, emit func(GenFile) error) (Produced, error) {
	out := Produced{Provider: g.Provider(), Model: g.Model()}
	var s template.Spec
	if err := json.Unmarshal(p.Spec, &s); err != nil {
		return out, fmt.Errorf("template files: the plan's spec: %w", err)
	}
	files, err := template.Generate(s)
	if err != nil {
		return out, err
	}
	for _, f := range files {
		if err := emit(GenFile{Path: f.Path, Content: f.Content}); err != nil {
			return out, err
		}
	}
	return out, nil
}
