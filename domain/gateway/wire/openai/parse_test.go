package openai

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/kernel"
)

// chunks builds a stream of data lines.
func chunks(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("data: " + l + "\n\n")
	}
	return b.String()
}

const head = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"gpt-x","system_fingerprint":"fp","choices":`

func TestParseUpstreamStream(t *testing.T) {
	// As the format's API streams a reply with text, two tool calls and the
	// usage chunk (with members the IR does not keep).
	in := ": keep-alive\n\n" + chunks(
		head+`[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{"content":"Checking."},"logprobs":null,"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]},"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]},"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"name":"get_time","arguments":"{}"}}]},"finish_reason":null}],"usage":null}`,
		head+`[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
		head+`[],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42,"prompt_tokens_details":{"cached_tokens":0}}}`,
		"[DONE]")
	p := NewStreamParser(iotest.OneByteReader(strings.NewReader(in)))
	var got []chat.Event
	for {
		ev, err := p.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev)
	}
	want := []chat.Event{
		chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7},
		chat.BlockStart{Index: 0, Kind: chat.BlockText},
		chat.TextDelta{Index: 0, Text: "Checking."},
		chat.BlockStop{Index: 0},
		chat.BlockStart{Index: 1, Kind: chat.BlockToolUse, ToolID: "call_a", ToolName: "get_weather"},
		chat.InputDelta{Index: 1, PartialJSON: `{"city":`},
		chat.InputDelta{Index: 1, PartialJSON: `"Paris"}`},
		chat.BlockStop{Index: 1},
		// An id the upstream left out is made from the stream's id and the index.
		chat.BlockStart{Index: 2, Kind: chat.BlockToolUse, ToolID: "call_chatcmpl-1_1", ToolName: "get_time"},
		chat.InputDelta{Index: 2, PartialJSON: `{}`},
		chat.BlockStop{Index: 2},
		chat.Stop{Reason: chat.StopToolUse, Usage: chat.Usage{InputTokens: 30, OutputTokens: 12}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

func TestParseVariants(t *testing.T) {
	first := head + `[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`
	cases := []struct {
		name string
		in   string
		want []chat.Event
		err  error
	}{
		{"no [DONE] after the finish", chunks(first, head+`[{"index":0,"delta":{},"finish_reason":"length"}]}`),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7}, chat.BlockStart{Kind: chat.BlockText},
				chat.TextDelta{Text: "Hi"}, chat.BlockStop{}, chat.Stop{Reason: chat.StopMaxTokens}}, nil},
		{"[DONE] without a finish", chunks(first, "[DONE]"),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7}, chat.BlockStart{Kind: chat.BlockText},
				chat.TextDelta{Text: "Hi"}, chat.BlockStop{}, chat.Stop{Reason: chat.StopEndTurn}}, nil},
		{"finish and usage in one chunk, stop sequence", chunks(first,
			head+`[{"index":0,"delta":{},"finish_reason":"stop","stop_reason":"END"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`, "[DONE]"),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7}, chat.BlockStart{Kind: chat.BlockText},
				chat.TextDelta{Text: "Hi"}, chat.BlockStop{},
				chat.Stop{Reason: chat.StopSequence, Sequence: "END", Usage: chat.Usage{InputTokens: 1, OutputTokens: 2}}}, nil},
		{"error chunk", chunks(first, `{"error":{"message":"Rate limited","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "[DONE]"),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7}, chat.BlockStart{Kind: chat.BlockText},
				chat.TextDelta{Text: "Hi"}, chat.Error{Kind: kernel.KindRateLimited, Message: "Rate limited", Code: "rate_limit_exceeded"}}, nil},
		{"cut off", chunks(first), []chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7},
			chat.BlockStart{Kind: chat.BlockText}, chat.TextDelta{Text: "Hi"}}, ErrTruncated},
		{"a fragment of a closed call", chunks(
			head+`[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{"}}]}}]}`,
			head+`[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}`,
			head+`[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}`),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7},
				chat.BlockStart{Kind: chat.BlockToolUse, ToolID: "a", ToolName: "f"}, chat.InputDelta{PartialJSON: "{"},
				chat.BlockStop{}, chat.BlockStart{Index: 1, Kind: chat.BlockToolUse, ToolID: "b", ToolName: "g"},
				chat.InputDelta{Index: 1, PartialJSON: "{}"}}, errClosed},
		{"a call without a name", chunks(head + `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":"{}"}}]}}]}`),
			[]chat.Event{chat.Start{ID: "chatcmpl-1", Model: "gpt-x", Created: 7}}, errNoName},
		{"not this format", "data: {oops\n\n", nil, errJSON},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseStream(t, []byte(c.in))
			switch {
			case c.err == nil && err != nil, c.err != nil && err == nil:
				t.Fatalf("err %v, want %v", err, c.err)
			case c.err == ErrTruncated && !errors.Is(err, ErrTruncated):
				t.Fatalf("err %v, want %v", err, c.err)
			case c.err != nil && c.err != ErrTruncated && !strings.Contains(err.Error(), c.err.Error()):
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

var (
	errClosed = errors.New("after it was closed")
	errNoName = errors.New("without a name")
	errJSON   = errors.New("read a stream chunk")
)
