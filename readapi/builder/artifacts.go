package builder

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// ArtifactAPI serves the planning artifacts and the Ask thread.
type ArtifactAPI struct {
	a *cmd.Artifacts
}

// NewArtifactAPI returns the artifact and Ask routes' handlers.
func NewArtifactAPI(a *cmd.Artifacts) *ArtifactAPI { return &ArtifactAPI{a: a} }

// ArtifactRoutes adds the artifact and Ask routes to the builder surface's
// router (auth none, as the seed gives them).
func ArtifactRoutes(r *mux.Router, a *ArtifactAPI) {
	r.Handle("/api/build/artifact", http.HandlerFunc(a.artifact)).Methods(http.MethodPost)
	r.Handle("/api/build/ask", http.HandlerFunc(a.ask)).Methods(http.MethodPost)
	r.Handle("/api/build/ask", http.HandlerFunc(a.thread)).Methods(http.MethodGet, http.MethodHead)
}

// artifactRequest is the body of POST /api/build/artifact: the seed's
// fields, and companyId (beyond the seed) to make it a company's artifact.
type artifactRequest struct {
	View        string `json:"view"`
	Idea        string `json:"idea"`
	Track       string `json:"track"`
	CompanyName string `json:"companyName"`
	Feedback    string `json:"feedback"`
	CompanyID   string `json:"companyId"`
}

type artifactResponse struct {
	View        string          `json:"view"`
	Content     json.RawMessage `json:"content"`
	Provider    string          `json:"provider"`
	Model       string          `json:"model"`
	Generator   string          `json:"generator"`
	DerivedFrom json.RawMessage `json:"derived_from"`
	Schema      string          `json:"schema"`
	ArtifactID  string          `json:"artifactId"`
}

// artifact serves POST /api/build/artifact: the view's content, checked
// against its schema and recorded; 503 llm_unavailable (with the view and
// the views to be had offline) for a view that needs a model.
func (a *ArtifactAPI) artifact(w http.ResponseWriter, r *http.Request) {
	var req artifactRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out, err := a.a.Generate(r.Context(), cmd.ArtifactRequest{CompanyID: req.CompanyID, Request: artifacts.Request{
		View: req.View, Idea: req.Idea, Track: req.Track, CompanyName: req.CompanyName, Feedback: req.Feedback}})
	if err != nil {
		var ke *kernel.Error
		if errors.As(err, &ke) && ke.Rule == cmd.CodeLLMUnavailable {
			err = httpx.WithMembers(err, map[string]any{"view": req.View, "offlineViews": artifacts.OfflineViews()})
		}
		httpx.WriteError(w, r, err)
		return
	}
	if err := httpx.WriteJSON(w, http.StatusOK, artifactResponse{View: out.View, Content: out.Content, Provider: out.Provider,
		Model: out.Model, Generator: out.Generator, DerivedFrom: out.DerivedFrom, Schema: out.Schema, ArtifactID: out.ID}); err != nil {
		httpx.WriteError(w, r, err)
	}
}
