package gateway_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/auth"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
)

// recorder is a ChatCredits that refuses when told and keeps what the
// routes record.
type recorder struct {
	mu      sync.Mutex
	refuse  bool
	admits  int
	records map[string][]readgateway.ChatUsage
}

func (c *recorder) Admit(_ context.Context, p auth.Principal, m catalog.Model, id string) (func(readgateway.ChatUsage), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.admits++
	if c.refuse {
		return nil, kernel.E(kernel.KindPaymentRequired, "no credits left")
	}
	return func(u readgateway.ChatUsage) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.records[id] = append(c.records[id], u)
	}, nil
}

func (c *recorder) all() []readgateway.ChatUsage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []readgateway.ChatUsage
	for id, us := range c.records {
		if len(us) != 1 || us[0].RequestID != id {
			panic("recorded " + id + " other than once")
		}
		out = append(out, us[0])
	}
	return out
}

// wait returns the records once there are n (failing after 5 s).
func (c *recorder) wait(t *testing.T, n int) []readgateway.ChatUsage {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := c.all()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d records, want %d", len(got), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The credits hook: a refusal comes before any upstream call, in the
// client's format; every admitted request records its usage exactly once,
// streamed or not (the same usage), cut off midway (what was delivered)
// or abandoned by its client.
func TestChatCreditsHook(t *testing.T) {
	rec := &recorder{records: map[string][]readgateway.ChatUsage{}}
	c := startChatWith(t, cmdgateway.FormatMessages, true, rec)

	rec.refuse = true
	if r := c.viaAnthropic(t, userSays("hi"), false); r.status != http.StatusPaymentRequired || r.errType != "billing_error" {
		t.Fatalf("%+v", r)
	}
	if r := c.viaOpenAI(t, userSays("hi"), true, "/v1/"); r.status != http.StatusPaymentRequired || r.errType != "insufficient_quota" {
		t.Fatalf("%+v", r)
	}
	if len(c.dev.Requests()) != 0 || len(rec.all()) != 0 {
		t.Fatal("a refused request reached the upstream or was recorded")
	}
	rec.refuse = false

	c.viaAnthropic(t, userSays("Hello, world!"), false)
	c.viaOpenAI(t, userSays("Hello, world!"), true, "/v1/")
	c.viaOpenAI(t, userSays("[[tokens:20]] [[cut:after=5]]"), true, "/v1/")
	got := rec.wait(t, 3) // a failed or cut request is recorded when its handler ends, maybe after its client read it
	var plain, cut []readgateway.ChatUsage
	for _, u := range got {
		if u.Estimated {
			cut = append(cut, u)
		} else {
			plain = append(plain, u)
		}
	}
	if len(plain) != 2 || plain[0].Usage != plain[1].Usage || plain[0].Usage.OutputTokens != 7 || plain[0].Model != "strata-dev-frontier" ||
		plain[0].Upstream != "dev" || plain[0].Status != 200 {
		t.Fatalf("%+v", plain)
	}
	if len(cut) != 1 || cut[0].Usage.OutputTokens != 5 || cut[0].Usage.InputTokens == 0 || !cut[0].Stream {
		t.Fatalf("a cut stream recorded %+v", cut)
	}

	// A client that goes away: recorded once, when the handler ends.
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"model":"strata-dev-frontier","stream":true,"messages":[{"role":"user","content":"[[tokens:100]] [[slow:200ms]]"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.api.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("X-API-Key", c.u.Key)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	for n := 0; n < 3; n++ { // a few events, each as it comes
		if _, err := resp.Body.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the first events took %v of a 20 s stream: buffered", d)
	}
	cancel()
	resp.Body.Close()
	rec.wait(t, 4)
	time.Sleep(50 * time.Millisecond)
	if got := rec.all(); len(got) != 4 {
		t.Fatalf("%d records", len(got))
	}
}

// blockingRecorder holds every record until released, to show when the
// routes record.
type blockingRecorder struct {
	release chan struct{}
	entered chan string
}

func (b *blockingRecorder) Admit(_ context.Context, _ auth.Principal, _ catalog.Model, id string) (func(readgateway.ChatUsage), error) {
	return func(readgateway.ChatUsage) {
		b.entered <- id
		<-b.release
	}, nil
}

// A completed request's usage is recorded before the client can read the
// end of its answer, so a crash after the client has it cannot lose the
// debit: while the record is held, neither a reply nor a stream's end
// reaches the client.
func TestUsageIsRecordedBeforeTheAnswerEnds(t *testing.T) {
	for _, stream := range []bool{false, true} {
		b := &blockingRecorder{release: make(chan struct{}), entered: make(chan string, 1)}
		var once sync.Once
		release := func() { once.Do(func() { close(b.release) }) }
		c := startChatWith(t, cmdgateway.FormatOpenAI, true, b)
		t.Cleanup(release) // before the server's cleanup: a failing run must not leave the handler blocked
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.viaOpenAI(t, userSays("Hello, world!"), stream, "/v1/")
		}()
		select {
		case <-b.entered:
		case <-time.After(5 * time.Second):
			t.Fatalf("stream %v: nothing recorded", stream)
		}
		select {
		case <-done:
			t.Fatalf("stream %v: the client had its whole answer before the usage was recorded", stream)
		case <-time.After(300 * time.Millisecond):
		}
		release()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("stream %v: the answer never ended after the record", stream)
		}
	}
}
