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

// Generator turns a founder's message into a plan, and a plan into files.
// Name is what the outputs are labelled with (builder.GeneratorTemplate
// or builder.GeneratorModel); Provider and Model say which one exactly.
type Generator interface {
	Name() string
	Provider() string
	Model() string
	Plan(ctx context.Context, message string) (Plan, error)
	Files(ctx context.Context, message string, p Plan) ([]GenFile, error)
}

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
func (TemplateGenerator) Files(_ context.Context, _ string, p Plan) ([]GenFile, error) {
	var s template.Spec
	if err := json.Unmarshal(p.Spec, &s); err != nil {
		return nil, fmt.Errorf("template files: the plan's spec: %w", err)
	}
	files, err := template.Generate(s)
	if err != nil {
		return nil, err
	}
	out := make([]GenFile, len(files))
	for i, f := range files {
		out[i] = GenFile{Path: f.Path, Content: f.Content}
	}
	return out, nil
}
