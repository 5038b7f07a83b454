package devupstream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
)

func ptr[T any](v T) *T { return &v }

// format is the upstream side of one wire format, as the gateway uses it.
type format struct {
	name   string
	path   string
	encode func(chat.Request) ([]byte, error)
	decode func([]byte) (chat.Response, error)
	parse  func(io.Reader) func() (chat.Event, error)
	errOf  func(int, []byte) chat.Error
	header http.Header
}

var formats = []format{
	{name: "messages", path: devupstream.MessagesPath, encode: messages.EncodeRequest, decode: messages.DecodeResponse,
		parse:  func(r io.Reader) func() (chat.Event, error) { return messages.NewStreamParser(r).Next },
		errOf:  messages.DecodeError,
		header: http.Header{"Anthropic-Version": {"2023-06-01"}}},
	{name: "openai", path: devupstream.OpenAIPath, encode: openai.EncodeRequest, decode: openai.DecodeResponse,
		parse: func(r io.Reader) func() (chat.Event, error) { return openai.NewStreamParser(r).Next },
		errOf: openai.DecodeError},
}

// result is what one call gave: the reply (accumulated from the stream,
// every event passing the StreamChecker), or the error, the status, the
// headers and the stream's break.
type result struct {
	resp   chat.Response
	status int
	header http.Header
	err    *chat.Error
	broken error // a stream that broke off (ErrTruncated or a connection error)
	events []chat.Event
}

func call(t *testing.T, ctx context.Context, base string, f format, r chat.Request) result {
	t.Helper()
	body, err := f.encode(r)
	if err != nil {
		t.Fatal(err)
	}
	hreq, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+f.path, bytes.NewReader(body))
	hreq.Header.Set("Content-Type", "application/json")
	for k, v := range f.header {
		hreq.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		return result{broken: err}
	}
	defer resp.Body.Close()
	out := result{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		e := f.errOf(resp.StatusCode, b)
		out.err = &e
		return out
	}
	if !r.Stream {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			out.broken = err
			return out
		}
		if out.resp, err = f.decode(b); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		return out
	}
	next := f.parse(resp.Body)
	var acc chat.Accumulator
	for {
		ev, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.broken = err
			break
		}
		out.events = append(out.events, ev)
		if err := acc.Add(ev); err != nil {
			var ce chat.Error
			if errors.As(err, &ce) {
				out.err = &ce
				continue
			}
			t.Fatalf("stream rule broken: %v", err)
		}
	}
	out.resp = acc.Response()
	return out
}

func user(text string) chat.Request {
	return chat.Request{Model: "dev-7b", MaxTokens: ptr(1024),
		Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.Text(text)}}}}
}

var weather = chat.Tool{Name: "get_weather", Description: "The weather in a city",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}

// each runs fn for both formats, streaming and not.
func each(t *testing.T, fn func(t *testing.T, f format, stream bool)) {
	for _, f := range formats {
		for _, stream := range []bool{false, true} {
			name := f.name
			if stream {
				name += "/stream"
			}
			t.Run(name, func(t *testing.T) { t.Parallel(); fn(t, f, stream) })
		}
	}
}

