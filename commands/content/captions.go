package content

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// CaptionArgs is the job that transcribes a caption.
type CaptionArgs struct {
	CaptionID string `json:"caption_id"`
}

// Kind implements jobs.Args.
func (CaptionArgs) Kind() string { return "content.captions" }

// MaxCaptionMedia caps the audio or video a caption is made from (256 MiB).
const MaxCaptionMedia = 256 << 20

// CaptionInput is a caption request: a URL or an upload (Upload non-nil).
type CaptionInput struct {
	URL        string
	Upload     io.Reader
	UploadName string
	Language   string
	// BurnIn asks for the captions burnt into the video (default style)
	// once they are made: a second task.
	BurnIn bool
}

// engine picks the transcriber for a language: 503 when none is
// configured, 422 naming the engines and what they serve when none serves it.
func (s *Service) engine(lang string) (transcribe.Transcriber, error) {
	if len(s.cfg.Transcribers) == 0 {
		return nil, kernel.Unavailable("no transcription engine is configured on this server: install Debian's pocketsphinx, pocketsphinx-en-us and ffmpeg, or set STRATA_TRANSCRIBE_URL", nil)
	}
	t, err := transcribe.Pick(s.cfg.Transcribers...)(lang)
	var le *transcribe.LanguageError
	if errors.As(err, &le) {
		return nil, &kernel.Error{Kind: kernel.KindUnprocessable, Field: "language", Rule: "served", Message: le.Error()[len("transcribe: "):]}
	}
	return t, err
}

// RequestCaption records a caption request and queues its transcription
// (a task): the language must be one an engine serves; an upload is kept
// in the blob store first.
func (s *Service) RequestCaption(ctx context.Context, a Actor, in CaptionInput) (content.CaptionRequested, error) {
	if _, err := s.engine(in.Language); err != nil {
		return content.CaptionRequested{}, err
	}
	if in.BurnIn && s.cfg.Tools == nil {
		return content.CaptionRequested{}, errNoTools()
	}
	src := content.CaptionSource{URL: in.URL}
	if in.Upload != nil {
		if s.cfg.Blobs == nil {
			return content.CaptionRequested{}, kernel.Unavailable("uploads need the blob store, which is not configured", nil)
		}
		st, err := s.cfg.Blobs.Stage(ctx, BlobOwner(a.Owner), in.Upload, MaxCaptionMedia)
		if errors.Is(err, blobs.ErrTooLarge) {
			return content.CaptionRequested{}, &kernel.Error{Kind: kernel.KindTooLarge, Field: "audio_file", Rule: "max_bytes",
				Message: fmt.Sprintf("audio_file must be at most %d bytes", MaxCaptionMedia)}
		}
		if err != nil {
			return content.CaptionRequested{}, err
		}
		if st.Size == 0 {
			_ = st.Discard()
			return content.CaptionRequested{}, kernel.Invalid("audio_file", "not_empty", "audio_file is empty")
		}
		if err := st.Commit(ctx); err != nil {
			return content.CaptionRequested{}, err
		}
		src = content.CaptionSource{Digest: st.SHA256, Name: in.UploadName, Size: st.Size}
	}
	now := s.cfg.Clock.Now()
	ev := &content.CaptionRequested{CaptionID: uuid.NewString(), TaskID: s.cfg.IDs.NewID(), Owner: a.Owner, Source: src,
		Language: languageTag(in.Language), By: a.User, At: now}
	if in.BurnIn {
		ev.BurnTaskID = s.cfg.IDs.NewID()
	}
	input, _ := json.Marshal(map[string]string{"caption_id": ev.CaptionID})
	var ap eventstore.Appended
	err := s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, eventstore.Stream{Type: content.StreamCaption, ID: content.CaptionStream(ev.CaptionID)},
			eventstore.NoStream, ev); err != nil {
			return err
		}
		var err error
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, taskStream(ev.TaskID), eventstore.NoStream, &content.TaskCreated{TaskID: ev.TaskID,
			Owner: a.Owner, Kind: content.TaskCaptions, Input: input, By: a.User, At: now}); err != nil {
			return err
		}
		if _, err = s.cfg.Jobs.Enqueue(ctx, tx, CaptionArgs{CaptionID: ev.CaptionID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
			return err
		}
		if ev.BurnTaskID != "" {
			_, err = s.queueBurnIn(ctx, tx, ev.BurnTaskID, a, ev.CaptionID, content.DefaultBurnIn)
		}
		return err
	})
	if err != nil {
		return content.CaptionRequested{}, err
	}
	return *ev, s.wait(ctx, ap)
}

func languageTag(l string) string {
	if l == "" {
		return "en"
	}
	return l
}

// Caption returns the owner's caption (404 for another owner's or none).
func (s *Service) Caption(ctx context.Context, owner, id string) (content.Caption, error) {
	var c content.Caption
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 {
		return c, kernel.NotFound("no caption with id " + quoteID(id))
	}
	id = u.String() // any case
	envs, err := s.cfg.Store.Load(ctx, content.CaptionStream(id), eventstore.LoadOptions{})
	if err != nil {
		return c, err
	}
	for _, e := range envs {
		c.Apply(e.Event)
	}
	if len(envs) == 0 || c.Owner != owner {
		return content.Caption{}, kernel.NotFound("no caption with id " + quoteID(id))
	}
	return c, nil
}

// audio reads a caption's source: the upload from the blob store, or the
// URL through the SSRF-safe client.
func (s *Service) audio(ctx context.Context, c content.Caption) ([]byte, error) {
	if c.Source.Digest != "" {
		b, err := s.cfg.Blobs.Open(ctx, BlobOwner(c.Owner), c.Source.Digest)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		return io.ReadAll(io.LimitReader(b, MaxCaptionMedia+1))
	}
	if s.cfg.Media == nil {
		return nil, errors.New("no media fetcher configured")
	}
	m, release, err := s.cfg.Media.Fetch(ctx, c.Source.URL)
	if err != nil {
		return nil, err
	}
	defer release()
	r, err := m.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, MaxCaptionMedia+1))
}

