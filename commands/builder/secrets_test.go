package builder_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/builder/runtime"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore/shred"
)

const (
	ada   = "user-ada"
	grace = "user-grace"
)

// Add, edit, delete and re-add: versions count up (never repeating after a
// delete), the list is sorted and masked, Values decrypts for the runtime.
func TestSecretsLifecycle(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	co := e.company("chat_AAAAAAAAAA01", ada)
	if l := e.list(ada, co); len(l.Secrets) != 0 || l.PendingRedeploy || l.CompanyID != co {
		t.Fatalf("fresh company: %+v", l)
	}
	if got := e.set(ada, co, "STRIPE_KEY", "sk_live_one"); got.Version != 1 || !got.PendingRedeploy || got.UpdatedBy != ada ||
		!got.UpdatedAt.Equal(e.clock.Now()) {
		t.Fatalf("added: %+v", got)
	}
	if got := e.set(ada, co, "STRIPE_KEY", "sk_live_two"); got.Version != 2 {
		t.Fatalf("edited: %+v", got)
	}
	e.set(ada, co, "API_BASE", "https://example.com")
	l := e.list(ada, co)
	if len(l.Secrets) != 2 || l.Secrets[0].Name != "API_BASE" || l.Secrets[1].Name != "STRIPE_KEY" || l.Secrets[1].Version != 2 {
		t.Fatalf("list %+v", l)
	}
	snap, err := e.secrets.Values(context.Background(), co)
	if err != nil || snap.Values["STRIPE_KEY"] != "sk_live_two" || snap.Values["API_BASE"] != "https://example.com" ||
		snap.Versions["STRIPE_KEY"] != 2 || snap.Revision != 3 || len(snap.Values) != 2 {
		t.Fatalf("values %+v %v", snap.Versions, err)
	}
	del, err := e.secrets.Delete(context.Background(), ada, co, "STRIPE_KEY")
	if err != nil || del.Version != 2 || del.DeletedBy != ada || !del.PendingRedeploy {
		t.Fatalf("delete: %+v %v", del, err)
	}
	if _, err := e.secrets.Delete(context.Background(), ada, co, "STRIPE_KEY"); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("delete again: %v", err)
	}
	if got := e.set(ada, co, "STRIPE_KEY", "sk_live_three"); got.Version != 3 {
		t.Fatalf("re-added: %+v", got)
	}
	snap, err = e.secrets.Values(context.Background(), co)
	if err != nil || snap.Values["STRIPE_KEY"] != "sk_live_three" || snap.Revision != 5 {
		t.Fatalf("values after re-add: %+v %v", snap.Versions, err)
	}
	var rows int
	if err := e.db.QueryRow(`SELECT count(*) FROM platform.builder_secrets WHERE company_id = $1`, co).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("rows %d %v", rows, err)
	}
	// Another process (an empty key cache) reads the same values; one
	// with another master key cannot.
	if snap, err := e.newSecrets(e.wrapping, nil).Values(context.Background(), co); err != nil || snap.Values["STRIPE_KEY"] != "sk_live_three" {
		t.Fatalf("another process: %v", err)
	}
	if _, err := e.newSecrets(bytes.Repeat([]byte{4}, 32), nil).Values(context.Background(), co); err == nil {
		t.Fatal("values opened under another master key")
	}
	if snap, err := e.secrets.Values(context.Background(), "chat_NOSECRETS01"); err != nil || len(snap.Values) != 0 || snap.Revision != 0 {
		t.Fatalf("a company without secrets: %+v %v", snap, err)
	}
}

