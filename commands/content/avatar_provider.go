package content

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// CollectArgs is the job that fetches a provider's finished video after
// its completion webhook (or the deadline's last poll).
type CollectArgs struct {
	JobID string `json:"job_id"`
}

// Kind implements jobs.Args.
func (CollectArgs) Kind() string { return "content.avatar_collect" }

// DeadlineArgs is the job that gives up on a provider's job that neither a
// poll nor a webhook finished within content.AvatarGiveUp: it polls once
// more, then fails it.
type DeadlineArgs struct {
	JobID string `json:"job_id"`
}

// Kind implements jobs.Args.
func (DeadlineArgs) Kind() string { return "content.avatar_deadline" }

// WebhookPath is the path of a provider's completion webhook for a job.
func WebhookPath(jobID, provider string) string {
	return "/api/v1/public/multimodal/avatar/" + jobID + "/provider-webhook/" + provider
}

// avatarProviderJob submits the job to its provider once, then polls it
// every AvatarPollEvery (the job snoozes between polls) until it is done
// or failed, for content.AvatarPoll; after that it relies on the
// provider's completion webhook (AvatarAwaitingWebhook), with a deadline
// job as the last resort.
func (s *Service) avatarProviderJob(ctx context.Context, job *jobs.Job[AvatarArgs], av content.Avatar, version int64) error {
	p := s.cfg.AvatarProviders[av.Provider]
	if p == nil || !p.Configured() {
		return s.avatarFailed(ctx, av, version, "provider_not_configured", "the avatar provider "+av.Provider+" is not configured", completing(job))
	}
	now := s.cfg.Clock.Now()
	if av.Submitted == nil {
		id, err := p.Create(ctx, avatar.Request{JobID: av.JobID, Script: av.Script, VoiceID: av.VoiceID, AvatarID: av.AvatarID,
			WebhookURL: strings.TrimRight(s.cfg.DownloadBase, "/") + WebhookPath(av.JobID, av.Provider)})
		if err != nil {
			if avatar.IsTransient(err) && job.Attempt < job.MaxAttempts {
				return err
			}
			return s.avatarFailed(ctx, av, version, "provider_refused", av.Provider+" refused the video: "+err.Error(), completing(job))
		}
		sub := &content.AvatarSubmitted{JobID: av.JobID, ProviderJobID: id, PollUntil: now.Add(content.AvatarPoll), At: now}
		err = s.inTx(ctx, func(tx *stdsql.Tx) error {
			if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version, sub); err != nil {
				return err
			}
			if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(av.JobID), eventstore.AnyVersion, &content.TaskProgressed{
				TaskID: av.JobID, Progress: 20, Stage: "rendering at " + av.Provider, At: now}); err != nil {
				return err
			}
			_, err := s.cfg.Jobs.Enqueue(ctx, tx, DeadlineArgs{JobID: av.JobID},
				&jobs.Opts{At: now.Add(content.AvatarGiveUp), Unique: &jobs.Unique{ByArgs: true}})
			return err
		})
		if err != nil {
			return err
		}
		return jobs.Snooze(s.cfg.AvatarPollEvery)
	}
	st, err := p.Status(ctx, av.Submitted.ProviderJobID)
	if err == nil && (st.State == avatar.StateDone || st.State == avatar.StateFailed) {
		return s.collect(ctx, av, version, st, completing(job))
	}
	if err != nil && !avatar.IsTransient(err) {
		return s.avatarFailed(ctx, av, version, "provider_refused", av.Provider+" refused the status poll: "+err.Error(), completing(job))
	}
	if now.Before(av.Submitted.PollUntil) {
		return jobs.Snooze(s.cfg.AvatarPollEvery)
	}
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version,
			&content.AvatarAwaitingWebhook{JobID: av.JobID, At: now}); err != nil {
			return err
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(av.JobID), eventstore.AnyVersion, &content.TaskProgressed{
			TaskID: av.JobID, Progress: 50, Stage: "waiting for " + av.Provider + "'s completion webhook", At: now}); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// collect settles a provider's finished job: a failure fails it; a done
// video is fetched through the SSRF-safe client, measured, kept and billed.
func (s *Service) collect(ctx context.Context, av content.Avatar, version int64, st avatar.Status, done completion) error {
	if st.State == avatar.StateFailed {
		msg := st.Error
		if msg == "" {
			msg = "no reason given"
		}
		return s.avatarFailed(ctx, av, version, "provider_failed", av.Provider+" could not render the video: "+msg, done)
	}
	v, err := s.fetchVideo(ctx, av, st.VideoURL)
	if err != nil {
		if isTransient(err) {
			return err
		}
		return s.avatarFailed(ctx, av, version, "video_unfetched", "the provider's video could not be fetched: "+err.Error(), done)
	}
	return s.avatarDone(ctx, av, version, v, true, done)
}

