package content

import (
	"context"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// ReelArgs is the job that renders one row of a batch.
type ReelArgs struct {
	BatchID string `json:"batch_id"`
	Row     int    `json:"row"`
}

// Kind implements jobs.Args.
func (ReelArgs) Kind() string { return "content.reel" }

// MaxReelsFile caps a bulk-reel CSV (1 MiB: 100 rows of 5000 characters
// fit with room).
const MaxReelsFile = 1 << 20

// scopeReelsFile claims a batch's file per owner, twin and platform: the
// same file twice is the same batch.
const scopeReelsFile = "content.reels.file"

// ReelsInput is a bulk-reel request.
type ReelsInput struct {
	TwinID, Platform string
	File             []byte
	FileName         string
}

// SubmitReels checks a bulk-reel CSV whole (every row and column, before
// anything is queued: 400 listing the failures by row and column; 403 over
// 100 rows) and queues one render per row under one task. The same file
// for the same twin and platform is the same batch: replay is true and
// nothing new is queued.
func (s *Service) SubmitReels(ctx context.Context, a Actor, in ReelsInput) (b content.Batch, replay bool, err error) {
	if s.cfg.Tools == nil {
		return b, false, errNoTools()
	}
	platform := strings.ToLower(strings.TrimSpace(in.Platform))
	if platform != "" && !slices.Contains(content.Platforms, platform) {
		return b, false, kernel.Invalid("platform", "enum", "platform must be one of "+strings.Join(content.Platforms, ", "))
	}
	if strings.TrimSpace(in.TwinID) == "" {
		return b, false, kernel.Invalid("twin_id", "required", "twin_id is required")
	}
	twin, err := s.CheckTwin(ctx, a.Owner, "twin_id", in.TwinID)
	if err != nil {
		return b, false, err
	}
	if err := s.admit(ctx, a.User); err != nil {
		return b, false, err
	}
	rows, errs, err := content.ParseReels(in.File, content.ReelDefaults{Platform: platform, VoiceID: twin.VoiceID, Voices: s.Voices()})
	if err != nil {
		return b, false, err
	}
	if len(errs) > 0 {
		first := errs[0]
		return b, false, &Detailed{Err: kernel.Invalid("csv_file", "rows", fmt.Sprintf("%d cell(s) of csv_file break a rule; the first: row %d, %s: %s",
			len(errs), first.Row, first.Column, first.Message)), Members: map[string]any{"errors": errs}}
	}
	for i := range rows {
		if v, ok := s.cfg.Tools.Voice(rows[i].VoiceID); ok {
			rows[i].VoiceID = v.ID
		}
	}
	sum := sha256.Sum256(in.File)
	key := sha256.Sum256([]byte(a.Owner + "\x00" + twin.ID + "\x00" + platform + "\x00" + hex.EncodeToString(sum[:])))
	claim := hex.EncodeToString(key[:])
	if b, ok, err := s.batchByClaim(ctx, claim); err != nil || ok {
		return b, ok, err
	}
	bg, fg := content.TwinColours(twin, platform)
	now := s.cfg.Clock.Now()
	ev := &content.BatchAccepted{BatchID: uuid.NewString(), TaskID: s.cfg.IDs.NewID(), Owner: a.Owner, TwinID: twin.ID, Title: twin.Name,
		Background: bg, Foreground: fg, Platform: platform, FileSHA256: hex.EncodeToString(sum[:]), FileName: in.FileName, Rows: rows,
		By: a.User, At: now}
	input, _ := json.Marshal(map[string]any{"batch_id": ev.BatchID, "twin_id": twin.ID, "total_rows": len(rows)})
	var ap eventstore.Appended
	err = s.inTx(ctx, func(tx *stdsql.Tx) error {
		stream := eventstore.Stream{Type: content.StreamBatch, ID: content.BatchStream(ev.BatchID)}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, stream, eventstore.NoStream, ev); err != nil {
			return err
		}
		if err := eventstore.Claim(ctx, tx, scopeReelsFile, claim, stream.ID, "csv_file"); err != nil {
			return err
		}
		var err error
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, taskStream(ev.TaskID), eventstore.NoStream, &content.TaskCreated{TaskID: ev.TaskID,
			Owner: a.Owner, Kind: content.TaskBulkReels, Input: input, By: a.User, At: now}); err != nil {
			return err
		}
		for _, r := range rows {
			if _, err := s.cfg.Jobs.Enqueue(ctx, tx, ReelArgs{BatchID: ev.BatchID, Row: r.Row}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
				return err
			}
		}
		return nil
	})
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Rule == "unique" {
		b, ok, err := s.batchByClaim(ctx, claim) // a concurrent request with the same file won
		if err == nil && !ok {
			err = errors.New("the batch claimed for this file is missing")
		}
		return b, true, err
	}
	if err != nil {
		return b, false, err
	}
	b.Apply(ev)
	return b, false, s.wait(ctx, ap)
}

// batchByClaim loads the batch that claimed a file, if any.
func (s *Service) batchByClaim(ctx context.Context, claim string) (content.Batch, bool, error) {
	stream, err := eventstore.ClaimOwner(ctx, s.cfg.Store.DB(), scopeReelsFile, claim)
	if err != nil || stream == "" {
		return content.Batch{}, false, err
	}
	b, _, err := s.loadBatch(ctx, strings.TrimPrefix(stream, content.BatchStream("")))
	return b, err == nil, err
}

