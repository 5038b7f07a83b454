package content

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	stdsql "database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/outbound"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// WebhookArgs is the job that posts an avatar job's completion webhook to
// the caller's URL.
type WebhookArgs struct {
	JobID string `json:"job_id"`
}

// Kind implements jobs.Args.
func (WebhookArgs) Kind() string { return "content.avatar_webhook" }

// MaxWebhookAttempts is how many times a completion webhook is tried
// (backoff 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h).
const MaxWebhookAttempts = 8

func webhookBackoff(attempt int) time.Duration {
	steps := []time.Duration{time.Second, 5 * time.Second, 30 * time.Second, 2 * time.Minute,
		10 * time.Minute, 30 * time.Minute, time.Hour}
	return steps[min(max(attempt, 1), len(steps))-1]
}

// SigningSecret is owner's secret for the Strata-Signature of its content
// webhooks ("whsec_" and 64 hex digits), derived from the master key.
func (s *Service) SigningSecret(owner string) string {
	m := hmac.New(sha256.New, s.cfg.SecretKey)
	m.Write([]byte("content webhooks\x00" + owner))
	return "whsec_" + hex.EncodeToString(m.Sum(nil))
}

// checkWebhook refuses a webhook URL the outbound policy will never reach
// (a private, loopback or link-local address: 400 naming webhook_url); a
// host that does not resolve now is left to the deliveries.
func (s *Service) checkWebhook(ctx context.Context, rawURL string) error {
	if s.cfg.Webhooks == nil {
		return kernel.Unavailable("completion webhooks are not configured on this server", nil)
	}
	if s.cfg.CheckWebhook == nil {
		return nil
	}
	var refused *outbound.Refused
	if err := s.cfg.CheckWebhook(ctx, rawURL); errors.As(err, &refused) {
		return kernel.Invalid("webhook_url", "public_address", "webhook_url must reach a public address ("+refused.Rule+" is refused)")
	}
	return nil
}

// enqueueWebhook queues the caller's completion webhook, when it gave a
// URL, in the transaction that settles the job.
func (s *Service) enqueueWebhook(ctx context.Context, tx *stdsql.Tx, av content.Avatar) error {
	if av.WebhookURL == "" || s.cfg.Webhooks == nil {
		return nil
	}
	_, err := s.cfg.Jobs.Enqueue(ctx, tx, WebhookArgs{JobID: av.JobID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}})
	return err
}

// WebhookBody is the completion webhook's body for a settled job:
// {id (the event's, stable across retries), type avatar_video.completed
// or avatar_video.failed, created_at, data: the job as GET
// /multimodal/avatar/{job_id} shows it, with a fresh video_url}.
func (s *Service) WebhookBody(av content.Avatar, view func(content.Avatar) any) ([]byte, error) {
	typ := "avatar_video.completed"
	at := time.Time{}
	if av.Rendered != nil {
		at = av.Rendered.At
	}
	if av.Failure != nil {
		typ, at = "avatar_video.failed", av.Failure.At
	}
	return json.Marshal(map[string]any{"id": "evt_" + av.JobID, "type": typ, "created_at": at.UTC().Format(time.RFC3339),
		"data": view(av)})
}

// webhookJob posts the completion webhook, signed with the owner's secret
// (Strata-Signature: t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">), and
// records the answer; failures retry with backoff, and the last records
// the job given up.
func (s *Service) webhookJob(ctx context.Context, job *jobs.Job[WebhookArgs]) error {
	av, version, err := s.loadAvatar(ctx, job.Args.JobID)
	if err != nil || version == 0 || !av.Settled() || av.WebhookURL == "" || av.Webhook != nil {
		return err
	}
	body, err := s.WebhookBody(av, s.AvatarView)
	if err != nil {
		return err
	}
	status, err := s.post(ctx, av, body)
	var refused *outbound.Refused
	if err != nil && job.Attempt < job.MaxAttempts && !errors.As(err, &refused) { // a refused address never becomes reachable
		return fmt.Errorf("webhook %s attempt %d: %w", av.JobID, job.Attempt, err)
	}
	ev := &content.WebhookDelivered{JobID: av.JobID, URL: av.WebhookURL, Status: status, Attempts: job.Attempt, At: s.cfg.Clock.Now()}
	if err != nil {
		ev.Error = err.Error()
	}
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version, ev); err != nil {
			return err
		}
		return jobs.CompleteTx(ctx, tx, job)
	})
}

// post sends one attempt; a non-2xx answer is an error (with its status).
func (s *Service) post(ctx context.Context, av content.Avatar, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, av.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Strata-Webhooks/1")
	req.Header.Set("Strata-Event-Id", "evt_"+av.JobID)
	outbound.SignRequest(req, body, s.cfg.Clock.Now(), s.SigningSecret(av.Owner))
	resp, err := s.cfg.Webhooks.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// AvatarView is an avatar job as GET /multimodal/avatar/{job_id} shows it:
// the task's fields (task_id, status, progress, stage while a provider
// renders it, result null until done),
// its provider and estimate, and the error when it failed. result has
// video_url (a signed link good for an hour), duration_seconds and
// credits_billed.
func (s *Service) AvatarView(av content.Avatar) any {
	out := map[string]any{"task_id": av.JobID, "job_id": av.JobID, "celery_task_id": strconv.FormatInt(av.RunID, 10),
		"status": av.Status, "provider": av.Provider,
		"talking_head": av.Provider != content.ProviderSlideshow, "estimated_seconds": av.EstimatedSeconds,
		"twin_id": av.TwinID, "voice_id": av.VoiceID, "created_at": av.At.UTC().Format(time.RFC3339), "result": nil,
		"progress": 0, "stage": "queued", "kind": content.TaskAvatar, "error": nil}
	switch {
	case av.Rendered != nil:
		r := av.Rendered
		url, exp := s.VideoLink(av.Owner, r.Video)
		out["progress"], out["stage"] = 100, "done"
		out["result"] = map[string]any{"video_url": url, "video_url_expires_at": exp.Format(time.RFC3339),
			"duration_seconds": r.Video.Seconds, "credits_billed": creditsDecimal(r.CreditsMicro), "provider": av.Provider,
			"talking_head": r.TalkingHead, "width": r.Video.Width, "height": r.Video.Height, "video_codec": r.Video.VideoCodec,
			"audio_codec": r.Video.AudioCodec, "size": r.Video.Size}
	case av.Failure != nil:
		out["stage"] = "failed"
		out["error"] = map[string]string{"code": av.Failure.Code, "message": av.Failure.Message}
	case av.Reported != nil:
		out["progress"], out["stage"] = 80, "fetching the video from "+av.Provider
	case av.Awaiting:
		out["progress"], out["stage"] = 50, "waiting for "+av.Provider+"'s completion webhook"
	case av.Submitted != nil:
		out["progress"], out["stage"] = 20, "rendering at "+av.Provider
	}
	if av.Submitted != nil {
		out["provider_job_id"] = av.Submitted.ProviderJobID
	}
	if av.WebhookURL != "" {
		w := map[string]any{"url": av.WebhookURL, "delivered": false}
		if d := av.Webhook; d != nil {
			w["delivered"], w["status"], w["attempts"] = d.Error == "", d.Status, d.Attempts
		}
		out["webhook"] = w
	}
	return out
}
