package openai

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestFinishReasonMapping(t *testing.T) {
	for _, c := range []struct {
		ir     chat.StopReason
		seq    string
		finish string
	}{
		{chat.StopEndTurn, "", "stop"}, {chat.StopToolUse, "", "tool_calls"}, {chat.StopMaxTokens, "", "length"},
		{chat.StopSequence, "END", "stop"}, {chat.StopRefusal, "", "content_filter"}, {chat.StopError, "", "error"},
	} {
		if FinishReason(c.ir) != c.finish {
			t.Errorf("%s -> %s, want %s", c.ir, FinishReason(c.ir), c.finish)
		}
		hint, _ := json.Marshal(c.seq)
		if c.seq == "" {
			hint = []byte("null")
		}
		if r, seq := StopReason(c.finish, hint); r != c.ir || seq != c.seq {
			t.Errorf("%s (%s) -> %s %q, want %s", c.finish, hint, r, seq, c.ir)
		}
	}
	for finish, ir := range map[string]chat.StopReason{"function_call": chat.StopToolUse, "": chat.StopEndTurn, "eos": chat.StopEndTurn} {
		if r, _ := StopReason(finish, nil); r != ir {
			t.Errorf("%q -> %s, want %s", finish, r, ir)
		}
	}
	// vLLM's stop_reason may be a token id: not a sequence.
	if r, _ := StopReason("stop", json.RawMessage("128009")); r != chat.StopEndTurn {
		t.Errorf("numeric stop_reason: %s", r)
	}
}

func TestErrorMapping(t *testing.T) {
	for kind, typ := range map[kernel.Kind]string{
		kernel.KindInvalid: "invalid_request_error", kernel.KindUnauthenticated: "authentication_error",
		kernel.KindPaymentRequired: "insufficient_quota", kernel.KindForbidden: "permission_error",
		kernel.KindNotFound: "not_found_error", kernel.KindRateLimited: "rate_limit_error",
		kernel.KindTimeout: "timeout_error", kernel.KindUnavailable: "service_unavailable_error",
		kernel.KindInternal: "server_error",
	} {
		e := chat.Error{Kind: kind, Message: "m", Param: "p", Code: "c"}
		body := EncodeError(e)
		if string(body) != `{"error":{"message":"m","type":"`+typ+`","param":"p","code":"c"}}` {
			t.Errorf("%s: %s", kind, body)
		}
		if back := DecodeError(0, body); back != e {
			t.Errorf("%s: read back %+v", kind, back)
		}
	}
	if b := EncodeError(chat.Error{Kind: kernel.KindInvalid, Message: "m"}); string(b) != `{"error":{"message":"m","type":"invalid_request_error","param":null,"code":null}}` {
		t.Errorf("nulls: %s", b)
	}
	if e := DecodeError(503, []byte(`upstream connect error`)); e.Kind != kernel.KindUnavailable || e.Message != "upstream connect error" {
		t.Errorf("503: %+v", e)
	}
	if e := DecodeError(429, []byte(`{"error":{"message":"slow","type":"requests","code":429}}`)); e.Kind != kernel.KindRateLimited || e.Code != "429" {
		t.Errorf("429: %+v", e)
	}
}

func TestCompletionID(t *testing.T) {
	for in, want := range map[string]string{"chatcmpl-1": "chatcmpl-1", "msg_01X": "chatcmpl-01X", "cmpl-7": "chatcmpl-cmpl-7"} {
		if got := CompletionID(in); got != want {
			t.Errorf("CompletionID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEncodeResponse(t *testing.T) {
	s := scenarios.All()[4] // tool_call
	got, err := EncodeResponse(s.Reply)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"chatcmpl-01tool","object":"chat.completion","created":1767225600,"model":"llama-3.3-70b","choices":[{"index":0,` +
		`"message":{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"toolu_01A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},` +
		`"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":20,"total_tokens":70}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	only, _ := EncodeResponse(chat.Response{ID: "x", StopReason: chat.StopToolUse, Content: []chat.Part{chat.ToolUse("c", "f", json.RawMessage(`{}`))}})
	var v struct {
		Choices []struct{ Message map[string]json.RawMessage }
	}
	if json.Unmarshal(only, &v) != nil || string(v.Choices[0].Message["content"]) != "null" {
		t.Fatalf("content of a reply with only tool calls: %s", only)
	}
}

// TestResponseRoundTrip: every scenario's reply, encoded and decoded, is
// the same IR as this format carries it (CarriedResponse).
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
		if want := CarriedResponse(s.Client()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", s.Name, got, want)
		}
	}
}

// TestDecodeResponse reads a reply as the format's API writes it.
func TestDecodeResponse(t *testing.T) {
	body := `{"id":"chatcmpl-9","object":"chat.completion","created":7,"model":"gpt-x","system_fingerprint":"fp",
	  "choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"annotations":[],
	    "tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\n  \"a\": 1\n}"}},
	                  {"id":"call_2","type":"function","function":{"name":"g","arguments":""}}]},
	    "logprobs":null,"finish_reason":"tool_calls"}],
	  "usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7,"completion_tokens_details":{"reasoning_tokens":0}}}`
	got, err := DecodeResponse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Response{ID: "chatcmpl-9", Model: "gpt-x", Created: 7, StopReason: chat.StopToolUse,
		Content: []chat.Part{chat.ToolUse("call_1", "f", json.RawMessage(`{"a":1}`)), chat.ToolUse("call_2", "g", json.RawMessage(`{}`))},
		Usage:   chat.Usage{InputTokens: 3, OutputTokens: 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{`{"choices":[]}`, `[`,
		`{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"f","arguments":"{oops"}}]}}]}`} {
		if _, err := DecodeResponse([]byte(bad)); err == nil {
			t.Errorf("%s read as a completion", bad)
		}
	}
}
