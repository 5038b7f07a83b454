package voice

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

// voicemailView is a voicemail: from is the caller (null once erased),
// to the organization's number; audio is the call's recording.
type voicemailView struct {
	ID              string   `json:"id"`
	CallID          string   `json:"call_id"`
	From            *string  `json:"from"`
	To              string   `json:"to"`
	Status          string   `json:"status"`
	DurationSeconds float64  `json:"duration_seconds"`
	RecordingURL    string   `json:"recording_url"`
	Moves           []string `json:"allowed_moves"`
	CreatedAt       string   `json:"created_at"`
	UpdatedAt       string   `json:"updated_at"`
}

const voicemailCols = `voicemail_id, call_id, line, remote, status, duration_ms, recording_id, created_at, updated_at`

func (a *API) scanVoicemail(ctx context.Context, row scanner) (voicemailView, error) {
	var v voicemailView
	var remote []byte
	var ms int
	var rid string
	var created, updated time.Time
	if err := row.Scan(&v.ID, &v.CallID, &v.To, &remote, &v.Status, &ms, &rid, &created, &updated); err != nil {
		return v, err
	}
	from, err := a.openNumber(ctx, remote)
	if err != nil {
		return v, err
	}
	v.From, v.DurationSeconds = from, float64(ms)/1000
	v.RecordingURL = "/api/v1/calls/" + v.CallID + "/recordings/" + rid
	v.Moves = voice.VoicemailMoves[v.Status]
	v.CreatedAt, v.UpdatedAt = stamp(created), stamp(updated)
	return v, nil
}

// voicemails lists the tenant's voicemails, newest first, by status.
func (a *API) voicemails(w http.ResponseWriter, r *http.Request, c caller) {
	pg, limit, err := page(r, 25)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	status, err := httpx.EnumParam(r, "status", voice.VoicemailNew, voice.VoicemailRead, voice.VoicemailArchived)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var total int
	if err := a.db.QueryRowContext(r.Context(), `SELECT count(*) FROM rm_voice_v1.voicemails WHERE tenant = $1 AND ($2 = '' OR status = $2)`,
		c.actor.Tenant, status).Scan(&total); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT `+voicemailCols+` FROM rm_voice_v1.voicemails WHERE tenant = $1 AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, voicemail_id DESC LIMIT $3 OFFSET $4`, c.actor.Tenant, status, limit, (pg-1)*limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	var items []voicemailView
	for rows.Next() {
		v, err := a.scanVoicemail(r.Context(), rows)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, newList(items, pg, limit, total), rows.Err())
}

func (a *API) voicemail(ctx context.Context, tenant, vid string) (voicemailView, error) {
	if !isUUID(vid) {
		return voicemailView{}, kernel.NotFound("voicemail not found")
	}
	v, err := a.scanVoicemail(ctx, a.db.QueryRowContext(ctx, `SELECT `+voicemailCols+` FROM rm_voice_v1.voicemails
		WHERE voicemail_id = $1 AND tenant = $2`, vid, tenant))
	if isNoRows(err) {
		return v, kernel.NotFound("voicemail not found")
	}
	return v, err
}

func (a *API) getVoicemail(w http.ResponseWriter, r *http.Request, c caller) {
	v, err := a.voicemail(r.Context(), c.actor.Tenant, id(r, "voicemail_id"))
	writeJSON(w, r, http.StatusOK, v, err)
}

// moveVoicemail moves a voicemail: PATCH {status} (new, read, archived;
// the allowed moves are in allowed_moves), 409 for a move not allowed.
func (a *API) moveVoicemail(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Status string `json:"status"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.move(w, r, c, strings.TrimSpace(b.Status))
}

// moveTo serves the one-word moves: POST .../read, .../archive, .../unread.
func (a *API) moveTo(status string) func(w http.ResponseWriter, r *http.Request, c caller) {
	return func(w http.ResponseWriter, r *http.Request, c caller) { a.move(w, r, c, status) }
}

func (a *API) move(w http.ResponseWriter, r *http.Request, c caller, status string) {
	if status == "" {
		httpx.WriteError(w, r, kernel.Invalid("status", "required", "status is required (new, read or archived)"))
		return
	}
	vid := id(r, "voicemail_id")
	v, err := a.voicemail(r.Context(), c.actor.Tenant, vid)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := a.svc.MoveVoicemail(r.Context(), c.actor, v.CallID, vid, status); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err = a.voicemail(r.Context(), c.actor.Tenant, vid)
	writeJSON(w, r, http.StatusOK, v, err)
}
