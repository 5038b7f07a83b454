package content

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// BurnInArgs is the job that burns a caption into its video.
type BurnInArgs struct {
	TaskID string `json:"task_id"`
}

// Kind implements jobs.Args.
func (BurnInArgs) Kind() string { return "content.burn_in" }

// burnInput is a burn-in task's input.
type burnInput struct {
	CaptionID string              `json:"caption_id"`
	Style     content.BurnInStyle `json:"style"`
}

// BurnIn queues the burning of a caption into its video (a task): the
// caption must be the owner's and not failed (409), the style valid
// (400). A caption still being transcribed is burnt in when it is done.
func (s *Service) BurnIn(ctx context.Context, a Actor, captionID string, style content.BurnInStyle) (string, error) {
	c, err := s.Caption(ctx, a.Owner, captionID)
	if err != nil {
		return "", err
	}
	if c.Status == content.TaskError {
		return "", &kernel.Error{Kind: kernel.KindConflict, Field: "caption_id", Rule: "transcribed",
			Message: "the caption failed, so there is nothing to burn in: " + c.Failure.Message}
	}
	if s.cfg.Tools == nil {
		return "", errNoTools()
	}
	st, err := style.Normalize()
	if err != nil {
		return "", err
	}
	id := s.cfg.IDs.NewID()
	var ap eventstore.Appended
	err = s.inTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		ap, err = s.queueBurnIn(ctx, tx, id, a, c.CaptionID, st)
		return err
	})
	if err != nil {
		return "", err
	}
	return id, s.wait(ctx, ap)
}

// queueBurnIn creates a burn-in task and its job inside tx.
func (s *Service) queueBurnIn(ctx context.Context, tx *stdsql.Tx, taskID string, a Actor, captionID string, st content.BurnInStyle) (eventstore.Appended, error) {
	input, _ := json.Marshal(burnInput{CaptionID: captionID, Style: st})
	ap, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(taskID), eventstore.NoStream, &content.TaskCreated{TaskID: taskID,
		Owner: a.Owner, Kind: content.TaskBurnIn, Input: input, By: a.User, At: s.cfg.Clock.Now()})
	if err != nil {
		return ap, err
	}
	_, err = s.cfg.Jobs.Enqueue(ctx, tx, BurnInArgs{TaskID: taskID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
	return ap, err
}

// burnInJob renders the captions onto the caption's source video (ffmpeg
// with libass) and keeps the result: the task's result has output_url, a
// signed link made fresh on each read. It waits while the caption is
// transcribed; a caption that failed, or a source with no video stream,
// fails the task.
func (s *Service) burnInJob(ctx context.Context, job *jobs.Job[BurnInArgs]) error {
	envs, err := s.cfg.Store.Load(ctx, content.TaskStream(job.Args.TaskID), eventstore.LoadOptions{})
	if err != nil || len(envs) == 0 {
		return err
	}
	var t content.Task
	for _, e := range envs {
		t.Apply(e.Event)
	}
	if t.Status == content.TaskDone || t.Status == content.TaskError {
		return nil
	}
	var in burnInput
	if err := json.Unmarshal(t.Input, &in); err != nil {
		return s.taskFailed(ctx, job, t.ID, "bad_input", "the task's input is unreadable")
	}
	c, err := s.Caption(ctx, t.Owner, in.CaptionID)
	switch {
	case err != nil:
		return s.taskFailed(ctx, job, t.ID, "caption_missing", "the caption is gone")
	case c.Status == content.TaskQueued:
		return jobs.Snooze(captionWait(time.Since(job.CreatedAt)))
	case c.Status == content.TaskError:
		return s.taskFailed(ctx, job, t.ID, "caption_failed", "the caption failed: "+c.Failure.Message)
	}
	s.progress(ctx, t.ID, 10, "reading the video")
	raw, err := s.audio(ctx, c)
	if err != nil {
		if isTransient(err) && job.Attempt < job.MaxAttempts {
			return err
		}
		return s.taskFailed(ctx, job, t.ID, "media_unfetched", "the video could not be read: "+err.Error())
	}
	dir, err := os.MkdirTemp("", "strata-burn-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src, out := filepath.Join(dir, "source"), filepath.Join(dir, "captioned.mp4")
	if err := writeFile(src, bytes.NewReader(raw)); err != nil {
		return err
	}
	info, err := s.cfg.Tools.Probe(ctx, src)
	if err != nil || info.VideoCodec == "" {
		return s.taskFailed(ctx, job, t.ID, "no_video", "the caption's source has no video stream to burn the captions into")
	}
	s.progress(ctx, t.ID, 30, "rendering the captions")
	info, err = s.cfg.Tools.BurnIn(ctx, src, mediaCues(c.Transcribed.CueList()), mediaStyle(in.Style), out)
	if err != nil {
		if ctx.Err() == nil && job.Attempt < job.MaxAttempts {
			return err
		}
		return s.taskFailed(ctx, job, t.ID, "render_failed", "the captions could not be burnt in: "+err.Error())
	}
	v, err := s.keepVideo(ctx, t.Owner, out, info, "captioned-"+c.CaptionID+".mp4")
	if err != nil {
		return err
	}
	result, _ := json.Marshal(map[string]any{"caption_id": c.CaptionID, "duration_seconds": v.Seconds, "width": v.Width,
		"height": v.Height, "video_codec": v.VideoCodec, "audio_codec": v.AudioCodec, "size": v.Size, "style": in.Style,
		"_links": []LinkRef{{Field: "output_url", Digest: v.Digest, Name: v.Name, Type: "video/mp4"}}})
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(t.ID), eventstore.AnyVersion,
			&content.TaskFinished{TaskID: t.ID, Result: result, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// captionWait is how long a burn-in waits before it looks at its caption
// again, the job being waited that long already: half of it, from a
// quarter second (a short clip's caption is done in a second or two) to
// two seconds (a long video's takes minutes).
func captionWait(waited time.Duration) time.Duration {
	return min(max(waited/2, 250*time.Millisecond), 2*time.Second)
}

// taskFailed records a task failed with the job's completion.
func (s *Service) taskFailed(ctx context.Context, job *jobs.Job[BurnInArgs], taskID, code, msg string) error {
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(taskID), eventstore.AnyVersion,
			&content.TaskFailed{TaskID: taskID, Code: code, Message: msg, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}