// pending_redeploy: everything before the first deploy; after a deploy of
// a snapshot, only what changed after it (and the company after a delete).
func TestSecretsPendingRedeploy(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	co := e.company("chat_AAAAAAAAAA02", ada)
	e.set(ada, co, "A", "1")
	e.set(ada, co, "B", "2")
	for _, s := range e.list(ada, co).Secrets {
		if !s.PendingRedeploy {
			t.Fatalf("never deployed, %s not pending", s.Name)
		}
	}
	snap, err := e.secrets.Values(context.Background(), co)
	if err != nil {
		t.Fatal(err)
	}
	e.deployed.revs[co] = snap.Revision // the deploy succeeded with snap
	l := e.list(ada, co)
	if l.PendingRedeploy || l.Secrets[0].PendingRedeploy || l.Secrets[1].PendingRedeploy {
		t.Fatalf("after the deploy: %+v", l)
	}
	if got := e.set(ada, co, "B", "22"); !got.PendingRedeploy {
		t.Fatalf("edit after deploy: %+v", got)
	}
	l = e.list(ada, co)
	if !l.PendingRedeploy || l.Secrets[0].PendingRedeploy || !l.Secrets[1].PendingRedeploy {
		t.Fatalf("after an edit: %+v", l)
	}
	snap, _ = e.secrets.Values(context.Background(), co)
	e.deployed.revs[co] = snap.Revision
	if del, err := e.secrets.Delete(context.Background(), ada, co, "A"); err != nil || !del.PendingRedeploy {
		t.Fatalf("delete after deploy: %+v %v", del, err)
	}
	if l = e.list(ada, co); !l.PendingRedeploy || len(l.Secrets) != 1 || l.Secrets[0].PendingRedeploy {
		t.Fatalf("after a delete: %+v", l)
	}
}

// With a deploy side that keeps times (DeployedAt): a change at or after
// the time the deploy read the secrets is pending.
func TestSecretsPendingByTime(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	var readAt time.Time
	s := e.secretsWith(cmd.SecretsConfig{WrappingKey: e.wrapping, DeployedAt: func(context.Context, string) (time.Time, bool, error) {
		return readAt, !readAt.IsZero(), nil
	}})
	co := e.company("chat_AAAAAAAAAA0A", ada)
	ctx := context.Background()
	if got, err := s.Set(ctx, ada, co, "A", "1"); err != nil || !got.PendingRedeploy {
		t.Fatalf("never deployed: %+v %v", got, err)
	}
	e.clock.Advance(time.Second)
	readAt = e.clock.Now() // a deploy read the secrets
	e.clock.Advance(time.Second)
	if l, err := s.List(ctx, ada, co); err != nil || l.PendingRedeploy || l.Secrets[0].PendingRedeploy {
		t.Fatalf("after the deploy: %+v %v", l, err)
	}
	if got, err := s.Set(ctx, ada, co, "B", "2"); err != nil || !got.PendingRedeploy {
		t.Fatalf("after the deploy: %+v %v", got, err)
	}
	if l, _ := s.List(ctx, ada, co); !l.PendingRedeploy || l.Secrets[0].PendingRedeploy || !l.Secrets[1].PendingRedeploy {
		t.Fatalf("list: %+v", l)
	}
	readAt = e.clock.Now() // same instant as B's change: still pending
	if l, _ := s.List(ctx, ada, co); !l.Secrets[1].PendingRedeploy {
		t.Fatalf("a change at the deploy's instant: %+v", l)
	}
}

// Every route's company goes through Chats.Owned: 400 (field companyId),
// 404, 403 for another founder's company and for an anonymous chat.
func TestSecretsOwnership(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	mine := e.company("chat_AAAAAAAAAA03", ada)
	e.set(ada, mine, "KEY", "v")
	theirs := e.company("chat_AAAAAAAAAA04", grace)
	anon := e.company("chat_AAAAAAAAAA05", "")
	ctx := context.Background()
	ops := map[string]func(company string) error{
		"list":   func(c string) error { _, err := e.secrets.List(ctx, ada, c); return err },
		"set":    func(c string) error { _, err := e.secrets.Set(ctx, ada, c, "KEY", "v"); return err },
		"delete": func(c string) error { _, err := e.secrets.Delete(ctx, ada, c, "KEY"); return err },
	}
	for op, f := range ops {
		for _, c := range []struct {
			company string
			kind    kernel.Kind
			field   string
		}{
			{theirs, kernel.KindForbidden, ""},
			{anon, kernel.KindForbidden, ""},
			{"chat_UNKNOWN0001", kernel.KindNotFound, ""},
			{"", kernel.KindInvalid, "companyId"},
			{"not a chat", kernel.KindInvalid, "companyId"},
		} {
			if kind, field, _ := fieldRule(f(c.company)); kind != c.kind || field != c.field {
				t.Errorf("%s %q: %v %q, want %v %q", op, c.company, kind, field, c.kind, c.field)
			}
		}
	}
	// Nothing was written to the companies the founder does not own.
	for _, c := range []string{theirs, anon} {
		if st, err := e.secrets.Load(ctx, c); err != nil || st.Version != 0 {
			t.Fatalf("%s: %+v %v", c, st, err)
		}
	}
}

