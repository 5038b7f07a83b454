package voice

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

// ownCall refuses a call of another tenant (404), from the read model.
func (a *API) ownCall(r *http.Request, c caller) (string, error) {
	callID := id(r, "call_id")
	if !isUUID(callID) {
		return "", kernel.NotFound("call not found")
	}
	var one int
	err := a.db.QueryRowContext(r.Context(), `SELECT 1 FROM rm_voice_v1.calls WHERE call_id = $1 AND tenant = $2`, callID, c.actor.Tenant).Scan(&one)
	if isNoRows(err) {
		return "", kernel.NotFound("call not found")
	}
	return callID, err
}

type noteView struct {
	ID        string  `json:"id"`
	CallID    string  `json:"call_id"`
	Author    string  `json:"author"`
	Text      *string `json:"text"` // null once erased
	CreatedAt string  `json:"created_at"`
}

func (a *API) notes(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT note_id, author, secret, at FROM rm_voice_v1.call_notes WHERE call_id = $1 ORDER BY at, note_id`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	items := []noteView{}
	for rows.Next() {
		var v noteView
		var secret []byte
		var at time.Time
		if err := rows.Scan(&v.ID, &v.Author, &secret, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.CallID, v.CreatedAt = callID, stamp(at)
		var s kernel.Sealed
		if err := json.Unmarshal(secret, &s); err == nil {
			if raw, err := a.svc.OpenSealed(r.Context(), s); err == nil && raw != nil {
				var t voice.NoteText
				if json.Unmarshal(raw, &t) == nil {
					v.Text = &t.Text
				}
			}
		}
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"items": items, "total": len(items)}, rows.Err())
}

func (a *API) addNote(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Text string `json:"text"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	callID := id(r, "call_id")
	noteID, err := a.svc.AddNote(r.Context(), c.actor, callID, b.Text)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	text := b.Text
	writeJSON(w, r, http.StatusCreated, noteView{ID: noteID, CallID: callID, Author: c.actor.User, Text: &text,
		CreatedAt: stamp(a.svc.Now())}, nil)
}

func (a *API) setDisposition(w http.ResponseWriter, r *http.Request, c caller) {
	var b struct {
		Disposition string `json:"disposition"`
	}
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	callID := id(r, "call_id")
	if err := a.svc.SetDisposition(r.Context(), c.actor, callID, b.Disposition); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	a.answerCall(w, r, c, callID)
}

type recordingView struct {
	ID              string  `json:"id"`
	CallID          string  `json:"call_id"`
	DurationSeconds float64 `json:"duration_seconds"`
	Samples         int     `json:"samples"`
	SampleRate      int     `json:"sample_rate"`
	Codec           string  `json:"codec"`
	Format          string  `json:"format"`
	Bytes           int     `json:"bytes"`
	URL             string  `json:"url"`
	CreatedAt       string  `json:"created_at"`
}

func (a *API) recordings(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT recording_id, bytes, samples, sample_rate, codec, at
		FROM rm_voice_v1.recordings WHERE call_id = $1 ORDER BY at, recording_id`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	items := []recordingView{}
	for rows.Next() {
		v := recordingView{CallID: callID, Format: "audio/wav"}
		var at time.Time
		if err := rows.Scan(&v.ID, &v.Bytes, &v.Samples, &v.SampleRate, &v.Codec, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		if v.SampleRate > 0 {
			v.DurationSeconds = float64(v.Samples) / float64(v.SampleRate)
		}
		v.CreatedAt, v.URL = stamp(at), "/api/v1/calls/"+callID+"/recordings/"+v.ID
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"items": items, "total": len(items)}, rows.Err())
}

// recordingFile answers a recording's WAV (decrypted with the call's key;
// 404 once erased).
func (a *API) recordingFile(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rid := id(r, "recording_id")
	var rec voice.CallRecordingStored
	if !isUUID(rid) {
		httpx.WriteError(w, r, kernel.NotFound("recording not found"))
		return
	}
	err = a.db.QueryRowContext(r.Context(), `SELECT blob FROM rm_voice_v1.recordings WHERE call_id = $1 AND recording_id = $2`,
		callID, rid).Scan(&rec.Blob)
	if isNoRows(err) {
		err = kernel.NotFound("recording not found")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	wav, err := a.svc.Recording(r.Context(), c.actor, callID, rec)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "audio/wav")
	h.Set("Content-Length", strconv.Itoa(len(wav)))
	h.Set("Content-Disposition", `attachment; filename="`+rid+`.wav"`)
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(wav)
	}
}

type attemptView struct {
	Sequence   int     `json:"sequence"`
	Attempt    int     `json:"attempt"`
	URL        string  `json:"url"`
	StatusCode *int    `json:"status_code"`
	Error      *string `json:"error"`
	Delivered  bool    `json:"delivered"`
	Final      bool    `json:"final"`
	Millis     int     `json:"duration_ms"`
	At         string  `json:"attempted_at"`
}

// callbacks lists every delivery attempt of the call's status callbacks,
// in sequence and attempt order.
func (a *API) callbacks(w http.ResponseWriter, r *http.Request, c caller) {
	callID, err := a.ownCall(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, err := a.db.QueryContext(r.Context(), `SELECT seq, attempt, url, status_code, error, delivered, final, millis, at
		FROM rm_voice_v1.callbacks WHERE subject = $1 ORDER BY seq, attempt`, callID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	items := []attemptView{}
	for rows.Next() {
		var v attemptView
		var code int
		var e string
		var at time.Time
		if err := rows.Scan(&v.Sequence, &v.Attempt, &v.URL, &code, &e, &v.Delivered, &v.Final, &v.Millis, &at); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		v.StatusCode, v.Error, v.At = optI(code), optS(e), stamp(at)
		items = append(items, v)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"items": items, "total": len(items)}, rows.Err())
}
