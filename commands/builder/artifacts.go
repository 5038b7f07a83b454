package builder

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/builder/template"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// ChatLoader folds a chat (Chats does): the company an artifact or a
// question is about.
type ChatLoader interface {
	Load(ctx context.Context, chatID string) (*builder.Chat, error)
}

// ArtifactInput is what a writer writes an artifact from: the founder's
// request, the company it names (if any) and the app spec it is about.
type ArtifactInput struct {
	artifacts.Request
	CompanyID string
	Basis     artifacts.Basis
}

// Draft is a writer's artifact: its content (JSON, which the caller checks
// against the view's schema before anything is recorded or returned) and
// what it was derived from (JSON).
type Draft struct {
	Content     json.RawMessage
	DerivedFrom json.RawMessage
}

// ArtifactWriter writes the content of artifact views. Name is what its
// outputs are labelled with (builder.GeneratorTemplate or
// builder.GeneratorModel); Provider and Model say which one exactly (a
// model path reports what the gateway reports). A view it cannot write
// honestly is an error of kind unavailable, field "view", rule
// llm_unavailable: never a guess, never another writer's output under its
// name.
type ArtifactWriter interface {
	Name() string
	Provider() string
	Model() string
	Write(ctx context.Context, in ArtifactInput) (Draft, error)
}

// TemplateWriter is the offline writer: dataModel and the PRD skeleton
// derived from the app spec (artifacts.DeriveDataModel, DerivePRD); every
// other view is 503 llm_unavailable.
type TemplateWriter struct{}

// Name implements ArtifactWriter.
func (TemplateWriter) Name() string { return builder.GeneratorTemplate }

// Provider implements ArtifactWriter: Strata itself, no model.
func (TemplateWriter) Provider() string { return artifacts.Provider }

// Model implements ArtifactWriter: the template generator's version.
func (TemplateWriter) Model() string { return template.Version }

// Write implements ArtifactWriter.
func (TemplateWriter) Write(_ context.Context, in ArtifactInput) (Draft, error) {
	var content any
	switch in.View {
	case artifacts.ViewDataModel:
		content = artifacts.DeriveDataModel(in.Basis)
	case artifacts.ViewPRD:
		content = artifacts.DerivePRD(in.Basis, in.Track, in.CompanyName)
	default:
		return Draft{}, LLMUnavailable(in.View)
	}
	c, err := json.Marshal(content)
	if err != nil {
		return Draft{}, fmt.Errorf("artifact %s: %w", in.View, err)
	}
	d, err := json.Marshal(artifacts.Derivation(in.Basis, in.Feedback))
	if err != nil {
		return Draft{}, fmt.Errorf("artifact %s: %w", in.View, err)
	}
	return Draft{Content: c, DerivedFrom: d}, nil
}

// LLMUnavailable is the 503 of a view that needs judgement when no model
// is configured: field view, rule llm_unavailable, naming the view and the
// views that can be had offline.
func LLMUnavailable(view string) error {
	return &kernel.Error{Kind: kernel.KindUnavailable, Field: "view", Rule: CodeLLMUnavailable,
		Message: fmt.Sprintf("the %s view needs judgement and no model is configured for the builder, so it is not written "+
			"(never invented); offline only %s are derived, from the app spec", view, strings.Join(artifacts.OfflineViews(), " and "))}
}

// ArtifactsConfig is what the artifact and Ask commands need.
type ArtifactsConfig struct {
	Store  *eventstore.Store
	Chats  ChatLoader
	Clock  kernel.Clock
	IDs    kernel.IDs
	Logger *slog.Logger
	// Writer writes artifacts (default TemplateWriter); Answerer answers
	// Ask questions (default FactsAnswerer).
	Writer   ArtifactWriter
	Answerer Answerer
	// MaxTurns bounds one Ask thread (default DefaultMaxTurns).
	MaxTurns int
}

// Artifacts produces planning artifacts and answers Ask questions, and
// records both as events.
type Artifacts struct {
	cfg       ArtifactsConfig
	validator *artifacts.Validator
}

// NewArtifacts returns the artifact and Ask commands; it compiles the
// views' schemas (an error means a schema is broken).
func NewArtifacts(cfg ArtifactsConfig) (*Artifacts, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Writer == nil {
		cfg.Writer = TemplateWriter{}
	}
	if cfg.Answerer == nil {
		cfg.Answerer = FactsAnswerer{}
	}
	if cfg.MaxTurns == 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	v, err := artifacts.NewValidator()
	if err != nil {
		return nil, err
	}
	return &Artifacts{cfg: cfg, validator: v}, nil
}

