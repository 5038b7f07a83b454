package avatar

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// HeyGenSignatureHeader is the header HeyGen's webhook signature travels
// in: the hex HMAC-SHA256 of the raw body.
const HeyGenSignatureHeader = "Signature"

// HeyGen's webhook event types for avatar videos.
const (
	HeyGenEventSuccess = "avatar_video.success"
	HeyGenEventFail    = "avatar_video.fail"
)

type heygen struct{ api }

// NewHeyGen returns the HeyGen adapter (see the package doc).
func NewHeyGen(cfg Config) Provider {
	return heygen{newAPI("heygen", cfg, func(key string, h http.Header) { h.Set("X-Api-Key", key) })}
}

// heygenMAC is the HMAC-SHA256 of body keyed with secret, which HeyGen's
// Signature header carries in hex.
func heygenMAC(secret string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}

// Name is "heygen".
func (h heygen) Name() string { return h.name }

// Configured reports whether the base URL and API key are set.
func (h heygen) Configured() bool { return h.configured() }

// heygenGenerate is the body of POST /v2/video/generate.
type heygenGenerate struct {
	VideoInputs []heygenVideoInput `json:"video_inputs"`
	Dimension   *heygenDimension   `json:"dimension,omitempty"`
	CallbackID  string             `json:"callback_id,omitempty"`
	CallbackURL string             `json:"callback_url,omitempty"`
}

// heygenVideoInput is one scene: who speaks and what.
type heygenVideoInput struct {
	Character heygenCharacter `json:"character"`
	Voice     heygenVoice     `json:"voice"`
}

// heygenCharacter is the avatar of a scene.
type heygenCharacter struct {
	Type        string `json:"type"`
	AvatarID    string `json:"avatar_id"`
	AvatarStyle string `json:"avatar_style,omitempty"`
}

// heygenVoice is the speech of a scene.
type heygenVoice struct {
	Type      string `json:"type"`
	InputText string `json:"input_text"`
	VoiceID   string `json:"voice_id"`
}

// heygenDimension is the frame in pixels.
type heygenDimension struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// heygenWebhook is the body of a HeyGen webhook event.
type heygenWebhook struct {
	EventType string `json:"event_type"`
	EventData struct {
		VideoID    string `json:"video_id"`
		URL        string `json:"url,omitempty"`
		CallbackID string `json:"callback_id,omitempty"`
		Msg        string `json:"msg,omitempty"`
	} `json:"event_data"`
}

// Create sends POST /v2/video/generate and returns data.video_id.
func (h heygen) Create(ctx context.Context, r Request) (string, error) {
	if !h.configured() {
		return "", ErrNotConfigured
	}
	r, err := prepare(r, h.cfg)
	if err != nil {
		return "", err
	}
	in := heygenGenerate{
		VideoInputs: []heygenVideoInput{{
			Character: heygenCharacter{Type: "avatar", AvatarID: r.AvatarID, AvatarStyle: "normal"},
			Voice:     heygenVoice{Type: "text", InputText: r.Script, VoiceID: r.VoiceID},
		}},
		Dimension:   &heygenDimension{Width: r.Width, Height: r.Height},
		CallbackID:  r.JobID,
		CallbackURL: r.WebhookURL,
	}
	b, err := h.call(ctx, http.MethodPost, "/v2/video/generate", in)
	if err != nil {
		return "", err
	}
	var out struct {
		Error json.RawMessage `json:"error"`
		Data  *struct {
			VideoID string `json:"video_id"`
		} `json:"data"`
	}
	if err := h.decode(b, &out); err != nil {
		return "", err
	}
	if e := strings.TrimSpace(string(out.Error)); e != "" && e != "null" {
		return "", fmt.Errorf("avatar: heygen: generate answered an error: %s", message(b, http.StatusOK))
	}
	if out.Data == nil || out.Data.VideoID == "" {
		return "", h.missing("data.video_id")
	}
	return out.Data.VideoID, nil
}

