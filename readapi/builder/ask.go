package builder

import (
	"net/http"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/readapi/httpx"
)

// askRequest is the body of POST /api/build/ask.
type askRequest struct {
	Question    string `json:"question"`
	Idea        string `json:"idea"`
	CompanyName string `json:"companyName"`
	Track       string `json:"track"`
	CompanyID   string `json:"companyId"`
	ChatID      string `json:"chatId"`
}

// sourceView is one fact an answer used.
type sourceView struct {
	Fact        string   `json:"fact"`
	Stream      string   `json:"stream,omitempty"`
	UpToVersion int64    `json:"upToVersion,omitempty"`
	EventTypes  []string `json:"eventTypes,omitempty"`
	Detail      string   `json:"detail,omitempty"`
}

type askResponse struct {
	Answer    string       `json:"answer"`
	Model     string       `json:"model"`
	Provider  string       `json:"provider"`
	Generator string       `json:"generator"`
	Intents   []string     `json:"intents"`
	Sources   []sourceView `json:"sources"`
	Kept      bool         `json:"kept"`
	Note      string       `json:"note,omitempty"`
}

// ask serves POST /api/build/ask: the answer, what produced it and the
// facts it used; kept says whether the thread kept it.
func (a *ArtifactAPI) ask(w http.ResponseWriter, r *http.Request) {
	var req askRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out, err := a.a.Ask(r.Context(), cmd.AskRequest{CompanyID: req.CompanyID, ChatID: req.ChatID, Question: artifacts.Question{
		Question: req.Question, Idea: req.Idea, Track: req.Track, CompanyName: req.CompanyName}})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	resp := askResponse{Answer: out.Answer, Model: out.Model, Provider: out.Provider, Generator: out.Generator,
		Intents: out.Intents, Sources: make([]sourceView, len(out.Sources)), Kept: out.Kept, Note: out.Note}
	if resp.Intents == nil {
		resp.Intents = []string{}
	}
	for i, s := range out.Sources {
		resp.Sources[i] = sourceView{Fact: s.Fact, Stream: s.Stream, UpToVersion: s.UpToVersion, EventTypes: s.EventTypes, Detail: s.Detail}
	}
	if err := httpx.WriteJSON(w, http.StatusOK, resp); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// turnView is one turn of a thread: the seed's role, text and createdAt,
// and for an answer what produced it.
type turnView struct {
	Role      string    `json:"role"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
	Generator string    `json:"generator,omitempty"`
	Provider  string    `json:"provider,omitempty"`
	Model     string    `json:"model,omitempty"`
}

// thread serves GET /api/build/ask?companyId=&chatId=: the thread's
// turns, oldest first.
func (a *ArtifactAPI) thread(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	turns, err := a.a.Thread(r.Context(), q.Get("companyId"), q.Get("chatId"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := make([]turnView, len(turns))
	for i, t := range turns {
		out[i] = turnView{Role: t.Role, Text: t.Text, CreatedAt: t.At.UTC()}
		if t.Role == builder.RoleAssistant {
			out[i].Generator, out[i].Provider, out[i].Model = t.Generator, t.Provider, t.Model
		}
	}
	if err := httpx.WriteJSON(w, http.StatusOK, map[string]any{"companyId": q.Get("companyId"), "chatId": q.Get("chatId"), "turns": out}); err != nil {
		httpx.WriteError(w, r, err)
	}
}
