package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"

	"github.com/strata-platform/strata/domain/kernel"
)

// toolName is the rule both formats give tool names.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// ImageMediaTypes are the image types a request may carry.
var ImageMediaTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// Validate checks a request against the rules both formats share, and
// against those of the messages format that the IR keeps for every request
// (so that a request valid here can go to an upstream of either format). It
// returns the first broken rule as a kernel.Invalid error naming the field
// (in IR terms: messages[i] counts the IR's messages, after a decoder merged
// turns) and the rule:
//
//   - model: required.
//   - messages: at least one (required).
//   - messages[i].role: user or assistant (enum:user,assistant).
//   - messages[i].role: roles alternate, no two user or two assistant
//     messages in a row (alternate_roles). The messages format requires it;
//     decoders merge consecutive turns of one role as its API does, so this
//     guards the IR itself.
//   - messages[i].content: at least one part (required).
//   - messages[i].content[j].type: user messages hold text, image and
//     tool_result parts; assistant messages text and tool_use parts
//     (part_role).
//   - images: media type one of ImageMediaTypes (media_type); data is
//     non-empty standard base64 (base64).
//   - tool_use: id required and unique in the conversation (required,
//     unique); name as tool names (tool_name); input a JSON object
//     (json_object).
//   - tool_result: tool_use_id answers a tool_use of the assistant message
//     right before (answers_tool_use), at most once (unique); tool_result
//     parts come before any other part of their message
//     (tool_results_first); their content holds text and image parts only
//     (part_type).
//   - every tool_use of an assistant message that a user message follows is
//     answered in that user message (tool_use_answered). Both formats'
//     APIs refuse a history with an unanswered call.
//   - system[i]: text parts only (part_type).
//   - tools[i].name: ^[a-zA-Z0-9_-]{1,64}$ (tool_name), unique (unique).
//   - tools[i].input_schema: a JSON object with "type": "object"
//     (json_schema_object).
//   - tool_choice.type: auto, any, tool or none (enum); any and tool need
//     tools (requires_tools); tool names one of them (known_tool).
//   - max_tokens: at least 1 (min:1).
//   - temperature: 0 to 2 (range:0-2). top_p: 0 to 1 (range:0-1).
//   - stop[i]: not empty (non_empty).
func Validate(r Request) error {
	if r.Model == "" {
		return kernel.Invalid("model", "required", "model: required")
	}
	for i, p := range r.System {
		if p.Type != PartText {
			return invalid(fmt.Sprintf("system[%d]", i), "part_type", "the system prompt holds text only")
		}
	}
	if err := validateTools(r); err != nil {
		return err
	}
	if len(r.Messages) == 0 {
		return kernel.Invalid("messages", "required", "messages: at least one message is required")
	}
	if err := validateMessages(r.Messages); err != nil {
		return err
	}
	if r.MaxTokens != nil && *r.MaxTokens < 1 {
		return invalid("max_tokens", "min:1", "must be at least 1")
	}
	if r.Temperature != nil && !inRange(*r.Temperature, 2) {
		return invalid("temperature", "range:0-2", "must be between 0 and 2")
	}
	if r.TopP != nil && !inRange(*r.TopP, 1) {
		return invalid("top_p", "range:0-1", "must be between 0 and 1")
	}
	for i, s := range r.Stop {
		if s == "" {
			return invalid(fmt.Sprintf("stop[%d]", i), "non_empty", "a stop sequence must not be empty")
		}
	}
	return nil
}

func inRange(v, max float64) bool { return !math.IsNaN(v) && v >= 0 && v <= max }

// invalid builds a kernel.Invalid whose message starts with the field, as
// both formats' APIs word it.
func invalid(field, rule, msg string) *kernel.Error {
	return kernel.Invalid(field, rule, field+": "+msg)
}

func validateTools(r Request) error {
	seen := map[string]bool{}
	for i, t := range r.Tools {
		f := fmt.Sprintf("tools[%d]", i)
		if !toolName.MatchString(t.Name) {
			return invalid(f+".name", "tool_name", "must match ^[a-zA-Z0-9_-]{1,64}$")
		}
		if seen[t.Name] {
			return invalid(f+".name", "unique", fmt.Sprintf("tool %q is defined twice", t.Name))
		}
		seen[t.Name] = true
		var schema map[string]json.RawMessage
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema == nil ||
			!bytes.Equal(bytes.TrimSpace(schema["type"]), []byte(`"object"`)) {
			return invalid(f+".input_schema", "json_schema_object", `must be a JSON Schema object with "type": "object"`)
		}
	}
	if c := r.ToolChoice; c != nil {
		switch c.Type {
		case ToolChoiceAuto, ToolChoiceNone:
		case ToolChoiceAny, ToolChoiceTool:
			if len(r.Tools) == 0 {
				return invalid("tool_choice", "requires_tools", fmt.Sprintf("%q needs tools", c.Type))
			}
			if c.Type == ToolChoiceTool && !seen[c.Name] {
				return invalid("tool_choice.name", "known_tool", fmt.Sprintf("no tool is named %q", c.Name))
			}
		default:
			return invalid("tool_choice.type", "enum:auto,any,tool,none", fmt.Sprintf("unknown tool choice %q", c.Type))
		}
	}
	return nil
}

