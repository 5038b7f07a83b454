package content

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// CaptionStream names a caption's stream.
func CaptionStream(id string) string { return "content-caption:" + id }

// StreamCaption is the stream type of captions.
const StreamCaption = "content.caption"

// TaskCaptions is the task kind of a caption's transcription.
const TaskCaptions = "captions"

// CaptionSource is what a caption is made from: a URL fetched through the
// SSRF-safe client, or an uploaded file kept in the blob store.
type CaptionSource struct {
	URL    string `json:"url,omitempty"`
	Digest string `json:"digest,omitempty"` // the upload's SHA-256 in the blob store
	Name   string `json:"name,omitempty"`
	Size   int64  `json:"size,omitempty"`
}

// CaptionRequested records a caption asked for.
type CaptionRequested struct {
	CaptionID string        `json:"caption_id"`
	TaskID    string        `json:"task_id"`
	Owner     string        `json:"owner"`
	Source    CaptionSource `json:"source"`
	Language  string        `json:"language"`
	By        string        `json:"by"`
	At        time.Time     `json:"at"`
}

// CaptionCue is one cue as recorded: times in seconds from the start, its
// lines, and the engine's confidence (the mean of its words'; nil when the
// engine gave none).
type CaptionCue struct {
	Start      float64  `json:"start"`
	End        float64  `json:"end"`
	Lines      []string `json:"lines"`
	Confidence *float64 `json:"confidence"`
}

// CaptionTranscribed records the transcription and its cues, labelled with
// the engine that produced them.
type CaptionTranscribed struct {
	CaptionID  string       `json:"caption_id"`
	Engine     string       `json:"engine"`
	Language   string       `json:"language"`
	Confidence *float64     `json:"confidence"`
	Text       string       `json:"text"`
	Cues       []CaptionCue `json:"cues"`
	At         time.Time    `json:"at"`
}

// CaptionFailed records a caption that could not be made.
type CaptionFailed struct {
	CaptionID string    `json:"caption_id"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	At        time.Time `json:"at"`
}

// EventType implements kernel.Event.
func (*CaptionRequested) EventType() string { return "content.caption_requested" }

// EventType implements kernel.Event.
func (*CaptionTranscribed) EventType() string { return "content.caption_transcribed" }

// EventType implements kernel.Event.
func (*CaptionFailed) EventType() string { return "content.caption_failed" }

// Caption is a caption's state.
type Caption struct {
	CaptionRequested
	Status      string // a task status: queued, done, error
	Transcribed *CaptionTranscribed
	Failure     *CaptionFailed
}

// Apply folds one event.
func (c *Caption) Apply(e kernel.Event) {
	switch ev := e.(type) {
	case *CaptionRequested:
		c.CaptionRequested, c.Status = *ev, TaskQueued
	case *CaptionTranscribed:
		c.Transcribed, c.Status = ev, TaskDone
	case *CaptionFailed:
		c.Failure, c.Status = ev, TaskError
	}
}

// CueList returns the recorded cues as Cue values.
func (t *CaptionTranscribed) CueList() []Cue {
	out := make([]Cue, len(t.Cues))
	for i, c := range t.Cues {
		out[i] = Cue{Start: time.Duration(c.Start * float64(time.Second)), End: time.Duration(c.End * float64(time.Second)), Lines: c.Lines}
	}
	return out
}
