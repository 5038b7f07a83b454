package actions_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The access tokens the fakes accept (distinctive, to grep for).
const (
	slackToken  = "xoxp-secret-slack-token-1"
	googleToken = "ya29.secret-google-token-1"
	githubToken = "gho_secretgithubtoken1"
	notionToken = "ntn_secretnotiontoken1"
	owner       = "user-ana"
	mailbox     = "ana@acme.test"
)

// fakeTokens is a Tokens over a map, recording reports.
type fakeTokens struct {
	mu      sync.Mutex
	tokens  map[string]connections.Tokens
	ids     map[string]connections.Identity
	reports []string
}

func (f *fakeTokens) connect(owner, provider, token string, id connections.Identity) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens[owner+"/"+provider] = connections.Tokens{AccessToken: token, TokenType: "Bearer"}
	f.ids[owner+"/"+provider] = id
}

func (f *fakeTokens) Token(_ context.Context, owner, provider string) (connections.Tokens, connections.Identity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.tokens[owner+"/"+provider]
	if !ok {
		return connections.Tokens{}, connections.Identity{}, actions.NotConnected(provider)
	}
	return t, f.ids[owner+"/"+provider], nil
}

func (f *fakeTokens) Report(_ context.Context, owner, provider string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reports = append(f.reports, owner+"/"+provider+" "+string(connections.ClassOf(err)))
}

func (f *fakeTokens) reported() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reports...)
}

// env is the service over a real store with every provider faked.
type env struct {
	svc    *actions.Service
	store  *eventstore.Store
	tokens *fakeTokens
	slack  *actiontest.Slack
	google *actiontest.Google
	github *actiontest.GitHub
	notion *actiontest.Notion
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range memory.Events() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC))
	e := &env{store: eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock)),
		tokens: &fakeTokens{tokens: map[string]connections.Tokens{}, ids: map[string]connections.Identity{}},
		slack:  actiontest.NewSlack(t, slackToken), google: actiontest.NewGoogle(t, googleToken, mailbox),
		github: actiontest.NewGitHub(t, githubToken, "acme/web"), notion: actiontest.NewNotion(t, notionToken)}
	d := http.DefaultClient
	e.svc = actions.New(e.store, e.tokens, actions.Adapters{
		Chat:     actions.NewChat(e.slack.Settings(), d),
		Mail:     actions.NewMail(e.google.Settings(), d),
		Calendar: actions.NewCalendar(e.google.Settings(), d),
		Issues:   actions.NewIssues(e.github.Settings(), d),
		Notes:    actions.NewNotes(e.notion.Settings(), d),
	}, clock, eventstore.NewULIDs(clock), nil)
	e.tokens.connect(owner, actions.ProviderChat, slackToken, connections.Identity{ID: "U0ANA"})
	e.tokens.connect(owner, actions.ProviderMail, googleToken, connections.Identity{ID: mailbox, Handle: mailbox})
	e.tokens.connect(owner, actions.ProviderCalendar, googleToken, connections.Identity{ID: "1100", Handle: mailbox})
	e.tokens.connect(owner, actions.ProviderIssues, githubToken, connections.Identity{ID: "583231", Handle: "@ana"})
	e.tokens.connect(owner, actions.ProviderNotes, notionToken, connections.Identity{ID: "a1a1"})
	return e
}

// recorded returns the owner's recorded actions.
func (e *env) recorded(t *testing.T, user string) []*memory.ActionPerformed {
	t.Helper()
	envs, err := e.store.Load(context.Background(), memory.ActionsStream(user), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*memory.ActionPerformed
	for _, en := range envs {
		out = append(out, en.Event.(*memory.ActionPerformed))
	}
	return out
}

// payloads is every stored event's payload and metadata, as text.
func (e *env) payloads(t *testing.T) string {
	t.Helper()
	rows, err := e.store.DB().Query(`SELECT payload::text || metadata::text FROM es.events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		b.WriteString(s + "\n")
	}
	return b.String()
}

// noTokens fails the test when a stored event holds one of the tokens.
func (e *env) noTokens(t *testing.T) {
	t.Helper()
	all := e.payloads(t)
	for _, tok := range []string{slackToken, googleToken, githubToken, notionToken, actiontest.Refresh} {
		if strings.Contains(all, tok) {
			t.Fatalf("a stored event holds a token: %s", all)
		}
	}
}

// kindOf checks err is a kernel error of kind with code, and returns it.
func kindOf(t *testing.T, err error, kind kernel.Kind, code string) *kernel.Error {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kind || (code != "" && ke.Code != code) {
		t.Fatalf("error %v: want kind %s code %q", err, kind, code)
	}
	return ke
}

// invalid checks err is invalid input naming field and rule.
func invalid(t *testing.T, err error, field, rule string) {
	t.Helper()
	ke := kindOf(t, err, kernel.KindInvalid, "")
	if ke.Field != field || ke.Rule != rule {
		t.Fatalf("field %s rule %s, want %s %s (%v)", ke.Field, ke.Rule, field, rule, err)
	}
}
