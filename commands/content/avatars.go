package content

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// AvatarArgs is the job that renders an avatar video (locally) or submits
// it to its provider and polls it.
type AvatarArgs struct {
	JobID string `json:"job_id"`
}

// Kind implements jobs.Args.
func (AvatarArgs) Kind() string { return "content.avatar" }

// AvatarInput is an avatar video request.
type AvatarInput struct {
	TwinID, Script, VoiceID, AvatarID, Provider, WebhookURL string
}

// AvatarAccepted is a queued avatar video (its event; RunID is the
// durable job's id).
type AvatarAccepted struct {
	content.AvatarRequested
}

// Providers names the avatar providers: the local slideshow first, then
// the adapters, sorted.
func (s *Service) Providers() []string {
	out := []string{content.ProviderSlideshow}
	for name := range s.cfg.AvatarProviders {
		out = append(out, name)
	}
	sort.Strings(out[1:])
	return out
}

// provider resolves a provider name: the default when "", 422 naming the
// providers when unknown, 503 when it cannot work here (no credentials, or
// no ffmpeg for the slideshow).
func (s *Service) provider(name string) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		name = s.cfg.AvatarProvider
	}
	if name == "" {
		name = content.ProviderSlideshow
	}
	if !slices.Contains(s.Providers(), name) {
		return "", &kernel.Error{Kind: kernel.KindUnprocessable, Field: "provider", Rule: "enum",
			Message: "provider must be one of " + strings.Join(s.Providers(), ", ")}
	}
	if name == content.ProviderSlideshow {
		if s.cfg.Tools == nil {
			return "", errNoTools()
		}
		return name, nil
	}
	if !s.cfg.AvatarProviders[name].Configured() {
		return "", kernel.Unavailable("the avatar provider "+name+" is not configured on this server (its base URL and API key); "+
			"use provider "+content.ProviderSlideshow+" or configure it", nil)
	}
	return name, nil
}

// RequestAvatar records an avatar video asked for and queues its render
// (a task whose id is the job's): the twin must be the owner's, the script
// speakable, the provider one that works here, the voice a local one for
// the slideshow; a paid render needs credits left (402 otherwise; the
// measured duration is billed when it is done).
func (s *Service) RequestAvatar(ctx context.Context, a Actor, in AvatarInput) (AvatarAccepted, error) {
	twin, err := s.CheckTwin(ctx, a.Owner, "twin_id", in.TwinID)
	if err != nil {
		return AvatarAccepted{}, err
	}
	if err := content.CheckScript("script", in.Script); err != nil {
		return AvatarAccepted{}, err
	}
	prov, err := s.provider(in.Provider)
	if err != nil {
		return AvatarAccepted{}, err
	}
	voice := strings.TrimSpace(in.VoiceID)
	if voice == "" {
		voice = twin.VoiceID
	}
	if prov == content.ProviderSlideshow {
		if err := content.CheckLocalScript("script", in.Script); err != nil {
			return AvatarAccepted{}, err
		}
		if voice == "" && len(s.Voices()) > 0 {
			voice = s.Voices()[0]
		}
		v, err := s.localVoice("voice_id", voice)
		if err != nil {
			return AvatarAccepted{}, err
		}
		voice = v.ID
	} else if voice == "" {
		return AvatarAccepted{}, kernel.Invalid("voice_id", "required", "voice_id is required: the provider's voice (the twin has none)")
	}
	if in.WebhookURL != "" {
		if err := s.checkWebhook(ctx, in.WebhookURL); err != nil {
			return AvatarAccepted{}, err
		}
	}
	if err := s.admit(ctx, a.User); err != nil {
		return AvatarAccepted{}, err
	}
	bg, fg := content.TwinColours(twin, "")
	now := s.cfg.Clock.Now()
	ev := &content.AvatarRequested{JobID: s.cfg.IDs.NewID(), Owner: a.Owner, Account: a.User, TwinID: twin.ID, Title: twin.Name,
		Script: strings.TrimSpace(in.Script), VoiceID: voice, AvatarID: strings.TrimSpace(in.AvatarID), Provider: prov,
		Background: bg, Foreground: fg, WebhookURL: in.WebhookURL,
		EstimatedSeconds: content.EstimateWait(prov, content.EstimateSpeech(in.Script)), By: a.User, At: now}
	input, _ := json.Marshal(map[string]string{"twin_id": ev.TwinID, "provider": prov, "voice_id": voice})
	var ap eventstore.Appended
	var run jobs.Enqueued
	err = s.inTx(ctx, func(tx *stdsql.Tx) error {
		var err error
		if ap, err = s.cfg.Store.AppendTx(ctx, tx, taskStream(ev.JobID), eventstore.NoStream, &content.TaskCreated{TaskID: ev.JobID,
			Owner: a.Owner, Kind: content.TaskAvatar, Input: input, By: a.User, At: now}); err != nil {
			return err
		}
		if run, err = s.cfg.Jobs.Enqueue(ctx, tx, AvatarArgs{JobID: ev.JobID}, &jobs.Opts{Unique: &jobs.Unique{ByArgs: true}}); err != nil {
			return err
		}
		ev.RunID = run.ID
		stream := avatarStream(ev.JobID)
		if _, err := s.cfg.Store.AppendTx(ctx, tx, stream, eventstore.NoStream, ev); err != nil {
			return err
		}
		// The durable job's id (celery_task_id) finds the job too.
		return eventstore.Claim(ctx, tx, scopeAvatarRun, strconv.FormatInt(run.ID, 10), stream.ID, "celery_task_id")
	})
	if err != nil {
		return AvatarAccepted{}, err
	}
	return AvatarAccepted{AvatarRequested: *ev}, s.wait(ctx, ap)
}

