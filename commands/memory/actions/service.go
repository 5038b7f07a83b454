// Package actions runs memory's write-back actions: a message sent to a
// chat channel, a reply in a mail thread, a calendar event, an issue, a
// notes page, each with the caller's connected account at the provider.
//
// Each provider is an adapter that speaks the provider's real OAuth 2
// dialect (connections.Provider: Slack, Google for mail and for calendar
// as two connections, GitHub, Notion) and its real API for the action,
// against configurable base URLs; every request goes through
// connections.Call, never retried when it may have acted. Every action the
// provider was asked to perform is recorded as a memory.action_performed
// event with its outcome in the owner's actions stream; tokens and the
// text sent never appear in it.
package actions

import (
	"context"
	"log/slog"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
)

// The provider names (connections.Provider.Name), the seed's neutral kinds.
const (
	ProviderChat     = memory.ActionKindChat
	ProviderMail     = memory.ActionKindMail
	ProviderCalendar = memory.ActionKindCalendar
	ProviderIssues   = memory.ActionKindIssues
	ProviderNotes    = memory.ActionKindNotes
)

// ProviderTimeout bounds one action's calls to its provider (a notes page
// of many blocks takes several).
const ProviderTimeout = 2 * time.Minute

// Tokens gives an owner's connected account for a provider, refreshed if
// near expiry (the connections store implements it).
type Tokens interface {
	// Token returns the tokens and account of owner's connection to
	// provider. When there is none it returns a kernel error naming the
	// provider kind to connect: NotConnected(provider) (conflict, 409). A
	// refresh the provider refused is a *connections.CallError of class
	// Unauthorized (answered as "reconnect").
	Token(ctx context.Context, owner, provider string) (connections.Tokens, connections.Identity, error)
	// Report tells the store that a call with owner's tokens failed (an
	// Unauthorized CallError marks the account needs-reconnect).
	Report(ctx context.Context, owner, provider string, err error)
}

// Adapters are the providers the service acts through; a nil one makes
// its action answer "not configured" (unavailable, 503).
type Adapters struct {
	Chat     *Chat
	Mail     *Mail
	Calendar *Calendar
	Issues   *Issues
	Notes    *Notes
}

// Service runs the write-back actions.
type Service struct {
	store  *eventstore.Store
	tokens Tokens
	ad     Adapters
	clock  kernel.Clock
	ids    kernel.IDs
	log    *slog.Logger
}

// New returns the service: events go to store, tokens come from tokens,
// action ids from ids and times from clock.
func New(store *eventstore.Store, tokens Tokens, ad Adapters, clock kernel.Clock, ids kernel.IDs, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, tokens: tokens, ad: ad, clock: clock, ids: ids, log: log}
}

// Providers returns the configured adapters, for registration with the
// connections store (their OAuth flows).
func (s *Service) Providers() []connections.Provider {
	var out []connections.Provider
	if s.ad.Chat != nil {
		out = append(out, s.ad.Chat)
	}
	if s.ad.Mail != nil {
		out = append(out, s.ad.Mail)
	}
	if s.ad.Calendar != nil {
		out = append(out, s.ad.Calendar)
	}
	if s.ad.Issues != nil {
		out = append(out, s.ad.Issues)
	}
	if s.ad.Notes != nil {
		out = append(out, s.ad.Notes)
	}
	return out
}

// done is what a provider reported about a performed action (also on a
// failure, what is known to exist).
type done struct {
	id, ref, url string
}

// act is one action: what it is, and how it is performed with the
// owner's account.
type act struct {
	kind, action, target string
	label                string
	configured           bool
	do                   func(ctx context.Context, t connections.Tokens, acct connections.Identity) (done, error)
}

// run performs a, records its outcome and returns its id; the error is
// the failure as the API answers it (see Failure).
func (s *Service) run(ctx context.Context, owner string, a act) (string, done, error) {
	if !a.configured {
		return "", done{}, kernel.Unavailable("write-back actions of kind "+a.kind+" are not configured on this server", nil)
	}
	tok, acct, err := s.tokens.Token(ctx, owner, a.kind)
	if err != nil {
		if connections.ClassOf(err) == connections.Unauthorized {
			s.tokens.Report(ctx, owner, a.kind, err)
		}
		if connections.ClassOf(err) != "" {
			return "", done{}, Failure(a.kind, a.label, err)
		}
		return "", done{}, err
	}
	id := s.ids.NewID()
	// Once asked, the provider is not abandoned because the client went
	// away: its answer decides the outcome that is recorded.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ProviderTimeout)
	res, err := a.do(pctx, tok, acct)
	cancel()
	ev := &memory.ActionPerformed{ActionID: id, UserID: owner, Kind: a.kind, Action: a.action, Target: a.target,
		Outcome: memory.OutcomeOK, ResultID: res.id, ResultRef: res.ref, URL: res.url, At: s.clock.Now()}
	if err != nil {
		ev.Outcome = "error"
		if ce := connections.AsCallError(err); ce != nil {
			ev.Outcome, ev.Reason, ev.ProviderStatus = string(ce.Class), ce.Reason, ce.Status
		}
		if ev.Outcome == string(connections.Unauthorized) {
			s.tokens.Report(ctx, owner, a.kind, err)
		}
	}
	s.record(ctx, ev)
	if err != nil {
		if connections.ClassOf(err) != "" {
			err = Failure(a.kind, a.label, err)
		}
		return id, res, err
	}
	return id, res, nil
}

// record appends ev to the owner's actions stream. The action has
// happened (or failed) at the provider whatever the store says, so a
// failed append is logged, not answered: the client must not be told to
// send again what was sent. It is not cut short by the request ending.
func (s *Service) record(ctx context.Context, ev *memory.ActionPerformed) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	stream := eventstore.Stream{Type: memory.ActionsStreamType, ID: memory.ActionsStream(ev.UserID)}
	if _, err := s.store.Append(ctx, stream, eventstore.AnyVersion, ev); err != nil {
		s.log.ErrorContext(ctx, "write-back action not recorded", "action_id", ev.ActionID, "kind", ev.Kind,
			"outcome", ev.Outcome, "error", err)
	}
}