func TestSecretsRefuseBadInput(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	co := e.company("chat_AAAAAAAAAA06", ada)
	for _, c := range []struct{ name, value, field, rule string }{
		{"", "v", "name", "required"},
		{"lower", "v", "name", "pattern"},
		{"9LIVES", "v", "name", "pattern"},
		{strings.Repeat("X", 65), "v", "name", "max_length:64"},
		{"PORT", "v", "name", "reserved"},
		{"NODE_OPTIONS", "v", "name", "reserved"},
		{"STRATA_TOKEN", "v", "name", "reserved"},
		{"OK", "", "value", "required"},
		{"OK", strings.Repeat("v", 32<<10+1), "value", "max_bytes:32768"},
		{"OK", "a\xffb", "value", "utf8"},
		{"OK", "a\x00b", "value", "no_nul"},
	} {
		_, err := e.secrets.Set(context.Background(), ada, co, c.name, c.value)
		if kind, field, rule := fieldRule(err); kind != kernel.KindInvalid || field != c.field || rule != c.rule {
			t.Errorf("%q: %v %s %s, want %s %s", c.name, kind, field, rule, c.field, c.rule)
		}
	}
	for i := 0; i < builder.MaxSecrets; i++ {
		e.set(ada, co, fmt.Sprintf("S%03d", i), "v")
	}
	_, err := e.secrets.Set(context.Background(), ada, co, "ONE_MORE", "v")
	if kind, field, rule := fieldRule(err); kind != kernel.KindInvalid || field != "name" || rule != "max_secrets:100" {
		t.Fatalf("the 101st: %v", err)
	}
	if st, _ := e.secrets.Load(context.Background(), co); st.Len() != builder.MaxSecrets || st.Version != builder.MaxSecrets {
		t.Fatalf("refusals wrote something: %d secrets at version %d", st.Len(), st.Version)
	}
}

// Every name the runtime sets itself is reserved for secrets.
func TestRuntimeNamesAreReserved(t *testing.T) {
	t.Parallel()
	for _, n := range []string{runtime.EnvPort, runtime.EnvHost, runtime.EnvDataFile} {
		if !runtime.Reserved(n) || !builder.ReservedSecretName(n) {
			t.Errorf("%s: runtime %v, secrets %v", n, runtime.Reserved(n), builder.ReservedSecretName(n))
		}
	}
	// The base environment of the Process adapter too.
	for _, n := range []string{"PATH", "HOME", "NODE_ENV"} {
		if !builder.ReservedSecretName(n) {
			t.Errorf("%s is not reserved", n)
		}
	}
}

// Writes racing on one company all land (decided again on a conflict);
// writes to one name get distinct versions.
func TestSecretsConcurrentWrites(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	co := e.company("chat_AAAAAAAAAA07", ada)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := e.secrets.Set(context.Background(), ada, co, fmt.Sprintf("NAME_%d", i), "v")
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := e.secrets.Set(context.Background(), ada, co, "SHARED", fmt.Sprintf("v%d", i))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, err := e.secrets.Load(context.Background(), co)
	if err != nil || st.Len() != 5 || st.Version != 8 {
		t.Fatalf("%d secrets at version %d: %v", st.Len(), st.Version, err)
	}
	if s, _ := st.Get("SHARED"); s.Version != 4 {
		t.Fatalf("SHARED at version %d", s.Version)
	}
	snap, err := e.secrets.Values(context.Background(), co)
	if err != nil || snap.Versions["SHARED"] != 4 || !strings.HasPrefix(snap.Values["SHARED"], "v") {
		t.Fatalf("values: %v", err)
	}
}

