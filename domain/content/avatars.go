package content

import (
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
)

// StreamAvatar is the stream type of avatar videos.
const StreamAvatar = "content.avatar"

// AvatarStream names an avatar video's stream (its id is its task's).
func AvatarStream(id string) string { return "content-avatar:" + id }

// TaskAvatar is the task kind of an avatar video.
const TaskAvatar = "avatar_video"

// ProviderSlideshow is the offline renderer: spoken sentences over the
// twin's colours with captions, no talking head.
const ProviderSlideshow = "local-slideshow"

// MaxScriptChars bounds a script spoken into a video (avatar or reel):
// 5000 characters, the common provider limit for one video's text.
const MaxScriptChars = 5000

// CreditsPerSecond is what a second of rendered avatar video costs.
const CreditsPerSecond = 10

// AvatarPoll is how long a provider's job is polled before the render
// relies on its completion webhook; AvatarGiveUp is when a job with
// neither a poll nor a webhook saying it finished fails.
const (
	AvatarPoll   = 5 * time.Minute
	AvatarGiveUp = time.Hour
)

// AvatarRequested records an avatar video asked for.
type AvatarRequested struct {
	JobID    string `json:"job_id"`           // the task's id
	RunID    int64  `json:"run_id,omitempty"` // the durable job's id (celery_task_id)
	Owner    string `json:"owner"`
	Account  string `json:"account"` // the user whose credits pay for it
	TwinID   string `json:"twin_id"`
	Title    string `json:"title"` // the twin's name
	Script   string `json:"script"`
	VoiceID  string `json:"voice_id"`
	AvatarID string `json:"avatar_id,omitempty"`
	Provider string `json:"provider"`
	// Colours of the slideshow (#RRGGBB), from the twin.
	Background string `json:"background,omitempty"`
	Foreground string `json:"foreground,omitempty"`
	WebhookURL string `json:"webhook_url,omitempty"`
	// EstimatedSeconds is the expected wait until done.
	EstimatedSeconds int       `json:"estimated_seconds"`
	By               string    `json:"by"`
	At               time.Time `json:"at"`
}

// AvatarSubmitted records a provider's acceptance of the job.
type AvatarSubmitted struct {
	JobID         string    `json:"job_id"`
	ProviderJobID string    `json:"provider_job_id"`
	PollUntil     time.Time `json:"poll_until"`
	At            time.Time `json:"at"`
}

// AvatarAwaitingWebhook records the poll window over without a result:
// the provider's completion webhook finishes the job from here.
type AvatarAwaitingWebhook struct {
	JobID string    `json:"job_id"`
	At    time.Time `json:"at"`
}

// AvatarReported records a provider's completion report received by its
// webhook (signature verified): the video is fetched next.
type AvatarReported struct {
	JobID    string    `json:"job_id"`
	State    string    `json:"state"` // done or failed
	VideoURL string    `json:"video_url,omitempty"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at"`
}