// fetchVideo fetches a provider's video, measures it with ffprobe and keeps it.
func (s *Service) fetchVideo(ctx context.Context, av content.Avatar, url string) (content.RenderedVideo, error) {
	if url == "" {
		return content.RenderedVideo{}, errors.New("the provider gave no video URL")
	}
	if s.cfg.Media == nil || s.cfg.Tools == nil {
		return content.RenderedVideo{}, errors.New("fetching and measuring videos needs the media fetcher and ffprobe")
	}
	m, release, err := s.cfg.Media.Fetch(ctx, url)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	defer release()
	r, err := m.Open(ctx)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	defer r.Close()
	dir, err := os.MkdirTemp("", "strata-avatar-")
	if err != nil {
		return content.RenderedVideo{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "video.mp4")
	if err := writeFile(path, io.LimitReader(r, MaxVideoBytes+1)); err != nil {
		return content.RenderedVideo{}, err
	}
	info, err := s.cfg.Tools.Probe(ctx, path)
	if err != nil {
		return content.RenderedVideo{}, fmt.Errorf("the provider's file is not a video ffprobe can read: %w", err)
	}
	if info.VideoCodec == "" || info.Duration <= 0 {
		return content.RenderedVideo{}, errors.New("the provider's file has no video stream")
	}
	return s.keepVideo(ctx, av.Owner, path, info, "avatar-"+av.JobID+".mp4")
}

func writeFile(path string, r io.Reader) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > MaxVideoBytes {
		err = fmt.Errorf("the file is larger than %d bytes", MaxVideoBytes)
	}
	return err
}

// ProviderWebhook receives a provider's completion webhook for a job: the
// signature is verified by the provider's adapter (401 when it does not
// verify), the job must be that provider's and submitted to it under the
// id the webhook names (404 otherwise); a report for a settled job is
// acknowledged and ignored. The report is recorded and the video fetched
// by a job.
func (s *Service) ProviderWebhook(ctx context.Context, jobID, provider string, header http.Header, body []byte) error {
	p := s.cfg.AvatarProviders[provider]
	av, version, err := s.loadAvatar(ctx, jobID)
	if err != nil {
		return err
	}
	if p == nil || version == 0 || av.Provider != provider || av.Submitted == nil {
		return kernel.NotFound("no avatar job " + quoteID(jobID) + " submitted to " + quoteID(provider))
	}
	st, err := p.Webhook(header, body)
	switch {
	case errors.Is(err, avatar.ErrBadSignature), errors.Is(err, avatar.ErrNotConfigured):
		return &kernel.Error{Kind: kernel.KindUnauthenticated, Field: "signature", Rule: "valid",
			Message: "the webhook's signature does not verify"}
	case errors.Is(err, avatar.ErrUnknownEvent):
		return nil
	case err != nil:
		return kernel.Invalid("body", "webhook", "the webhook's body could not be read: "+err.Error())
	}
	if st.ProviderJobID != "" && st.ProviderJobID != av.Submitted.ProviderJobID {
		return kernel.NotFound("the webhook names provider job " + quoteID(st.ProviderJobID) + ", not this job's")
	}
	if av.Settled() || av.Reported != nil || (st.State != avatar.StateDone && st.State != avatar.StateFailed) {
		return nil
	}
	now := s.cfg.Clock.Now()
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version, &content.AvatarReported{JobID: av.JobID,
			State: st.State, VideoURL: st.VideoURL, Error: st.Error, At: now}); err != nil {
			return err
		}
		_, err := s.cfg.Jobs.Enqueue(ctx, tx, CollectArgs{JobID: av.JobID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
		return err
	})
}

// collectJob settles a job from its provider's webhook report.
func (s *Service) collectJob(ctx context.Context, job *jobs.Job[CollectArgs]) error {
	av, version, err := s.loadAvatar(ctx, job.Args.JobID)
	if err != nil || version == 0 || av.Settled() || av.Reported == nil {
		return err
	}
	r := av.Reported
	st := avatar.Status{State: r.State, VideoURL: r.VideoURL, Error: r.Error}
	if err := s.collect(ctx, av, version, st, completing(job)); err != nil {
		if job.Attempt < job.MaxAttempts {
			return err
		}
		return s.avatarFailed(ctx, av, version, "video_unfetched", "the provider's video could not be fetched: "+err.Error(), completing(job))
	}
	return nil
}

// deadlineJob gives up on a provider's job still unsettled after
// content.AvatarGiveUp: one last poll, then failed as provider_timeout.
func (s *Service) deadlineJob(ctx context.Context, job *jobs.Job[DeadlineArgs]) error {
	av, version, err := s.loadAvatar(ctx, job.Args.JobID)
	if err != nil || version == 0 || av.Settled() || av.Submitted == nil {
		return err
	}
	if p := s.cfg.AvatarProviders[av.Provider]; p != nil {
		if st, err := p.Status(ctx, av.Submitted.ProviderJobID); err == nil && (st.State == avatar.StateDone || st.State == avatar.StateFailed) {
			return s.collect(ctx, av, version, st, completing(job))
		}
	}
	return s.avatarFailed(ctx, av, version, "provider_timeout",
		fmt.Sprintf("%s did not finish the video within %s", av.Provider, content.AvatarGiveUp), completing(job))
}
