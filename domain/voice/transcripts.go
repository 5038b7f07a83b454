package voice

import (
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// Sentiment is a transcript's score as the lexicon method gave it (the
// words that counted are in the sealed part).
type Sentiment struct {
	Method  string  `json:"method"`
	Version string  `json:"version"`
	Score   float64 `json:"score"`
	Label   string  `json:"label"`
	Sum     float64 `json:"sum"`
	Words   int     `json:"words"`
	Matched int     `json:"matched"`
}

// TranscriptSegment is a stretch of a transcript, times in seconds.
type TranscriptSegment struct {
	Start      float64  `json:"start"`
	End        float64  `json:"end"`
	Text       string   `json:"text"`
	Confidence *float64 `json:"confidence"`
}

// SentimentHit is a word that counted in the sentiment score.
type SentimentHit struct {
	Word    string  `json:"word"`
	Valence float64 `json:"valence"`
}

// TranscriptText is the sealed part of a transcript.
type TranscriptText struct {
	Text     string              `json:"text"`
	Segments []TranscriptSegment `json:"segments"`
	Matched  []SentimentHit      `json:"matched,omitempty"`
}

// TranscriptStored: a recording of the call was transcribed. Engine names
// the engine, its version and model; Confidence is the engine's, nil when
// it gave none.
type TranscriptStored struct {
	CallID       string          `json:"call_id"`
	TranscriptID string          `json:"transcript_id"`
	RecordingID  string          `json:"recording_id"`
	Engine       string          `json:"engine"`
	Language     string          `json:"language"`
	Confidence   *float64        `json:"confidence"`
	Segments     int             `json:"segments"`
	DurationMS   int             `json:"duration_ms"`
	Sentiment    *Sentiment      `json:"sentiment,omitempty"`
	Secret       kernel.Sealed   `json:"secret"` // TranscriptText under the call's party key
	At           time.Time       `json:"at"`
	Text         *TranscriptText `json:"-"`
}

// TranscriptFailed: a recording could not be transcribed (no engine, the
// engine failed, a language no engine serves); Reason says which.
type TranscriptFailed struct {
	CallID      string    `json:"call_id"`
	RecordingID string    `json:"recording_id"`
	Engine      string    `json:"engine,omitempty"`
	Reason      string    `json:"reason"`
	At          time.Time `json:"at"`
}

// EventType implementations.
func (TranscriptStored) EventType() string { return "voice.transcript_stored" }
func (TranscriptFailed) EventType() string { return "voice.transcript_failed" }
