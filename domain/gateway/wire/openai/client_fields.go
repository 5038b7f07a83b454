package openai

import (
	"errors"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/kernel"
)

// clientField rewrites the field of a validation error from the IR's terms
// into the client's.
func (d *decoder) clientField(err error) error {
	var ke *kernel.Error
	if !errors.As(err, &ke) {
		return err
	}
	field := d.field(ke.Field)
	if field == ke.Field {
		return err
	}
	msg := ke.Message
	if len(msg) > len(ke.Field) && msg[:len(ke.Field)] == ke.Field {
		msg = field + msg[len(ke.Field):]
	}
	return kernel.Invalid(field, ke.Rule, msg)
}

// toolUseFields and toolResultFields name the IR's fields of a part in the
// client's terms.
var (
	toolUseFields    = map[string]string{".id": ".id", ".name": ".function.name", ".input": ".function.arguments"}
	toolResultFields = map[string]string{".tool_use_id": ".tool_call_id", ".content": ".content"}
	imageFields      = map[string]string{".media_type": ".image_url.url", ".data": ".image_url.url"}
)

func (d *decoder) field(f string) string {
	var i, j int
	var rest string
	if n, _ := fmt.Sscanf(f, "messages[%d].content[%d]%s", &i, &j, &rest); n >= 2 && i < len(d.origins) && j < len(d.origins[i]) {
		o := d.origins[i][j]
		switch o.typ {
		case chat.PartToolUse:
			if m, ok := toolUseFields[rest]; ok {
				return o.path + m
			}
		case chat.PartToolResult:
			for k, m := range toolResultFields {
				if len(rest) >= len(k) && rest[:len(k)] == k {
					return o.path + m + rest[len(k):]
				}
			}
		case chat.PartImage:
			if m, ok := imageFields[rest]; ok {
				return o.path + m
			}
		}
		return o.path
	}
	if n, _ := fmt.Sscanf(f, "messages[%d].%s", &i, &rest); n == 2 && i < len(d.msgOrigin) {
		return fmt.Sprintf("messages[%d].%s", d.msgOrigin[i], rest)
	}
	var k int
	if n, _ := fmt.Sscanf(f, "tools[%d].%s", &k, &rest); n == 2 {
		switch rest {
		case "name":
			return fmt.Sprintf("tools[%d].function.name", k)
		case "input_schema":
			return fmt.Sprintf("tools[%d].function.parameters", k)
		}
	}
	switch {
	case f == "tool_choice.name":
		return "tool_choice.function.name"
	case f == "tool_choice.type":
		return "tool_choice"
	case f == "max_tokens":
		return d.maxTokens
	case d.stopString && len(f) > 4 && f[:5] == "stop[":
		return "stop"
	}
	return f
}
