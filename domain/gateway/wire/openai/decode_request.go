package openai

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// The request members: those mapped to the IR, those accepted (their type
// checked) but not forwarded, and those accepted only with their default.
var (
	mappedMembers = []string{"model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p",
		"stop", "stream", "stream_options", "tools", "tool_choice", "parallel_tool_calls", "user"}
	ignoredNumbers = []string{"frequency_penalty", "presence_penalty", "seed"}
	ignoredStrings = []string{"service_tier", "prompt_cache_key", "safety_identifier"}
	ignoredObjects = []string{"logit_bias", "metadata"}
	defaultOnly    = []string{"n", "logprobs", "response_format", "store"}
)

// DecodeRequest reads a client's request body (POST /v1/chat/completions)
// into the IR and validates it (chat.Validate). Every error is a
// kernel.Invalid naming the field, in the client's own terms
// (messages[3].tool_calls[0].function.arguments), and the rule, for a 400
// in this format's shape (EncodeError). Unknown members are refused
// (unknown_field), as the format's API does; the package doc lists the
// members accepted but not forwarded, and those refused unless they ask
// for the default.
func DecodeRequest(body []byte) (chat.Request, error) {
	d := decoder{}
	r, err := d.request(body)
	if err != nil {
		return chat.Request{}, err
	}
	if err := chat.Validate(r); err != nil {
		return chat.Request{}, d.clientField(err)
	}
	return r, nil
}

// decoder reads one request and remembers where each IR part came from.
type decoder struct {
	origins    [][]origin // per IR message, per part
	msgOrigin  []int      // per IR message: the client's message it began with
	maxTokens  string     // the member that gave max_tokens
	stopString bool       // stop came as a string
}

// origin is the client's path of an IR part and the part's type.
type origin struct {
	path string
	typ  chat.PartType
}

func (d *decoder) request(body []byte) (chat.Request, error) {
	var r chat.Request
	o, err := wirejson.Parse(body)
	if err != nil {
		return r, err
	}
	all := append(append(append(append(append([]string{}, mappedMembers...), ignoredNumbers...), ignoredStrings...), ignoredObjects...), defaultOnly...)
	if err := o.Only(all...); err != nil {
		return r, err
	}
	for _, k := range []string{"model", "messages"} {
		if err := o.Required(k); err != nil {
			return r, err
		}
	}
	if err := checkIgnored(o); err != nil {
		return r, err
	}
	if r.Model, err = o.String("model"); err != nil {
		return r, err
	}
	d.maxTokens = "max_tokens"
	if o.Has("max_completion_tokens") {
		d.maxTokens = "max_completion_tokens"
	}
	if _, err := o.Int("max_tokens"); err != nil {
		return r, err
	}
	if r.MaxTokens, err = o.Int(d.maxTokens); err != nil {
		return r, err
	}
	if r.Temperature, err = o.Float("temperature"); err != nil {
		return r, err
	}
	if r.TopP, err = o.Float("top_p"); err != nil {
		return r, err
	}
	if r.User, err = o.String("user"); err != nil {
		return r, err
	}
	if err := d.stop(o, &r); err != nil {
		return r, err
	}
	if err := streamOptions(o, &r); err != nil {
		return r, err
	}
	parallel := true
	if o.Has("parallel_tool_calls") {
		if parallel, err = o.Bool("parallel_tool_calls"); err != nil {
			return r, err
		}
	}
	r.DisableParallelToolUse = !parallel
	if r.Tools, err = decodeTools(o); err != nil {
		return r, err
	}
	if r.ToolChoice, err = decodeToolChoice(o); err != nil {
		return r, err
	}
	msgs, err := o.Array("messages")
	if err != nil {
		return r, err
	}
	for i, raw := range msgs {
		if err := d.message(&r, raw, wirejson.Index("messages", i), i); err != nil {
			return r, err
		}
	}
	return r, nil
}

// checkIgnored checks the types of the members accepted but not forwarded,
// and that those accepted only with their default ask for it.
func checkIgnored(o wirejson.Obj) error {
	for _, k := range ignoredNumbers {
		if _, err := o.Float(k); err != nil {
			return err
		}
	}
	for _, k := range ignoredStrings {
		if _, err := o.String(k); err != nil {
			return err
		}
	}
	for _, k := range ignoredObjects {
		if _, _, err := o.Object(k); err != nil {
			return err
		}
	}
	if n, err := o.Int("n"); err != nil {
		return err
	} else if n != nil && *n != 1 {
		return wirejson.Invalid("n", "unsupported", "only one choice (n = 1) is supported")
	}
	if lp, err := o.Bool("logprobs"); err != nil {
		return err
	} else if lp {
		return wirejson.Invalid("logprobs", "unsupported", "log probabilities are not supported")
	}
	if store, err := o.Bool("store"); err != nil {
		return err
	} else if store {
		return wirejson.Invalid("store", "unsupported", "stored completions are not supported")
	}
	if rf, ok, err := o.Object("response_format"); err != nil {
		return err
	} else if ok {
		if typ, err := rf.String("type"); err != nil {
			return err
		} else if typ != "text" {
			return wirejson.Invalid(rf.Field("type"), "unsupported", `only the response format {"type": "text"} is supported`)
		}
	}
	return nil
}