// progress records a stage reached by a task.
func (s *Service) progress(ctx context.Context, taskID string, pct int, stage string) {
	if _, err := s.cfg.Store.Append(ctx, taskStream(taskID), eventstore.AnyVersion,
		&content.TaskProgressed{TaskID: taskID, Progress: pct, Stage: stage, At: s.cfg.Clock.Now()}); err != nil {
		s.cfg.Logger.Warn("content: task progress not recorded", "task", taskID, "err", err)
	}
}

// captionJob transcribes a caption: reads the source, runs the engine,
// builds the cues and records them with the task's result in one
// transaction with the job's completion. What cannot succeed by retrying
// (no engine for the language, a source refused, no speech engine
// installed) fails the caption and the task at once.
func (s *Service) captionJob(ctx context.Context, job *jobs.Job[CaptionArgs]) error {
	envs, err := s.cfg.Store.Load(ctx, content.CaptionStream(job.Args.CaptionID), eventstore.LoadOptions{})
	if err != nil {
		return err
	}
	var c content.Caption
	for _, e := range envs {
		c.Apply(e.Event)
	}
	if len(envs) == 0 || c.Status != content.TaskQueued {
		return nil
	}
	version := int64(len(envs))
	s.progress(ctx, c.TaskID, 10, "reading the media")
	raw, err := s.audio(ctx, c)
	if err == nil && len(raw) > MaxCaptionMedia {
		err = fmt.Errorf("the media is larger than %d bytes", MaxCaptionMedia)
	}
	if err != nil {
		if isTransient(err) && job.Attempt < job.MaxAttempts {
			return err
		}
		return s.captionFailed(ctx, job, c, version, "media_unfetched", "the media could not be read: "+err.Error())
	}
	t, err := s.engine(c.Language)
	if err != nil {
		return s.captionFailed(ctx, job, c, version, "language", err.Error())
	}
	s.progress(ctx, c.TaskID, 30, "transcribing with "+t.Name())
	tr, err := t.Transcribe(ctx, transcribe.Audio{WAV: raw, Language: c.Language})
	if err != nil {
		if errors.Is(err, transcribe.ErrUnavailable) || errors.Is(err, transcribe.ErrLanguage) || job.Attempt >= job.MaxAttempts {
			return s.captionFailed(ctx, job, c, version, "transcription_failed", err.Error())
		}
		return err
	}
	ev := &content.CaptionTranscribed{CaptionID: c.CaptionID, Engine: tr.Engine, Language: tr.Language, Confidence: tr.Confidence,
		Text: tr.Text, Cues: captionCues(tr), At: s.cfg.Clock.Now()}
	result, err := json.Marshal(map[string]any{"caption_id": c.CaptionID, "engine": tr.Engine, "language": tr.Language,
		"segments": len(ev.Cues)})
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, eventstore.Stream{Type: content.StreamCaption, ID: content.CaptionStream(c.CaptionID)},
			version, ev); err != nil {
			return err
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(c.TaskID), eventstore.AnyVersion,
			&content.TaskFinished{TaskID: c.TaskID, Result: result, At: ev.At}); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// captionFailed records the caption's and its task's failure.
func (s *Service) captionFailed(ctx context.Context, job *jobs.Job[CaptionArgs], c content.Caption, version int64, code, msg string) error {
	now := s.cfg.Clock.Now()
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, eventstore.Stream{Type: content.StreamCaption, ID: content.CaptionStream(c.CaptionID)},
			version, &content.CaptionFailed{CaptionID: c.CaptionID, Code: code, Message: msg, At: now}); err != nil {
			return err
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(c.TaskID), eventstore.AnyVersion,
			&content.TaskFailed{TaskID: c.TaskID, Code: code, Message: msg, At: now}); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// isTransient tells a failure that may pass (a provider or the network).
func isTransient(err error) bool {
	return connections.ClassOf(err) == connections.Transient
}

// captionCues builds the cues of a transcript by the readable-caption
// rules: from the engine's word times where it gives them, else from its
// segments' times spread over their words. A cue's confidence is the mean
// of its words' (nil when the engine gave none).
func captionCues(tr transcribe.Transcript) []content.CaptionCue {
	var words []content.TimedWord
	var confs []*float64
	for _, seg := range tr.Segments {
		if len(seg.Words) > 0 {
			for _, w := range seg.Words {
				words = append(words, content.TimedWord{Start: w.Start, End: w.End, Text: w.Text})
				confs = append(confs, w.Confidence)
			}
			continue
		}
		for _, w := range content.SpreadWords(seg.Start, seg.End, seg.Text) {
			words = append(words, w)
			confs = append(confs, seg.Confidence)
		}
	}
	cues := content.BuildCues(words, content.DefaultCueRules)
	out := make([]content.CaptionCue, 0, len(cues))
	wi := 0
	for _, c := range cues {
		sum, n, all := 0.0, 0, true
		for wi < len(words) && words[wi].Start < c.End && words[wi].Start >= c.Start {
			if confs[wi] != nil {
				sum += *confs[wi]
				n++
			} else {
				all = false
			}
			wi++
		}
		var conf *float64
		if n > 0 && all {
			v := sum / float64(n)
			conf = &v
		}
		out = append(out, content.CaptionCue{Start: c.Start.Seconds(), End: c.End.Seconds(), Lines: c.Lines, Confidence: conf})
	}
	return out
}