func texts(r chat.Response) string {
	var b strings.Builder
	for _, p := range r.Content {
		if p.Type == chat.PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func TestPlainAnswerIsDerivedFromThePromptAndCounted(t *testing.T) {
	_, base := devupstream.Start(t)
	each(t, func(t *testing.T, f format, stream bool) {
		r := user("Hello, world!")
		r.Stream, r.IncludeUsage = stream, true
		got := call(t, context.Background(), base, f, r)
		if got.err != nil || got.broken != nil {
			t.Fatalf("%+v", got)
		}
		if texts(got.resp) != "You said: Hello, world!" || got.resp.StopReason != chat.StopEndTurn {
			t.Fatalf("%+v", got.resp)
		}
		// "Hello , world !" is 4 tokens; "You said : Hello , world !" 7.
		if got.resp.Usage != (chat.Usage{InputTokens: 4, OutputTokens: 7}) {
			t.Fatalf("usage %+v", got.resp.Usage)
		}
		if got.resp.Model != "dev-7b" || got.resp.ID == "" {
			t.Fatalf("%+v", got.resp)
		}
	})
}

func TestTokensMaxTokensAndStop(t *testing.T) {
	_, base := devupstream.Start(t)
	each(t, func(t *testing.T, f format, stream bool) {
		r := user("count [[tokens:50]]")
		r.Stream, r.IncludeUsage = stream, true
		got := call(t, context.Background(), base, f, r)
		if got.resp.Usage.OutputTokens != 50 || devupstream.CountTokens(texts(got.resp)) != 50 || got.resp.StopReason != chat.StopEndTurn {
			t.Fatalf("tokens:50 gave %+v", got.resp)
		}
		if stream && len(got.events) != 50+4 {
			t.Fatalf("a stream of 50 tokens has %d events, want one delta a token", len(got.events))
		}
		r.MaxTokens = ptr(10)
		got = call(t, context.Background(), base, f, r)
		if got.resp.Usage.OutputTokens != 10 || got.resp.StopReason != chat.StopMaxTokens {
			t.Fatalf("max_tokens 10 gave %+v", got.resp)
		}
		r = user("go [[stop:END]]")
		r.Stream, r.IncludeUsage, r.Stop = stream, true, []string{"END"}
		got = call(t, context.Background(), base, f, r)
		if got.resp.StopReason != chat.StopSequence || got.resp.StopSequence != "END" || texts(got.resp) != "You said: go" {
			t.Fatalf("stop gave %+v", got.resp)
		}
		r.Stop = nil
		got = call(t, context.Background(), base, f, r)
		if got.resp.StopReason != chat.StopEndTurn || !strings.Contains(texts(got.resp), "END and more") {
			t.Fatalf("no stop sequence gave %+v", got.resp)
		}
	})
}

func TestToolCalls(t *testing.T) {
	_, base := devupstream.Start(t)
	each(t, func(t *testing.T, f format, stream bool) {
		r := user(`weather? [[tool:get_weather {"city": "Paris"}]] [[tool:get_weather {"city":"Oslo"}]]`)
		r.Tools, r.Stream, r.IncludeUsage = []chat.Tool{weather}, stream, true
		got := call(t, context.Background(), base, f, r)
		c := got.resp.Content
		if len(c) != 2 || got.resp.StopReason != chat.StopToolUse {
			t.Fatalf("%+v", got.resp)
		}
		for i, city := range []string{"Paris", "Oslo"} {
			if c[i].Type != chat.PartToolUse || c[i].Name != "get_weather" || string(c[i].Input) != `{"city":"`+city+`"}` || c[i].ID == "" {
				t.Fatalf("call %d: %+v", i, c[i])
			}
		}
		if c[0].ID == c[1].ID {
			t.Fatal("parallel calls share an id")
		}
		// The tool result round trip: the answer names what the tool returned.
		r.Messages = append(r.Messages,
			chat.Message{Role: chat.RoleAssistant, Content: c},
			chat.Message{Role: chat.RoleUser, Content: []chat.Part{
				chat.ToolResult(c[0].ID, []chat.Part{chat.Text("sunny")}, false),
				chat.ToolResult(c[1].ID, []chat.Part{chat.Text("rain")}, false)}})
		got = call(t, context.Background(), base, f, r)
		if texts(got.resp) != "The tool returned: sunny; rain" || got.resp.StopReason != chat.StopEndTurn {
			t.Fatalf("after the results: %+v", got.resp)
		}
		// [[parallel-tools:N]]: N calls of the first offered tool.
		r = user("[[parallel-tools:3]]")
		r.Tools, r.Stream, r.IncludeUsage = []chat.Tool{weather}, stream, true
		got = call(t, context.Background(), base, f, r)
		if len(got.resp.Content) != 3 || string(got.resp.Content[2].Input) != `{"n":3}` || got.resp.StopReason != chat.StopToolUse {
			t.Fatalf("parallel-tools: %+v", got.resp)
		}
		// A forced tool is called without a directive.
		r = user("anything")
		r.Tools, r.Stream, r.IncludeUsage = []chat.Tool{weather}, stream, true
		r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"}
		got = call(t, context.Background(), base, f, r)
		if len(got.resp.Content) != 1 || got.resp.Content[0].Name != "get_weather" || got.resp.StopReason != chat.StopToolUse {
			t.Fatalf("forced: %+v", got.resp)
		}
	})
}

func TestFailures(t *testing.T) {
	h, base := devupstream.Start(t)
	each(t, func(t *testing.T, f format, stream bool) {
		for _, status := range []int{429, 502, 503} {
			r := user("hi [[fail:" + itoa(status) + " retry-after=2]] " + f.name + itoa(status))
			r.Stream = stream
			got := call(t, context.Background(), base, f, r)
			if got.status != status || got.err == nil || got.header.Get("Retry-After") != "2" {
				t.Fatalf("fail %d gave %+v", status, got)
			}
			if status == 429 && got.err.Kind.String() != "rate_limited" {
				t.Fatalf("429 kind %v", got.err.Kind)
			}
		}
		// times=2: the third identical request succeeds.
		r := user("again [[fail:503 times=2]] " + f.name + boolStr(stream))
		r.Stream, r.IncludeUsage = stream, true
		for i, want := range []int{503, 503, 200} {
			if got := call(t, context.Background(), base, f, r); got.status != want {
				t.Fatalf("request %d: status %d, want %d", i, got.status, want)
			}
		}
	})
	_ = h
}

func TestCutAndMidStreamError(t *testing.T) {
	h, base := devupstream.Start(t)
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			r := user("[[tokens:20]] [[cut:after=5]]")
			r.Stream = true
			got := call(t, context.Background(), base, f, r)
			if got.broken == nil || len(got.events) != 2+5 {
				t.Fatalf("cut after 5: %d events, break %v", len(got.events), got.broken)
			}
			r.Stream = false
			if got := call(t, context.Background(), base, f, r); got.broken == nil {
				t.Fatalf("a cut reply: %+v", got)
			}
			r = user("[[tokens:20]] [[error:after=3]]")
			r.Stream = true
			got = call(t, context.Background(), base, f, r)
			if got.status != 200 || got.err == nil || got.broken != nil || len(got.events) != 2+3+1 {
				t.Fatalf("error after 3: %+v", got)
			}
			if _, ok := got.events[len(got.events)-1].(chat.Error); !ok {
				t.Fatalf("last event %T", got.events[len(got.events)-1])
			}
		})
	}
	if h.Cut() != 4 {
		t.Fatalf("%d cuts", h.Cut())
	}
}

