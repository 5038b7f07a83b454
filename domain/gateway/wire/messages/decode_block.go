package messages

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// decodeBlock reads one content block. Thinking blocks a client sends back
// in an assistant turn come back as a zero Part, to be dropped: the gateway
// never produces them and no upstream of the other format takes them.
func decodeBlock(raw json.RawMessage, path string, set blockSet) (chat.Part, error) {
	o, err := wirejson.Object(raw, path)
	if err != nil {
		return chat.Part{}, err
	}
	if err := o.Required("type"); err != nil {
		return chat.Part{}, err
	}
	typ, err := o.String("type")
	if err != nil {
		return chat.Part{}, err
	}
	allowed := map[blockSet][]string{
		textOnly:     {"text"},
		inMessage:    {"text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking"},
		inToolResult: {"text", "image"},
	}[set]
	known := false
	for _, a := range allowed {
		known = known || a == typ
	}
	if !known {
		return chat.Part{}, wirejson.Invalid(o.Field("type"), "block_type",
			fmt.Sprintf("a %q block is not supported here (supported: %v)", typ, allowed))
	}
	switch typ {
	case "text":
		if err := o.Only("type", "text", "cache_control", "citations"); err != nil {
			return chat.Part{}, err
		}
		if err := o.Required("text"); err != nil {
			return chat.Part{}, err
		}
		s, err := o.String("text")
		return chat.Text(s), err
	case "image":
		return decodeImage(o)
	case "tool_use":
		if err := o.Only("type", "id", "name", "input", "cache_control"); err != nil {
			return chat.Part{}, err
		}
		for _, k := range []string{"id", "name", "input"} {
			if err := o.Required(k); err != nil {
				return chat.Part{}, err
			}
		}
		p := chat.Part{Type: chat.PartToolUse}
		if p.ID, err = o.String("id"); err != nil {
			return p, err
		}
		if p.Name, err = o.String("name"); err != nil {
			return p, err
		}
		p.Input, err = o.JSONObject("input")
		return p, err
	case "tool_result":
		if err := o.Only("type", "tool_use_id", "content", "is_error", "cache_control"); err != nil {
			return chat.Part{}, err
		}
		if err := o.Required("tool_use_id"); err != nil {
			return chat.Part{}, err
		}
		p := chat.Part{Type: chat.PartToolResult}
		if p.ToolUseID, err = o.String("tool_use_id"); err != nil {
			return p, err
		}
		if p.IsError, err = o.Bool("is_error"); err != nil {
			return p, err
		}
		if raw := o.Raw("content"); raw != nil {
			p.Content, err = decodeContent(raw, o.Field("content"), inToolResult)
		}
		return p, err
	}
	return chat.Part{}, nil // thinking, redacted_thinking: dropped
}

// decodeImage reads an image block; only base64 sources are taken (the
// gateway fetches no URLs).
func decodeImage(o wirejson.Obj) (chat.Part, error) {
	if err := o.Only("type", "source", "cache_control"); err != nil {
		return chat.Part{}, err
	}
	if err := o.Required("source"); err != nil {
		return chat.Part{}, err
	}
	src, _, err := o.Object("source")
	if err != nil {
		return chat.Part{}, err
	}
	typ, err := src.String("type")
	if err != nil {
		return chat.Part{}, err
	}
	if typ != "base64" {
		return chat.Part{}, wirejson.Invalid(src.Field("type"), "image_source",
			fmt.Sprintf("image source %q is not supported; send the image as base64", typ))
	}
	if err := src.Only("type", "media_type", "data"); err != nil {
		return chat.Part{}, err
	}
	for _, k := range []string{"media_type", "data"} {
		if err := src.Required(k); err != nil {
			return chat.Part{}, err
		}
	}
	mt, err := src.String("media_type")
	if err != nil {
		return chat.Part{}, err
	}
	data, err := src.String("data")
	return chat.Image(mt, data), err
}
