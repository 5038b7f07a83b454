package content

import (
	"slices"
	"strings"
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
	// BurnTaskID, when the request asked for burn_in, is the task that
	// burns the captions into the video once they are made (default style).
	BurnTaskID string    `json:"burn_task_id,omitempty"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
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

// TaskBurnIn is the task kind of captions burnt into their video.
const TaskBurnIn = "caption_burn_in"

// BurnInStyle is how burnt-in captions look.
type BurnInStyle struct {
	FontSize  int    `json:"font_size"`  // pixels at the video's height
	FontColor string `json:"font_color"` // #RRGGBB
	Position  string `json:"position"`   // bottom, middle or top
}

// Caption positions.
var Positions = []string{"bottom", "middle", "top"}

// colourNames are the colour names font_color accepts besides #RRGGBB.
var colourNames = map[string]string{"white": "#FFFFFF", "black": "#000000", "yellow": "#FFFF00", "red": "#FF0000",
	"green": "#00FF00", "blue": "#0000FF", "cyan": "#00FFFF", "magenta": "#FF00FF", "orange": "#FFA500",
	"gray": "#808080", "grey": "#808080"}

// DefaultBurnIn is the style when none is given: 48 px white at the bottom.
var DefaultBurnIn = BurnInStyle{FontSize: 48, FontColor: "#FFFFFF", Position: "bottom"}

// Normalize checks a style, fills what is not given from DefaultBurnIn
// and writes the colour as #RRGGBB: font_size 12-200, font_color #RRGGBB,
// #RGB or a basic colour name, position bottom, middle or top.
func (s BurnInStyle) Normalize() (BurnInStyle, error) {
	if s.FontSize == 0 {
		s.FontSize = DefaultBurnIn.FontSize
	}
	if s.FontSize < 12 || s.FontSize > 200 {
		return s, kernel.Invalid("font_size", "range:12-200", "font_size must be between 12 and 200 pixels")
	}
	c := strings.ToLower(strings.TrimSpace(s.FontColor))
	switch {
	case c == "":
		s.FontColor = DefaultBurnIn.FontColor
	case colourNames[c] != "":
		s.FontColor = colourNames[c]
	case len(c) == 4 && c[0] == '#' && isHexColour(expandRGB(c)):
		s.FontColor = strings.ToUpper(expandRGB(c))
	case isHexColour(c):
		s.FontColor = strings.ToUpper(c)
	default:
		return s, kernel.Invalid("font_color", "color", "font_color must be #RRGGBB, #RGB or one of white, black, yellow, red, green, blue, cyan, magenta, orange, gray")
	}
	p := strings.ToLower(strings.TrimSpace(s.Position))
	switch {
	case p == "":
		s.Position = DefaultBurnIn.Position
	case slices.Contains(Positions, p):
		s.Position = p
	default:
		return s, kernel.Invalid("position", "enum", "position must be one of bottom, middle, top")
	}
	return s, nil
}

// expandRGB writes #RGB as #RRGGBB.
func expandRGB(c string) string {
	return "#" + strings.Repeat(c[1:2], 2) + strings.Repeat(c[2:3], 2) + strings.Repeat(c[3:4], 2)
}
