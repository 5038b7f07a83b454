package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/domain/gateway/chat"
)

// A production gateway (RefuseDevelopment) never serves the development
// upstream's answers: such an upstream is passed over for the next one
// serving the model, and alone it is a 502 naming it. A development
// gateway calls it as any other.
func TestProductionRefusesTheDevelopmentUpstream(t *testing.T) {
	dev, base := devupstream.Start(t)
	// "real" stands for a real server: the same answers without the mark.
	target, _ := url.Parse(base)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error { r.Header.Del(gateway.DevelopmentHeader); return nil }
	real := httptest.NewServer(proxy)
	t.Cleanup(real.Close)

	req := chat.Request{Model: "m", Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: "hi"}}}}}
	t0 := gateway.Target{Model: "m", UpstreamID: "dev", UpstreamModel: "m"}
	devUp := gateway.Upstream{ID: "dev", Format: gateway.FormatOpenAI, BaseURL: base + "/v1", Timeout: 5 * time.Second, Retries: 2, Weight: 1}

	u := gateway.NewUpstreams([]gateway.Upstream{devUp}, nil)
	if resp, _, err := u.Complete(context.Background(), t0, req); err != nil || resp.Content[0].Text != "You said: hi" {
		t.Fatalf("development: %+v %v", resp, err)
	}

	u = gateway.NewUpstreams([]gateway.Upstream{devUp}, nil)
	u.RefuseDevelopment = true
	before := len(dev.Requests())
	_, _, err := u.Complete(context.Background(), t0, req)
	var ue *gateway.UpstreamError
	if !errors.As(err, &ue) || ue.Status != 502 || ue.Chat.Code != gateway.CodeDevelopmentUpstream || !strings.Contains(ue.Chat.Message, "dev") {
		t.Fatalf("%v", err)
	}
	if n := len(dev.Requests()) - before; n != 1 {
		t.Fatalf("the development upstream was asked %d times: a refusal is not retried", n)
	}
	if _, _, err := u.Stream(context.Background(), t0, req); !errors.As(err, &ue) || ue.Chat.Code != gateway.CodeDevelopmentUpstream {
		t.Fatalf("stream: %v", err)
	}

	other := gateway.Upstream{ID: "vllm", Format: gateway.FormatOpenAI, BaseURL: real.URL + "/v1", Timeout: 5 * time.Second, Weight: 1, Models: []string{"m"}}
	u = gateway.NewUpstreams([]gateway.Upstream{devUp, other}, nil)
	u.RefuseDevelopment = true
	u.Pick = func([]int) int { return 0 } // the catalog's upstream first
	resp, served, err := u.Complete(context.Background(), t0, req)
	if err != nil || served.Upstream != "vllm" || resp.Content[0].Text != "You said: hi" {
		t.Fatalf("%+v %+v %v", resp, served, err)
	}
}

// A 502 or 503 still failing once retries are spent is answered as the
// seed's "model loading": Retry-After 5 when the upstream gave none (its
// own when it did), and the advice to retry in 5-10 seconds.
func TestSpentUnavailableIsModelLoading(t *testing.T) {
	_, base := devupstream.Start(t)
	u := gateway.NewUpstreams([]gateway.Upstream{{ID: "dev", Format: gateway.FormatMessages, BaseURL: base + "/v1",
		Timeout: 5 * time.Second, Retries: 1, Weight: 1}}, nil)
	u.Backoff = time.Millisecond
	t0 := gateway.Target{Model: "m", UpstreamID: "dev", UpstreamModel: "m"}
	ask := func(text string) chat.Request {
		return chat.Request{Model: "m", Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: text}}}}}
	}
	for text, want := range map[string]string{"[[fail:503]]": "5", "[[fail:502]] x": "5", "[[fail:503 retry-after=0]] y": "0"} {
		_, _, err := u.Complete(context.Background(), t0, ask(text))
		var ue *gateway.UpstreamError
		if !errors.As(err, &ue) || ue.RetryAfter != want || !strings.Contains(ue.Chat.Message, "retry in 5-10 seconds") {
			t.Errorf("%s: %+v", text, err)
		}
	}
	_, _, err := u.Complete(context.Background(), t0, ask("[[fail:429]]"))
	var ue *gateway.UpstreamError
	if !errors.As(err, &ue) || ue.Status != 429 || strings.Contains(ue.Chat.Message, "loading") {
		t.Errorf("429: %+v", err)
	}
}
