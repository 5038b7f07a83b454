package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	cmdidentity "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
)

// builderNightlyWiring registers every builder event (the production
// wiring's builder.Events() plus the systems' and the nightly loop's,
// until builder.Events() lists them).
func builderNightlyWiring() Wiring {
	w := productionWiring
	w.Events = func(reg *eventstore.Registry) error {
		seen := map[string]bool{}
		for _, list := range [][]func() kernel.Event{builder.Events(), builder.SystemsEvents(), builder.NightlyEvents(), projections.Events()} {
			for _, c := range list {
				if name := c().EventType(); !seen[name] {
					seen[name] = true
					if err := registerAll(reg, []func() kernel.Event{c}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return w
}

// `strata builder nightly` runs an enrolled company's loop on demand and
// prints its offline report; --json prints the report event; without
// --company every enrolled company runs.
func TestBuilderNightlyCommand(t *testing.T) {
	t.Parallel()
	db := pgtest.DB(t)
	ctx := context.Background()
	env := map[string]string{"DATABASE_URL": db.URL, "STRATA_DATA_DIR": t.TempDir(), "STRATA_LOG_LEVEL": "error",
		"STRATA_MASTER_KEY": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="}
	cfg, err := loadConfig(env)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	c := &command{cfg: cfg, stdout: &out, stderr: &errb, wiring: builderNightlyWiring(), logger: slog.New(slog.DiscardHandler)}

	// A company with a founder, enrolled through the commands.
	reg, err := c.wiring.registry()
	if err != nil {
		t.Fatal(err)
	}
	clock := kernel.SystemClock{}
	store := eventstore.New(db.SQL, reg, clock, eventstore.NewULIDs(clock))
	id := "chat_01JCLITESTCOMPANY0000000000"
	if _, err := store.Append(ctx, eventstore.Stream{Type: builder.StreamChat, ID: id}, eventstore.NoStream, &builder.GenerationStarted{
		ChatID: id, GenerationID: "gen_1", Message: "a crm for florists", Generator: builder.GeneratorTemplate, FounderID: "u1", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	js, _ := jobs.New(db.SQL, jobs.Config{})
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js, Clock: clock,
		IDs: eventstore.NewULIDs(clock)})
	if err != nil {
		t.Fatal(err)
	}
	master, err := cmdidentity.LoadMasterKey(cfg.MasterKey, "")
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := shred.New(master.Derive("subject keys"), 0)
	_, nightly, err := newBuilderSystems(builderSystemsDeps{Store: store, Chats: chats, Keys: keys, Master: master, BaseURL: "http://b",
		Clock: clock, IDs: eventstore.NewULIDs(clock)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nightly.Enroll(ctx, "u1", id, builder.EnrollInput{CompanyName: "Petal", Track: builder.TrackCompany}); err != nil {
		t.Fatal(err)
	}

	if err := c.builderNightly(ctx, []string{"--company", id}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{id, "manual run, offline", "systems:   crm 0 (0 open), billing 0 (0 open), support 0 (0 open)",
		"artifacts: none recorded", "deploy:    no version yet", "spent:     0 tokens, 0 drafts", "No model is configured"} {
		if !strings.Contains(text, want) {
			t.Fatalf("want %q in\n%s", want, text)
		}
	}
	out.Reset()
	if err := c.builderNightly(ctx, []string{"--json"}); err != nil {
		t.Fatal(err)
	}
	var rep builder.NightlyReported
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.CompanyID != id || rep.Trigger != builder.NightlyManual || rep.Mode != builder.NightlyOffline {
		t.Fatalf("json %s: %v", out.String(), err)
	}
	st, err := nightly.Load(ctx, id)
	if err != nil || len(st.Reports) != 2 {
		t.Fatalf("%d reports recorded (%v)", len(st.Reports), err)
	}
	if err := c.builderNightly(ctx, []string{"--company", "chat_01JCLITESTOTHER000000000000"}); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("a company not enrolled: %v", err)
	}
	if err := c.builderNightly(ctx, []string{"extra"}); !errors.Is(err, errUsage) {
		t.Fatalf("usage: %v", err)
	}
	if err := c.builderCmd(ctx, []string{"daily"}); !errors.Is(err, errUsage) {
		t.Fatalf("usage: %v", err)
	}
}
