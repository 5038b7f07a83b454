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

func ptr[T any](v T) *T { return &v }

func TestDecodeRequest(t *testing.T) {
	body := `{
	  "model": "llama-3.3-70b", "max_tokens": 512, "temperature": 0.5, "top_p": 1, "top_k": 40,
	  "stream": true, "stop_sequences": ["END"], "metadata": {"user_id": "u-1"},
	  "thinking": {"type": "disabled"}, "service_tier": "auto",
	  "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
	  "tools": [{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
	  "tool_choice": {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true},
	  "messages": [
	    {"role": "user", "content": "Weather in Paris?"},
	    {"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]},
	    {"role": "assistant", "content": [
	      {"type": "thinking", "thinking": "hmm", "signature": "x"},
	      {"type": "text", "text": "Checking."},
	      {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
	    {"role": "user", "content": [
	      {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "18C"}], "is_error": false},
	      {"type": "text", "text": "And tomorrow?"}]}
	  ]}`
	got, err := DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Request{
		Model: "llama-3.3-70b", MaxTokens: ptr(512), Temperature: ptr(0.5), TopP: ptr(1.0), Stream: true,
		Stop: []string{"END"}, User: "u-1", System: []chat.Part{chat.Text("Be brief.")},
		Tools: []chat.Tool{{Name: "get_weather", Description: "Weather",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		ToolChoice:             &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"},
		DisableParallelToolUse: true,
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Weather in Paris?"), chat.Image("image/png", "iVBORw0KGgo=")}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.Text("Checking."),
				chat.ToolUse("toolu_1", "get_weather", json.RawMessage(`{"city":"Paris"}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.ToolResult("toolu_1", []chat.Part{chat.Text("18C")}, false),
				chat.Text("And tomorrow?")}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestDecodeRequestRefuses(t *testing.T) {
	const msgs = `"messages": [{"role": "user", "content": "hi"}]`
	cases := []struct{ name, body, field, rule string }{
		{"not JSON", `{"model":`, "", "json"},
		{"not an object", `[1]`, "", "type:object"},
		{"no model", `{` + msgs + `}`, "model", "required"},
		{"model not a string", `{"model": 1, ` + msgs + `}`, "model", "type:string"},
		{"no messages", `{"model": "m"}`, "messages", "required"},
		{"unknown member", `{"model": "m", "frobnicate": 1, ` + msgs + `}`, "frobnicate", "unknown_field"},
		{"max_tokens a string", `{"model": "m", "max_tokens": "5", ` + msgs + `}`, "max_tokens", "type:integer"},
		{"max_tokens a fraction", `{"model": "m", "max_tokens": 5.5, ` + msgs + `}`, "max_tokens", "type:integer"},
		{"max_tokens 0", `{"model": "m", "max_tokens": 0, ` + msgs + `}`, "max_tokens", "min:1"},
		{"temperature a string", `{"model": "m", "temperature": "hot", ` + msgs + `}`, "temperature", "type:number"},
		{"temperature 3", `{"model": "m", "temperature": 3, ` + msgs + `}`, "temperature", "range:0-2"},
		{"top_p 2", `{"model": "m", "top_p": 2, ` + msgs + `}`, "top_p", "range:0-1"},
		{"stream a string", `{"model": "m", "stream": "yes", ` + msgs + `}`, "stream", "type:boolean"},
		{"stop_sequences a string", `{"model": "m", "stop_sequences": "x", ` + msgs + `}`, "stop_sequences", "type:array"},
		{"stop sequence a number", `{"model": "m", "stop_sequences": [1], ` + msgs + `}`, "stop_sequences[0]", "type:string"},
		{"thinking on", `{"model": "m", "thinking": {"type": "enabled", "budget_tokens": 1024}, ` + msgs + `}`, "thinking.type", "unsupported"},
		{"metadata member", `{"model": "m", "metadata": {"x": 1}, ` + msgs + `}`, "metadata.x", "unknown_field"},
		{"system a number", `{"model": "m", "system": 5, ` + msgs + `}`, "system", "type:string_or_array"},
		{"system image", `{"model": "m", "system": [{"type": "image"}], ` + msgs + `}`, "system[0].type", "block_type"},
		{"messages an object", `{"model": "m", "messages": {}}`, "messages", "type:array"},
		{"message a string", `{"model": "m", "messages": ["hi"]}`, "messages[0]", "type:object"},
		{"role system", `{"model": "m", "messages": [{"role": "system", "content": "x"}]}`, "messages[0].role", "enum:user,assistant"},
		{"content a number", `{"model": "m", "messages": [{"role": "user", "content": 5}]}`, "messages[0].content", "type:string_or_array"},
		{"no content", `{"model": "m", "messages": [{"role": "user"}]}`, "messages[0].content", "required"},
		{"block without type", `{"model": "m", "messages": [{"role": "user", "content": [{"text": "x"}]}]}`, "messages[0].content[0].type", "required"},
		{"document block", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "document"}]}]}`, "messages[0].content[0].type", "block_type"},
		{"text a number", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": 1}]}]}`, "messages[0].content[0].text", "type:string"},
		{"image url", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "https://x/y.png"}}]}]}`,
			"messages[0].content[0].source.type", "image_source"},
		{"image media type", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "AA=="}}]}]}`,
			"messages[0].content[0].media_type", "media_type"},
		{"tool_use input a string", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]}]}`,
			"messages[1].content[0].input", "type:object"},
		{"tool_result of nothing", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}]}`,
			"messages[0].content[0].tool_use_id", "answers_tool_use"},
		{"is_error a string", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": "no"}]}]}`,
			"messages[0].content[0].is_error", "type:boolean"},
		{"server tool", `{"model": "m", "tools": [{"type": "web_search_20250305", "name": "web_search"}], ` + msgs + `}`, "tools[0].type", "unsupported"},
		{"tool without schema", `{"model": "m", "tools": [{"name": "f"}], ` + msgs + `}`, "tools[0].input_schema", "required"},
		{"tool bad name", `{"model": "m", "tools": [{"name": "a b", "input_schema": {"type": "object"}}], ` + msgs + `}`, "tools[0].name", "tool_name"},
		{"tool_choice a string", `{"model": "m", "tool_choice": "auto", ` + msgs + `}`, "tool_choice", "type:object"},
		{"tool_choice unknown", `{"model": "m", "tool_choice": {"type": "required"}, ` + msgs + `}`, "tool_choice.type", "enum:auto,any,tool,none"},
		{"tool_choice tool without name", `{"model": "m", "tool_choice": {"type": "tool"}, ` + msgs + `}`, "tool_choice.name", "required"},
		{"tool_choice any without tools", `{"model": "m", "tool_choice": {"type": "any"}, ` + msgs + `}`, "tool_choice", "requires_tools"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeRequest([]byte(c.body))
			var ke *kernel.Error
			if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if ke.Field != c.field || ke.Rule != c.rule {
				t.Fatalf("field %q rule %q, want %q %q (%v)", ke.Field, ke.Rule, c.field, c.rule, err)
			}
			if c.field != "" && !strings.HasPrefix(ke.Message, c.field+": ") {
				t.Fatalf("message %q does not name the field first", ke.Message)
			}
			body := string(EncodeError(chat.ErrorFrom(err)))
			if !strings.HasPrefix(body, `{"type":"error","error":{"type":"invalid_request_error","message":"`+c.field) {
				t.Fatalf("error body %s", body)
			}
		})
	}
}

