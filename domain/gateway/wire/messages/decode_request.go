package messages

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// DecodeRequest reads a client's request body (POST /v1/messages) into the
// IR and validates it (chat.Validate). Every error is a kernel.Invalid
// naming the field and the rule, for a 400 in this format's shape
// (EncodeError). Unknown members are refused (unknown_field), as the
// format's API does; the package doc lists the members accepted but not
// forwarded, and those refused unless they ask for the default.
func DecodeRequest(body []byte) (chat.Request, error) {
	r, err := decodeRequest(body)
	if err != nil {
		return chat.Request{}, err
	}
	return r, chat.Validate(r)
}

func decodeRequest(body []byte) (chat.Request, error) {
	var r chat.Request
	o, err := wirejson.Parse(body)
	if err != nil {
		return r, err
	}
	if err := o.Only("model", "messages", "system", "max_tokens", "metadata", "stop_sequences", "stream",
		"temperature", "top_p", "top_k", "tools", "tool_choice", "service_tier", "thinking"); err != nil {
		return r, err
	}
	for _, k := range []string{"model", "messages"} {
		if err := o.Required(k); err != nil {
			return r, err
		}
	}
	if r.Model, err = o.String("model"); err != nil {
		return r, err
	}
	if r.MaxTokens, err = o.Int("max_tokens"); err != nil {
		return r, err
	}
	if r.Temperature, err = o.Float("temperature"); err != nil {
		return r, err
	}
	if r.TopP, err = o.Float("top_p"); err != nil {
		return r, err
	}
	if _, err = o.Int("top_k"); err != nil {
		return r, err
	}
	if _, err = o.String("service_tier"); err != nil {
		return r, err
	}
	if r.Stream, err = o.Bool("stream"); err != nil {
		return r, err
	}
	if err := decodeThinking(o); err != nil {
		return r, err
	}
	if stops, err := o.Array("stop_sequences"); err != nil {
		return r, err
	} else {
		for i, s := range stops {
			v, err := wirejson.String(s, wirejson.Index(o.Field("stop_sequences"), i))
			if err != nil {
				return r, err
			}
			r.Stop = append(r.Stop, v)
		}
	}
	if md, ok, err := o.Object("metadata"); err != nil {
		return r, err
	} else if ok {
		if err := md.Only("user_id"); err != nil {
			return r, err
		}
		if r.User, err = md.String("user_id"); err != nil {
			return r, err
		}
	}
	if r.System, err = decodeSystem(o); err != nil {
		return r, err
	}
	if r.Tools, err = decodeTools(o); err != nil {
		return r, err
	}
	if err := decodeToolChoice(o, &r); err != nil {
		return r, err
	}
	msgs, err := o.Array("messages")
	if err != nil {
		return r, err
	}
	for i, raw := range msgs {
		m, err := decodeMessage(raw, wirejson.Index("messages", i))
		if err != nil {
			return r, err
		}
		// Consecutive turns of one role are one turn, as the format's API
		// combines them.
		if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == m.Role {
			r.Messages[n-1].Content = append(r.Messages[n-1].Content, m.Content...)
			continue
		}
		r.Messages = append(r.Messages, m)
	}
	return r, nil
}

// decodeThinking accepts extended thinking only turned off: the gateway
// streams no thinking blocks.
func decodeThinking(o wirejson.Obj) error {
	t, ok, err := o.Object("thinking")
	if err != nil || !ok {
		return err
	}
	typ, err := t.String("type")
	if err != nil {
		return err
	}
	if typ != "disabled" {
		return wirejson.Invalid(t.Field("type"), "unsupported", `extended thinking is not supported; send {"type": "disabled"} or leave it out`)
	}
	return t.Only("type")
}

