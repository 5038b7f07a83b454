package memory

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/readapi/httpx"
)

// relateBody is POST /relate's body.
type relateBody struct {
	Subject    string   `json:"subject"`
	Predicate  string   `json:"predicate"`
	Object     string   `json:"object"`
	Confidence *float64 `json:"confidence"`
	ValidFrom  *string  `json:"valid_from"` // beyond the seed: when the fact became true (default now)
	Exclusive  *bool    `json:"exclusive"`  // beyond the seed: force single-valued (true) or not (false)
}

type relateResult struct {
	Success    bool      `json:"success"`
	EdgeID     string    `json:"edge_id"`
	Subject    string    `json:"subject"`
	SubjectID  string    `json:"subject_id"`
	Predicate  string    `json:"predicate"`
	Object     string    `json:"object"`
	ObjectID   string    `json:"object_id"`
	Confidence float64   `json:"confidence"`
	Exclusive  bool      `json:"exclusive"`
	ValidFrom  time.Time `json:"valid_from"`
	Superseded []string  `json:"superseded"`
}

func (a *API) relate(w http.ResponseWriter, r *http.Request, c caller) {
	var body relateBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	from, err := optionalTime("valid_from", body.ValidFrom)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in := memory.RelateInput{Subject: body.Subject, Predicate: body.Predicate, Object: body.Object,
		Confidence: orDefault(body.Confidence, memory.DefaultConfidence), Exclusive: body.Exclusive, ValidFrom: from}
	res, err := a.svc.Relate(r.Context(), c.UserID, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	_ = httpx.WriteJSON(w, http.StatusOK, relateResult{Success: true, EdgeID: res.EdgeID, Subject: body.Subject,
		SubjectID: res.SubjectID, Predicate: res.Predicate, Object: body.Object, ObjectID: res.ObjectID,
		Confidence: in.Confidence, Exclusive: res.Exclusive, ValidFrom: res.ValidFrom, Superseded: nonNil(res.Superseded)})
}

func (a *API) graph(w http.ResponseWriter, r *http.Request, c caller) {
	limit, err := intParam(r, "limit", 100, 1, 500)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	ent, err := a.resolveEntity(r.Context(), c.UserID, mux.Vars(r)["entity_id"])
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rels, err := a.relationships(r.Context(), ent.ID, limit)
	writeJSON(w, r, http.StatusOK, map[string]any{"entity_id": ent.ID, "name": ent.Name, "entity_type": ent.Type,
		"relationships": rels, "count": len(rels)}, err)
}

// Timeline is an entity's facts ordered by valid_from.
type Timeline struct {
	EntityID string `json:"entity_id"`
	Name     string `json:"name"`
	Edges    []fact `json:"edges"`
}

// TimelineOf returns the timeline of the entity ref names in user's graph.
func (a *API) TimelineOf(ctx context.Context, user, ref string) (Timeline, error) {
	ent, err := a.resolveEntity(ctx, user, ref)
	if err != nil {
		return Timeline{}, err
	}
	edges, err := a.timelineOf(ctx, ent.ID)
	return Timeline{EntityID: ent.ID, Name: ent.Name, Edges: edges}, err
}

func (a *API) timeline(w http.ResponseWriter, r *http.Request, c caller) {
	res, err := a.TimelineOf(r.Context(), c.UserID, mux.Vars(r)["entity_id"])
	writeJSON(w, r, http.StatusOK, res, err)
}

func (a *API) entities(w http.ResponseWriter, r *http.Request, c caller) {
	q := r.URL.Query()
	user := c.UserID
	if err := ownStore(q.Get("user_id"), c); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	typ := q.Get("entity_type")
	if typ != "" && !memory.ValidEntityType(typ) {
		httpx.WriteError(w, r, kernel.Invalid("entity_type", "enum", "entity_type must be one of person, org, tech, concept"))
		return
	}
	limit, err := intParam(r, "limit", 100, 1, 500)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, err := a.entityList(r.Context(), user, typ, limit)
	writeJSON(w, r, http.StatusOK, map[string]any{"user_id": user, "entities": list, "count": len(list)}, err)
}

func (a *API) deleteEntity(w http.ResponseWriter, r *http.Request, c caller) {
	cascade, err := boolParam(r, "cascade", false)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.svc.DeleteEntity(r.Context(), c.UserID, mux.Vars(r)["entity_id"], cascade)
	writeJSON(w, r, http.StatusOK, map[string]any{"entity_id": res.EntityID, "edges_removed": res.EdgesRemoved,
		"memories_removed": res.MemoriesRemoved, "cascade": cascade}, err)
}
