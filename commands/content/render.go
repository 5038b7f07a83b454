package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
)

// MaxVideoBytes caps a video kept in the blob store (1 GiB).
const MaxVideoBytes = 1 << 30

// errNoTools is the 503 of media work on a server without ffmpeg.
func errNoTools() error {
	return kernel.Unavailable("video rendering is not available on this server: install Debian's ffmpeg, flite and espeak-ng", nil)
}

// Voices are the local voice ids the slideshow renderer can speak with.
func (s *Service) Voices() []string {
	if s.cfg.Tools == nil {
		return nil
	}
	var out []string
	for _, v := range s.cfg.Tools.Voices() {
		out = append(out, v.ID)
	}
	return out
}

// localVoice checks a voice id against the local voices: 422 listing them
// when it is not one.
func (s *Service) localVoice(field, id string) (media.Voice, error) {
	if v, ok := s.cfg.Tools.Voice(id); ok {
		return v, nil
	}
	return media.Voice{}, &kernel.Error{Kind: kernel.KindUnprocessable, Field: field, Rule: "voice",
		Message: fmt.Sprintf("%s %s is not a local voice; the voices are %s", field, quoteID(id), strings.Join(s.Voices(), ", "))}
}

// slide is what a slideshow is made of.
type slide struct {
	Title, Background, Foreground, Script, VoiceID string
	Name                                           string // the video's file name
	// Payer is the account the video is billed to ("" not billed): once
	// the script is spoken, its measured length must be paid for by the
	// balance, or the render stops before ffmpeg runs.
	Payer string
}

// MaxVideo is the longest video the slideshow renders (ten minutes).
const MaxVideo = 10 * time.Minute

// afford checks a spoken script before it is rendered: at most MaxVideo
// long, and (when billed) paid for by the payer's balance. Its failures
// are permanent, with a code.
func (s *Service) afford(ctx context.Context, payer string, d time.Duration) error {
	if d > MaxVideo {
		return &kernel.Error{Kind: kernel.KindInvalid, Field: "script", Rule: "max_video", Code: "too_long",
			Message: fmt.Sprintf("the script speaks for %.1f s; a video is at most %s", d.Seconds(), MaxVideo)}
	}
	if payer == "" || s.cfg.Credits == nil {
		return nil
	}
	bal, err := s.cfg.Credits.AvailableMicro(ctx, payer)
	if err != nil {
		return err
	}
	if cost := content.CreditsFor(content.Seconds(d)); cost > bal {
		return &kernel.Error{Kind: kernel.KindPaymentRequired, Rule: "insufficient_credits", Code: "insufficient_credits",
			Message: fmt.Sprintf("the video is %.3f s, %s credits at %d a second, and the balance is %s credits",
				content.Seconds(d), creditsDecimal(cost), content.CreditsPerSecond, creditsDecimal(max(bal, 0)))}
	}
	return nil
}

// failure is the code and message a render's failure is recorded with:
// the error's own code when it has one, else fallback.
func failure(err error, fallback, what string) (code, msg string) {
	var ke *kernel.Error
	if errors.As(err, &ke) && ke.Code != "" {
		return ke.Code, ke.Message
	}
	return fallback, what + ": " + err.Error()
}

// retryable tells a render failure worth another attempt: an internal one
// (a tool crashed, the disk was full), while attempts remain and the job
// was not stopped.
func retryable(ctx context.Context, err error, attempt, maxAttempts int) bool {
	return kernel.KindOf(err) == kernel.KindInternal && attempt < maxAttempts && ctx.Err() == nil
}

// slideshow speaks a script sentence by sentence with a local voice,
// times the captions from each sentence's measured audio, renders the
// video over the colours with the title and keeps it in the owner's blob
// store.
func (s *Service) slideshow(ctx context.Context, owner string, sl slide) (content.RenderedVideo, error) {
	if s.cfg.Tools == nil {
		return content.RenderedVideo{}, errNoTools()
	}
	v, err := s.localVoice("voice_id", sl.VoiceID)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	dir, err := os.MkdirTemp("", "strata-render-")
	if err != nil {
		return content.RenderedVideo{}, err
	}
	defer os.RemoveAll(dir)
	sp, err := SpeakScript(ctx, s.cfg.Tools, v, sl.Script, dir)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	if err := s.afford(ctx, sl.Payer, sp.Duration); err != nil {
		return content.RenderedVideo{}, err
	}
	out := filepath.Join(dir, "video.mp4")
	info, err := s.cfg.Tools.RenderSlideshow(ctx, media.SlideshowSpec{Title: sl.Title, Background: sl.Background,
		Foreground: sl.Foreground, Audio: sp.WAVs, Cues: sp.Cues, Out: out})
	if err != nil {
		return content.RenderedVideo{}, fmt.Errorf("render: %w", err)
	}
	return s.keepVideo(ctx, owner, out, info, sl.Name)
}