func decodeSystem(o wirejson.Obj) ([]chat.Part, error) {
	raw := o.Raw("system")
	if raw == nil {
		return nil, nil
	}
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, "system")
		return []chat.Part{chat.Text(s)}, err
	}
	blocks, err := wirejson.Array(raw, "system")
	if err != nil {
		return nil, wirejson.Invalid("system", "type:string_or_array", "expected a string or an array of text blocks")
	}
	var parts []chat.Part
	for i, b := range blocks {
		p, err := decodeBlock(b, wirejson.Index("system", i), textOnly)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	return parts, nil
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
		if err := t.Only("name", "description", "input_schema", "type", "cache_control"); err != nil {
			return nil, err
		}
		if typ, err := t.String("type"); err != nil {
			return nil, err
		} else if typ != "" && typ != "custom" {
			return nil, wirejson.Invalid(t.Field("type"), "unsupported", fmt.Sprintf("server tools (%q) are not supported; define the tool with name, description and input_schema", typ))
		}
		for _, k := range []string{"name", "input_schema"} {
			if err := t.Required(k); err != nil {
				return nil, err
			}
		}
		var tool chat.Tool
		if tool.Name, err = t.String("name"); err != nil {
			return nil, err
		}
		if tool.Description, err = t.String("description"); err != nil {
			return nil, err
		}
		if tool.InputSchema, err = t.JSONObject("input_schema"); err != nil {
			return nil, err
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

func decodeToolChoice(o wirejson.Obj, r *chat.Request) error {
	c, ok, err := o.Object("tool_choice")
	if err != nil || !ok {
		return err
	}
	if err := c.Only("type", "name", "disable_parallel_tool_use"); err != nil {
		return err
	}
	if err := c.Required("type"); err != nil {
		return err
	}
	typ, err := c.String("type")
	if err != nil {
		return err
	}
	tc := chat.ToolChoice{Type: chat.ToolChoiceType(typ)}
	switch tc.Type {
	case chat.ToolChoiceAuto, chat.ToolChoiceAny, chat.ToolChoiceNone:
		if c.Has("name") {
			return wirejson.Invalid(c.Field("name"), "unknown_field", "only a tool choice of type tool names a tool")
		}
	case chat.ToolChoiceTool:
		if err := c.Required("name"); err != nil {
			return err
		}
		if tc.Name, err = c.String("name"); err != nil {
			return err
		}
	default:
		return wirejson.Invalid(c.Field("type"), "enum:auto,any,tool,none", fmt.Sprintf("unknown tool choice %q", typ))
	}
	if r.DisableParallelToolUse, err = c.Bool("disable_parallel_tool_use"); err != nil {
		return err
	}
	r.ToolChoice = &tc
	return nil
}

func decodeMessage(raw json.RawMessage, path string) (chat.Message, error) {
	var m chat.Message
	o, err := wirejson.Object(raw, path)
	if err != nil {
		return m, err
	}
	if err := o.Only("role", "content"); err != nil {
		return m, err
	}
	for _, k := range []string{"role", "content"} {
		if err := o.Required(k); err != nil {
			return m, err
		}
	}
	role, err := o.String("role")
	if err != nil {
		return m, err
	}
	m.Role = chat.Role(role)
	if m.Role != chat.RoleUser && m.Role != chat.RoleAssistant {
		return m, wirejson.Invalid(o.Field("role"), "enum:user,assistant", fmt.Sprintf("unknown role %q", role))
	}
	m.Content, err = decodeContent(o.Raw("content"), o.Field("content"), inMessage)
	return m, err
}

// blockSet says which blocks a place holds.
type blockSet int

const (
	textOnly     blockSet = iota // system
	inMessage                    // text, image, tool_use, tool_result; thinking dropped
	inToolResult                 // text, image
)

// decodeContent reads content given as a string or an array of blocks.
func decodeContent(raw json.RawMessage, path string, set blockSet) ([]chat.Part, error) {
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, path)
		return []chat.Part{chat.Text(s)}, err
	}
	blocks, err := wirejson.Array(raw, path)
	if err != nil {
		return nil, wirejson.Invalid(path, "type:string_or_array", "expected a string or an array of content blocks")
	}
	var parts []chat.Part
	for i, b := range blocks {
		p, err := decodeBlock(b, wirejson.Index(path, i), set)
		if err != nil {
			return nil, err
		}
		if p.Type != "" {
			parts = append(parts, p)
		}
	}
	return parts, nil
}
