// Package avatar is the adapter layer for avatar-video providers: a
// Provider renders a script spoken by an avatar (a presenter, or a
// still image for D-ID) into a video, asynchronously. The content
// service creates a job, polls its Status and, after polling gives up,
// relies on the provider's completion webhook, read by Webhook.
//
// Two adapters speak the providers' public wire protocols:
//
//   - HeyGen (NewHeyGen): POST {base}/v2/video/generate with the key in
//     X-Api-Key (one video input: an avatar character, normal style, and
//     a text voice; dimension; callback_id = Request.JobID; callback_url
//     = Request.WebhookURL when set) answers {error, data:{video_id}}.
//     GET {base}/v1/video_status.get?video_id=ID answers {code:100,
//     data:{id, status, video_url, duration, error}}: pending and waiting
//     are StatePending, processing StateProcessing, completed StateDone,
//     failed StateFailed. The duration is in seconds.
//   - D-ID (NewDID): POST {base}/talks with "Authorization: Basic
//     <APIKey>" (D-ID hands out its key already in the user:password form
//     Basic authentication carries, base64 included, so the key is sent
//     as given, not encoded again) and {source_url, script:{type:text,
//     input, provider:{type:microsoft, voice_id}}, webhook, user_data =
//     Request.JobID} answers 201 {id, status:created}. GET
//     {base}/talks/{id} answers the talk: created is StatePending,
//     started StateProcessing, done StateDone, error and rejected
//     StateFailed; result_url and duration (seconds). A talk's frame is
//     the source image's: Request.Width and Height are not sent.
//
// # Webhook signatures
//
// HeyGen signs its webhook events with the secret of the registered
// webhook endpoint (Config.WebhookSecret): the header Signature carries
// the hex HMAC-SHA256 of the raw body (hex compared case-insensitively,
// in constant time). The scheme
// has no timestamp, so a captured event can be replayed; a replay only
// repeats a terminal status the job already has. Events are
// avatar_video.success (event_data.url) and avatar_video.fail
// (event_data.msg); others are ErrUnknownEvent, to be acknowledged and
// dropped.
//
// D-ID publishes no signature scheme for its webhooks (it posts the talk
// object as the body). We require the platform's own: the header
// Strata-Signature, "t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">",
// verified by outbound.Verify with outbound.DefaultTolerance around
// Config.Clock. Whatever relays D-ID's callback to us (a gateway holding
// the secret; the loopback fake in tests) signs it so.
//
// Both fail closed: with no Config.WebhookSecret, Webhook verifies
// nothing and returns ErrNotConfigured; a missing, malformed or wrong
// signature, and for Strata-Signature a timestamp outside the tolerance,
// is ErrBadSignature.
//
// # Errors
//
// Network errors (not the caller's cancellation, nor a refusal or limit
// of the outbound client), 408, 429 and 5xx answers are *Transient
// (IsTransient reports them: worth retrying; Retry-After in seconds is
// kept); any other 4xx is *Refused, permanent,
// with the provider's status and message. A request the adapter will not
// send is ErrInvalid; an unconfigured adapter ErrNotConfigured. Responses
// are read up to 1 MiB and must carry the fields named above (a missing
// id is an error naming the field).
package avatar

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Default frame when Request.Width and Height are both 0: 9:16 portrait.
const (
	DefaultWidth  = 720
	DefaultHeight = 1280
)

// Request is one video to render.
type Request struct {
	// JobID is our job id, sent to the provider as its callback or
	// correlation id (HeyGen callback_id, D-ID user_data).
	JobID string
	// Script is the text the avatar speaks.
	Script string
	// VoiceID is the provider's voice id.
	VoiceID string
	// AvatarID is the provider's avatar (HeyGen) or the source image URL
	// (D-ID); "" takes Config.DefaultAvatar.
	AvatarID string
	// Width and Height are the frame in pixels; both 0 → 720x1280.
	Width, Height int
	// WebhookURL is where the provider posts completion ("" → none).
	WebhookURL string
}

// States of a provider job.
const (
	StatePending    = "pending"    // accepted, not started
	StateProcessing = "processing" // rendering
	StateDone       = "done"       // rendered: Status.VideoURL is set
	StateFailed     = "failed"     // given up: Status.Error says why
)

// Status is a provider job's status as the provider reports it.
type Status struct {
	// ProviderJobID is the provider's id for the job.
	ProviderJobID string
	// State is one of the State constants.
	State string
	// VideoURL is, when done, the provider's download URL.
	VideoURL string
	// Duration is, when done and the provider says it, the video's
	// length (0: unknown; the caller then measures the file).
	Duration time.Duration
	// Error is, when failed, the provider's reason.
	Error string
	// JobID is our job id as the provider echoes it back (HeyGen's
	// callback_id, D-ID's user_data), when it does: webhooks carry it.
	JobID string
}

