package builder_test

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// builderEvents is every builder event once: builder.Events() and the chat
// and secret events, whether or not Events() already lists them.
func builderEvents() []func() kernel.Event {
	seen := map[string]bool{}
	var out []func() kernel.Event
	for _, list := range [][]func() kernel.Event{builder.Events(), builder.ChatEvents(), builder.SecretEvents()} {
		for _, c := range list {
			if name := c().EventType(); !seen[name] {
				seen[name] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// secretsEnv is a store, the chat commands (for ownership) and the secrets
// commands on a fresh database.
type secretsEnv struct {
	t        *testing.T
	db       *stdsql.DB
	store    *eventstore.Store
	clock    *kernel.FixedClock
	chats    *cmd.Chats
	secrets  *cmd.Secrets
	wrapping []byte
	deployed *deployState
}

// deployState stands for the deploy side: the revision of the last
// successful deploy of each company.
type deployState struct{ revs map[string]int64 }

func (d *deployState) hook(_ context.Context, companyID string) (int64, bool, error) {
	rev, ok := d.revs[companyID]
	return rev, ok, nil
}

func newSecretsEnv(t *testing.T) *secretsEnv {
	t.Helper()
	db := pgtest.DB(t)
	reg := eventstore.NewRegistry()
	for _, c := range builderEvents() {
		if err := reg.Register(eventstore.EventDef{Name: c().EventType(), Version: 1, New: c}); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.Seal(); err != nil {
		t.Fatal(err)
	}
	clock := kernel.NewFixedClock(time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC))
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	js, err := jobs.New(db.SQL, jobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	chats, err := cmd.NewChats(cmd.ChatsConfig{Store: store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js, Clock: clock,
		IDs: eventstore.NewULIDs(clock)})
	if err != nil {
		t.Fatal(err)
	}
	e := &secretsEnv{t: t, db: db.SQL, store: store, clock: clock, chats: chats, wrapping: bytes.Repeat([]byte{3}, 32),
		deployed: &deployState{revs: map[string]int64{}}}
	e.secrets = e.newSecrets(e.wrapping, e.deployed.hook)
	return e
}

// newSecrets is another process's secrets commands on the same database.
func (e *secretsEnv) newSecrets(wrapping []byte, deployed func(context.Context, string) (int64, bool, error)) *cmd.Secrets {
	e.t.Helper()
	return e.secretsWith(cmd.SecretsConfig{WrappingKey: wrapping, DeployedRevision: deployed})
}

// secretsWith is secrets commands with cfg, on the env's store, chats and
// clock.
func (e *secretsEnv) secretsWith(cfg cmd.SecretsConfig) *cmd.Secrets {
	e.t.Helper()
	cfg.Store, cfg.Chats, cfg.Clock = e.store, e.chats, e.clock
	s, err := cmd.NewSecrets(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// company records a chat started by founder ("" for an anonymous one),
// the way a generation's start event does.
func (e *secretsEnv) company(id, founder string) string {
	e.t.Helper()
	ev := &builder.GenerationStarted{ChatID: id, GenerationID: "gen_" + id[5:], Message: "an app", Generator: builder.GeneratorTemplate,
		FounderID: founder, At: e.clock.Now()}
	if _, err := e.store.Append(context.Background(), eventstore.Stream{Type: builder.StreamChat, ID: id}, eventstore.NoStream, ev); err != nil {
		e.t.Fatal(err)
	}
	return id
}

func (e *secretsEnv) set(founder, company, name, value string) cmd.SecretInfo {
	e.t.Helper()
	got, err := e.secrets.Set(context.Background(), founder, company, name, value)
	if err != nil {
		e.t.Fatalf("set %s: %v", name, err)
	}
	return got
}

func (e *secretsEnv) list(founder, company string) cmd.SecretList {
	e.t.Helper()
	l, err := e.secrets.List(context.Background(), founder, company)
	if err != nil {
		e.t.Fatalf("list: %v", err)
	}
	return l
}

// fieldRule is the kind, field and rule of a kernel error.
func fieldRule(err error) (kernel.Kind, string, string) {
	var ke *kernel.Error
	if !errors.As(err, &ke) {
		return kernel.KindOf(err), "", ""
	}
	return ke.Kind, ke.Field, ke.Rule
}
