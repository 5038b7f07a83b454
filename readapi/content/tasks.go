package content

import (
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/strata-platform/strata/domain/kernel"
)

// taskJSON is a task as both the public and the frontend path show it.
type taskJSON struct {
	TaskID    string          `json:"task_id"`
	Kind      string          `json:"kind"`
	Status    string          `json:"status"`
	Progress  int             `json:"progress"`
	Stage     *string         `json:"stage"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error,omitempty"`
	CreatedAt string          `json:"created_at"`
	UpdatedAt string          `json:"updated_at"`
}

// task serves GET /tasks/{task_id}: queued, processing (progress from the
// stages reached), done (result) or error; result is null until done.
func (a *API) task(w http.ResponseWriter, r *http.Request, c caller) {
	id := mux.Vars(r)["task_id"]
	var t taskJSON
	var result, errb []byte
	var created, updated time.Time
	err := a.db.QueryRowContext(r.Context(), `SELECT id, kind, status, progress, stage, result, error, created_at, updated_at
		FROM rm_content_v1.tasks WHERE id = $1 AND owner = $2`, id, c.actor.Owner).
		Scan(&t.TaskID, &t.Kind, &t.Status, &t.Progress, &t.Stage, &result, &errb, &created, &updated)
	if errors.Is(err, stdsql.ErrNoRows) {
		err = kernel.NotFound("no task with id " + trim(id))
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	t.Result = json.RawMessage("null")
	if t.Status == "done" && result != nil {
		t.Result = a.svc.FreshLinks(c.actor.Owner, result)
	}
	if errb != nil {
		t.Error = errb
	}
	t.CreatedAt, t.UpdatedAt = ts(created), ts(updated)
	writeJSON(w, r, http.StatusOK, t, nil)
}