func (d *decoder) stop(o wirejson.Obj, r *chat.Request) error {
	raw := o.Raw("stop")
	if raw == nil {
		return nil
	}
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, "stop")
		r.Stop, d.stopString = []string{s}, true
		return err
	}
	stops, err := wirejson.Array(raw, "stop")
	if err != nil {
		return wirejson.Invalid("stop", "type:string_or_array", "expected a string or an array of strings")
	}
	for i, s := range stops {
		v, err := wirejson.String(s, wirejson.Index("stop", i))
		if err != nil {
			return err
		}
		r.Stop = append(r.Stop, v)
	}
	return nil
}

func streamOptions(o wirejson.Obj, r *chat.Request) error {
	var err error
	if r.Stream, err = o.Bool("stream"); err != nil {
		return err
	}
	so, ok, err := o.Object("stream_options")
	if err != nil || !ok {
		return err
	}
	if !r.Stream {
		return wirejson.Invalid("stream_options", "requires_stream", "stream_options is only allowed when stream is true")
	}
	if err := so.Only("include_usage", "include_obfuscation"); err != nil {
		return err
	}
	if _, err := so.Bool("include_obfuscation"); err != nil {
		return err
	}
	r.IncludeUsage, err = so.Bool("include_usage")
	return err
}

// add puts parts of a client message into the IR: in the last message
// when it has the role (consecutive turns of one role are one turn in the
// IR), else in a new one.
func (d *decoder) add(r *chat.Request, role chat.Role, client int, parts []chat.Part, origins []origin) {
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == role {
		r.Messages[n-1].Content = append(r.Messages[n-1].Content, parts...)
		d.origins[n-1] = append(d.origins[n-1], origins...)
		return
	}
	r.Messages = append(r.Messages, chat.Message{Role: role, Content: parts})
	d.origins = append(d.origins, origins)
	d.msgOrigin = append(d.msgOrigin, client)
}

func decodeTools(o wirejson.Obj) ([]chat.Tool, error) {
	raws, err := o.Array("tools")
	if err != nil {
		return nil, err
	}
	var tools []chat.Tool
	for i, raw := range raws {
		t, err := wirejson.Object(raw, wirejson.Index("tools", i))
		if err != nil {
			return nil, err
		}
		if err := t.Only("type", "function"); err != nil {
			return nil, err
		}
		if typ, err := t.String("type"); err != nil {
			return nil, err
		} else if typ != "function" {
			return nil, wirejson.Invalid(t.Field("type"), "enum:function", fmt.Sprintf("tools of type %q are not supported", typ))
		}
		if err := t.Required("function"); err != nil {
			return nil, err
		}
		f, _, err := t.Object("function")
		if err != nil {
			return nil, err
		}
		if err := f.Only("name", "description", "parameters", "strict"); err != nil {
			return nil, err
		}
		if err := f.Required("name"); err != nil {
			return nil, err
		}
		if _, err := f.Bool("strict"); err != nil {
			return nil, err
		}
		var tool chat.Tool
		if tool.Name, err = f.String("name"); err != nil {
			return nil, err
		}
		if tool.Description, err = f.String("description"); err != nil {
			return nil, err
		}
		if tool.InputSchema, err = f.JSONObject("parameters"); err != nil {
			return nil, err
		}
		if tool.InputSchema == nil {
			tool.InputSchema = json.RawMessage(EmptyParameters)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// EmptyParameters is the input schema of a function declared without
// parameters.
const EmptyParameters = `{"type":"object","properties":{}}`

func decodeToolChoice(o wirejson.Obj) (*chat.ToolChoice, error) {
	raw := o.Raw("tool_choice")
	if raw == nil {
		return nil, nil
	}
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, "tool_choice")
		if err != nil {
			return nil, err
		}
		switch s {
		case "auto":
			return &chat.ToolChoice{Type: chat.ToolChoiceAuto}, nil
		case "none":
			return &chat.ToolChoice{Type: chat.ToolChoiceNone}, nil
		case "required":
			return &chat.ToolChoice{Type: chat.ToolChoiceAny}, nil
		}
		return nil, wirejson.Invalid("tool_choice", "enum:auto,none,required", fmt.Sprintf("unknown tool choice %q", s))
	}
	c, err := wirejson.Object(raw, "tool_choice")
	if err != nil {
		return nil, wirejson.Invalid("tool_choice", "type:string_or_object", `expected "auto", "none", "required" or {"type": "function", "function": {"name": ...}}`)
	}
	if err := c.Only("type", "function"); err != nil {
		return nil, err
	}
	if typ, err := c.String("type"); err != nil {
		return nil, err
	} else if typ != "function" {
		return nil, wirejson.Invalid(c.Field("type"), "enum:function", fmt.Sprintf("tool choice of type %q is not supported", typ))
	}
	if err := c.Required("function"); err != nil {
		return nil, err
	}
	f, _, err := c.Object("function")
	if err != nil {
		return nil, err
	}
	if err := f.Only("name"); err != nil {
		return nil, err
	}
	if err := f.Required("name"); err != nil {
		return nil, err
	}
	name, err := f.String("name")
	return &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: name}, err
}
