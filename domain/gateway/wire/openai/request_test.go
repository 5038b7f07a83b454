package openai

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/kernel"
)

func ptr[T any](v T) *T { return &v }

func TestDecodeRequest(t *testing.T) {
	body := `{
	  "model": "llama-3.3-70b", "max_completion_tokens": 512, "temperature": 0.5, "top_p": 1,
	  "stream": true, "stream_options": {"include_usage": true}, "stop": "END", "user": "u-1",
	  "n": 1, "seed": 7, "frequency_penalty": 0, "response_format": {"type": "text"}, "parallel_tool_calls": false,
	  "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}, "strict": true}},
	            {"type": "function", "function": {"name": "get_time"}}],
	  "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
	  "messages": [
	    {"role": "system", "content": "Be brief."},
	    {"role": "developer", "content": [{"type": "text", "text": "Use metric units."}]},
	    {"role": "user", "content": "Weather in Paris?", "name": "ada"},
	    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}}]},
	    {"role": "assistant", "content": "", "tool_calls": [
	      {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
	      {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": ""}}]},
	    {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
	    {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "noon"}]},
	    {"role": "user", "content": "And tomorrow?"},
	    {"role": "assistant", "content": null, "tool_calls": [{"id": "call_3", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
	    {"role": "tool", "tool_call_id": "call_3", "content": ""}
	  ]}`
	got, err := DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := chat.Request{
		Model: "llama-3.3-70b", MaxTokens: ptr(512), Temperature: ptr(0.5), TopP: ptr(1.0), Stream: true, IncludeUsage: true,
		Stop: []string{"END"}, User: "u-1", DisableParallelToolUse: true,
		System: []chat.Part{chat.Text("Be brief."), chat.Text("Use metric units.")},
		Tools: []chat.Tool{
			{Name: "get_weather", Description: "Weather", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)},
			{Name: "get_time", InputSchema: json.RawMessage(EmptyParameters)}},
		ToolChoice: &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Weather in Paris?"), chat.Image("image/png", "iVBORw0KGgo=")}},
			{Role: chat.RoleAssistant, Content: []chat.Part{
				chat.ToolUse("call_1", "get_weather", json.RawMessage(`{"city":"Paris"}`)),
				chat.ToolUse("call_2", "get_time", json.RawMessage(`{}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{
				chat.ToolResult("call_1", []chat.Part{chat.Text("18C")}, false),
				chat.ToolResult("call_2", []chat.Part{chat.Text("noon")}, false),
				chat.Text("And tomorrow?")}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.ToolUse("call_3", "get_time", json.RawMessage(`{}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.ToolResult("call_3", nil, false)}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestDecodeRequestRefuses(t *testing.T) {
	const msgs = `"messages": [{"role": "user", "content": "hi"}]`
	const call = `{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}`
	const tools = `"tools": [{"type": "function", "function": {"name": "f"}}]`
	cases := []struct{ name, body, field, rule string }{
		{"not JSON", `{`, "", "json"},
		{"no model", `{` + msgs + `}`, "model", "required"},
		{"unknown member", `{"model": "m", "functions": [], ` + msgs + `}`, "functions", "unknown_field"},
		{"n of 2", `{"model": "m", "n": 2, ` + msgs + `}`, "n", "unsupported"},
		{"logprobs", `{"model": "m", "logprobs": true, ` + msgs + `}`, "logprobs", "unsupported"},
		{"json mode", `{"model": "m", "response_format": {"type": "json_object"}, ` + msgs + `}`, "response_format.type", "unsupported"},
		{"seed a string", `{"model": "m", "seed": "7", ` + msgs + `}`, "seed", "type:number"},
		{"max_tokens a string", `{"model": "m", "max_tokens": "9", ` + msgs + `}`, "max_tokens", "type:integer"},
		{"max_completion_tokens 0", `{"model": "m", "max_completion_tokens": 0, ` + msgs + `}`, "max_completion_tokens", "min:1"},
		{"temperature 2.5", `{"model": "m", "temperature": 2.5, ` + msgs + `}`, "temperature", "range:0-2"},
		{"stop a number", `{"model": "m", "stop": 4, ` + msgs + `}`, "stop", "type:string_or_array"},
		{"stop empty string", `{"model": "m", "stop": "", ` + msgs + `}`, "stop", "non_empty"},
		{"stop empty in array", `{"model": "m", "stop": ["a", ""], ` + msgs + `}`, "stop[1]", "non_empty"},
		{"stream_options without stream", `{"model": "m", "stream_options": {"include_usage": true}, ` + msgs + `}`, "stream_options", "requires_stream"},
		{"include_usage a string", `{"model": "m", "stream": true, "stream_options": {"include_usage": "yes"}, ` + msgs + `}`, "stream_options.include_usage", "type:boolean"},
		{"role function", `{"model": "m", "messages": [{"role": "function", "content": "x"}]}`, "messages[0].role", "enum:system,developer,user,assistant,tool"},
		{"system image", `{"model": "m", "messages": [{"role": "system", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}]}]}`, "messages[0].content[0].type", "part_type"},
		{"user content a number", `{"model": "m", "messages": [{"role": "user", "content": 1}]}`, "messages[0].content", "type:string_or_array"},
		{"audio part", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}]}`, "messages[0].content[0].type", "part_type"},
		{"image by URL", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]}`, "messages[0].content[0].image_url.url", "data_url"},
		{"image of a bad type", `{"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/bmp;base64,AA=="}}]}]}`, "messages[0].content[0].image_url.url", "media_type"},
		{"empty assistant", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant"}]}`, "messages[1].content", "required"},
		{"arguments not JSON", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{city"}}]}]}`,
			"messages[1].tool_calls[0].function.arguments", "json_object"},
		{"arguments an object", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}]}`,
			"messages[1].tool_calls[0].function.arguments", "type:string"},
		{"tool call bad name", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "a b", "arguments": "{}"}}]}]}`,
			"messages[1].tool_calls[0].function.name", "tool_name"},
		{"tool message of nothing", `{"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "c9", "content": "r"}]}`,
			"messages[1].tool_call_id", "answers_tool_use"},
		{"tool message missing", `{"model": "m", "messages": [{"role": "user", "content": "x"}, ` + call + `, {"role": "user", "content": "go on"}]}`,
			"messages[2].content", "tool_use_answered"},
		{"tool answered twice", `{"model": "m", "messages": [{"role": "user", "content": "x"}, ` + call + `, {"role": "tool", "tool_call_id": "c1", "content": "a"}, {"role": "tool", "tool_call_id": "c1", "content": "b"}]}`,
			"messages[3].tool_call_id", "unique"},
		{"tool message without id", `{"model": "m", "messages": [{"role": "tool", "content": "r"}]}`, "messages[0].tool_call_id", "required"},
		{"tool of type custom", `{"model": "m", "tools": [{"type": "custom", "custom": {"name": "x"}}], ` + msgs + `}`, "tools[0].custom", "unknown_field"},
		{"tool bad name", `{"model": "m", "tools": [{"type": "function", "function": {"name": "a.b"}}], ` + msgs + `}`, "tools[0].function.name", "tool_name"},
		{"tool parameters a string", `{"model": "m", "tools": [{"type": "function", "function": {"name": "f", "parameters": "{}"}}], ` + msgs + `}`, "tools[0].function.parameters", "type:object"},
		{"tool parameters not an object schema", `{"model": "m", "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "array"}}}], ` + msgs + `}`, "tools[0].function.parameters", "json_schema_object"},
		{"tool_choice unknown", `{"model": "m", "tool_choice": "always", ` + tools + `, ` + msgs + `}`, "tool_choice", "enum:auto,none,required"},
		{"tool_choice unknown tool", `{"model": "m", "tool_choice": {"type": "function", "function": {"name": "g"}}, ` + tools + `, ` + msgs + `}`, "tool_choice.function.name", "known_tool"},
		{"required without tools", `{"model": "m", "tool_choice": "required", ` + msgs + `}`, "tool_choice", "requires_tools"},
		{"parallel_tool_calls a string", `{"model": "m", "parallel_tool_calls": "no", ` + msgs + `}`, "parallel_tool_calls", "type:boolean"},
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
			var body struct {
				Error struct{ Message, Type, Param, Code string }
			}
			if err := json.Unmarshal(EncodeError(chat.ErrorFrom(err)), &body); err != nil {
				t.Fatal(err)
			}
			if body.Error.Type != "invalid_request_error" || body.Error.Param != c.field || body.Error.Code != c.rule ||
				(c.field != "" && body.Error.Message[:len(c.field)] != c.field) {
				t.Fatalf("error body %+v", body)
			}
		})
	}
}