// TestEncodeRequest pins the request an upstream of this format gets.
func TestEncodeRequest(t *testing.T) {
	r := chat.Request{Model: "claude-x", System: []chat.Part{chat.Text("Be brief.")}, Temperature: ptr(0.2), Stream: true,
		Stop: []string{"END"}, User: "u-1", DisableParallelToolUse: true,
		Tools: []chat.Tool{{Name: "get_weather", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Paris?"), chat.Image("image/png", "AA==")}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.ToolUse("call_1", "get_weather", json.RawMessage(`{"city":"Paris"}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.ToolResult("call_1", []chat.Part{chat.Text("18C")}, true)}},
		}}
	got, err := EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"claude-x","max_tokens":4096,"system":"Be brief.","messages":[` +
		`{"role":"user","content":[{"type":"text","text":"Paris?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"18C","is_error":true}]}],` +
		`"tools":[{"name":"get_weather","input_schema":{"type":"object"}}],"tool_choice":{"type":"auto","disable_parallel_tool_use":true},` +
		`"temperature":0.2,"stop_sequences":["END"],"stream":true,"metadata":{"user_id":"u-1"}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestRequestRoundTrip: every scenario's request, encoded in this format
// and decoded back, is the same IR (max_tokens set, as the gateway sets it).
func TestRequestRoundTrip(t *testing.T) {
	for _, s := range scenarios.All() {
		body, err := EncodeRequest(s.Request)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		got, err := DecodeRequest(body)
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.Name, err, body)
		}
		if !reflect.DeepEqual(got, s.Request) {
			t.Fatalf("%s:\n got %+v\nwant %+v", s.Name, got, s.Request)
		}
	}
}