// The value is nowhere in the event store, the key table or the sealed
// table as text; a sealed value opens only with its own company, name and
// version as additional data, so a row moved or relabelled does not open.
func TestSecretsSealedAndBound(t *testing.T) {
	t.Parallel()
	e := newSecretsEnv(t)
	co := e.company("chat_AAAAAAAAAA08", ada)
	other := e.company("chat_AAAAAAAAAA09", ada)
	const value = "zq-SEALED-7f3e1b-secret-value"
	e.set(ada, co, "TOKEN", value)
	e.set(ada, co, "TOKEN", value) // version 2
	e.set(ada, co, "SECOND", "another value")
	e.set(ada, other, "TOKEN", "other company's value")
	for _, q := range []string{
		`SELECT payload::text || metadata::text || event_type || stream_id FROM es.events`,
		`SELECT key_id || owner || encode(wrapped, 'escape') FROM es.subject_keys`,
		`SELECT company_id || name || version::text || key_id || sealed FROM platform.builder_secrets`,
	} {
		rows, err := e.db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			n++
			if strings.Contains(s, value) || strings.Contains(s, "zq-SEALED") {
				t.Fatalf("%s: a row holds the value: %s", q, s)
			}
		}
		rows.Close()
		if n == 0 {
			t.Fatalf("%s: no rows", q)
		}
	}
	var keyID, sealed string
	if err := e.db.QueryRow(`SELECT key_id, sealed FROM platform.builder_secrets WHERE company_id = $1 AND name = 'TOKEN'`, co).
		Scan(&keyID, &sealed); err != nil {
		t.Fatal(err)
	}
	ring, err := shred.New(e.wrapping, 10)
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.Sealed{Key: keyID, Data: sealed}
	ctx := context.Background()
	if plain, err := ring.OpenWith(ctx, e.db, s, cmd.SecretAD(co, "TOKEN", 2)); err != nil || string(plain) != value {
		t.Fatalf("the right additional data: %v", err)
	}
	for label, ad := range map[string][]byte{
		"another name":    cmd.SecretAD(co, "SECOND", 2),
		"another version": cmd.SecretAD(co, "TOKEN", 1),
		"another company": cmd.SecretAD(other, "TOKEN", 2),
		"none":            nil,
	} {
		if _, err := ring.OpenWith(ctx, e.db, s, ad); err == nil {
			t.Errorf("opened with %s", label)
		}
	}
	if _, err := ring.Open(ctx, e.db, s); err == nil {
		t.Error("opened without additional data")
	}
	// Relabelled rows: the runtime refuses them instead of serving a value
	// under the wrong name, version or company.
	for label, stmt := range map[string]string{
		"copied onto another name": `UPDATE platform.builder_secrets SET sealed = (SELECT sealed FROM platform.builder_secrets
			WHERE company_id = $1 AND name = 'TOKEN') WHERE company_id = $1 AND name = 'SECOND'`,
		"copied onto another company": `UPDATE platform.builder_secrets o SET (key_id, sealed, version) = (SELECT key_id, sealed, 1
			FROM platform.builder_secrets WHERE company_id = $1 AND name = 'TOKEN') WHERE o.company_id = '` + other + `'`,
	} {
		tx, err := e.db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(stmt, co); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		target := co
		if strings.Contains(label, "company") {
			target = other
		}
		if _, err := e.newSecrets(e.wrapping, nil).Values(ctx, target); err == nil {
			t.Errorf("%s: Values served it", label)
		}
	}
}