// admit refuses paid rendering to an account with no credits left (402);
// the measured length is checked against the balance again once the
// script is spoken, before anything is rendered (afford).
func (s *Service) admit(ctx context.Context, account string) error {
	if s.cfg.Credits == nil {
		return nil
	}
	bal, err := s.cfg.Credits.AvailableMicro(ctx, account)
	if err != nil {
		return err
	}
	if bal <= 0 {
		return &kernel.Error{Kind: kernel.KindPaymentRequired, Rule: "insufficient_credits",
			Message: fmt.Sprintf("no credits left: rendered video costs %d credits a second", content.CreditsPerSecond)}
	}
	return nil
}

// price is what a rendered video costs (0 when nothing is billed).
func (s *Service) price(v content.RenderedVideo) int64 {
	if s.cfg.Credits == nil {
		return 0
	}
	return content.CreditsFor(v.Seconds)
}

func avatarStream(id string) eventstore.Stream {
	return eventstore.Stream{Type: content.StreamAvatar, ID: content.AvatarStream(id)}
}

// folding is a state folded from a stream's events.
type folding[S any] interface {
	*S
	Apply(kernel.Event)
}

// fold loads a stream and folds it into a state (version 0: none).
func fold[S any, P folding[S]](ctx context.Context, store *eventstore.Store, streamID string) (S, int64, error) {
	var st S
	envs, err := store.Load(ctx, streamID, eventstore.LoadOptions{})
	if err != nil {
		return st, 0, err
	}
	for _, e := range envs {
		P(&st).Apply(e.Event)
	}
	return st, int64(len(envs)), nil
}

// loadAvatar folds an avatar job's stream (version 0: none).
func (s *Service) loadAvatar(ctx context.Context, id string) (content.Avatar, int64, error) {
	return fold[content.Avatar](ctx, s.cfg.Store, content.AvatarStream(id))
}

// scopeAvatarRun claims an avatar job's durable job id (celery_task_id).
const scopeAvatarRun = "content.avatar.run"

// Avatar returns the owner's avatar job by its id (the task's) or its
// durable job's id (celery_task_id); 404 for another owner's or none.
func (s *Service) Avatar(ctx context.Context, owner, id string) (content.Avatar, error) {
	if n, err := strconv.ParseInt(id, 10, 64); err == nil && n > 0 && len(id) <= 19 {
		stream, err := eventstore.ClaimOwner(ctx, s.cfg.Store.DB(), scopeAvatarRun, strconv.FormatInt(n, 10))
		if err != nil {
			return content.Avatar{}, err
		}
		id = strings.TrimPrefix(stream, content.AvatarStream(""))
	}
	if _, err := uuid.Parse(id); err != nil && !ulidLike(id) {
		return content.Avatar{}, kernel.NotFound("no avatar job with id " + quoteID(id))
	}
	av, v, err := s.loadAvatar(ctx, id)
	if err != nil {
		return av, err
	}
	if v == 0 || av.Owner != owner {
		return content.Avatar{}, kernel.NotFound("no avatar job with id " + quoteID(id))
	}
	return av, nil
}

// ulidLike tells a 26-character Crockford base32 id.
func ulidLike(id string) bool {
	if len(id) != 26 {
		return false
	}
	return strings.IndexFunc(strings.ToUpper(id), func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') || r == 'I' || r == 'L' || r == 'O' || r == 'U'
	}) < 0
}

// avatarJob renders a queued avatar video: locally in one go, or through
// its provider (avatarProviderJob).
func (s *Service) avatarJob(ctx context.Context, job *jobs.Job[AvatarArgs]) error {
	av, version, err := s.loadAvatar(ctx, job.Args.JobID)
	if err != nil {
		return err
	}
	if version == 0 || av.Settled() {
		return nil
	}
	if av.Provider != content.ProviderSlideshow {
		return s.avatarProviderJob(ctx, job, av, version)
	}
	s.progress(ctx, av.JobID, 10, "speaking the script")
	v, err := s.slideshow(ctx, av.Owner, slide{Title: av.Title, Background: av.Background, Foreground: av.Foreground,
		Script: av.Script, VoiceID: av.VoiceID, Name: "avatar-" + av.JobID + ".mp4", Payer: av.Account})
	if err != nil {
		if retryable(ctx, err, job.Attempt, job.MaxAttempts) {
			return err
		}
		code, msg := failure(err, "render_failed", "the video could not be rendered")
		return s.avatarFailed(ctx, av, version, code, msg, completing(job))
	}
	return s.avatarDone(ctx, av, version, v, false, completing(job))
}

