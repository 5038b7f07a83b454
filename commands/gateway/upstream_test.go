package gateway_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/domain/gateway/chat"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadUpstreamsJSONAndYAML(t *testing.T) {
	js := writeFile(t, "up.json", `{"upstreams": [
		{"id": "vllm", "format": "openai", "base_url": "http://127.0.0.1:8000/v1/", "api_key_env": "VLLM_KEY", "timeout": "30s", "retries": 3, "weight": 2},
		{"id": "dev", "format": "messages", "base_url": "http://127.0.0.1:8099/v1", "models": ["strata-dev-7b"]}]}`)
	yml := writeFile(t, "up.yaml", `upstreams:
  - id: vllm
    format: openai
    base_url: http://127.0.0.1:8000/v1/
    api_key_env: VLLM_KEY
    timeout: 30s
    retries: 3
    weight: 2
  - id: dev
    format: messages
    base_url: http://127.0.0.1:8099/v1
    models: [strata-dev-7b]
`)
	for _, p := range []string{js, yml} {
		ups, err := gateway.LoadUpstreams(p, env(map[string]string{"VLLM_KEY": "secret"}))
		if err != nil {
			t.Fatal(err)
		}
		want := gateway.Upstream{ID: "vllm", Format: "openai", BaseURL: "http://127.0.0.1:8000/v1", APIKey: "secret",
			Timeout: 30 * time.Second, Retries: 3, Weight: 2}
		if len(ups) != 2 || ups[0].ID != want.ID || ups[0].BaseURL != want.BaseURL || ups[0].APIKey != want.APIKey ||
			ups[0].Timeout != want.Timeout || ups[0].Retries != 3 || ups[0].Weight != 2 {
			t.Fatalf("%s: %+v", p, ups)
		}
		if d := ups[1]; d.Timeout != gateway.DefaultUpstreamTimeout || d.Retries != gateway.DefaultUpstreamRetries || d.Weight != 1 ||
			d.APIKey != "" || len(d.Models) != 1 {
			t.Fatalf("defaults: %+v", d)
		}
	}
	for content, want := range map[string]string{
		`{"upstreams": [{"id": "a", "format": "grpc", "base_url": "http://x"}]}`:                                                            "upstreams[0] (a).format",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "ftp://x"}]}`:                                                           "upstreams[0] (a).base_url",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "http://x", "api_key_env": "NOPE"}]}`:                                   "NOPE is not set",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "http://x", "retries": 11}]}`:                                           "retries",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "http://x", "timeout": "1ms"}]}`:                                        "timeout",
		`{"upstreams": [{"id": "A!", "format": "openai", "base_url": "http://x"}]}`:                                                         "upstreams[0].id",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "http://x", "key": "s"}]}`:                                              "unknown field",
		`{"upstreams": [{"id": "a", "format": "openai", "base_url": "http://x"}, {"id": "a", "format": "openai", "base_url": "http://y"}]}`: "listed twice",
	} {
		_, err := gateway.LoadUpstreams(writeFile(t, "bad.json", content), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), gateway.UpstreamsEnv) {
			t.Errorf("%s: %v, want %q", content, err, want)
		}
	}
}

// devUpstreams serves a development upstream per format and configures
// them as "dev-messages" and "dev-openai".
func devUpstreams(t *testing.T, retries int) (*devupstream.Handler, *gateway.Upstreams) {
	h, base := devupstream.Start(t)
	ups := []gateway.Upstream{
		{ID: "dev-messages", Format: gateway.FormatMessages, BaseURL: base + "/v1", Timeout: 5 * time.Second, Retries: retries, Weight: 1},
		{ID: "dev-openai", Format: gateway.FormatOpenAI, BaseURL: base + "/v1", Timeout: 5 * time.Second, Retries: retries, Weight: 1},
	}
	u := gateway.NewUpstreams(ups, nil)
	u.Backoff, u.MaxWait = time.Millisecond, 50*time.Millisecond
	return h, u
}

func ask(text string) chat.Request {
	n := 100
	return chat.Request{Model: "ignored", MaxTokens: &n,
		Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.Text(text)}}}}
}

func TestUpstreamsCompleteAndStreamInBothFormats(t *testing.T) {
	h, u := devUpstreams(t, 0)
	for _, id := range []string{"dev-messages", "dev-openai"} {
		target := gateway.Target{Model: "strata-dev-7b", UpstreamID: id, UpstreamModel: "strata-dev-7b-text"}
		r, served, err := u.Complete(context.Background(), target, ask("Hello there"))
		if err != nil || served.Upstream != id || served.Attempts != 1 {
			t.Fatalf("%s: %v %+v", id, err, served)
		}
		if r.Content[0].Text != "You said: Hello there" || r.Model != "strata-dev-7b-text" || r.Usage.OutputTokens != 5 {
			t.Fatalf("%s: %+v", id, r)
		}
		s, _, err := u.Stream(context.Background(), target, ask("Hello there"))
		if err != nil {
			t.Fatal(err)
		}
		var acc chat.Accumulator
		for {
			ev, err := s.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := acc.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		if got := acc.Response(); got.Usage != r.Usage || got.Content[0].Text != r.Content[0].Text {
			t.Fatalf("%s streamed %+v, replied %+v", id, got, r)
		}
	}
	seen := h.Requests()
	if seen[0].Format != devupstream.FormatMessages || seen[0].Header.Get("anthropic-version") != gateway.MessagesVersion ||
		seen[1].Format != devupstream.FormatMessages || !seen[1].Request.Stream || seen[2].Format != devupstream.FormatOpenAI ||
		!seen[3].Request.IncludeUsage {
		t.Fatalf("%+v", seen)
	}
}

func TestUpstreamsSendTheKey(t *testing.T) {
	h, base := devupstream.Start(t)
	h.Key = "secret"
	for _, f := range []string{gateway.FormatMessages, gateway.FormatOpenAI} {
		for _, key := range []string{"", "secret"} {
			u := gateway.NewUpstreams([]gateway.Upstream{{ID: "u", Format: f, BaseURL: base + "/v1", APIKey: key, Timeout: time.Second}}, nil)
			_, _, err := u.Complete(context.Background(), gateway.Target{Model: "m", UpstreamID: "u", UpstreamModel: "m"}, ask("hi"))
			var ue *gateway.UpstreamError
			if key == "" && (!errors.As(err, &ue) || ue.Status != http.StatusUnauthorized) {
				t.Fatalf("%s without the key: %v", f, err)
			}
			if key != "" && err != nil {
				t.Fatalf("%s with the key: %v", f, err)
			}
		}
	}
}

func TestUpstreamsRetryHonouringRetryAfterThenSucceed(t *testing.T) {
	h, u := devUpstreams(t, 2)
	u.MaxWait = 2 * time.Second
	for _, id := range []string{"dev-messages", "dev-openai"} {
		target := gateway.Target{Model: "m", UpstreamID: id, UpstreamModel: "m"}
		start := time.Now()
		r, served, err := u.Complete(context.Background(), target, ask("[[fail:429 retry-after=1 times=1]] "+id))
		if err != nil || served.Attempts != 2 || r.StopReason != chat.StopEndTurn {
			t.Fatalf("%s: %v %+v", id, err, served)
		}
		if d := time.Since(start); d < time.Second {
			t.Fatalf("%s: retried after %v, Retry-After said 1s", id, d)
		}
		// Retries spent: the last error, with its status and Retry-After.
		_, served, err = u.Complete(context.Background(), target, ask("[[fail:503]]"))
		var ue *gateway.UpstreamError
		if !errors.As(err, &ue) || ue.Status != 503 || served.Attempts != 3 {
			t.Fatalf("%s: %v %+v", id, err, served)
		}
		// A 400 is not retried.
		_, served, err = u.Complete(context.Background(), target, ask("[[fail:400]]"))
		if !errors.As(err, &ue) || ue.Status != 400 || served.Attempts != 1 {
			t.Fatalf("%s: %v %+v", id, err, served)
		}
		// A stream is retried before its first byte.
		s, served, err := u.Stream(context.Background(), target, ask("[[fail:502 times=2]] stream "+id))
		if err != nil || served.Attempts != 3 {
			t.Fatalf("%s stream: %v %+v", id, err, served)
		}
		s.Close()
	}
	_ = h
}

func TestUpstreamsFallBackToAnotherUpstreamServingTheModel(t *testing.T) {
	_, base := devupstream.Start(t)
	ups := []gateway.Upstream{
		{ID: "down", Format: gateway.FormatOpenAI, BaseURL: "http://127.0.0.1:1/v1", Timeout: time.Second, Retries: 1, Weight: 1},
		{ID: "backup", Format: gateway.FormatMessages, BaseURL: base + "/v1", Timeout: time.Second, Weight: 1, Models: []string{"m=backup-name"}},
	}
	u := gateway.NewUpstreams(ups, nil)
	u.Backoff = time.Millisecond
	u.Pick = func([]int) int { return 0 }
	r, served, err := u.Complete(context.Background(), gateway.Target{Model: "m", UpstreamID: "down", UpstreamModel: "m"}, ask("hi"))
	if err != nil || served.Upstream != "backup" || served.Attempts != 3 || r.Model != "backup-name" {
		t.Fatalf("%v %+v %+v", err, served, r)
	}
	// The weighted pick may start with the fallback.
	u.Pick = func(w []int) int { return 1 }
	_, served, err = u.Complete(context.Background(), gateway.Target{Model: "m", UpstreamID: "down", UpstreamModel: "m"}, ask("hi"))
	if err != nil || served.Upstream != "backup" || served.Attempts != 1 {
		t.Fatalf("%v %+v", err, served)
	}
}

func TestNoUpstreamConfiguredAnswers503NamingTheVariable(t *testing.T) {
	u := gateway.NewUpstreams(nil, nil)
	_, _, err := u.Complete(context.Background(), gateway.Target{Model: "m", UpstreamID: "dev", UpstreamModel: "m"}, ask("hi"))
	var ue *gateway.UpstreamError
	if !errors.As(err, &ue) || ue.Status != 503 || !strings.Contains(ue.Chat.Message, gateway.UpstreamsEnv) ||
		ue.Chat.Code != gateway.CodeUpstreamsNotConfigured || chat.ErrorFrom(err).Code != gateway.CodeUpstreamsNotConfigured {
		t.Fatalf("%v", err)
	}
	_, u2 := devUpstreams(t, 0)
	_, _, err = u2.Stream(context.Background(), gateway.Target{Model: "m", UpstreamID: "dev", UpstreamModel: "m"}, ask("hi"))
	if !errors.As(err, &ue) || ue.Status != 503 || !strings.Contains(ue.Chat.Message, `upstream "dev"`) {
		t.Fatalf("%v", err)
	}
}
