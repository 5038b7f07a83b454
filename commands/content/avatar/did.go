package avatar

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/strata-platform/strata/commands/outbound"
)

// DIDSignatureHeader is the header a D-ID webhook must carry: the
// platform's Strata-Signature (D-ID publishes no scheme of its own).
const DIDSignatureHeader = outbound.SignatureHeader

type did struct{ api }

// NewDID returns the D-ID adapter (see the package doc). Config.APIKey is
// sent as given after "Basic ".
func NewDID(cfg Config) Provider {
	return did{newAPI("d-id", cfg, func(key string, h http.Header) { h.Set("Authorization", "Basic "+key) })}
}

// didTalkCreate is the body of POST /talks.
type didTalkCreate struct {
	SourceURL string    `json:"source_url"`
	Script    didScript `json:"script"`
	Webhook   string    `json:"webhook,omitempty"`
	UserData  string    `json:"user_data,omitempty"`
}

// didScript is a text script spoken by a TTS voice.
type didScript struct {
	Type     string      `json:"type"`
	Input    string      `json:"input"`
	Provider didProvider `json:"provider"`
}

// didProvider is the TTS voice.
type didProvider struct {
	Type    string `json:"type"`
	VoiceID string `json:"voice_id"`
}

// didTalk is a talk as GET /talks/{id} and the webhook give it.
type didTalk struct {
	ID        string  `json:"id"`
	Status    string  `json:"status"`
	ResultURL string  `json:"result_url"`
	Duration  float64 `json:"duration"`
	UserData  string  `json:"user_data"`
	Error     *struct {
		Kind        string `json:"kind"`
		Description string `json:"description"`
	} `json:"error"`
}

// Name is "d-id".
func (d did) Name() string { return d.name }

// Configured reports whether the base URL and API key are set.
func (d did) Configured() bool { return d.configured() }

// Create sends POST /talks and returns the talk's id.
func (d did) Create(ctx context.Context, r Request) (string, error) {
	if !d.configured() {
		return "", ErrNotConfigured
	}
	r, err := prepare(r, d.cfg)
	if err != nil {
		return "", err
	}
	in := didTalkCreate{
		SourceURL: r.AvatarID,
		Script:    didScript{Type: "text", Input: r.Script, Provider: didProvider{Type: "microsoft", VoiceID: r.VoiceID}},
		Webhook:   r.WebhookURL,
		UserData:  r.JobID,
	}
	b, err := d.call(ctx, http.MethodPost, "/talks", in)
	if err != nil {
		return "", err
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := d.decode(b, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", d.missing("id")
	}
	return out.ID, nil
}

// Status reads GET /talks/{id}.
func (d did) Status(ctx context.Context, id string) (Status, error) {
	if !d.configured() {
		return Status{}, ErrNotConfigured
	}
	if id == "" {
		return Status{}, fmt.Errorf("%w: no talk id", ErrInvalid)
	}
	b, err := d.call(ctx, http.MethodGet, "/talks/"+url.PathEscape(id), nil)
	if err != nil {
		return Status{}, err
	}
	var t didTalk
	if err := d.decode(b, &t); err != nil {
		return Status{}, err
	}
	return d.status(t)
}

// status maps a talk to a Status.
func (d did) status(t didTalk) (Status, error) {
	switch {
	case t.ID == "":
		return Status{}, d.missing("id")
	case t.Status == "":
		return Status{}, d.missing("status")
	}
	st := Status{ProviderJobID: t.ID, JobID: t.UserData}
	switch t.Status {
	case "created":
		st.State = StatePending
	case "started":
		st.State = StateProcessing
	case "done":
		if t.ResultURL == "" {
			return Status{}, d.missing("result_url")
		}
		st.State, st.VideoURL, st.Duration = StateDone, t.ResultURL, seconds(t.Duration)
	case "error", "rejected":
		st.State, st.Error = StateFailed, t.Status
		if t.Error != nil && (t.Error.Kind != "" || t.Error.Description != "") {
			st.Error = join(t.Error.Kind, t.Error.Description)
		}
	default:
		return Status{}, fmt.Errorf("avatar: d-id: unknown talk status %q", t.Status)
	}
	return st, nil
}

// Webhook verifies the Strata-Signature header (outbound.Verify, default
// tolerance around Config.Clock) and reads the talk object D-ID posts.
func (d did) Webhook(header http.Header, body []byte) (Status, error) {
	if d.cfg.WebhookSecret == "" {
		return Status{}, fmt.Errorf("%w: no d-id webhook secret", ErrNotConfigured)
	}
	if err := webhookBody(d.name, body); err != nil {
		return Status{}, err
	}
	sig := header.Get(DIDSignatureHeader)
	if sig == "" {
		return Status{}, fmt.Errorf("%w: d-id: no %s header", ErrBadSignature, DIDSignatureHeader)
	}
	if err := outbound.Verify(d.cfg.WebhookSecret, sig, body, outbound.DefaultTolerance, d.now()); err != nil {
		return Status{}, fmt.Errorf("%w: d-id: %w", ErrBadSignature, err)
	}
	var t didTalk
	if err := json.Unmarshal(body, &t); err != nil {
		return Status{}, fmt.Errorf("%w: d-id webhook body: %v", ErrInvalid, err)
	}
	st, err := d.status(t)
	if err != nil {
		return Status{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return st, nil
}
