package memory

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/readapi/httpx"
)

// mergeBody is POST /entities/{entity_id}/merge's body.
type mergeBody struct {
	Into   string  `json:"into"`    // the survivor: an id, a name or an alias
	UserID *string `json:"user_id"` // optional: the caller's own id
}

// MergeResult is the answer of a merge: the survivor as the read model
// holds it afterwards, the merged entity's id, and what settling the
// survivor's timelines changed.
type MergeResult struct {
	EntityID        string   `json:"entity_id"`
	Name            string   `json:"name"`
	EntityType      string   `json:"entity_type"`
	Aliases         []string `json:"aliases"`
	Merged          []string `json:"merged"`
	FactsSuperseded int      `json:"facts_superseded"`
	FactsReinstated int      `json:"facts_reinstated"`
	EdgesRetracted  int      `json:"edges_retracted"`
}

// MergeEntities merges the entity in.Entity names into the one in.Into
// names in user's store (commands/memory) and answers the survivor as
// every later read sees it.
func (a *API) MergeEntities(ctx context.Context, user string, in memory.MergeInput) (MergeResult, error) {
	res, err := a.svc.MergeEntities(ctx, user, in)
	if err != nil {
		return MergeResult{}, err
	}
	ent, err := a.resolveEntity(ctx, user, res.SurvivorID)
	if err != nil {
		return MergeResult{}, err
	}
	return MergeResult{EntityID: ent.ID, Name: ent.Name, EntityType: ent.Type, Aliases: ent.Aliases,
		Merged: []string{res.MergedID}, FactsSuperseded: len(res.Superseded), FactsReinstated: len(res.Reinstated),
		EdgesRetracted: len(res.Retracted)}, nil
}

func (a *API) mergeEntity(w http.ResponseWriter, r *http.Request, c caller) {
	var body mergeBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if body.UserID != nil {
		if err := ownStore(*body.UserID, c); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	res, err := a.MergeEntities(r.Context(), c.UserID,
		memory.MergeInput{Entity: mux.Vars(r)["entity_id"], Into: body.Into})
	writeJSON(w, r, http.StatusOK, res, err)
}

// ownStore checks a user_id a caller names: empty or the caller's own (a
// memory store is private); not a UUID is invalid, another user's id is
// forbidden.
func ownStore(v string, c caller) error {
	if v == "" {
		return nil
	}
	if _, err := uuid.Parse(v); err != nil {
		return kernel.Invalid("user_id", "uuid", "user_id must be a UUID")
	}
	if v != c.UserID {
		return kernel.Forbidden("a memory store is private: user_id may only name the caller")
	}
	return nil
}