func TestXMLNoiseSlowAndEcho(t *testing.T) {
	_, base := devupstream.Start(t)
	each(t, func(t *testing.T, f format, stream bool) {
		r := user("[[xml]] look")
		r.Tools, r.Stream = []chat.Tool{weather}, stream
		got := call(t, context.Background(), base, f, r)
		if !strings.Contains(texts(got.resp), `<tool_call>{"name": "get_weather"`) {
			t.Fatalf("%q", texts(got.resp))
		}
		if stream {
			n := 0
			for _, ev := range got.events {
				if d, ok := ev.(chat.TextDelta); ok && strings.ContainsAny(d.Text, "<>") {
					n++
				}
			}
			if n < 4 { // the tags are split across deltas
				t.Fatalf("%d deltas with tag characters", n)
			}
		}
		r = user("[[tokens:10]] [[slow:20ms]]")
		r.Stream = stream
		start := time.Now()
		call(t, context.Background(), base, f, r)
		if d := time.Since(start); d < 9*20*time.Millisecond {
			t.Fatalf("10 tokens 20ms apart took %v", d)
		}
		r = user("[[echo]]")
		r.System, r.Stream = []chat.Part{chat.Text("Be brief.")}, stream
		got = call(t, context.Background(), base, f, r)
		var echoed chat.Request
		if err := json.Unmarshal([]byte(texts(got.resp)), &echoed); err != nil {
			t.Fatalf("echo %q: %v", texts(got.resp), err)
		}
		if len(echoed.System) != 1 || echoed.System[0].Text != "Be brief." || echoed.Model != "dev-7b" || echoed.Stream != stream {
			t.Fatalf("echoed %+v", echoed)
		}
	})
}

