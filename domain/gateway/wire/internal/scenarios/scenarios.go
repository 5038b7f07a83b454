// Package scenarios holds the chat exchanges that the wire codecs' tests
// share: the golden SSE transcripts, the round trips between formats and
// the SDK compatibility tests all run them. It is test data only.
package scenarios

import (
	"encoding/json"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/kernel"
)

// Created is the created time of every reply (Unix seconds).
const Created = 1767225600

// Scenario is one exchange: what a client asks, what the upstream answers
// (a reply or an error), and how the reply is streamed.
type Scenario struct {
	Name    string
	Request chat.Request
	// Reply is what the model answered; Err, when set, is the upstream's
	// error instead (Status its HTTP status), or, with Reply, an error that
	// broke its stream off after ErrAfter events.
	Reply    chat.Response
	Err      *chat.Error
	Status   int
	ErrAfter int
	// Want is the reply the client gets when it differs from Reply (the
	// gateway's <tool_call> filter changed it).
	Want *chat.Response
	// Chunk is the size of the pieces text and tool input are streamed in.
	Chunk int
}

// Stream is the upstream's stream of s: Reply's events with text and tool
// input in pieces of s.Chunk bytes (whole when 0), broken off by Err after
// ErrAfter events when both are set.
func (s Scenario) Stream() []chat.Event {
	var out []chat.Event
	for _, ev := range chat.EventsOf(s.Reply) {
		switch e := ev.(type) {
		case chat.TextDelta:
			for _, p := range pieces(e.Text, s.Chunk) {
				out = append(out, chat.TextDelta{Index: e.Index, Text: p})
			}
		case chat.InputDelta:
			for _, p := range pieces(e.PartialJSON, s.Chunk) {
				out = append(out, chat.InputDelta{Index: e.Index, PartialJSON: p})
			}
		default:
			out = append(out, ev)
		}
	}
	if s.Err != nil && s.ErrAfter > 0 {
		return append(out[:s.ErrAfter:s.ErrAfter], *s.Err)
	}
	return out
}

// ClientStream is the stream the client gets: Stream through the
// gateway's <tool_call> filter.
func (s Scenario) ClientStream() []chat.Event {
	f := chat.NewToolCallFilter(s.Request.Tools, XMLToolIDs())
	var out []chat.Event
	for _, ev := range s.Stream() {
		evs, err := f.Push(ev)
		if err != nil {
			panic(err) // the scenarios are well-formed streams
		}
		out = append(out, evs...)
	}
	return out
}

// Client is the reply the client gets.
func (s Scenario) Client() chat.Response {
	if s.Want != nil {
		return *s.Want
	}
	return s.Reply
}