// Status reads GET /v1/video_status.get?video_id=ID.
func (h heygen) Status(ctx context.Context, id string) (Status, error) {
	if !h.configured() {
		return Status{}, ErrNotConfigured
	}
	if id == "" {
		return Status{}, fmt.Errorf("%w: no video id", ErrInvalid)
	}
	b, err := h.call(ctx, http.MethodGet, "/v1/video_status.get?video_id="+url.QueryEscape(id), nil)
	if err != nil {
		return Status{}, err
	}
	var out struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    *struct {
			ID       string  `json:"id"`
			Status   string  `json:"status"`
			VideoURL string  `json:"video_url"`
			Duration float64 `json:"duration"`
			Error    *struct {
				Code    json.RawMessage `json:"code"`
				Message string          `json:"message"`
				Detail  string          `json:"detail"`
			} `json:"error"`
			CallbackID string `json:"callback_id"`
		} `json:"data"`
	}
	if err := h.decode(b, &out); err != nil {
		return Status{}, err
	}
	if out.Code != 100 {
		return Status{}, fmt.Errorf("avatar: heygen: video status answered code %d: %s", out.Code, out.Message)
	}
	d := out.Data
	switch {
	case d == nil:
		return Status{}, h.missing("data")
	case d.ID == "":
		return Status{}, h.missing("data.id")
	case d.Status == "":
		return Status{}, h.missing("data.status")
	}
	st := Status{ProviderJobID: d.ID, JobID: d.CallbackID}
	switch d.Status {
	case "pending", "waiting":
		st.State = StatePending
	case "processing":
		st.State = StateProcessing
	case "completed":
		if d.VideoURL == "" {
			return Status{}, h.missing("data.video_url")
		}
		st.State, st.VideoURL, st.Duration = StateDone, d.VideoURL, seconds(d.Duration)
	case "failed":
		st.State, st.Error = StateFailed, "failed"
		if d.Error != nil {
			code := strings.Trim(string(d.Error.Code), `"`)
			if m := join(d.Error.Message, d.Error.Detail); m != "" {
				st.Error = m
			} else if code != "" && code != "null" {
				st.Error = "failed with code " + code
			}
		}
	default:
		return Status{}, fmt.Errorf("avatar: heygen: unknown video status %q", d.Status)
	}
	return st, nil
}

// Webhook verifies the Signature header (hex HMAC-SHA256 of the raw body)
// and reads an avatar_video.success or avatar_video.fail event.
func (h heygen) Webhook(header http.Header, body []byte) (Status, error) {
	if h.cfg.WebhookSecret == "" {
		return Status{}, fmt.Errorf("%w: no heygen webhook secret", ErrNotConfigured)
	}
	if err := webhookBody(h.name, body); err != nil {
		return Status{}, err
	}
	got, err := hex.DecodeString(strings.TrimSpace(header.Get(HeyGenSignatureHeader)))
	if err != nil || len(got) == 0 {
		return Status{}, fmt.Errorf("%w: heygen: missing or malformed %s header", ErrBadSignature, HeyGenSignatureHeader)
	}
	if !hmac.Equal(got, heygenMAC(h.cfg.WebhookSecret, body)) {
		return Status{}, fmt.Errorf("%w: heygen: signature does not match", ErrBadSignature)
	}
	var ev heygenWebhook
	if err := json.Unmarshal(body, &ev); err != nil {
		return Status{}, fmt.Errorf("%w: heygen webhook body: %v", ErrInvalid, err)
	}
	d := ev.EventData
	st := Status{ProviderJobID: d.VideoID, JobID: d.CallbackID}
	switch ev.EventType {
	case HeyGenEventSuccess:
		if d.URL == "" {
			return Status{}, fmt.Errorf("%w: heygen webhook has no event_data.url", ErrInvalid)
		}
		st.State, st.VideoURL = StateDone, d.URL
	case HeyGenEventFail:
		st.State, st.Error = StateFailed, d.Msg
		if st.Error == "" {
			st.Error = "failed"
		}
	default:
		return Status{}, fmt.Errorf("%w: heygen %q", ErrUnknownEvent, ev.EventType)
	}
	if d.VideoID == "" {
		return Status{}, fmt.Errorf("%w: heygen webhook has no event_data.video_id", ErrInvalid)
	}
	return st, nil
}
