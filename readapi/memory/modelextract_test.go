package memory_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	cmd "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/projections"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/llm/llmtest"
	"github.com/strata-platform/strata/readapi/memory/memorytest"
)

// startWithModel is start with a model extractor answered by a scripted
// loopback server (llmtest), each memory's extraction bounded by timeout.
func startWithModel(t *testing.T, srv *llmtest.Server, timeout time.Duration) *world {
	t.Helper()
	x, err := llm.New(llm.Config{URL: srv.URL + "/v1", Model: "test-extractor"})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, keys: memorytest.Keys(t)}
	events := append(memory.Events(), projections.Events()...)
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, events, func(e *identitytest.Env) {
		w.mem = memorytest.MountTuned(t, e, w.keys, readmemory.Config{}, func(c *cmd.Config) {
			c.Extractor, c.ExtractTimeout = x, timeout
		})
		w.svc = w.mem.Service()
	})
	return w
}

// entityNames lists u's entities as "name/type".
func (w *world) entityNames(u *user) []string {
	w.t.Helper()
	var out []string
	for _, e := range w.must(u, http.StatusOK, "GET", base+"/entities", nil)["entities"].([]any) {
		m := e.(map[string]any)
		out = append(out, fmt.Sprintf("%s/%s", m["name"], m["entity_type"]))
	}
	return out
}

// The model's answers, by memory text. The offline extractor reads no
// place from a parenthesis, so "lives_in Porto" can only come from the
// model; the rest of the answer is what the check must drop.
const inesText = "Ines (Porto office) joined the standup late again."

var inesAnswer = `{"entities":[{"name":"Ines","kind":"person"},{"name":"Porto","kind":"concept"},` +
	`{"name":"OpenAI","kind":"org"},{"name":"standup","kind":"meeting"}],` +
	`"relations":[{"subject":"Ines","predicate":"lives_in","object":"Porto"},` +
	`{"subject":"Ines","predicate":"commutes_from","object":"Porto"},` +
	`{"subject":"Ines","predicate":"works_at","object":"Globex"}],"ended":[]}`

func script(answers map[string]string) llmtest.Script {
	return func(_, user string) (string, bool) {
		a, ok := answers[user]
		return a, ok
	}
}

// With a model extractor, a fact only the model found lands in the graph;
// what the text does not support (an unknown predicate or kind, a name the
// text does not hold) does not.
func TestTheModelsFactsJoinTheGraphAndItsInventionsDoNot(t *testing.T) {
	srv := llmtest.Start(t)
	srv.SetScript(script(map[string]string{inesText: inesAnswer}))
	w := startWithModel(t, srv, 5*time.Second)
	u := w.register("Ada")
	w.remember(u, inesText, map[string]any{"occurred_at": "2025-03-01T09:00:00Z"})
	if format, _ := srv.LastFormat(); !strings.Contains(format, `"json_schema"`) || !strings.Contains(format, `"strict":true`) {
		t.Fatalf("the extraction request carried response_format %s", format)
	}
	edges := w.edges(u, "Ines", "lives_in")
	if len(edges) != 1 || edges[0]["object"] != "Porto" || edges[0]["status"] != "current" {
		t.Fatalf("Ines lives_in = %v, want Porto from the model", edges)
	}
	for _, e := range w.must(u, http.StatusOK, "GET", base+"/entities/Ines/timeline", nil)["edges"].([]any) {
		if p := e.(map[string]any)["predicate"]; p != "lives_in" {
			t.Errorf("an edge the check should have dropped: %v", e)
		}
	}
	names := strings.Join(w.entityNames(u), ", ")
	if !strings.Contains(names, "Ines/person") || !strings.Contains(names, "Porto/concept") ||
		strings.Contains(names, "OpenAI") || strings.Contains(names, "Globex") || strings.Contains(names, "standup") {
		t.Fatalf("entities = %s", names)
	}
}