// Provider is an avatar-video provider.
type Provider interface {
	// Name is "heygen" or "d-id".
	Name() string
	// Configured reports whether the base URL and API key are present.
	Configured() bool
	// Create submits r and returns the provider's job id.
	Create(ctx context.Context, r Request) (providerJobID string, err error)
	// Status asks the provider for a job's status.
	Status(ctx context.Context, providerJobID string) (Status, error)
	// Webhook verifies and reads a completion callback (body and headers
	// as received); ErrBadSignature when the signature does not verify
	// (or is missing when a secret is configured).
	Webhook(header http.Header, body []byte) (Status, error)
}

// Errors of the package besides *Refused and *Transient.
var (
	// ErrNotConfigured: no base URL or API key (Create, Status), or no
	// webhook secret (Webhook).
	ErrNotConfigured = errors.New("avatar: provider not configured")
	// ErrBadSignature: a webhook's signature is missing, malformed, does
	// not verify, or (Strata-Signature) is outside the time tolerance.
	ErrBadSignature = errors.New("avatar: webhook signature invalid")
	// ErrInvalid: a request the adapter will not send (no script, no
	// voice, no avatar, a bad frame size) or a webhook body it cannot
	// read.
	ErrInvalid = errors.New("avatar: invalid request")
	// ErrUnknownEvent: a verified HeyGen webhook event of another type
	// than avatar_video.success or .fail. Acknowledge it and ignore it.
	// (A D-ID talk posted before it is terminal is returned with its
	// pending or processing State.)
	ErrUnknownEvent = errors.New("avatar: webhook event is not a video completion")
)

// Refused is a provider's permanent refusal: a 4xx answer other than 408
// and 429. Retrying the same request will not help.
type Refused struct {
	// Provider is the provider's Name.
	Provider string
	// Status is the HTTP status code.
	Status int
	// Message is the provider's message (or the status text).
	Message string
}

// Error is "avatar: PROVIDER refused (STATUS): MESSAGE".
func (e *Refused) Error() string {
	return fmt.Sprintf("avatar: %s refused (%d): %s", e.Provider, e.Status, e.Message)
}

// Transient is a failure worth retrying: a network error (Err set,
// Status 0) or a 408, 429 or 5xx answer.
type Transient struct {
	// Provider is the provider's Name.
	Provider string
	// Status is the HTTP status code, 0 for a network error.
	Status int
	// Message is the provider's message, for an HTTP answer.
	Message string
	// RetryAfter is what the Retry-After header asked (0: not said).
	RetryAfter time.Duration
	// Err is the network error.
	Err error
}

// Error names the provider and the network error or the answer.
func (e *Transient) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("avatar: %s unreachable: %v", e.Provider, e.Err)
	}
	return fmt.Sprintf("avatar: %s unavailable (%d): %s", e.Provider, e.Status, e.Message)
}

// Unwrap returns the network error.
func (e *Transient) Unwrap() error { return e.Err }

// IsTransient reports whether err is, or wraps, a *Transient.
func IsTransient(err error) bool {
	var t *Transient
	return errors.As(err, &t)
}

// Config configures an adapter.
type Config struct {
	// BaseURL is the API root, e.g. https://api.heygen.com or
	// https://api.d-id.com; tests: the loopback URL.
	BaseURL string
	// APIKey is the provider's API key.
	APIKey string
	// WebhookSecret verifies completion callbacks ("" → Webhook refuses
	// them all with ErrNotConfigured).
	WebhookSecret string
	// DefaultAvatar is used when Request.AvatarID is "".
	DefaultAvatar string
	// HTTPClient is the platform's SSRF-safe outbound client (nil:
	// http.DefaultClient).
	HTTPClient *http.Client
	// Clock is for webhook timestamp tolerance (nil: time.Now).
	Clock func() time.Time
}

// prepare checks r and fills its defaults from cfg.
func prepare(r Request, cfg Config) (Request, error) {
	if r.AvatarID == "" {
		r.AvatarID = cfg.DefaultAvatar
	}
	if r.Width == 0 && r.Height == 0 {
		r.Width, r.Height = DefaultWidth, DefaultHeight
	}
	switch {
	case r.Script == "":
		return r, fmt.Errorf("%w: no script", ErrInvalid)
	case r.VoiceID == "":
		return r, fmt.Errorf("%w: no voice_id", ErrInvalid)
	case r.AvatarID == "":
		return r, fmt.Errorf("%w: no avatar (none given and no default configured)", ErrInvalid)
	case r.Width <= 0 || r.Height <= 0:
		return r, fmt.Errorf("%w: frame %dx%d (give both width and height, or neither)", ErrInvalid, r.Width, r.Height)
	}
	return r, nil
}
