package voice

import (
	"net/http"
	"strings"

	cmd "github.com/strata-platform/strata/commands/voice"
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
	ID         string `json:"id"`
	Direction  string `json:"direction"`
	From       string `json:"from"`
	To         string `json:"to"`
	Status     string `json:"status"`
	Segments   int    `json:"segments"`
	Encoding   string `json:"encoding"`
	Characters int    `json:"characters"`
	MediaCount int    `json:"media_count"`
	CreatedAt  string `json:"created_at"`
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
	writeJSON(w, r, http.StatusCreated, messageView{ID: m.ID, Direction: "outbound", From: in.From, To: in.To, Status: m.Status,
		Segments: m.Segments.Segments, Encoding: m.Segments.Encoding, Characters: m.Segments.Characters,
		MediaCount: len(in.MediaURLs), CreatedAt: stamp(a.svc.Now())}, nil)
}