// TestEncodeRequest pins the request an upstream of this format gets.
func TestEncodeRequest(t *testing.T) {
	r := chat.Request{Model: "gpt-x", System: []chat.Part{chat.Text("Be brief."), chat.Text("Metric.")}, MaxTokens: ptr(100),
		Stream: true, Stop: []string{"END"}, User: "u-1", DisableParallelToolUse: true,
		Tools:      []chat.Tool{{Name: "get_weather", Description: "Weather", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice: &chat.ToolChoice{Type: chat.ToolChoiceAny},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Paris?"), chat.Image("image/png", "AA==")}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.Text("Checking."),
				chat.ToolUse("toolu_1", "get_weather", json.RawMessage(`{"city":"Paris"}`)),
				chat.ToolUse("toolu_2", "get_weather", json.RawMessage(`{"city":"Rome"}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{
				chat.ToolResult("toolu_1", []chat.Part{chat.Text("18C")}, false),
				chat.ToolResult("toolu_2", []chat.Part{chat.Text("timeout")}, true),
				chat.Text("Thanks")}},
		}}
	got, err := EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-x","messages":[{"role":"system","content":"Be brief."},{"role":"system","content":"Metric."},` +
		`{"role":"user","content":[{"type":"text","text":"Paris?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AA=="}}]},` +
		`{"role":"assistant","content":"Checking.","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},` +
		`{"id":"toolu_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}]},` +
		`{"role":"tool","content":"18C","tool_call_id":"toolu_1"},{"role":"tool","content":"Error: timeout","tool_call_id":"toolu_2"},` +
		`{"role":"user","content":"Thanks"}],"max_tokens":100,"stop":["END"],"stream":true,"stream_options":{"include_usage":true},` +
		`"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object"}}}],` +
		`"tool_choice":"required","parallel_tool_calls":false,"user":"u-1"}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// A tool result holding an image cannot be said in this format.
	r.Messages[2].Content[0].Content = append(r.Messages[2].Content[0].Content, chat.Image("image/png", "AA=="))
	_, err = EncodeRequest(r)
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Field != "messages[2].content[0].content[1]" || ke.Rule != "tool_result_text" {
		t.Fatalf("image in a tool result: %v", err)
	}
}

func TestToolChoiceMapping(t *testing.T) {
	for _, c := range []struct {
		ir   chat.ToolChoice
		wire string
	}{
		{chat.ToolChoice{Type: chat.ToolChoiceAuto}, `"auto"`},
		{chat.ToolChoice{Type: chat.ToolChoiceNone}, `"none"`},
		{chat.ToolChoice{Type: chat.ToolChoiceAny}, `"required"`},
		{chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "f"}, `{"type":"function","function":{"name":"f"}}`},
	} {
		b, _ := json.Marshal(toolChoiceOf(c.ir))
		if string(b) != c.wire {
			t.Errorf("%+v -> %s, want %s", c.ir, b, c.wire)
		}
		body := `{"model":"m","tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":` + c.wire + `,"messages":[{"role":"user","content":"x"}]}`
		r, err := DecodeRequest([]byte(body))
		if err != nil || *r.ToolChoice != c.ir {
			t.Errorf("%s -> %+v, %v", c.wire, r.ToolChoice, err)
		}
	}
}

// TestRequestRoundTrip: every scenario's request, encoded in this format
// and decoded back, is the same IR but for what the format cannot say: a
// tool result's is_error (its text starts with ToolErrorPrefix instead)
// and a stream's usage, which the gateway always asks an upstream for.
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
		if !reflect.DeepEqual(got, Carried(s.Request)) {
			t.Fatalf("%s:\n got %+v\nwant %+v", s.Name, got, Carried(s.Request))
		}
	}
}