// avatarDoneResult is a done avatar job's task result.
func avatarDoneResult(av content.Avatar, v content.RenderedVideo, credits int64, talkingHead bool) json.RawMessage {
	out, _ := json.Marshal(map[string]any{"duration_seconds": v.Seconds, "credits_billed": creditsDecimal(credits),
		"provider": av.Provider, "talking_head": talkingHead, "width": v.Width, "height": v.Height,
		"video_codec": v.VideoCodec, "audio_codec": v.AudioCodec, "size": v.Size,
		"_links": []LinkRef{{Field: "video_url", Digest: v.Digest, Name: v.Name, Type: "video/mp4"}}})
	return out
}

// CreditsJSON writes micro-credits as a JSON number of credits, exactly.
func CreditsJSON(micro int64) json.Number { return creditsDecimal(micro) }

// creditsDecimal writes micro-credits as a JSON number of credits.
func creditsDecimal(micro int64) json.Number {
	whole, frac := micro/1_000_000, micro%1_000_000
	if frac == 0 {
		return json.Number(fmt.Sprint(whole))
	}
	return json.Number(strings.TrimRight(fmt.Sprintf("%d.%06d", whole, frac), "0"))
}

// avatarDone records the video done, bills its measured seconds once and
// queues the caller's webhook, in one transaction with the job's
// completion (when done is given).
func (s *Service) avatarDone(ctx context.Context, av content.Avatar, version int64, v content.RenderedVideo, talkingHead bool, done completion) error {
	now := s.cfg.Clock.Now()
	micro := s.price(v)
	ev := &content.AvatarRendered{JobID: av.JobID, Video: v, TalkingHead: talkingHead, CreditsMicro: micro, At: now}
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version, ev); err != nil {
			return err
		}
		if s.cfg.Credits != nil {
			note := fmt.Sprintf("avatar video %s: %.3f s at %d credits a second", av.JobID, v.Seconds, content.CreditsPerSecond)
			if err := s.cfg.Credits.ChargeTx(ctx, tx, av.Account, "content.avatar:"+av.JobID, micro, note); err != nil {
				return err
			}
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(av.JobID), eventstore.AnyVersion,
			&content.TaskFinished{TaskID: av.JobID, Result: avatarDoneResult(av, v, micro, talkingHead), At: now}); err != nil {
			return err
		}
		if err := s.enqueueWebhook(ctx, tx, av); err != nil {
			return err
		}
		return completeTx(ctx, tx, done)
	})
}

// avatarFailed records the job and its task failed.
func (s *Service) avatarFailed(ctx context.Context, av content.Avatar, version int64, code, msg string, done completion) error {
	now := s.cfg.Clock.Now()
	return s.inTx(ctx, func(tx *stdsql.Tx) error {
		if _, err := s.cfg.Store.AppendTx(ctx, tx, avatarStream(av.JobID), version,
			&content.AvatarFailed{JobID: av.JobID, Code: code, Message: msg, At: now}); err != nil {
			return err
		}
		if _, err := s.cfg.Store.AppendTx(ctx, tx, taskStream(av.JobID), eventstore.AnyVersion,
			&content.TaskFailed{TaskID: av.JobID, Code: code, Message: msg, At: now}); err != nil {
			return err
		}
		if err := s.enqueueWebhook(ctx, tx, av); err != nil {
			return err
		}
		return completeTx(ctx, tx, done)
	})
}

// completion completes a job inside a transaction (nil: no job).
type completion func(ctx context.Context, tx *stdsql.Tx) error

// completing is the completion of job.
func completing[T jobs.Args](job *jobs.Job[T]) completion {
	return func(ctx context.Context, tx *stdsql.Tx) error { return jobs.CompleteTx(ctx, tx, job) }
}

func completeTx(ctx context.Context, tx *stdsql.Tx, done completion) error {
	if done == nil {
		return nil
	}
	return done(ctx, tx)
}

// ProviderInfo is an avatar provider as GET /multimodal/avatar/options shows it.
type ProviderInfo struct {
	Name        string `json:"name"`
	Configured  bool   `json:"configured"`
	Default     bool   `json:"default"`
	TalkingHead bool   `json:"talking_head"`
}

// ProviderStatus lists the avatar providers and whether each can work here.
func (s *Service) ProviderStatus() []ProviderInfo {
	def := s.cfg.AvatarProvider
	if def == "" {
		def = content.ProviderSlideshow
	}
	var out []ProviderInfo
	for _, name := range s.Providers() {
		ok := s.cfg.Tools != nil
		if p := s.cfg.AvatarProviders[name]; p != nil {
			ok = p.Configured()
		}
		out = append(out, ProviderInfo{Name: name, Configured: ok, Default: name == def, TalkingHead: name != content.ProviderSlideshow})
	}
	return out
}
