package memory

import (
	"net/http"
	"net/url"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/readapi/httpx"
)

// rememberBody is POST /remember's body.
type rememberBody struct {
	Content    string         `json:"content"`
	EntityID   *string        `json:"entity_id"`
	MemoryType *string        `json:"memory_type"`
	Importance *float64       `json:"importance"`
	Namespace  *string        `json:"namespace"`
	Tags       []string       `json:"tags"`
	Metadata   map[string]any `json:"metadata"`
	OccurredAt *string        `json:"occurred_at"` // beyond the seed: when it was stated (default now)
}

// nextSteps suggests what a client may do after remembering.
type nextSteps struct {
	Action     string `json:"action"`
	Suggestion string `json:"suggestion"`
	Endpoint   string `json:"endpoint"`
}

type rememberResult struct {
	MemoryID          string    `json:"memory_id"`
	Content           string    `json:"content"`
	Importance        float64   `json:"importance"`
	MemoryType        string    `json:"memory_type"`
	Namespace         string    `json:"namespace"`
	EntitiesExtracted []string  `json:"entities_extracted"`
	Merged            bool      `json:"merged"`
	Superseded        int       `json:"facts_superseded"`
	NextSteps         nextSteps `json:"next_steps"`
}

func (b rememberBody) input() (memory.RememberInput, error) {
	at, err := optionalTime("occurred_at", b.OccurredAt)
	if err != nil {
		return memory.RememberInput{}, err
	}
	return memory.RememberInput{Content: b.Content, EntityRef: orDefault(b.EntityID, ""),
		MemoryType: orDefault(b.MemoryType, ""), Importance: orDefault(b.Importance, memory.DefaultImportance),
		Namespace: orDefault(b.Namespace, ""), Tags: b.Tags, Metadata: b.Metadata, At: at}, nil
}

func (a *API) remember(w http.ResponseWriter, r *http.Request, c caller) {
	var body rememberBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in, err := body.input()
	if err == nil {
		err = in.Check(a.svc.Now())
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.svc.Remember(r.Context(), c.UserID, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := rememberResult{MemoryID: res.MemoryID, Content: in.Content, Importance: in.Importance,
		MemoryType: in.MemoryType, Namespace: in.Namespace, EntitiesExtracted: nonNil(res.Entities),
		Merged: res.Merged, Superseded: len(res.Superseded), NextSteps: suggest(res, in)}
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}

// suggest picks the most useful next call after a remember.
func suggest(res memory.Remembered, in memory.RememberInput) nextSteps {
	switch {
	case res.Merged:
		return nextSteps{Action: "recall", Endpoint: Base + "/recall",
			Suggestion: "This was already known: it was merged into memory " + res.MemoryID + " instead of being stored twice."}
	case len(res.Superseded) > 0 && in.EntityRef != "":
		return nextSteps{Action: "timeline", Endpoint: Base + "/entities/" + url.PathEscape(in.EntityRef) + "/timeline",
			Suggestion: "This replaced an earlier fact; the timeline shows the history."}
	case len(res.Superseded) > 0:
		return nextSteps{Action: "graph", Endpoint: Base + "/graph/" + url.PathEscape(res.Entities[0]),
			Suggestion: "This replaced an earlier fact; the graph shows what is current."}
	case len(res.Entities) > 0:
		return nextSteps{Action: "graph", Endpoint: Base + "/graph/" + url.PathEscape(res.Entities[0]),
			Suggestion: "Explore what is known about " + res.Entities[0] + "."}
	}
	return nextSteps{Action: "recall", Endpoint: Base + "/recall", Suggestion: "Recall related memories by meaning."}
}

// forgetResult answers both forms of forget.
type forgetResult struct {
	Success  bool   `json:"success"`
	MemoryID string `json:"memory_id"`
	Message  string `json:"message"`
}

func (a *API) forgetPath(w http.ResponseWriter, r *http.Request, c caller) {
	a.forget(w, r, c, mux.Vars(r)["memory_id"])
}

func (a *API) forgetBody(w http.ResponseWriter, r *http.Request, c caller) {
	var body struct {
		MemoryID string `json:"memory_id"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if body.MemoryID == "" {
		httpx.WriteError(w, r, kernel.Invalid("memory_id", "required", "memory_id is required"))
		return
	}
	a.forget(w, r, c, body.MemoryID)
}

func (a *API) forget(w http.ResponseWriter, r *http.Request, c caller, id string) {
	err := a.svc.Forget(r.Context(), c.UserID, id)
	writeJSON(w, r, http.StatusOK, forgetResult{Success: true, MemoryID: id,
		Message: "memory forgotten: removed from every read model and its content shredded in the event history"}, err)
}