// RenderedVideo is a video kept in the blob store with what was measured
// of it.
type RenderedVideo struct {
	Digest     string  `json:"digest"`
	Size       int64   `json:"size"`
	Name       string  `json:"name"`
	Seconds    float64 `json:"duration_seconds"` // measured by ffprobe, to the millisecond
	VideoCodec string  `json:"video_codec"`
	AudioCodec string  `json:"audio_codec"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
}

// AvatarRendered records the video done and what it cost: the credits
// are debited once (charge id: the job's) in the same transaction.
type AvatarRendered struct {
	JobID        string        `json:"job_id"`
	Video        RenderedVideo `json:"video"`
	TalkingHead  bool          `json:"talking_head"`
	CreditsMicro int64         `json:"credits_micro"`
	At           time.Time     `json:"at"`
}

// AvatarFailed records an avatar video that could not be made.
type AvatarFailed struct {
	JobID   string    `json:"job_id"`
	Code    string    `json:"code"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// WebhookDelivered records the caller's completion webhook answered (or
// given up on: Status 0 with Error after the last attempt).
type WebhookDelivered struct {
	JobID    string    `json:"job_id"`
	URL      string    `json:"url"`
	Status   int       `json:"status"`
	Attempts int       `json:"attempts"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*AvatarRequested) EventType() string { return "content.avatar_requested" }

// EventType implements kernel.Event.
func (*AvatarSubmitted) EventType() string { return "content.avatar_submitted" }

// EventType implements kernel.Event.
func (*AvatarAwaitingWebhook) EventType() string { return "content.avatar_awaiting_webhook" }

// EventType implements kernel.Event.
func (*AvatarReported) EventType() string { return "content.avatar_reported" }

// EventType implements kernel.Event.
func (*AvatarRendered) EventType() string { return "content.avatar_rendered" }

// EventType implements kernel.Event.
func (*AvatarFailed) EventType() string { return "content.avatar_failed" }

// EventType implements kernel.Event.
func (*WebhookDelivered) EventType() string { return "content.webhook_delivered" }

// Avatar is an avatar video's state.
type Avatar struct {
	AvatarRequested
	Status    string // a task status
	Submitted *AvatarSubmitted
	Awaiting  bool
	Reported  *AvatarReported
	Rendered  *AvatarRendered
	Failure   *AvatarFailed
	Webhook   *WebhookDelivered
}

// Apply folds one event.
func (a *Avatar) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *AvatarRequested:
		a.AvatarRequested, a.Status = *ev, TaskQueued
	case *AvatarSubmitted:
		a.Submitted, a.Status = ev, TaskProcessing
	case *AvatarAwaitingWebhook:
		a.Awaiting = true
	case *AvatarReported:
		a.Reported = ev
	case *AvatarRendered:
		a.Rendered, a.Status = ev, TaskDone
	case *AvatarFailed:
		a.Failure, a.Status = ev, TaskError
	case *WebhookDelivered:
		a.Webhook = ev
	}
}

// Settled tells whether the job is done or failed.
func (a *Avatar) Settled() bool { return a.Status == TaskDone || a.Status == TaskError }

// CreditsFor is what a video of the measured duration costs, in
// micro-credits: 10 credits a second, billed to the millisecond.
func CreditsFor(seconds float64) int64 {
	ms := int64(math.Round(seconds * 1000))
	return ms * CreditsPerSecond * 1000 // 10 credits = 10e6 micro per second = 1e4 per ms
}

// Seconds rounds a measured duration to the millisecond, in seconds.
func Seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// CheckScript validates a script spoken into a video: required, at most
// MaxScriptChars characters, with at least one word.
func CheckScript(field, s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return kernel.Invalid(field, "required", field+" is required")
	case utf8.RuneCountInString(s) > MaxScriptChars:
		return kernel.Invalid(field, "max_length:5000", field+" must be at most 5000 characters")
	case len(Sentences(s)) == 0:
		return kernel.Invalid(field, "words", field+" must contain words to speak")
	}
	return nil
}

// LatinScript tells whether most of a script's letters are Latin: the
// local voices (flite, espeak-ng's English voices) speak English, and a
// script in another writing system comes out as a fraction of a second
// of silence.
func LatinScript(s string) bool {
	latin, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.IsLetter(r):
			other++
		}
	}
	return latin > 0 && latin >= other
}

// CheckLocalScript is CheckScript for the local voices: also mostly in
// Latin letters (422 otherwise: the request is well formed, but nothing
// here can speak it).
func CheckLocalScript(field, s string) error {
	if err := CheckScript(field, s); err != nil {
		return err
	}
	if !LatinScript(s) {
		return &kernel.Error{Kind: kernel.KindUnprocessable, Field: field, Rule: "latin_script",
			Message: field + " must be mostly in Latin letters: the local voices speak English (use a provider for other languages)"}
	}
	return nil
}

// Sentences splits a script into sentences to speak one by one: at ".",
// "!", "?" or "…" followed by a space or the end, and at line breaks.
// Pieces without a letter or digit are dropped.
func Sentences(script string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == '\r' }) {
		var b strings.Builder
		rs := []rune(line)
		for i, r := range rs {
			b.WriteRune(r)
			if strings.ContainsRune(".!?…", r) && (i+1 == len(rs) || unicode.IsSpace(rs[i+1])) {
				out = appendSentence(out, b.String())
				b.Reset()
			}
		}
		out = appendSentence(out, b.String())
	}
	return out
}

func appendSentence(out []string, s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return out
	}
	return append(out, s)
}

// EstimateSpeech is a script's expected spoken length: 2.5 words a second
// (150 a minute) and a pause of a quarter second between sentences.
func EstimateSpeech(script string) time.Duration {
	ss := Sentences(script)
	words := 0
	for _, s := range ss {
		words += len(strings.Fields(s))
	}
	return time.Duration(float64(words)/2.5*float64(time.Second)) + time.Duration(len(ss))*time.Second/4
}

// EstimateWait is the expected wait until a video is done, in whole
// seconds: rendering locally takes about a fifth of the video's length
// (plus a second); a provider about three times its length, a minute at
// least.
func EstimateWait(provider string, speech time.Duration) int {
	if provider == ProviderSlideshow {
		return int(math.Ceil((time.Second + speech/5).Seconds()))
	}
	return int(math.Ceil(max(time.Minute, 3*speech).Seconds()))
}

// TwinColours are the slideshow's colours for a twin: the "background"
// and "foreground" of its platform_defaults for platform (or any
// platform's) when given as #RRGGBB, else a dark colour picked from the
// twin's id and white.
func TwinColours(t Twin, platform string) (bg, fg string) {
	pick := func(key string) string {
		if v, ok := t.PlatformDefaults[platform][key].(string); ok && isHexColour(v) {
			return strings.ToUpper(v)
		}
		for _, p := range Platforms {
			if v, ok := t.PlatformDefaults[p][key].(string); ok && isHexColour(v) {
				return strings.ToUpper(v)
			}
		}
		return ""
	}
	bg, fg = pick("background"), pick("foreground")
	if bg == "" {
		palette := []string{"#1E3A5F", "#3D1E5F", "#1E5F4B", "#5F1E2E", "#2E2E2E", "#5F4B1E"}
		h := 0
		for _, r := range t.ID {
			h = (h*31 + int(r)) & 0xffff
		}
		bg = palette[h%len(palette)]
	}
	if fg == "" {
		fg = "#FFFFFF"
	}
	return bg, fg
}

func isHexColour(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, r := range s[1:] {
		if !unicode.Is(unicode.ASCII_Hex_Digit, r) {
			return false
		}
	}
	return true
}