// pieces cuts s into pieces of n bytes, never inside a UTF-8 sequence.
func pieces(s string, n int) []string {
	if n <= 0 || len(s) <= n {
		return []string{s}
	}
	var out []string
	for len(s) > n {
		k := n
		for k < len(s) && s[k]&0xC0 == 0x80 {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func user(parts ...chat.Part) chat.Message {
	return chat.Message{Role: chat.RoleUser, Content: parts}
}

func assistant(parts ...chat.Part) chat.Message {
	return chat.Message{Role: chat.RoleAssistant, Content: parts}
}

var weather = chat.Tool{Name: "get_weather", Description: "Current weather of a city",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

var clock = chat.Tool{Name: "get_time", Description: "The time now",
	InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}

// request is a request for model m with the usual budget.
func request(msgs ...chat.Message) chat.Request {
	return chat.Request{Model: "llama-3.3-70b", MaxTokens: ptr(1024), Messages: msgs}
}

func withTools(r chat.Request, tools ...chat.Tool) chat.Request {
	r.Tools = tools
	return r
}

func reply(id string, reason chat.StopReason, in, out int, parts ...chat.Part) chat.Response {
	return chat.Response{ID: id, Model: "llama-3.3-70b", Created: Created, Content: parts, StopReason: reason,
		Usage: chat.Usage{InputTokens: in, OutputTokens: out}}
}

// PNG is a 1x1 PNG, base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

const xmlCall = "I'll check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>"

// All returns every scenario, each a fresh value.
func All() []Scenario {
	paris := chat.ToolUse("toolu_01A", "get_weather", json.RawMessage(`{"city":"Paris"}`))
	rome := chat.ToolUse("call_02B", "get_weather", json.RawMessage(`{"city":"Rome"}`))
	return []Scenario{
		{Name: "plain_text", Request: request(user(chat.Text("Say hello."))),
			Reply: reply("msg_01plain", chat.StopEndTurn, 10, 5, chat.Text("Hello! How can I help you today?")), Chunk: 7},
		{Name: "system_prompt", Request: func() chat.Request {
			r := request(user(chat.Text("Who are you?")))
			r.System, r.Temperature, r.TopP = []chat.Part{chat.Text("You are a pirate.")}, ptr(0.7), ptr(0.9)
			return r
		}(), Reply: reply("chatcmpl-sys", chat.StopEndTurn, 20, 6, chat.Text("Arr, a pirate I be."))},
		{Name: "system_blocks", Request: func() chat.Request {
			r := request(user(chat.Text("Hi")))
			r.System = []chat.Part{chat.Text("Be brief."), chat.Text("Answer in French.")}
			return r
		}(), Reply: reply("msg_01sysb", chat.StopEndTurn, 12, 2, chat.Text("Salut."))},
		{Name: "multi_turn", Request: request(
			user(chat.Text("My name is Ada.")), assistant(chat.Text("Nice to meet you, Ada.")),
			user(chat.Text("What is my name?"))),
			Reply: reply("msg_01multi", chat.StopEndTurn, 30, 4, chat.Text("Your name is Ada.")), Chunk: 4},
		{Name: "tool_call", Request: withTools(request(user(chat.Text("Weather in Paris?"))), weather),
			Reply: reply("msg_01tool", chat.StopToolUse, 50, 20, chat.Text("Let me check."), paris), Chunk: 5},
		{Name: "tool_call_only", Request: withTools(request(user(chat.Text("Weather in Rome?"))), weather),
			Reply: reply("chatcmpl-only", chat.StopToolUse, 40, 12, rome), Chunk: 3},
		{Name: "parallel_tool_calls", Request: withTools(request(user(chat.Text("Weather in Paris and Rome, and the time?"))), weather, clock),
			Reply: reply("msg_01par", chat.StopToolUse, 60, 40, paris, rome,
				chat.ToolUse("toolu_03C", "get_time", json.RawMessage(`{}`))), Chunk: 6},
		{Name: "tool_result_round_trip", Request: withTools(request(
			user(chat.Text("Weather in Paris and Rome?")),
			assistant(chat.Text("Checking both."), paris, rome),
			user(chat.ToolResult("toolu_01A", []chat.Part{chat.Text("18C, sunny")}, false),
				chat.ToolResult("call_02B", []chat.Part{chat.Text("24C")}, false))), weather),
			Reply: reply("msg_01res", chat.StopEndTurn, 90, 15, chat.Text("Paris: 18C and sunny. Rome: 24C.")), Chunk: 9},
		{Name: "tool_result_error", Request: withTools(request(
			user(chat.Text("Weather in Paris?")), assistant(paris),
			user(chat.ToolResult("toolu_01A", []chat.Part{chat.Text("service down")}, true))), weather),
			Reply: reply("msg_01terr", chat.StopEndTurn, 70, 9, chat.Text("The weather service is down."))},
		{Name: "forced_tool", Request: func() chat.Request {
			r := withTools(request(user(chat.Text("Paris"))), weather, clock)
			r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"}
			return r
		}(), Reply: reply("msg_01force", chat.StopToolUse, 45, 10, paris)},
		{Name: "any_tool", Request: func() chat.Request {
			r := withTools(request(user(chat.Text("Time?"))), weather, clock)
			r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceAny}
			return r
		}(), Reply: reply("msg_01any", chat.StopToolUse, 45, 8, chat.ToolUse("toolu_04D", "get_time", json.RawMessage(`{}`)))},
		{Name: "no_tool", Request: func() chat.Request {
			r := withTools(request(user(chat.Text("Just say hi."))), weather)
			r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceNone}
			return r
		}(), Reply: reply("msg_01none", chat.StopEndTurn, 33, 2, chat.Text("Hi!"))},
		{Name: "max_tokens", Request: func() chat.Request {
			r := request(user(chat.Text("Write a long poem.")))
			r.MaxTokens = ptr(8)
			return r
		}(), Reply: reply("msg_01max", chat.StopMaxTokens, 15, 8, chat.Text("Roses are red, violets")), Chunk: 6},
		{Name: "stop_sequence", Request: func() chat.Request {
			r := request(user(chat.Text("Count to five.")))
			r.Stop = []string{"4", "END"}
			return r
		}(), Reply: func() chat.Response {
			r := reply("msg_01stop", chat.StopSequence, 14, 6, chat.Text("1, 2, 3, "))
			r.StopSequence = "4"
			return r
		}()},
		{Name: "image", Request: request(user(chat.Text("What is in this image?"), chat.Image("image/png", PNG))),
			Reply: reply("msg_01img", chat.StopEndTurn, 300, 9, chat.Text("A single transparent pixel."))},
		{Name: "mid_stream_error", Request: request(user(chat.Text("Tell me a story."))),
			Reply: reply("msg_01err", chat.StopEndTurn, 12, 30, chat.Text("Once upon a time there was")), Chunk: 10,
			Err: &chat.Error{Kind: kernel.KindUnavailable, Message: "Overloaded"}, ErrAfter: 4},
		{Name: "rate_limited", Request: request(user(chat.Text("Hi"))),
			Err: &chat.Error{Kind: kernel.KindRateLimited, Message: "Rate limit exceeded, retry in 20 seconds"}, Status: 429},
		{Name: "xml_tool_call", Request: withTools(request(user(chat.Text("Weather in Oslo?"))), weather),
			Reply: reply("msg_01xml", chat.StopEndTurn, 40, 25, chat.Text(xmlCall)), Chunk: 5,
			Want: func() *chat.Response {
				r := reply("msg_01xml", chat.StopToolUse, 40, 25, chat.Text("I'll check.\n"),
					chat.ToolUse("toolu_xml1", "get_weather", json.RawMessage(`{"city":"Oslo"}`)))
				return &r
			}()},
		{Name: "xml_noise_stripped", Request: request(user(chat.Text("Weather in Oslo?"))),
			Reply: reply("msg_01noise", chat.StopEndTurn, 40, 25, chat.Text(xmlCall)), Chunk: 4,
			Want: func() *chat.Response {
				r := reply("msg_01noise", chat.StopEndTurn, 40, 25, chat.Text("I'll check.\n"))
				return &r
			}()},
		{Name: "unicode_and_markup", Request: func() chat.Request {
			r := request(user(chat.Text("Échos <b>&</b> 🙂")))
			r.User = "user-42"
			return r
		}(), Reply: reply("msg_01uni", chat.StopEndTurn, 9, 9, chat.Text("Réponse: <b>a & b</b> 🙂\n\"quoted\"\ttab")), Chunk: 3},
		{Name: "refusal", Request: request(user(chat.Text("Something forbidden."))),
			Reply: reply("msg_01ref", chat.StopRefusal, 8, 3, chat.Text("I can't help with that."))},
		{Name: "no_parallel_tools", Request: func() chat.Request {
			r := withTools(request(user(chat.Text("Weather in Paris?"))), weather)
			r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceAuto}
			r.DisableParallelToolUse = true
			return r
		}(), Reply: reply("msg_01npar", chat.StopToolUse, 44, 11, paris)},
	}
}

// XMLToolIDs mints the ids of tool calls the <tool_call> filter makes, as
// Want expects them.
func XMLToolIDs() func() string {
	n := 0
	return func() string {
		n++
		return "toolu_xml" + string(rune('0'+n))
	}
}
