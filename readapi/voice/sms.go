package voice

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	cmd "github.com/strata-platform/strata/commands/voice"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/readapi/httpx"
)

type smsBody struct {
	FromNumber        string   `json:"from_number"`
	ToNumber          string   `json:"to_number"`
	Body              string   `json:"body"`
	MediaURLs         []string `json:"media_urls"`
	StatusCallbackURL string   `json:"status_callback_url"`
}

// messageView is a sent message as the API shows it.
type messageView struct {
	ID         string  `json:"id"`
	Direction  string  `json:"direction"`
	From       *string `json:"from"`
	To         *string `json:"to"`
	Status     string  `json:"status"`
	Segments   int     `json:"segments"`
	Encoding   string  `json:"encoding"`
	Characters int     `json:"characters"`
	MediaCount int     `json:"media_count"`
	CreatedAt  string  `json:"created_at"`
}

// sendSMS sends a message: 201 with its status (sent once the provider
// took it; failed with the provider's refusal).
func (a *API) sendSMS(w http.ResponseWriter, r *http.Request, c caller) {
	var b smsBody
	if err := decode(r, &b); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in := cmd.SMSInput{From: strings.TrimSpace(b.FromNumber), To: strings.TrimSpace(b.ToNumber), Body: b.Body,
		MediaURLs: b.MediaURLs, CallbackURL: b.StatusCallbackURL}
	m, err := a.svc.SendSMS(r.Context(), c.actor, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/sms/"+m.ID)
	writeJSON(w, r, http.StatusCreated, messageView{ID: m.ID, Direction: "outbound", From: &in.From, To: &in.To, Status: m.Status,
		Segments: m.Segments.Segments, Encoding: m.Segments.Encoding, Characters: m.Segments.Characters,
		MediaCount: len(in.MediaURLs), CreatedAt: stamp(a.svc.Now())}, nil)
}

// messageDetail is a message with its body (null once erased) and status.
type messageDetail struct {
	messageView
	Body      *string `json:"body"`
	ErrorCode *string `json:"error_code"`
	UpdatedAt string  `json:"updated_at"`
}

// getSMS answers one of the tenant's messages with its current status.
func (a *API) getSMS(w http.ResponseWriter, r *http.Request, c caller) {
	mid := id(r, "message_id")
	if !isUUID(mid) {
		httpx.WriteError(w, r, kernel.NotFound("message not found"))
		return
	}
	var v messageDetail
	var line, code string
	var secret []byte
	var created, updated time.Time
	err := a.db.QueryRowContext(r.Context(), `SELECT message_id, direction, line, secret, status, segments, encoding, characters,
		media_count, error_code, created_at, updated_at FROM rm_voice_v1.messages WHERE message_id = $1 AND tenant = $2`, mid, c.actor.Tenant).
		Scan(&v.ID, &v.Direction, &line, &secret, &v.Status, &v.Segments, &v.Encoding, &v.Characters, &v.MediaCount, &code, &created, &updated)
	if isNoRows(err) {
		err = kernel.NotFound("message not found")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v.CreatedAt, v.UpdatedAt, v.ErrorCode = stamp(created), stamp(updated), optS(code)
	var remote *string
	var s kernel.Sealed
	if json.Unmarshal(secret, &s) == nil {
		if raw, err := a.svc.OpenSealed(r.Context(), s); err == nil && raw != nil {
			var t voice.MessageText
			if json.Unmarshal(raw, &t) == nil {
				remote, v.Body = &t.Number, &t.Body
			}
		}
	}
	from, to := &line, remote
	if v.Direction == voice.Inbound {
		from, to = remote, &line
	}
	v.From, v.To = from, to
	writeJSON(w, r, http.StatusOK, v, nil)
}