// ArtifactRequest is an artifact request: the seed's fields and an
// optional companyId (a chat id), which makes the artifact the company's.
type ArtifactRequest struct {
	artifacts.Request
	CompanyID string
}

// Artifact is a produced artifact, as recorded.
type Artifact struct {
	ID          string
	View        string
	Content     json.RawMessage
	Schema      string // the $id of the view's schema
	Generator   string
	Provider    string
	Model       string
	DerivedFrom json.RawMessage
	Stream      string // the stream it was recorded on
}

// Generate produces req's view: 400 for bad input (naming the field), 404
// for an unknown companyId, 503 llm_unavailable for a view the writer
// cannot write. The content is checked against the view's schema, then
// recorded as builder.artifact_generated on the company's artifacts stream
// (or, without companyId, the stream of the track and idea), then
// returned.
//
// The app spec is the company's current version's, or else the template
// generator's plan of the idea; derived_from says which.
func (a *Artifacts) Generate(ctx context.Context, req ArtifactRequest) (Artifact, error) {
	if err := req.Check(); err != nil {
		return Artifact{}, err
	}
	in := ArtifactInput{Request: req.Request, CompanyID: req.CompanyID}
	stream := builder.IdeaArtifactsStream(req.Track, req.Idea)
	found := false
	if req.CompanyID != "" {
		if err := CheckChatID("companyId", req.CompanyID); err != nil {
			return Artifact{}, err
		}
		ch, err := a.cfg.Chats.Load(ctx, req.CompanyID)
		if err != nil {
			return Artifact{}, err
		}
		if in.Basis, found, err = artifacts.CompanyBasis(ch); err != nil {
			return Artifact{}, err
		}
		stream = builder.ArtifactsStream(req.CompanyID)
	}
	if !found {
		b, err := artifacts.IdeaBasis(req.Idea)
		if err != nil {
			return Artifact{}, err
		}
		in.Basis = b
	}
	w := a.cfg.Writer
	d, err := w.Write(ctx, in)
	if err != nil {
		return Artifact{}, err
	}
	if err := a.validator.Validate(req.View, d.Content); err != nil {
		a.cfg.Logger.ErrorContext(ctx, "builder: an artifact does not match its schema", "view", req.View, "generator", w.Name(), "error", err)
		if w.Name() == builder.GeneratorModel {
			return Artifact{}, &kernel.Error{Kind: kernel.KindBadGateway, Field: "view", Rule: "schema_mismatch",
				Message: "the model's " + req.View + " did not match the view's schema, so it is not returned", Err: err}
		}
		return Artifact{}, err
	}
	out := Artifact{ID: "art_" + a.cfg.IDs.NewID(), View: req.View, Content: d.Content, Schema: artifacts.SchemaID(req.View),
		Generator: w.Name(), Provider: w.Provider(), Model: w.Model(), DerivedFrom: d.DerivedFrom, Stream: stream}
	ev := &builder.ArtifactGenerated{ArtifactID: out.ID, CompanyID: req.CompanyID, View: req.View, Track: req.Track, Idea: req.Idea,
		CompanyName: req.CompanyName, Feedback: req.Feedback, Content: d.Content, Schema: out.Schema, Generator: out.Generator,
		Provider: out.Provider, Model: out.Model, DerivedFrom: d.DerivedFrom, At: a.cfg.Clock.Now()}
	if _, err := a.cfg.Store.Append(ctx, eventstore.Stream{Type: builder.StreamArtifacts, ID: stream}, eventstore.AnyVersion, ev); err != nil {
		return Artifact{}, fmt.Errorf("record artifact %s on %s: %w", req.View, stream, err)
	}
	return out, nil
}

// Recorded returns the artifacts recorded for company companyID, oldest
// first, and the version of their stream (0: none).
func (a *Artifacts) Recorded(ctx context.Context, companyID string) ([]builder.ArtifactGenerated, int64, error) {
	evs, err := a.cfg.Store.Load(ctx, builder.ArtifactsStream(companyID), eventstore.LoadOptions{})
	if err != nil {
		return nil, 0, fmt.Errorf("artifacts of %s: %w", companyID, err)
	}
	var out []builder.ArtifactGenerated
	var v int64
	for _, e := range evs {
		v = e.StreamVersion
		if g, ok := e.Event.(*builder.ArtifactGenerated); ok {
			out = append(out, *g)
		}
	}
	return out, v, nil
}
