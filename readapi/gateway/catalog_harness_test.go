package gateway_test

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

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	idcmd "github.com/strata-platform/strata/commands/identity"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/plans"
	"github.com/strata-platform/strata/eventstore/pgtest"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// world is the platform API with identity, plans and the catalog routes on
// one store (the built-in catalog imported), its clock pinned.
type world struct {
	t       *testing.T
	api     *identitytest.Env
	view    *projgateway.CatalogView
	catalog *cmdgateway.Catalog
	plans   *cmdplans.Service
	n       atomic.Int64
}

func start(t *testing.T) *world {
	t.Helper()
	w := &world{t: t}
	events := append(plans.Events(), catalog.Events()...)
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, events, func(e *identitytest.Env) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		w.view = projgateway.NewCatalogView(e.Store, logger)
		w.catalog = cmdgateway.NewCatalog(e.Store, e.Clock, w.view.Sync)
		if _, err := w.catalog.ImportBuiltin(context.Background()); err != nil {
			t.Fatal(err)
		}
		w.plans = cmdplans.New(e.Store, e.Clock, e.Svc.Directory().Sync)
		readgateway.Routes(e.Router, readgateway.Config{Catalog: readgateway.NewCatalog(readgateway.CatalogConfig{
			View: w.view, Auth: e.Auth, Plans: e.Svc.Directory()})})
	})
	return w
}

// user is a registered platform user with an API key.
type user struct {
	ID     string
	Key    string
	Bearer string
}

func (w *world) register() user {
	w.t.Helper()
	email := fmt.Sprintf("u%d-%d@gateway.test", w.n.Add(1), time.Now().UnixNano())
	s, err := w.api.Svc.Register(context.Background(), idcmd.Register{Email: email, Password: "Correct-horse-battery-9!", FullName: "G"})
	if err != nil {
		w.t.Fatal(err)
	}
	k, err := w.api.Svc.IssueKey(context.Background(), idcmd.IssueKey{UserID: s.User.ID, Name: "gateway tests"})
	if err != nil {
		w.t.Fatal(err)
	}
	return user{ID: s.User.ID, Key: k.Secret, Bearer: s.AccessToken}
}

// setPlan puts u on plan in line through the plans service (the one way
// any plan changes), as `strata users set-plan` does.
func (w *world) setPlan(u user, line, plan string) {
	w.t.Helper()
	if _, err := w.plans.Change(context.Background(), plans.Change{AccountID: u.ID, Line: line, Plan: plan,
		Source: plans.SourceOperator}); err != nil {
		w.t.Fatal(err)
	}
}

type reply struct {
	status int
	body   map[string]any
	raw    []byte
	header http.Header
}

// call sends a request with headers (name, value pairs) and body.
func (w *world) call(method, path string, body any, headers ...string) reply {
	w.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, w.api.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
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

// ids lists the ids of a listing's models (or routers).
func ids(body map[string]any, member string) []string {
	var out []string
	list, _ := body[member].([]any)
	for _, m := range list {
		out = append(out, m.(map[string]any)["id"].(string))
	}
	return out
}

// upsert changes the catalog through its command, a minute later.
func (w *world) upsert(m catalog.Model) {
	w.t.Helper()
	w.api.Clock.Advance(time.Minute)
	if _, changed, err := w.catalog.Upsert(context.Background(), m); err != nil || !changed {
		w.t.Fatalf("upsert %s: changed %v, %v", m.ID, changed, err)
	}
}

// refused checks a problem-details refusal: status, field, rule.
func (w *world) refused(r reply, status int, field, rule string) {
	w.t.Helper()
	if r.status != status || r.body["field"] != field || r.body["rule"] != rule {
		w.t.Fatalf("got %d %s, want %d field %s rule %s", r.status, r.raw, status, field, rule)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		w.t.Fatalf("content type %q", ct)
	}
}
