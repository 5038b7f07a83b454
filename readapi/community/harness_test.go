package community_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/community"
	idcmd "github.com/strata-platform/strata/commands/identity"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/identity"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/pgtest"
	"github.com/strata-platform/strata/projections"
	"github.com/strata-platform/strata/projections/accounts"
	projcommunity "github.com/strata-platform/strata/projections/community"
	readcommunity "github.com/strata-platform/strata/readapi/community"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is the platform API with identity and the community routes on one
// store, its clock pinned (tests move it).
type world struct {
	t   *testing.T
	api *identitytest.Env
	svc *cmd.Service
	n   atomic.Int64
}

func start(t *testing.T) *world {
	t.Helper()
	w := &world{t: t}
	api := identitytest.StartWithEvents(t, readidentity.Options{}, community.Events(), func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		runner, err := projections.NewRunner(e.DB, e.Reg, projections.NewSignal(), logger,
			projections.Config{PollInterval: 5 * time.Millisecond}, projcommunity.Projector{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); runner.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		wait := func(ctx context.Context, key eventstore.Key) error {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			return runner.WaitFor(wctx, key, projcommunity.Name)
		}
		w.svc = cmd.New(e.Store, e.Clock, logger, cmd.Config{Wait: wait})
		readcommunity.Routes(e.Router, readcommunity.Config{Service: w.svc, DB: e.DB, Auth: e.Auth,
			People: people{e.Svc.Directory()}, BaseURL: e.URL})
	})
	w.api = api
	return w
}

// people is the production adapter's logic over the test's directory.
type people struct{ dir *accounts.Directory }

func (p people) Profile(userID string) (string, string, bool) {
	u, ok := p.dir.User(userID)
	return u.FullName, p.dir.Picture(userID), ok
}

func (p people) Administers(tenant, userID string) bool {
	if u, ok := p.dir.User(userID); ok && u.Role == identity.RoleAdmin {
		return true
	}
	return identity.CanManageMembers(p.dir.Role(tenant, userID))
}

// user is a registered platform user calling with a bearer JWT (or, after
// withKey, an API key).
type user struct {
	w     *world
	ID    string
	Email string
	Org   string
	// Project is a project of Org, where the user's API keys go.
	Project string
	bearer  string
}

// register signs up a new user in a workspace of their own.
func (w *world) register(name string) *user {
	w.t.Helper()
	n := w.n.Add(1)
	email := fmt.Sprintf("u%d-%d@community.test", n, time.Now().UnixNano())
	s, err := w.api.Svc.Register(context.Background(), idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: name})
	if err != nil {
		w.t.Fatal(err)
	}
	return &user{w: w, ID: s.User.ID, Email: email, Org: s.User.OrganizationID, Project: s.User.ProjectID, bearer: s.AccessToken}
}

// member registers a user and adds them to owner's organization; the user
// then acts there through X-Organization-ID.
func (w *world) member(owner *user, name string) *user {
	w.t.Helper()
	u := w.register(name)
	if _, err := w.api.Svc.AddMember(context.Background(), owner.ID, owner.Org, u.Email, identity.OrgMember); err != nil {
		w.t.Fatal(err)
	}
	u.Org, u.Project = owner.Org, owner.Project
	return u
}

// withKey switches the user to an API key of their organization.
func (u *user) withKey() *user {
	u.w.t.Helper()
	k, err := u.w.api.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: u.ID, Name: "community tests", OrganizationID: u.Org,
		ProjectID: u.Project})
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
		req.Header.Set("X-Organization-ID", u.Org)
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

// at is a time relative to the world's clock, as the API writes it.
func (w *world) at(d time.Duration) string {
	return w.api.Clock.Now().Add(d).UTC().Truncate(time.Second).Format(time.RFC3339)
}

// event creates an event as u with extra fields over a default title and
// a start a day ahead; it returns the event.
func (w *world) event(u *user, fields map[string]any) map[string]any {
	w.t.Helper()
	body := map[string]any{"title": "Meetup", "start_time": w.at(24 * time.Hour)}
	for k, v := range fields {
		body[k] = v
	}
	return w.must(u, http.StatusCreated, "POST", "/api/v1/community-events/", body)
}

const base = "/api/v1/community-events"
