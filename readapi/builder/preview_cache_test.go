package builder_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-platform/strata/commands/blobs"
	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/readapi"
	readbuilder "github.com/strata-platform/strata/readapi/builder"
	"github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// With a wake signal (as strata serve wires it), the preview keeps a
// chat's fold in memory: a commit, once signalled, makes the next request
// read the chat again; without a signal the fold is kept for at most
// PollEvery. The signal is fired by hand here, so that the test sees both.
func TestPreviewKeepsTheChatUntilACommitIsSignalled(t *testing.T) {
	env := identitytest.StartWithEvents(t, identity.Options{}, builder.Events(), func(*identitytest.Env) {})
	logger := slog.New(slog.DiscardHandler)
	js, err := jobs.New(env.DB, jobs.Config{PollInterval: 20 * time.Millisecond, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	chats, err := cmdbuilder.NewChats(cmdbuilder.ChatsConfig{Store: env.Store, Blobs: blobs.NewLocal(t.TempDir()), Jobs: js,
		Clock: env.Clock, IDs: eventstore.NewULIDs(env.Clock), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := js.Start(ctx); err != nil {
		t.Fatal(err)
	}
	surface, err := readapi.NewSurface("builder", readapi.Deps{Logger: logger, Registry: prometheus.NewRegistry(),
		Health: readiness{}, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(surface.Handler)
	sig := projections.NewSignal()
	const pollEvery = 2 * time.Second
	readbuilder.ChatRoutes(surface.Router, readbuilder.NewChat(readbuilder.ChatConfig{Chats: chats, Store: env.Store,
		Wake: sig.Wait, PollEvery: pollEvery, BaseURL: srv.URL}))
	t.Cleanup(func() {
		srv.Close()
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = js.Stop(sctx)
		cancel()
	})
	c := &chatWorld{t: t, url: srv.URL, store: env.Store, chats: chats}
	// The generations' streams wake on the signal: fire it while they run.
	firing := func() (stop func()) {
		done, wg := make(chan struct{}), sync.WaitGroup{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				case <-time.After(5 * time.Millisecond):
					sig.Fire()
				}
			}
		}()
		return func() { close(done); wg.Wait(); sig.Fire() }
	}
	stop := firing()
	one := read(t, c.post(`{"message":"online store for vintage sneakers"}`, "").Body, -1)
	chatID := one[0].Data["chatId"].(string)
	read(t, c.post(`{"message":"track my running workouts","chatId":"`+chatID+`"}`, "").Body, -1)
	stop()
	preview := func() []byte {
		t.Helper()
		r, body := get(t, c.url+"/api/preview/"+chatID+"/")
		if r.StatusCode != 200 {
			t.Fatalf("preview: %d %s", r.StatusCode, body)
		}
		return body
	}
	loaded := time.Now()
	two := preview() // version 2 (running workouts), now kept
	if status, out := postJSON(t, c.url+"/api/build/versions/restore", `{"chatId":"`+chatID+`","version":"1"}`); status != 200 {
		t.Fatalf("restore: %d %v", status, out)
	}
	if got := preview(); time.Since(loaded) < pollEvery && !bytes.Equal(got, two) {
		t.Fatal("the preview read the chat again although no commit was signalled")
	}
	sig.Fire()
	restored := preview()
	if bytes.Equal(restored, two) {
		t.Fatal("the preview still serves version 2 after the restore's commit was signalled")
	}
	// Without a signal, a kept fold lasts PollEvery at most.
	if status, out := postJSON(t, c.url+"/api/build/versions/restore", `{"chatId":"`+chatID+`","version":"2"}`); status != 200 {
		t.Fatalf("restore: %d %v", status, out)
	}
	time.Sleep(pollEvery + 100*time.Millisecond)
	if got := preview(); !bytes.Equal(got, two) { // the aged entry is read again
		t.Fatalf("after PollEvery without a signal the preview still serves the restored version 1:\n%.300s", got)
	}
}
