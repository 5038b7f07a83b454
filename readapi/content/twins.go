package content

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// twinJSON is a twin as the API shows it.
type twinJSON struct {
	ID               string                    `json:"id"`
	Name             string                    `json:"name"`
	VoiceID          string                    `json:"voice_id"`
	StyleTags        []string                  `json:"style_tags"`
	PersonaPrompt    string                    `json:"persona_prompt"`
	PlatformDefaults map[string]map[string]any `json:"platform_defaults"`
	MemoryNamespace  string                    `json:"memory_namespace"`
	CreatedAt        string                    `json:"created_at"`
	UpdatedAt        string                    `json:"updated_at"`
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func toTwin(t content.Twin) twinJSON {
	return twinJSON{ID: t.ID, Name: t.Name, VoiceID: t.VoiceID, StyleTags: t.StyleTags, PersonaPrompt: t.PersonaPrompt,
		PlatformDefaults: t.PlatformDefaults, MemoryNamespace: content.Namespace(t.ID), CreatedAt: ts(t.CreatedAt), UpdatedAt: ts(t.UpdatedAt)}
}

func (a *API) createTwin(w http.ResponseWriter, r *http.Request, c caller) {
	var f content.TwinFields
	if err := decode(r, &f); err != nil {
		writeErr(w, r, err)
		return
	}
	if f.Name == nil {
		writeErr(w, r, required("name"))
		return
	}
	t, err := a.svc.CreateTwin(r.Context(), c.actor, f)
	writeJSON(w, r, http.StatusCreated, toTwin(t), err)
}

func (a *API) patchTwin(w http.ResponseWriter, r *http.Request, c caller) {
	var f content.TwinFields
	if err := decode(r, &f); err != nil {
		writeErr(w, r, err)
		return
	}
	t, err := a.svc.UpdateTwin(r.Context(), c.actor, mux.Vars(r)["twin_id"], f)
	writeJSON(w, r, http.StatusOK, toTwin(t), err)
}

func (a *API) deleteTwin(w http.ResponseWriter, r *http.Request, c caller) {
	if err := a.svc.DeleteTwin(r.Context(), c.actor, mux.Vars(r)["twin_id"]); err != nil {
		writeErr(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) getTwin(w http.ResponseWriter, r *http.Request, c caller) {
	id := mux.Vars(r)["twin_id"]
	list, err := a.twins(r.Context(), c.actor.Owner, id, 1, 0)
	if err == nil && len(list) == 0 {
		err = kernel.NotFound("no twin with id " + id)
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, list[0], nil)
}

// listTwins serves GET /twins: the owner's twins, oldest first, as a JSON
// array (limit 1-200, default 100; offset); X-Total-Count has the total.
func (a *API) listTwins(w http.ResponseWriter, r *http.Request, c caller) {
	limit, err := httpx.IntParam(r, "limit", 100, 1, 200)
	offset := 0
	if err == nil {
		offset, err = httpx.IntParam(r, "offset", 0, 0, 1_000_000)
	}
	var out []twinJSON
	if err == nil {
		out, err = a.twins(r.Context(), c.actor.Owner, "", limit, offset)
	}
	var total int
	if err == nil {
		err = a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_content_v1.twins WHERE owner = $1 AND deleted_at IS NULL`,
			c.actor.Owner).Scan(&total)
	}
	if err == nil {
		w.Header().Set("X-Total-Count", itoa(total))
	}
	writeJSON(w, r, http.StatusOK, out, err)
}

// twins reads the owner's live twins (one when id is set).
func (a *API) twins(ctx context.Context, owner, id string, limit, offset int) ([]twinJSON, error) {
	if id != "" {
		if _, err := uuid.Parse(id); err != nil {
			return nil, nil
		}
	}
	rows, err := a.db.QueryContext(ctx, `SELECT id, name, voice_id, style_tags, persona_prompt, platform_defaults, created_at, updated_at
		FROM rm_content_v1.twins WHERE owner = $1 AND deleted_at IS NULL AND ($2 = '' OR id = $2::text::uuid)
		ORDER BY created_at, id LIMIT $3 OFFSET $4`, owner, id, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []twinJSON{}
	for rows.Next() {
		var t content.Twin
		var tags, defs []byte
		if err := rows.Scan(&t.ID, &t.Name, &t.VoiceID, &tags, &t.PersonaPrompt, &defs, &t.CreatedAt, &t.UpdatedAt); err != nil {
			return nil, err
		}
		if err := errors.Join(json.Unmarshal(tags, &t.StyleTags), json.Unmarshal(defs, &t.PlatformDefaults)); err != nil {
			return nil, err
		}
		out = append(out, toTwin(t))
	}
	return out, rows.Err()
}
