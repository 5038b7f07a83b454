package chat

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func ptr[T any](v T) *T { return &v }

var weatherSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)

// validRequest is a request that uses every feature: each case below breaks
// one rule of it.
func validRequest() Request {
	return Request{
		Model:  "m",
		System: []Part{Text("be brief")},
		Tools: []Tool{
			{Name: "get_weather", Description: "weather", InputSchema: weatherSchema},
			{Name: "get-time_2", InputSchema: json.RawMessage(`{"type":"object"}`)},
		},
		ToolChoice: &ToolChoice{Type: ToolChoiceTool, Name: "get_weather"},
		MaxTokens:  ptr(1), Temperature: ptr(2.0), TopP: ptr(0.0),
		Stop: []string{"END"},
		Messages: []Message{
			{Role: RoleUser, Content: []Part{Text("weather in Paris and Rome?"), Image("image/png", "iVBORw0KGgo=")}},
			{Role: RoleAssistant, Content: []Part{Text("checking"),
				ToolUse("t1", "get_weather", json.RawMessage(`{"city":"Paris"}`)),
				ToolUse("t2", "get_weather", json.RawMessage(`{"city":"Rome"}`))}},
			{Role: RoleUser, Content: []Part{
				ToolResult("t2", []Part{Text("20C")}, false),
				ToolResult("t1", []Part{Text("boom"), Image("image/jpeg", "/9j/")}, true),
				Text("thanks")}},
			{Role: RoleAssistant, Content: []Part{Text("Paris 18C")}},
		},
	}
}

