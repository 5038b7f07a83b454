package gateway_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
)

var updateGolden = flag.Bool("update", false, "rewrite the chat routes' golden SSE transcripts in testdata/chat")

// goldenScenario is a streaming request in neutral terms.
type goldenScenario struct {
	name      string
	text      string
	tools     bool
	forced    string
	maxTokens int
	stop      string
	roundTrip bool // a tool call and its result before the last turn
}

var goldenScenarios = []goldenScenario{
	{name: "plain", text: "Hello, world!"},
	{name: "tool_call", text: `[[tool:get_weather {"city":"Paris"}]]`, tools: true},
	{name: "parallel_tool_calls", text: `[[tool:get_weather {"city":"Paris"}]] [[tool:get_weather {"city":"Oslo"}]]`, tools: true},
	{name: "forced_tool", text: "anything", tools: true, forced: "get_weather"},
	{name: "tool_result_round_trip", tools: true, roundTrip: true},
	{name: "max_tokens", text: "[[tokens:50]]", maxTokens: 10},
	{name: "stop_sequence", text: "go [[stop:END]]", stop: "END"},
	{name: "xml_noise", text: "[[xml]] look"},
	{name: "xml_noise_with_tools", text: "[[xml]] look", tools: true},
	{name: "mid_stream_error", text: "[[tokens:20]] [[error:after=5]]"},
	{name: "cut_stream", text: "[[tokens:20]] [[cut:after=5]]"},
}

// body is the scenario's request in the client's format, streaming (the
// OpenAI format with include_usage).
func (g goldenScenario) body(client string) map[string]any {
	schema := map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}
	req := map[string]any{"model": "strata-dev-frontier", "stream": true}
	var msgs []any
	if client == "messages" {
		if g.roundTrip {
			msgs = append(msgs, map[string]any{"role": "user", "content": "weather?"},
				map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "call_1", "name": "get_weather", "input": map[string]any{"city": "Paris"}}}},
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "call_1", "content": "sunny"}}})
		} else {
			msgs = append(msgs, map[string]any{"role": "user", "content": g.text})
		}
		req["max_tokens"] = 1024
		if g.tools {
			req["tools"] = []any{map[string]any{"name": "get_weather", "description": "The weather in a city", "input_schema": schema}}
		}
		if g.forced != "" {
			req["tool_choice"] = map[string]any{"type": "tool", "name": g.forced}
		}
		if g.stop != "" {
			req["stop_sequences"] = []any{g.stop}
		}
	} else {
		if g.roundTrip {
			msgs = append(msgs, map[string]any{"role": "user", "content": "weather?"},
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
					"function": map[string]any{"name": "get_weather", "arguments": `{"city":"Paris"}`}}}},
				map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "sunny"})
		} else {
			msgs = append(msgs, map[string]any{"role": "user", "content": g.text})
		}
		req["stream_options"] = map[string]any{"include_usage": true}
		if g.tools {
			req["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "get_weather",
				"description": "The weather in a city", "parameters": schema}}}
		}
		if g.forced != "" {
			req["tool_choice"] = map[string]any{"type": "function", "function": map[string]any{"name": g.forced}}
		}
		if g.stop != "" {
			req["stop"] = []any{g.stop}
		}
	}
	if g.maxTokens > 0 {
		req["max_tokens"] = g.maxTokens
	}
	req["messages"] = msgs
	return req
}

// The chat routes' streams, byte for byte: every streaming scenario x
// client format x upstream format against a golden transcript in
// testdata/chat (go test -run TestChatGolden -update rewrites them; review
// the diff). The clocks and the ids the gateway makes are fixed; every
// other byte is the gateway's own.
func TestChatGoldenTranscripts(t *testing.T) {
	fixed := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, upstream := range []string{cmdgateway.FormatMessages, cmdgateway.FormatOpenAI} {
		var toolN atomic.Int64
		c := startChatConfig(t, upstream, true, nil, func(cfg *readgateway.ChatConfig) {
			cfg.Now = func() time.Time { return fixed }
			cfg.NewToolID = func() string { return fmt.Sprintf("toolu_gateway%02d", toolN.Add(1)) }
		})
		c.dev.Now = func() time.Time { return fixed }
		for _, g := range goldenScenarios {
			for _, client := range []string{"messages", "openai"} {
				toolN.Store(0)
				path, headers := "/v1/chat/completions", []string{"X-API-Key", c.u.Key}
				if client == "messages" {
					path, headers = "/v1/messages", append(headers, "anthropic-version", "2023-06-01")
				}
				r := c.call(http.MethodPost, path, g.body(client), headers...)
				if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
					t.Fatalf("%s %s-client %s-upstream: %d %s", g.name, client, upstream, r.status, r.raw)
				}
				file := filepath.Join("testdata", "chat", fmt.Sprintf("%s.%s-client.%s-upstream.sse", g.name, client, upstream))
				if *updateGolden {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, r.raw, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run go test -run TestChatGolden -update to write it)", err)
				}
				if !bytes.Equal(r.raw, want) {
					t.Errorf("%s differs from the golden transcript:\n got: %q\nwant: %q", file, r.raw, want)
				}
			}
		}
	}
}

// The golden transcripts keep the formats' stream rules (a check of the
// files themselves, so that -update cannot write a broken one unnoticed):
// messages streams open with exactly one message_start and end with
// message_stop or an error event, every event named; OpenAI streams are
// data-only and end in [DONE], after an error event when they broke.
func TestChatGoldenTranscriptsKeepTheFormatsRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "chat", "*.sse"))
	if err != nil || len(files) != 2*2*len(goldenScenarios) {
		t.Fatalf("%d golden files, want %d (%v)", len(files), 2*2*len(goldenScenarios), err)
	}
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		events := strings.Split(strings.TrimSuffix(string(raw), "\n\n"), "\n\n")
		broken := strings.HasPrefix(filepath.Base(f), "mid_stream_error") || strings.HasPrefix(filepath.Base(f), "cut_stream")
		if strings.Contains(f, ".messages-client.") {
			if strings.Count(string(raw), "event: message_start\n") != 1 || !strings.HasPrefix(events[0], "event: message_start\n") {
				t.Errorf("%s: not one message_start first", f)
			}
			for _, ev := range events {
				if !strings.HasPrefix(ev, "event: ") || !strings.Contains(ev, "\ndata: {") {
					t.Errorf("%s: event %q", f, ev)
				}
			}
			last := events[len(events)-1]
			if (broken && !strings.HasPrefix(last, "event: error\n")) || (!broken && !strings.HasPrefix(last, "event: message_stop\n")) {
				t.Errorf("%s: ends with %q", f, last)
			}
		} else {
			for _, ev := range events {
				if !strings.HasPrefix(ev, "data: ") || strings.Contains(ev, "\nevent:") {
					t.Errorf("%s: event %q", f, ev)
				}
				if d := strings.TrimPrefix(ev, "data: "); d != "[DONE]" && !json.Valid([]byte(d)) {
					t.Errorf("%s: data %q", f, d)
				}
			}
			if last := events[len(events)-1]; last != "data: [DONE]" {
				t.Errorf("%s: ends with %q", f, last)
			}
			if beforeLast := events[len(events)-2]; broken != strings.HasPrefix(beforeLast, `data: {"error":`) {
				t.Errorf("%s: the event before [DONE] is %q", f, beforeLast)
			}
		}
	}
}
