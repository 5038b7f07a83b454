package messages

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

// upstreamStream is a stream as the format's API sends it, with what the IR
// does not keep: pings, a thinking block, an empty first input fragment,
// members the parser does not know.
const upstreamStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_read_input_tokens":0,"output_tokens":1}}}

event: ping
data: {"type": "ping"}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Paris..."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Checking"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: some_future_event
data: {"type":"some_future_event"}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

`

func TestParseUpstreamStream(t *testing.T) {
	p := NewStreamParser(iotest.OneByteReader(strings.NewReader(upstreamStream)))
	var got []chat.Event
	for {
		ev, err := p.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		got = append(got, ev)
	}
	want := []chat.Event{
		chat.Start{ID: "msg_01", Model: "claude-x", InputTokens: 25},
		chat.BlockStart{Index: 0, Kind: chat.BlockText},
		chat.TextDelta{Index: 0, Text: "Checking"},
		chat.BlockStop{Index: 0},
		chat.BlockStart{Index: 1, Kind: chat.BlockToolUse, ToolID: "toolu_1", ToolName: "get_weather"},
		chat.InputDelta{Index: 1, PartialJSON: `{"city": "Par`},
		chat.InputDelta{Index: 1, PartialJSON: `is"}`},
		chat.BlockStop{Index: 1},
		chat.Stop{Reason: chat.StopToolUse, Usage: chat.Usage{InputTokens: 25, OutputTokens: 89}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}

func TestParseErrorsAndBreaks(t *testing.T) {
	start := upstreamStream[:strings.Index(upstreamStream, "event: ping")]
	evs, err := parseStream(t, []byte(start+"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"))
	if err != nil || len(evs) != 2 || evs[1] != (chat.Error{Kind: kernel.KindUnavailable, Message: "Overloaded"}) {
		t.Fatalf("error event: %#v %v", evs, err)
	}
	if _, err := parseStream(t, []byte(start)); !errors.Is(err, ErrTruncated) {
		t.Fatalf("a stream cut off: %v", err)
	}
	if _, err := parseStream(t, []byte(start+"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")); !errors.Is(err, ErrTruncated) {
		t.Fatalf("message_stop without message_delta: %v", err)
	}
	if _, err := parseStream(t, []byte("data: not json\n\n")); err == nil {
		t.Fatal("a stream that is not this format's parsed")
	}
	// A block start that carries content keeps it as a delta.
	evs, err = parseStream(t, []byte(start+`event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{"a":1}}}

`))
	if !errors.Is(err, ErrTruncated) || len(evs) != 3 || evs[2] != (chat.InputDelta{Index: 0, PartialJSON: `{"a":1}`}) {
		t.Fatalf("start with input: %#v %v", evs, err)
	}
}
