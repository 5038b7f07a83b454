package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// message reads client message number client (at path) into r: system and
// developer messages into r.System, tool messages as tool_result parts of a
// user turn, user and assistant messages as turns (merged with the turn
// before when it has the same role).
func (d *decoder) message(r *chat.Request, raw json.RawMessage, path string, client int) error {
	o, err := wirejson.Object(raw, path)
	if err != nil {
		return err
	}
	if err := o.Required("role"); err != nil {
		return err
	}
	role, err := o.String("role")
	if err != nil {
		return err
	}
	switch role {
	case "system", "developer":
		if err := o.Only("role", "content", "name"); err != nil {
			return err
		}
		if _, err := o.String("name"); err != nil {
			return err
		}
		parts, _, err := d.content(o, "text")
		r.System = append(r.System, parts...)
		return err
	case "user":
		if err := o.Only("role", "content", "name"); err != nil {
			return err
		}
		if _, err := o.String("name"); err != nil {
			return err
		}
		parts, origins, err := d.content(o, "text", "image_url")
		if err != nil {
			return err
		}
		d.add(r, chat.RoleUser, client, parts, origins)
		return nil
	case "assistant":
		return d.assistant(r, o, client)
	case "tool":
		if err := o.Only("role", "content", "tool_call_id"); err != nil {
			return err
		}
		for _, k := range []string{"tool_call_id", "content"} {
			if err := o.Required(k); err != nil {
				return err
			}
		}
		id, err := o.String("tool_call_id")
		if err != nil {
			return err
		}
		parts, _, err := d.content(o, "text")
		if err != nil {
			return err
		}
		if len(parts) == 1 && parts[0].Text == "" {
			parts = nil // an empty result is a result with no content
		}
		d.add(r, chat.RoleUser, client, []chat.Part{chat.ToolResult(id, parts, false)}, []origin{{path, chat.PartToolResult}})
		return nil
	}
	return wirejson.Invalid(o.Field("role"), "enum:system,developer,user,assistant,tool", fmt.Sprintf("unknown role %q", role))
}

// assistant reads an assistant message: its text (empty text dropped when
// it calls tools), then its tool calls.
func (d *decoder) assistant(r *chat.Request, o wirejson.Obj, client int) error {
	if err := o.Only("role", "content", "name", "tool_calls", "refusal"); err != nil {
		return err
	}
	for _, k := range []string{"name", "refusal"} {
		if _, err := o.String(k); err != nil {
			return err
		}
	}
	var parts []chat.Part
	var origins []origin
	if o.Has("content") {
		var err error
		if parts, origins, err = d.content(o, "text", "refusal"); err != nil {
			return err
		}
	}
	calls, err := o.Array("tool_calls")
	if err != nil {
		return err
	}
	if len(calls) > 0 && len(parts) == 1 && parts[0].Text == "" {
		parts, origins = nil, nil
	}
	for i, raw := range calls {
		path := wirejson.Index(o.Field("tool_calls"), i)
		p, err := decodeToolCall(raw, path)
		if err != nil {
			return err
		}
		parts = append(parts, p)
		origins = append(origins, origin{path, chat.PartToolUse})
	}
	if len(parts) == 0 {
		return wirejson.Invalid(o.Field("content"), "required", "an assistant message needs content or tool_calls")
	}
	d.add(r, chat.RoleAssistant, client, parts, origins)
	return nil
}