// A model that is down, slow or unscripted never fails a write: the
// offline extractor's facts are recorded.
func TestAWriteSucceedsWithOfflineFactsWhenTheModelFails(t *testing.T) {
	srv := llmtest.Start(t)
	srv.SetScript(script(map[string]string{inesText: inesAnswer}))
	w := startWithModel(t, srv, 300*time.Millisecond)
	u := w.register("Ada")

	srv.Fail.Store(true)
	w.remember(u, "Tom Becker left Microsoft in March and joined Anthropic.", map[string]any{"occurred_at": "2025-03-01T09:00:00Z"})
	if e := w.edges(u, "Tom Becker", "works_at"); len(e) != 1 || e[0]["object"] != "Anthropic" {
		t.Fatalf("during an outage Tom Becker works_at = %v, want the offline fact", e)
	}
	srv.Fail.Store(false)

	srv.Delay.Store(int64(10 * time.Second))
	begin := time.Now()
	w.remember(u, "Hannah Schmidt works for Siemens in Munich.", nil)
	if took := time.Since(begin); took > 5*time.Second {
		t.Fatalf("a slow model held the write for %v", took)
	}
	srv.Delay.Store(0)
	if e := w.edges(u, "Hannah Schmidt", "works_at"); len(e) != 1 || e[0]["object"] != "Siemens" {
		t.Fatalf("with a slow model Hannah Schmidt works_at = %v, want the offline fact", e)
	}

	// An answer that is not the schema's JSON is a failure too.
	srv.SetScript(script(map[string]string{inesText: "Sure! Ines lives in Porto."}))
	w.remember(u, inesText, nil)
	if e := w.edges(u, "Ines", "lives_in"); len(e) != 0 {
		t.Fatalf("a prose answer gave edges %v", e)
	}
}

// The model is asked before the user's lock is taken: a write whose model
// call hangs does not hold up the user's next write.
func TestTheModelIsAskedOutsideTheUsersLock(t *testing.T) {
	srv := llmtest.Start(t)
	release := make(chan struct{})
	srv.SetScript(func(_, user string) (string, bool) {
		if user == inesText {
			<-release
			return inesAnswer, true
		}
		return "", false
	})
	w := startWithModel(t, srv, 20*time.Second)
	u := w.register("Ada")
	done := make(chan error, 1)
	go func() {
		r := w.do(u, "POST", base+"/remember", map[string]any{"content": inesText})
		if r.status != http.StatusOK {
			done <- fmt.Errorf("status %d: %s", r.status, r.raw)
			return
		}
		done <- nil
	}()
	for deadline := time.Now().Add(5 * time.Second); srv.Requests() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the model was never asked")
		}
	}
	begin := time.Now()
	w.remember(u, "Hannah Schmidt works for Siemens in Munich.", nil) // unscripted: offline facts
	if took := time.Since(begin); took > 5*time.Second {
		t.Fatalf("the second write waited %v for the first one's model call", took)
	}
	select {
	case err := <-done:
		t.Fatalf("the first write finished before its model answered: %v", err)
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if e := w.edges(u, "Ines", "lives_in"); len(e) != 1 || e[0]["object"] != "Porto" {
		t.Fatalf("Ines lives_in = %v", e)
	}
}

// Transcripts go the same way: each statement kept is extracted by the
// model too.
func TestProcessAsksTheModelForEachStatement(t *testing.T) {
	srv := llmtest.Start(t)
	srv.SetScript(script(map[string]string{inesText: inesAnswer}))
	w := startWithModel(t, srv, 5*time.Second)
	u := w.register("Ada")
	res := w.must(u, http.StatusOK, "POST", base+"/process", map[string]any{"messages": []map[string]string{
		{"role": "user", "content": inesText + " My wife Ana is a nurse."},
		{"role": "assistant", "content": "Noted."},
	}})
	if res["memories_extracted"] != float64(2) {
		t.Fatalf("process = %v", res)
	}
	if e := w.edges(u, "Ines", "lives_in"); len(e) != 1 || e[0]["object"] != "Porto" {
		t.Fatalf("Ines lives_in = %v, want Porto from the model", e)
	}
	if e := w.edges(u, "user", "married_to"); len(e) != 1 || e[0]["object"] != "Ana" {
		t.Fatalf("user married_to = %v, want the offline fact of the unscripted statement", e)
	}
}
