package voice

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/voice"
	"github.com/strata-platform/strata/domain/voice/sentiment"
)

// TranscribeArgs is the job that transcribes one recording of a call.
type TranscribeArgs struct {
	CallID      string `json:"call_id"`
	RecordingID string `json:"recording_id"`
	Blob        string `json:"blob"`
	Samples     int    `json:"samples"`
	SampleRate  int    `json:"sample_rate"`
}

// Kind implements jobs.Args.
func (TranscribeArgs) Kind() string { return "voice.transcribe" }

// TranscriptLanguage is the language recordings are transcribed as.
const TranscriptLanguage = "en"

// enqueueTranscripts adds a transcription job, in the append's
// transaction, for every recording among evs (when a transcriber is
// configured).
func (s *Service) enqueueTranscripts(ctx context.Context, tx *stdsql.Tx, evs []kernel.Event) error {
	if s.cfg.Transcriber == nil || s.cfg.Jobs == nil {
		return nil
	}
	for _, ev := range evs {
		if r, ok := ev.(*voice.CallRecordingStored); ok {
			args := TranscribeArgs{CallID: r.CallID, RecordingID: r.RecordingID, Blob: r.Blob, Samples: r.Samples, SampleRate: r.SampleRate}
			if _, err := s.cfg.Jobs.Enqueue(ctx, tx, args, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
				return fmt.Errorf("enqueue transcription of %s: %w", r.RecordingID, err)
			}
		}
	}
	return nil
}

// transcribeJob transcribes a recording and records the transcript (its
// text sealed under the call's party key) with its sentiment, or records
// why it could not.
func (s *Service) transcribeJob(ctx context.Context, job *jobs.Job[TranscribeArgs]) error {
	a := job.Args
	var key, tenant string
	var done bool
	if err := s.callView(ctx, a.CallID, func(c *voice.Call) error {
		key, tenant, done = c.Key, c.Tenant, c.Transcribed[a.RecordingID]
		return nil
	}); err != nil {
		return err
	}
	if done {
		return nil
	}
	b, err := s.cfg.Blobs.Open(ctx, tenant, a.Blob)
	if err != nil {
		return s.transcriptFailed(ctx, a, "", "recording_missing")
	}
	var buf bytes.Buffer
	_, err = buf.ReadFrom(b)
	b.Close()
	if err != nil {
		return err
	}
	wav, err := s.OpenSealed(ctx, kernel.Sealed{Key: key, Data: buf.String()})
	if err != nil {
		return err
	}
	if wav == nil {
		return s.transcriptFailed(ctx, a, "", "erased")
	}
	tr, err := s.cfg.Transcriber.Transcribe(ctx, transcribe.Audio{WAV: wav, Language: TranscriptLanguage})
	switch {
	case errors.Is(err, transcribe.ErrLanguage):
		return s.transcriptFailed(ctx, a, s.cfg.Transcriber.Name(), "language_not_served")
	case errors.Is(err, transcribe.ErrUnavailable):
		return s.transcriptFailed(ctx, a, s.cfg.Transcriber.Name(), "engine_unavailable")
	case err != nil && job.Attempt >= 3:
		return s.transcriptFailed(ctx, a, s.cfg.Transcriber.Name(), "engine_failed")
	case err != nil:
		return err
	}
	text := &voice.TranscriptText{Text: tr.Text, Segments: []voice.TranscriptSegment{}}
	for _, sg := range tr.Segments {
		text.Segments = append(text.Segments, voice.TranscriptSegment{Start: sg.Start.Seconds(), End: sg.End.Seconds(), Text: sg.Text, Confidence: sg.Confidence})
	}
	sc := sentiment.Of(tr.Text)
	for _, h := range sc.Matched {
		text.Matched = append(text.Matched, voice.SentimentHit{Word: h.Word, Valence: h.Valence})
	}
	dur := 0
	if a.SampleRate > 0 {
		dur = a.Samples * 1000 / a.SampleRate
	}
	ev := &voice.TranscriptStored{CallID: a.CallID, TranscriptID: NewID(), RecordingID: a.RecordingID, Engine: tr.Engine,
		Language: tr.Language, Confidence: tr.Confidence, Segments: len(tr.Segments), DurationMS: dur, At: s.Now(), Text: text,
		Sentiment: &voice.Sentiment{Method: sc.Method, Version: sc.Version, Score: sc.Score, Label: sc.Label, Sum: sc.Sum,
			Words: sc.Words, Matched: len(sc.Matched)}}
	_, err = s.callDecide(ctx, a.CallID, func(c *voice.Call) ([]kernel.Event, error) {
		if c.Transcribed[a.RecordingID] {
			return nil, nil
		}
		evs := []kernel.Event{ev}
		return evs, s.seal(ctx, c.Key, evs)
	})
	return err
}

func (s *Service) transcriptFailed(ctx context.Context, a TranscribeArgs, engine, reason string) error {
	_, err := s.callDecide(ctx, a.CallID, func(c *voice.Call) ([]kernel.Event, error) {
		if c.Transcribed[a.RecordingID] {
			return nil, nil
		}
		return []kernel.Event{&voice.TranscriptFailed{CallID: a.CallID, RecordingID: a.RecordingID, Engine: engine, Reason: reason, At: s.Now()}}, nil
	})
	return err
}