// decodeToolCall reads {id, type: function, function: {name, arguments}}; the
// arguments, a JSON string, must hold a JSON object ("" stands for {}).
func decodeToolCall(raw json.RawMessage, path string) (chat.Part, error) {
	c, err := wirejson.Object(raw, path)
	if err != nil {
		return chat.Part{}, err
	}
	if err := c.Only("id", "type", "function"); err != nil {
		return chat.Part{}, err
	}
	for _, k := range []string{"id", "function"} {
		if err := c.Required(k); err != nil {
			return chat.Part{}, err
		}
	}
	if typ, err := c.String("type"); err != nil {
		return chat.Part{}, err
	} else if typ != "" && typ != "function" {
		return chat.Part{}, wirejson.Invalid(c.Field("type"), "enum:function", fmt.Sprintf("tool calls of type %q are not supported", typ))
	}
	id, err := c.String("id")
	if err != nil {
		return chat.Part{}, err
	}
	f, _, err := c.Object("function")
	if err != nil {
		return chat.Part{}, err
	}
	if err := f.Only("name", "arguments"); err != nil {
		return chat.Part{}, err
	}
	for _, k := range []string{"name", "arguments"} {
		if err := f.Required(k); err != nil {
			return chat.Part{}, err
		}
	}
	name, err := f.String("name")
	if err != nil {
		return chat.Part{}, err
	}
	args, err := f.String("arguments")
	if err != nil {
		return chat.Part{}, err
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if !chat.IsJSONObject(json.RawMessage(args)) {
		return chat.Part{}, wirejson.Invalid(f.Field("arguments"), "json_object", "must be a JSON object, as a string")
	}
	return chat.ToolUse(id, name, wirejson.Compact(json.RawMessage(args))), nil
}

// content reads a message's content, a string or an array of parts of the
// given types, with each part's client path.
func (d *decoder) content(o wirejson.Obj, types ...string) ([]chat.Part, []origin, error) {
	if err := o.Required("content"); err != nil {
		return nil, nil, err
	}
	raw, path := o.Raw("content"), o.Field("content")
	if wirejson.IsString(raw) {
		s, err := wirejson.String(raw, path)
		return []chat.Part{chat.Text(s)}, []origin{{path, chat.PartText}}, err
	}
	items, err := wirejson.Array(raw, path)
	if err != nil {
		return nil, nil, wirejson.Invalid(path, "type:string_or_array", "expected a string or an array of content parts")
	}
	var parts []chat.Part
	var origins []origin
	for i, item := range items {
		p, err := part(item, wirejson.Index(path, i), types)
		if err != nil {
			return nil, nil, err
		}
		parts = append(parts, p)
		origins = append(origins, origin{wirejson.Index(path, i), p.Type})
	}
	return parts, origins, nil
}

// part reads one content part: text, image_url (a data: URL) or refusal
// (read as text).
func part(raw json.RawMessage, path string, types []string) (chat.Part, error) {
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
	known := false
	for _, t := range types {
		known = known || t == typ
	}
	if !known {
		return chat.Part{}, wirejson.Invalid(o.Field("type"), "part_type",
			fmt.Sprintf("a %q part is not supported here (supported: %s)", typ, strings.Join(types, ", ")))
	}
	switch typ {
	case "text", "refusal":
		if err := o.Only("type", typ); err != nil {
			return chat.Part{}, err
		}
		if err := o.Required(typ); err != nil {
			return chat.Part{}, err
		}
		s, err := o.String(typ)
		return chat.Text(s), err
	}
	if err := o.Only("type", "image_url"); err != nil {
		return chat.Part{}, err
	}
	if err := o.Required("image_url"); err != nil {
		return chat.Part{}, err
	}
	iu, _, err := o.Object("image_url")
	if err != nil {
		return chat.Part{}, err
	}
	if err := iu.Only("url", "detail"); err != nil {
		return chat.Part{}, err
	}
	if _, err := iu.String("detail"); err != nil {
		return chat.Part{}, err
	}
	if err := iu.Required("url"); err != nil {
		return chat.Part{}, err
	}
	url, err := iu.String("url")
	if err != nil {
		return chat.Part{}, err
	}
	mt, data, ok := ParseDataURL(url)
	if !ok {
		return chat.Part{}, wirejson.Invalid(iu.Field("url"), "data_url",
			"only base64 data: URLs (data:image/png;base64,...) are supported; the gateway fetches no images")
	}
	return chat.Image(mt, data), nil
}

// ParseDataURL splits data:<media type>;base64,<data>.
func ParseDataURL(url string) (mediaType, data string, ok bool) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return "", "", false
	}
	mediaType, data, ok = strings.Cut(rest, ";base64,")
	return mediaType, data, ok && mediaType != ""
}

// DataURL is the data: URL of an image part.
func DataURL(mediaType, data string) string { return "data:" + mediaType + ";base64," + data }