// loadBatch folds a batch's stream (version 0: none).
func (s *Service) loadBatch(ctx context.Context, id string) (content.Batch, int64, error) {
	return fold[content.Batch](ctx, s.cfg.Store, content.BatchStream(id))
}

// Batch returns the owner's batch (404 for another owner's or none).
func (s *Service) Batch(ctx context.Context, owner, id string) (content.Batch, error) {
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 {
		return content.Batch{}, kernel.NotFound("no batch with id " + quoteID(id))
	}
	id = u.String() // any case
	b, v, err := s.loadBatch(ctx, id)
	if err != nil {
		return b, err
	}
	if v == 0 || b.Owner != owner {
		return content.Batch{}, kernel.NotFound("no batch with id " + quoteID(id))
	}
	return b, nil
}

// reelJob renders one row's reel (a slideshow of its script in its voice
// over the twin's colours) and records it; the row that settles the batch
// finishes its task. A render that keeps failing fails the row only.
func (s *Service) reelJob(ctx context.Context, job *jobs.Job[ReelArgs]) error {
	b, _, err := s.loadBatch(ctx, job.Args.BatchID)
	if err != nil {
		return err
	}
	row := job.Args.Row
	if row < 1 || row > len(b.Reels) || b.Reels[row-1].Status == content.TaskDone || b.Reels[row-1].Status == content.TaskError {
		return nil
	}
	r := b.Reels[row-1]
	if r.Status == content.TaskQueued {
		if _, err := s.cfg.Store.Append(ctx, eventstore.Stream{Type: content.StreamBatch, ID: content.BatchStream(b.BatchID)},
			eventstore.AnyVersion, &content.ReelStarted{BatchID: b.BatchID, Row: row, At: s.cfg.Clock.Now()}); err != nil {
			return err
		}
	}
	v, err := s.slideshow(ctx, b.Owner, slide{Title: b.Title, Background: b.Background, Foreground: b.Foreground, Script: r.Script,
		VoiceID: r.VoiceID, Name: fmt.Sprintf("reel-%s-row-%03d.mp4", b.BatchID[:8], row), Payer: b.By})
	var settle kernel.Event = &content.ReelRendered{BatchID: b.BatchID, Row: row, Video: v, CreditsMicro: s.price(v), At: s.cfg.Clock.Now()}
	if err != nil {
		if retryable(ctx, err, job.Attempt, job.MaxAttempts) {
			return err
		}
		code, msg := failure(err, "render_failed", "the reel could not be rendered")
		settle = &content.ReelFailed{BatchID: b.BatchID, Row: row, Code: code, Message: msg, At: s.cfg.Clock.Now()}
	}
	return s.settleReel(ctx, job, settle)
}

// settleReel records a row settled at the batch's version (retrying on a
// concurrent row's append), with the task's progress, and the task done
// when it is the last row.
func (s *Service) settleReel(ctx context.Context, job *jobs.Job[ReelArgs], ev kernel.Event) error {
	for range 20 {
		b, version, err := s.loadBatch(ctx, job.Args.BatchID)
		if err != nil {
			return err
		}
		b.Apply(ev)
		now := s.cfg.Clock.Now()
		var task kernel.Event = &content.TaskProgressed{TaskID: b.TaskID, Progress: b.Progress(), Stage: fmt.Sprintf("row %d settled", job.Args.Row), At: now}
		switch b.Status() {
		case content.TaskDone:
			done, failed := b.Counts()
			res, _ := json.Marshal(map[string]any{"batch_id": b.BatchID, "total_rows": len(b.Reels), "completed": done, "failed": failed})
			task = &content.TaskFinished{TaskID: b.TaskID, Result: res, At: now}
		case content.TaskError:
			task = &content.TaskFailed{TaskID: b.TaskID, Code: "all_failed", Message: "no reel of the batch could be rendered", At: now}
		}
		err = s.inTx(ctx, func(tx *stdsql.Tx) error {
			if _, err := s.cfg.Store.AppendTx(ctx, tx, eventstore.Stream{Type: content.StreamBatch, ID: content.BatchStream(b.BatchID)},
				version, ev); err != nil {
				return err
			}
			if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(b.TaskID), eventstore.AnyVersion, task); err != nil {
				return err
			}
			if r, ok := ev.(*content.ReelRendered); ok && s.cfg.Credits != nil {
				note := fmt.Sprintf("reel %s row %d: %.3f s at %d credits a second", b.BatchID, r.Row, r.Video.Seconds, content.CreditsPerSecond)
				if err := s.cfg.Credits.ChargeTx(ctx, tx, b.By, fmt.Sprintf("content.reel:%s:%d", b.BatchID, r.Row), r.CreditsMicro, note); err != nil {
					return err
				}
			}
			return jobs.CompleteTx(ctx, tx, job)
		})
		if kernel.KindOf(err) != kernel.KindConflict {
			return err
		}
	}
	return errors.New("the batch kept changing while a row was recorded")
}