func validateMessages(msgs []Message) error {
	toolIDs := map[string]bool{} // every tool_use id so far
	var pending map[string]bool  // tool_use ids of the previous assistant message, unanswered
	var calls []string           // those ids in order
	var pendingIdx int           // that message's index
	for i, m := range msgs {
		f := fmt.Sprintf("messages[%d]", i)
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return invalid(f+".role", "enum:user,assistant", fmt.Sprintf("unknown role %q", m.Role))
		}
		if i > 0 && msgs[i-1].Role == m.Role {
			return invalid(f+".role", "alternate_roles", "user and assistant messages must alternate")
		}
		if len(m.Content) == 0 {
			return invalid(f+".content", "required", "a message needs content")
		}
		answered := map[string]bool{}
		othersSeen := false
		for j, p := range m.Content {
			pf := fmt.Sprintf("%s.content[%d]", f, j)
			if err := validatePart(p, m.Role, pf); err != nil {
				return err
			}
			switch p.Type {
			case PartToolUse:
				if toolIDs[p.ID] {
					return invalid(pf+".id", "unique", fmt.Sprintf("tool_use id %q is used twice", p.ID))
				}
				toolIDs[p.ID] = true
			case PartToolResult:
				if !pending[p.ToolUseID] {
					if answered[p.ToolUseID] {
						return invalid(pf+".tool_use_id", "unique", fmt.Sprintf("tool_use %q is answered twice", p.ToolUseID))
					}
					return invalid(pf+".tool_use_id", "answers_tool_use",
						fmt.Sprintf("%q is not the id of a tool_use in the previous assistant message", p.ToolUseID))
				}
				if othersSeen {
					return invalid(pf, "tool_results_first", "tool_result parts must come before any other part")
				}
				delete(pending, p.ToolUseID)
				answered[p.ToolUseID] = true
			}
			if p.Type != PartToolResult {
				othersSeen = true
			}
		}
		if m.Role == RoleUser {
			for _, id := range calls {
				if pending[id] {
					return invalid(f+".content", "tool_use_answered",
						fmt.Sprintf("tool_use %q of messages[%d] has no tool_result here", id, pendingIdx))
				}
			}
			pending, calls = nil, nil
			continue
		}
		pending, calls, pendingIdx = map[string]bool{}, nil, i
		for _, p := range m.Content {
			if p.Type == PartToolUse {
				pending[p.ID] = true
				calls = append(calls, p.ID)
			}
		}
	}
	return nil
}

func validatePart(p Part, role Role, f string) error {
	allowed := map[Role][]PartType{
		RoleUser:      {PartText, PartImage, PartToolResult},
		RoleAssistant: {PartText, PartToolUse},
	}[role]
	ok := false
	for _, t := range allowed {
		ok = ok || t == p.Type
	}
	if !ok {
		return invalid(f+".type", "part_role", fmt.Sprintf("a %s message cannot hold a %q part", role, p.Type))
	}
	switch p.Type {
	case PartImage:
		return validateImage(p, f)
	case PartToolUse:
		if p.ID == "" {
			return invalid(f+".id", "required", "a tool_use needs an id")
		}
		if !toolName.MatchString(p.Name) {
			return invalid(f+".name", "tool_name", "must match ^[a-zA-Z0-9_-]{1,64}$")
		}
		if !IsJSONObject(p.Input) {
			return invalid(f+".input", "json_object", "must be a JSON object")
		}
	case PartToolResult:
		for k, c := range p.Content {
			cf := fmt.Sprintf("%s.content[%d]", f, k)
			switch c.Type {
			case PartText:
			case PartImage:
				if err := validateImage(c, cf); err != nil {
					return err
				}
			default:
				return invalid(cf+".type", "part_type", "a tool result holds text and images only")
			}
		}
	}
	return nil
}

func validateImage(p Part, f string) error {
	known := false
	for _, t := range ImageMediaTypes {
		known = known || t == p.MediaType
	}
	if !known {
		return invalid(f+".media_type", "media_type", fmt.Sprintf("%q is not one of image/jpeg, image/png, image/gif, image/webp", p.MediaType))
	}
	if p.Data == "" {
		return invalid(f+".data", "base64", "image data is empty")
	}
	if _, err := base64.StdEncoding.DecodeString(p.Data); err != nil {
		return invalid(f+".data", "base64", "image data is not standard base64")
	}
	return nil
}

// IsJSONObject reports whether raw is one JSON object.
func IsJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