func TestValidateAcceptsAValidRequest(t *testing.T) {
	if err := Validate(validRequest()); err != nil {
		t.Fatal(err)
	}
	// A trailing assistant tool call with no user message after it is fine.
	r := validRequest()
	r.Messages = append(r.Messages[:1], Message{Role: RoleAssistant, Content: []Part{ToolUse("t9", "get_weather", json.RawMessage(`{}`))}})
	if err := Validate(r); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRules(t *testing.T) {
	cases := []struct {
		name, field, rule string
		edit              func(r *Request)
	}{
		{"no model", "model", "required", func(r *Request) { r.Model = "" }},
		{"no messages", "messages", "required", func(r *Request) { r.Messages = nil }},
		{"system image", "system[0]", "part_type", func(r *Request) { r.System = []Part{Image("image/png", "AA==")} }},
		{"unknown role", "messages[0].role", "enum:user,assistant", func(r *Request) { r.Messages[0].Role = "system" }},
		{"two user turns", "messages[1].role", "alternate_roles", func(r *Request) { r.Messages[1].Role = RoleUser }},
		{"empty content", "messages[3].content", "required", func(r *Request) { r.Messages[3].Content = nil }},
		{"tool_use from user", "messages[0].content[0].type", "part_role", func(r *Request) {
			r.Messages[0].Content[0] = ToolUse("x", "get_weather", json.RawMessage(`{}`))
		}},
		{"image from assistant", "messages[3].content[0].type", "part_role", func(r *Request) {
			r.Messages[3].Content[0] = Image("image/png", "AA==")
		}},
		{"image type", "messages[0].content[1].media_type", "media_type", func(r *Request) { r.Messages[0].Content[1].MediaType = "image/bmp" }},
		{"image not base64", "messages[0].content[1].data", "base64", func(r *Request) { r.Messages[0].Content[1].Data = "not base64!" }},
		{"image empty", "messages[0].content[1].data", "base64", func(r *Request) { r.Messages[0].Content[1].Data = "" }},
		{"tool_use without id", "messages[1].content[1].id", "required", func(r *Request) { r.Messages[1].Content[1].ID = "" }},
		{"tool_use id twice", "messages[1].content[2].id", "unique", func(r *Request) { r.Messages[1].Content[2].ID = "t1" }},
		{"tool_use bad name", "messages[1].content[1].name", "tool_name", func(r *Request) { r.Messages[1].Content[1].Name = "get weather" }},
		{"tool_use input array", "messages[1].content[1].input", "json_object", func(r *Request) { r.Messages[1].Content[1].Input = json.RawMessage(`[1]`) }},
		{"tool_result of nothing", "messages[2].content[0].tool_use_id", "answers_tool_use", func(r *Request) { r.Messages[2].Content[0].ToolUseID = "t7" }},
		{"tool_result twice", "messages[2].content[1].tool_use_id", "unique", func(r *Request) { r.Messages[2].Content[1].ToolUseID = "t2" }},
		{"tool_result after text", "messages[2].content[2]", "tool_results_first", func(r *Request) {
			c := r.Messages[2].Content
			c[1], c[2] = c[2], c[1]
		}},
		{"tool_result of an older turn", "messages[4].content[0].tool_use_id", "answers_tool_use", func(r *Request) {
			r.Messages = append(r.Messages, Message{Role: RoleUser, Content: []Part{ToolResult("t1", nil, false)}})
		}},
		{"tool_result holding a tool_use", "messages[2].content[0].content[0].type", "part_type", func(r *Request) {
			r.Messages[2].Content[0].Content = []Part{ToolUse("z", "get_weather", json.RawMessage(`{}`))}
		}},
		{"tool_result with a bad image", "messages[2].content[1].content[1].media_type", "media_type", func(r *Request) {
			r.Messages[2].Content[1].Content[1].MediaType = "text/plain"
		}},
		{"unanswered tool_use", "messages[2].content", "tool_use_answered", func(r *Request) { r.Messages[2].Content = r.Messages[2].Content[1:] }},
		{"tool name", "tools[1].name", "tool_name", func(r *Request) { r.Tools[1].Name = "" }},
		{"tool name too long", "tools[1].name", "tool_name", func(r *Request) {
			r.Tools[1].Name = "ab123456789012345678901234567890123456789012345678901234567890123"
		}},
		{"tool twice", "tools[1].name", "unique", func(r *Request) { r.Tools[1].Name = "get_weather" }},
		{"schema not an object", "tools[0].input_schema", "json_schema_object", func(r *Request) { r.Tools[0].InputSchema = json.RawMessage(`"x"`) }},
		{"schema of a string", "tools[0].input_schema", "json_schema_object", func(r *Request) {
			r.Tools[0].InputSchema = json.RawMessage(`{"type":"string"}`)
		}},
		{"unknown tool choice", "tool_choice.type", "enum:auto,any,tool,none", func(r *Request) { r.ToolChoice.Type = "required" }},
		{"forced unknown tool", "tool_choice.name", "known_tool", func(r *Request) { r.ToolChoice.Name = "nope" }},
		{"any without tools", "tool_choice", "requires_tools", func(r *Request) {
			r.Tools, r.ToolChoice = nil, &ToolChoice{Type: ToolChoiceAny}
			r.Messages = r.Messages[:1]
		}},
		{"max_tokens 0", "max_tokens", "min:1", func(r *Request) { r.MaxTokens = ptr(0) }},
		{"temperature above 2", "temperature", "range:0-2", func(r *Request) { r.Temperature = ptr(2.01) }},
		{"temperature below 0", "temperature", "range:0-2", func(r *Request) { r.Temperature = ptr(-0.1) }},
		{"top_p above 1", "top_p", "range:0-1", func(r *Request) { r.TopP = ptr(1.5) }},
		{"empty stop", "stop[0]", "non_empty", func(r *Request) { r.Stop = []string{""} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := validRequest()
			c.edit(&r)
			err := Validate(r)
			var ke *kernel.Error
			if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid {
				t.Fatalf("Validate = %v, want an invalid error", err)
			}
			if ke.Field != c.field || ke.Rule != c.rule {
				t.Fatalf("field %q rule %q, want %q %q (%v)", ke.Field, ke.Rule, c.field, c.rule, err)
			}
		})
	}
}

func TestErrorFrom(t *testing.T) {
	if e := ErrorFrom(kernel.Invalid("temperature", "range:0-2", "too hot")); e != (Error{Kind: kernel.KindInvalid, Message: "too hot", Param: "temperature", Code: "range:0-2"}) {
		t.Fatalf("kernel error: %+v", e)
	}
	if e := ErrorFrom(errors.New("dial tcp 10.0.0.1: refused")); e != (Error{Kind: kernel.KindInternal, Message: InternalMessage}) {
		t.Fatalf("plain error shown: %+v", e)
	}
	want := Error{Kind: kernel.KindRateLimited, Message: "slow down"}
	if e := ErrorFrom(want); e != want {
		t.Fatalf("chat error: %+v", e)
	}
}