// mediaCues converts cues for the renderer.
func mediaCues(cues []content.Cue) []media.Cue {
	out := make([]media.Cue, len(cues))
	for i, c := range cues {
		out[i] = media.Cue{Start: c.Start, End: c.End, Lines: c.Lines}
	}
	return out
}

// mediaStyle converts a burn-in style for the renderer.
func mediaStyle(st content.BurnInStyle) media.CaptionStyle {
	return media.CaptionStyle{FontSize: st.FontSize, FontColor: st.FontColor, Position: st.Position}
}

// keepVideo stores a rendered video in the owner's blob store with what
// was measured of it.
func (s *Service) keepVideo(ctx context.Context, owner, path string, info media.Info, name string) (content.RenderedVideo, error) {
	if s.cfg.Blobs == nil {
		return content.RenderedVideo{}, errors.New("no blob store configured")
	}
	f, err := os.Open(path)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	defer f.Close()
	st, err := s.cfg.Blobs.Stage(ctx, BlobOwner(owner), f, MaxVideoBytes)
	if err != nil {
		return content.RenderedVideo{}, err
	}
	if err := st.Commit(ctx); err != nil {
		_ = st.Discard()
		return content.RenderedVideo{}, err
	}
	return content.RenderedVideo{Digest: st.SHA256, Size: st.Size, Name: name, Seconds: content.Seconds(info.Duration),
		VideoCodec: info.VideoCodec, AudioCodec: info.AudioCodec, Width: info.Width, Height: info.Height}, nil
}

// LinkRef is a file of a task's result whose signed link is made when the
// result is read (so that it is always fresh): the result's Field gets the
// URL. Results carry them under "_links".
type LinkRef struct {
	Field  string `json:"field"`
	Digest string `json:"digest"`
	Name   string `json:"name"`
	Type   string `json:"type"`
}

// VideoLink is a signed link to a video of owner's, good for DownloadTTL.
func (s *Service) VideoLink(owner string, v content.RenderedVideo) (string, time.Time) {
	return s.Link(owner, LinkRef{Digest: v.Digest, Name: v.Name, Type: "video/mp4"})
}

// Link signs a download link to one of owner's files ("" without links).
func (s *Service) Link(owner string, ref LinkRef) (string, time.Time) {
	if s.cfg.Links == nil {
		return "", time.Time{}
	}
	expires := s.cfg.Clock.Now().Add(DownloadTTL).UTC().Truncate(time.Second)
	token := s.cfg.Links.Sign(blobs.Link{Owner: BlobOwner(owner), Digest: ref.Digest, Name: ref.Name, Type: ref.Type, Expires: expires})
	return strings.TrimRight(s.cfg.DownloadBase, "/") + DownloadPath + token, expires
}

// FreshLinks replaces a task result's "_links" by the signed URLs they
// stand for (each in its field, with "<field>_expires_at").
func (s *Service) FreshLinks(owner string, result json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil || m["_links"] == nil {
		return result
	}
	var refs []LinkRef
	if json.Unmarshal(m["_links"], &refs) != nil {
		return result
	}
	delete(m, "_links")
	for _, ref := range refs {
		u, exp := s.Link(owner, ref)
		m[ref.Field], _ = json.Marshal(u)
		m[ref.Field+"_expires_at"], _ = json.Marshal(exp.Format(time.RFC3339))
	}
	out, err := json.Marshal(m)
	if err != nil {
		return result
	}
	return out
}

// registerMediaJobs declares the media job kinds: renders, provider
// polls and webhooks, caption burn-in.
func (s *Service) registerMediaJobs(js *jobs.Service) error {
	const render = 10 * time.Minute
	if err := jobs.Handle(js, s.avatarJob, jobs.KindOptions{MaxAttempts: 5, Timeout: render}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.collectJob, jobs.KindOptions{MaxAttempts: 5, Timeout: render}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.deadlineJob, jobs.KindOptions{MaxAttempts: 3, Timeout: render}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.webhookJob, jobs.KindOptions{MaxAttempts: MaxWebhookAttempts, Timeout: time.Minute,
		Backoff: webhookBackoff}); err != nil {
		return err
	}
	if err := jobs.Handle(js, s.reelJob, jobs.KindOptions{MaxAttempts: 3, Timeout: render}); err != nil {
		return err
	}
	return jobs.Handle(js, s.burnInJob, jobs.KindOptions{MaxAttempts: 3, Timeout: render})
}
