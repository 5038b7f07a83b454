package messages

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestStopReasonMapping(t *testing.T) {
	for _, c := range []struct {
		ir   chat.StopReason
		wire string
	}{
		{chat.StopEndTurn, "end_turn"}, {chat.StopToolUse, "tool_use"}, {chat.StopMaxTokens, "max_tokens"},
		{chat.StopSequence, "stop_sequence"}, {chat.StopRefusal, "refusal"},
	} {
		if stopReasons[c.ir] != c.wire || StopReason(c.wire) != c.ir {
			t.Errorf("%s <-> %s: %q, %q", c.ir, c.wire, stopReasons[c.ir], StopReason(c.wire))
		}
	}
	for wire, ir := range map[string]chat.StopReason{"pause_turn": chat.StopEndTurn,
		"model_context_window_exceeded": chat.StopMaxTokens, "something_new": chat.StopEndTurn} {
		if StopReason(wire) != ir {
			t.Errorf("%s -> %s, want %s", wire, StopReason(wire), ir)
		}
	}
	if _, err := EncodeResponse(chat.Response{ID: "x", StopReason: chat.StopError}); !errors.Is(err, ErrStoppedWithError) {
		t.Fatalf("StopError: %v", err)
	}
}

func TestErrorMapping(t *testing.T) {
	for kind, typ := range map[kernel.Kind]string{
		kernel.KindInvalid: "invalid_request_error", kernel.KindUnauthenticated: "authentication_error",
		kernel.KindPaymentRequired: "billing_error", kernel.KindForbidden: "permission_error",
		kernel.KindNotFound: "not_found_error", kernel.KindTooLarge: "request_too_large",
		kernel.KindRateLimited: "rate_limit_error", kernel.KindTimeout: "timeout_error",
		kernel.KindUnavailable: "overloaded_error", kernel.KindInternal: "api_error", kernel.KindConflict: "conflict_error",
	} {
		e := chat.Error{Kind: kind, Message: "m"}
		body := EncodeError(e)
		if string(body) != `{"type":"error","error":{"type":"`+typ+`","message":"m"}}` {
			t.Errorf("%s: %s", kind, body)
		}
		if back := DecodeError(0, body); back != e {
			t.Errorf("%s: read back %+v", kind, back)
		}
	}
	if b := EncodeError(chat.Error{Kind: kernel.KindInvalid, Message: "must be at most 2", Param: "temperature"}); !strings.Contains(string(b), `"message":"temperature: must be at most 2"`) {
		t.Errorf("param not named: %s", b)
	}
	// A body that is not this format's: the status decides.
	if e := DecodeError(529, []byte("<html>overloaded</html>")); e.Kind != kernel.KindUnavailable || e.Message != "<html>overloaded</html>" {
		t.Errorf("529: %+v", e)
	}
	if e := DecodeError(502, nil); e.Kind != kernel.KindUnavailable || e.Message == "" {
		t.Errorf("502: %+v", e)
	}
}

func TestMessageID(t *testing.T) {
	for in, want := range map[string]string{"msg_01X": "msg_01X", "chatcmpl-abc": "msg_abc", "cmpl-7": "msg_cmpl-7"} {
		if got := MessageID(in); got != want {
			t.Errorf("MessageID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEncodeResponse(t *testing.T) {
	s := scenarios.All()[4] // tool_call
	got, err := EncodeResponse(s.Reply)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"msg_01tool","type":"message","role":"assistant","model":"llama-3.3-70b",` +
		`"content":[{"type":"text","text":"Let me check."},{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city":"Paris"}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":20}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestResponseRoundTrip: every scenario's reply, encoded and decoded, is
// the same IR, but for created, which this format does not carry.
func TestResponseRoundTrip(t *testing.T) {
	for _, s := range scenarios.All() {
		if s.Status != 0 {
			continue
		}
		body, err := EncodeResponse(s.Client())
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		got, err := DecodeResponse(body)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		want := s.Client()
		want.ID, want.Created = MessageID(want.ID), 0
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", s.Name, got, want)
		}
	}
}

// TestDecodeResponse reads a reply as the format's API writes it, with
// members and blocks the IR does not keep.
func TestDecodeResponse(t *testing.T) {
	body := `{"id":"msg_01","type":"message","role":"assistant","model":"claude-x","container":null,
	  "content":[{"type":"thinking","thinking":"...","signature":"s"},{"type":"text","text":"Hi","citations":null},
	    {"type":"tool_use","id":"toolu_1","name":"f","input":{ "a" : 1 }}],
	  "stop_reason":"stop_sequence","stop_sequence":"END","stop_details":null,
	  "usage":{"input_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":4,"service_tier":"standard"}}`
	got, err := DecodeResponse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Response{ID: "msg_01", Model: "claude-x", StopReason: chat.StopSequence, StopSequence: "END",
		Content: []chat.Part{chat.Text("Hi"), chat.ToolUse("toolu_1", "f", json.RawMessage(`{"a":1}`))},
		Usage:   chat.Usage{InputTokens: 3, OutputTokens: 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{`{"type":"error","error":{}}`, `[`} {
		if _, err := DecodeResponse([]byte(bad)); err == nil {
			t.Errorf("%s read as a message", bad)
		}
	}
}
