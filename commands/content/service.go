// Package content runs the content workflow's commands: twins, calendar
// items and direct publishes (posts), the dispatcher that publishes due
// posts through the owner's connected accounts without ever posting twice,
// tasks, analytics sync and exports.
//
// Publishing never repeats a request that may have created a post: each
// attempt is recorded (TargetStarted) before anything is sent, and its
// outcome after; a job that finds a started attempt without an outcome
// (its process died after sending) records it as unconfirmed and stops.
package content

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/content/avatar"
	"github.com/strata-platform/strata/commands/content/platforms"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/commands/media"
	"github.com/strata-platform/strata/commands/transcribe"
	"github.com/strata-platform/strata/domain/content"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// MediaFetcher fetches a post's media (through the SSRF-safe outbound
// client): its type, size and a way to read it; release frees what the
// fetch kept (a temporary file).
type MediaFetcher interface {
	Fetch(ctx context.Context, rawURL string) (m platforms.Media, release func(), err error)
}

// Config is what the service needs.
type Config struct {
	Store       *eventstore.Store
	Connections *connections.Service
	// Platforms are the social platforms by name.
	Platforms map[string]platforms.Platform
	Jobs      *jobs.Service
	Media     MediaFetcher
	Blobs     blobs.Store
	// Links signs download links of exports.
	Links *blobs.Links
	// DownloadBase is the platform API's public base URL, for download links.
	DownloadBase string
	Clock        kernel.Clock
	IDs          kernel.IDs
	Logger       *slog.Logger
	// PublishTimeout bounds one publish attempt (2 minutes when 0; a
	// video upload takes a while).
	PublishTimeout time.Duration
	// Transcribers make captions, the first that serves a language (none:
	// captions answer 503).
	Transcribers []transcribe.Transcriber
	// RetryDelay is the wait before transient retry n (1-based);
	// nil: content.RetryDelay (15 s, 1 min, 4 min).
	RetryDelay func(n int) time.Duration
	// Wait waits until the content projection has applied key (reads
	// after writes); nil: no wait.
	Wait func(ctx context.Context, key eventstore.Key) error
	// Tools render videos offline (avatar slideshows, bulk reels, caption
	// burn-in); nil: those answer 503.
	Tools *media.Tools
	// AvatarProviders are the avatar-video providers by name besides the
	// local slideshow (configured or not: one without credentials answers
	// 503, never replaced by another).
	AvatarProviders map[string]avatar.Provider
	// AvatarProvider is the default provider ("" local-slideshow).
	AvatarProvider string
	// AvatarPollEvery is the wait between polls of a provider (10 s when 0).
	AvatarPollEvery time.Duration
	// Credits admits and bills paid renders; nil: nothing is billed.
	Credits Credits
	// Webhooks posts completion webhooks to callers' URLs (the SSRF-safe
	// outbound client); nil: webhook_url is refused.
	Webhooks *http.Client
	// SecretKey derives each owner's webhook signing secret.
	SecretKey []byte
	// CheckWebhook checks a caller's webhook URL against the outbound
	// policy when it is given (the outbound client's Check); nil: none.
	CheckWebhook func(ctx context.Context, rawURL string) error
}

// Credits is the credits ledger as the content workflow uses it.
type Credits interface {
	// AvailableMicro is the account's balance in micro-credits.
	AvailableMicro(ctx context.Context, account string) (int64, error)
	// ChargeTx debits micro-credits once per charge id inside tx.
	ChargeTx(ctx context.Context, tx *stdsql.Tx, account, chargeID string, micro int64, note string) error
}

// Service runs the content workflow's commands.
type Service struct {
	cfg Config
}

// New returns the service; call RegisterJobs before the jobs start.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RetryDelay == nil {
		cfg.RetryDelay = content.RetryDelay
	}
	if cfg.AvatarPollEvery <= 0 {
		cfg.AvatarPollEvery = 10 * time.Second
	}
	if cfg.PublishTimeout <= 0 {
		cfg.PublishTimeout = 2 * time.Minute
	}
	return &Service{cfg: cfg}
}

// Actor is who acts: the owner whose content it is (the organization, or
// the user without one) and the user.
type Actor struct {
	Owner string
	User  string
}

// OwnerOf is the owner key of a principal: "org:<id>", or "user:<id>"
// for a user in no organization.
func OwnerOf(org, user string) string {
	if org != "" {
		return "org:" + org
	}
	return "user:" + user
}

// wait waits for the projection to show an append, when configured.
func (s *Service) wait(ctx context.Context, a eventstore.Appended) error {
	if s.cfg.Wait == nil {
		return nil
	}
	return s.cfg.Wait(ctx, a.Last)
}

// Platform returns the named platform adapter.
func (s *Service) Platform(name string) (platforms.Platform, bool) {
	p, ok := s.cfg.Platforms[name]
	return p, ok
}

// loadPost folds a post's stream through q; a post that does not exist,
// is another owner's or is deleted is 404 (deleted too when !live).
func (s *Service) loadPost(ctx context.Context, q eventstore.Querier, owner, id string, live bool) (content.Post, int64, error) {
	envs, err := s.cfg.Store.LoadTx(ctx, q, content.PostStream(id), eventstore.LoadOptions{})
	if err != nil {
		return content.Post{}, 0, fmt.Errorf("load post %s: %w", id, err)
	}
	var p content.Post
	for _, e := range envs {
		p.Apply(e.Event)
	}
	if len(envs) == 0 || (owner != "" && p.Owner != owner) || (live && p.Deleted) {
		return content.Post{}, 0, kernel.NotFound("no calendar item or publish job with id " + id)
	}
	return p, int64(len(envs)), nil
}

func postStream(id string) eventstore.Stream {
	return eventstore.Stream{Type: content.StreamPost, ID: content.PostStream(id)}
}

// inTx runs fn in a transaction of the store (announcing commits).
func (s *Service) inTx(ctx context.Context, fn func(tx *stdsql.Tx) error) error {
	return s.cfg.Store.InTx(ctx, fn)
}
