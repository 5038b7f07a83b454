package memory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	idcmd "github.com/strata-platform/strata/commands/identity"
	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/eventstore/shred"
	"github.com/strata-platform/strata/projections"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/memorytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is the platform API with identity and the memory routes on one
// store, its clock pinned (tests move it).
type world struct {
	t    *testing.T
	api  *identitytest.Env
	svc  *cmd.Service
	keys *shred.KeyRing
	mem  *readmemory.API
	n    atomic.Int64
}

func start(t *testing.T) *world {
	t.Helper()
	return startConfig(t, readmemory.Config{})
}

// startWith is start with an embeddings source for recall.
func startWith(t *testing.T, emb readmemory.Embedder) *world {
	t.Helper()
	return startConfig(t, readmemory.Config{Embedder: emb})
}

// startWithWriter is start with a language model writing contexts.
func startWithWriter(t *testing.T, wr readmemory.Writer) *world {
	t.Helper()
	return startConfig(t, readmemory.Config{Writer: wr})
}

// startConfig is start with the optional parts of extra.
func startConfig(t *testing.T, extra readmemory.Config) *world {
	t.Helper()
	w := &world{t: t, keys: memorytest.Keys(t)}
	events := append(memory.Events(), projections.Events()...) // operators' skips are events too
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, events, func(e *identitytest.Env) {
		w.mem = memorytest.MountWith(t, e, w.keys, extra)
		w.svc = w.mem.Service()
	})
	return w
}

// user is a registered platform user calling with a bearer JWT (or, after
// withKey, an API key).
type user struct {
	w      *world
	ID     string
	Email  string
	bearer string
}

// register signs up a new user.
func (w *world) register(name string) *user {
	w.t.Helper()
	n := w.n.Add(1)
	email := fmt.Sprintf("u%d-%d@memory.test", n, time.Now().UnixNano())
	s, err := w.api.Svc.Register(context.Background(), idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: name})
	if err != nil {
		w.t.Fatal(err)
	}
	return &user{w: w, ID: s.User.ID, Email: email, bearer: s.AccessToken}
}

// withKey switches the user to an API key.
func (u *user) withKey() *user {
	u.w.t.Helper()
	k, err := u.w.api.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: u.ID, Name: "memory tests"})
	if err != nil {
		u.w.t.Fatal(err)
	}
	c := *u
	c.bearer = k.Secret
	return &c
}

type reply struct {
	status int
	body   map[string]any
	raw    []byte
	header http.Header
}

// do calls the API as the user (u nil: anonymous).
func (w *world) do(u *user, method, path string, body any) reply {
	w.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, w.api.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, raw: raw, header: resp.Header, body: map[string]any{}}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			w.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	}
	return out
}

// must calls and fails the test unless the status is want.
func (w *world) must(u *user, want int, method, path string, body any) map[string]any {
	w.t.Helper()
	r := w.do(u, method, path, body)
	if r.status != want {
		w.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.raw)
	}
	return r.body
}

// refused checks a 4xx answer names field and rule (problem details).
func (w *world) refused(r reply, status int, field, rule string) {
	w.t.Helper()
	if r.status != status {
		w.t.Fatalf("status %d, want %d: %s", r.status, status, r.raw)
	}
	if field != "" && (r.body["field"] != field || r.body["rule"] != rule) {
		w.t.Fatalf("field %v rule %v, want %s %s: %s", r.body["field"], r.body["rule"], field, rule, r.raw)
	}
}

const base = readmemory.Base

// remember stores content for u with extra fields and returns the answer.
func (w *world) remember(u *user, content string, fields map[string]any) map[string]any {
	w.t.Helper()
	body := map[string]any{"content": content}
	for k, v := range fields {
		body[k] = v
	}
	return w.must(u, http.StatusOK, "POST", base+"/remember", body)
}

// recall returns the memory ids recalled for query, best first.
func (w *world) recall(u *user, query string, fields map[string]any) []string {
	w.t.Helper()
	body := map[string]any{"query": query}
	for k, v := range fields {
		body[k] = v
	}
	res := w.must(u, http.StatusOK, "POST", base+"/recall", body)
	var ids []string
	for _, r := range res["results"].([]any) {
		ids = append(ids, r.(map[string]any)["memory_id"].(string))
	}
	return ids
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