// Both formats count the same request the same way.
func TestTokenCountsAgreeAcrossFormats(t *testing.T) {
	_, base := devupstream.Start(t)
	r := user(`[[tool:get_weather {"city":"Paris"}]] weather please`)
	r.System, r.Tools = []chat.Part{chat.Text("You are terse.")}, []chat.Tool{weather}
	var usages []chat.Usage
	for _, f := range formats {
		for _, stream := range []bool{false, true} {
			r.Stream, r.IncludeUsage = stream, true
			usages = append(usages, call(t, context.Background(), base, f, r).resp.Usage)
		}
	}
	for _, u := range usages[1:] {
		if u != usages[0] || u.InputTokens == 0 || u.OutputTokens == 0 {
			t.Fatalf("usages differ: %+v", usages)
		}
	}
}

func TestClientDisconnectCancels(t *testing.T) {
	h, base := devupstream.Start(t)
	for _, f := range formats {
		ctx, cancel := context.WithCancel(context.Background())
		r := user("[[tokens:200]] [[slow:10ms]]")
		r.Stream = true
		body, _ := f.encode(r)
		hreq, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+f.path, bytes.NewReader(body))
		resp, err := http.DefaultClient.Do(hreq)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		if _, err := resp.Body.Read(buf); err != nil {
			t.Fatal(err)
		}
		cancel()
		resp.Body.Close()
	}
	deadline := time.Now().Add(2 * time.Second)
	for h.Canceled() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams canceled, want 2", h.Canceled())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRefusals(t *testing.T) {
	h, base := devupstream.Start(t)
	h.Key = "sk-dev"
	for _, f := range formats {
		got := call(t, context.Background(), base, f, user("hi"))
		if got.status != http.StatusUnauthorized {
			t.Fatalf("no key: %+v", got)
		}
	}
	h.Key = ""
	if n := len(h.Requests()); n != 0 {
		t.Fatalf("%d requests refused at the door were recorded", n)
	}
	for _, f := range formats {
		before := len(h.Requests())
		call(t, context.Background(), base, f, user("hi"))
		if seen := h.Requests(); len(seen) != before+1 || seen[before].Format != devupstream.Format(f.name) || seen[before].Request.Model != "dev-7b" {
			t.Fatalf("seen %+v", seen)
		}
		got := call(t, context.Background(), base, f, user("[[nonsense:1]]"))
		if got.status != http.StatusBadRequest || !strings.Contains(got.err.Message, "unknown directive [[nonsense]]") {
			t.Fatalf("unknown directive: %+v", got)
		}
		got = call(t, context.Background(), base, f, user(`[[tool:get_weather [1]]]`))
		if got.status != http.StatusBadRequest {
			t.Fatalf("tool with an array: %+v", got)
		}
	}
}

func TestParseScript(t *testing.T) {
	s, err := devupstream.ParseScript(`a [[tool:f {"x":[[1]],"y":"]]"}]] b [[tokens:3]][[fail:429 retry-after=1 times=2]] c`)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || string(s.Tools[0].Input) != `{"x":[[1]],"y":"]]"}` || s.Tokens != 3 || s.Fail != 429 ||
		s.RetryAfter != "1" || s.Times != 2 || s.Text != "a b c" {
		t.Fatalf("%+v", s)
	}
	for _, bad := range []string{"[[tokens:x]]", "[[fail:200]]", "[[slow:forever]]", "[[tool:]]", "[[xml", "[[cut:after=-1]]"} {
		if _, err := devupstream.ParseScript(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCountTokens(t *testing.T) {
	for s, want := range map[string]int{"": 0, "Hello, world!": 4, "don't": 3, "  a_b  c9 ": 2, "é€": 2, `{"a":1}`: 7} {
		if got := devupstream.CountTokens(s); got != want {
			t.Errorf("%q: %d tokens, want %d", s, got, want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func boolStr(b bool) string {
	if b {
		return "s"
	}
	return "n"
}
