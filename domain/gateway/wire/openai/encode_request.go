package openai

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
	"github.com/strata-platform/strata/domain/kernel"
)

// ToolErrorPrefix starts the content of a tool message whose result was an
// error: the format's tool messages have no is_error.
const ToolErrorPrefix = "Error: "

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type imageURL struct {
	URL string `json:"url"`
}

type imagePart struct {
	Type     string   `json:"type"`
	ImageURL imageURL `json:"image_url"`
}

type function struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type toolCall struct {
	Index    *int     `json:"index,omitempty"`
	ID       string   `json:"id,omitempty"`
	Type     string   `json:"type,omitempty"`
	Function function `json:"function"`
}

type message struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type tool struct {
	Type     string      `json:"type"`
	Function functionDef `json:"function"`
}

type namedFunction struct {
	Name string `json:"name"`
}

type namedToolChoice struct {
	Type     string        `json:"type"`
	Function namedFunction `json:"function"`
}

type streamOpts struct {
	IncludeUsage bool `json:"include_usage"`
}

type request struct {
	Model             string      `json:"model"`
	Messages          []message   `json:"messages"`
	MaxTokens         *int        `json:"max_tokens,omitempty"`
	Temperature       *float64    `json:"temperature,omitempty"`
	TopP              *float64    `json:"top_p,omitempty"`
	Stop              []string    `json:"stop,omitempty"`
	Stream            bool        `json:"stream,omitempty"`
	StreamOptions     *streamOpts `json:"stream_options,omitempty"`
	Tools             []tool      `json:"tools,omitempty"`
	ToolChoice        any         `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool       `json:"parallel_tool_calls,omitempty"`
	User              string      `json:"user,omitempty"`
}

// EncodeRequest writes r as this format's request body, for an upstream:
// each system part a system message; a user turn's tool_result parts each a
// tool message, in order, before a user message with its other parts; an
// assistant turn one assistant message with its text as content (null when
// none) and its tool_use parts as tool_calls. max_tokens is sent as
// max_tokens, the member every OpenAI-compatible server reads. A stream
// always asks for usage (stream_options.include_usage), whatever the client
// asked: the gateway counts every stream's tokens. A tool result holding an
// image cannot be said in this format and is refused (kernel.Invalid,
// rule tool_result_text).
func EncodeRequest(r chat.Request) ([]byte, error) {
	out := request{Model: r.Model, Messages: []message{}, MaxTokens: r.MaxTokens, Temperature: r.Temperature,
		TopP: r.TopP, Stop: r.Stop, Stream: r.Stream, User: r.User}
	if r.Stream {
		out.StreamOptions = &streamOpts{IncludeUsage: true}
	}
	for _, p := range r.System {
		out.Messages = append(out.Messages, message{Role: "system", Content: p.Text})
	}
	for i, m := range r.Messages {
		msgs, err := messagesOf(m, fmt.Sprintf("messages[%d]", i))
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, msgs...)
	}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, tool{Type: "function", Function: functionDef{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
	}
	if c := r.ToolChoice; c != nil {
		out.ToolChoice = toolChoiceOf(*c)
	}
	if r.DisableParallelToolUse && len(r.Tools) > 0 {
		f := false
		out.ParallelToolCalls = &f
	}
	return wirejson.Marshal(out)
}

func toolChoiceOf(c chat.ToolChoice) any {
	switch c.Type {
	case chat.ToolChoiceAny:
		return "required"
	case chat.ToolChoiceTool:
		return namedToolChoice{Type: "function", Function: namedFunction{Name: c.Name}}
	}
	return string(c.Type) // auto, none
}

// messagesOf writes one IR turn as this format's messages.
func messagesOf(m chat.Message, path string) ([]message, error) {
	if m.Role == chat.RoleAssistant {
		return []message{assistantMessage(m.Content)}, nil
	}
	var out []message
	var rest []chat.Part
	for j, p := range m.Content {
		if p.Type != chat.PartToolResult {
			rest = append(rest, p)
			continue
		}
		c, err := toolContent(p, fmt.Sprintf("%s.content[%d]", path, j))
		if err != nil {
			return nil, err
		}
		out = append(out, message{Role: "tool", ToolCallID: p.ToolUseID, Content: c})
	}
	if len(rest) > 0 {
		out = append(out, message{Role: "user", Content: userContent(rest)})
	}
	return out, nil
}

// userContent is a string when it is one text part, else an array of
// parts.
func userContent(parts []chat.Part) any {
	if len(parts) == 1 && parts[0].Type == chat.PartText {
		return parts[0].Text
	}
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		if p.Type == chat.PartImage {
			out = append(out, imagePart{Type: "image_url", ImageURL: imageURL{URL: DataURL(p.MediaType, p.Data)}})
		} else {
			out = append(out, textPart{Type: "text", Text: p.Text})
		}
	}
	return out
}

// assistantMessage writes an assistant turn: its text parts as content (a
// string for one, an array for several, null for none), its tool_use parts
// as tool_calls with their arguments as a JSON string.
func assistantMessage(parts []chat.Part) message {
	msg := message{Role: "assistant"}
	var texts []chat.Part
	for _, p := range parts {
		switch p.Type {
		case chat.PartText:
			texts = append(texts, p)
		case chat.PartToolUse:
			args := string(p.Input)
			if args == "" {
				args = "{}"
			}
			msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: p.ID, Type: "function", Function: function{Name: p.Name, Arguments: args}})
		}
	}
	if len(texts) > 0 {
		msg.Content = userContent(texts)
	}
	return msg
}

// toolContent writes a tool result's content: a string for none or one text
// part, an array of text parts for several; ToolErrorPrefix before the text
// of an error.
func toolContent(p chat.Part, path string) (any, error) {
	texts := make([]chat.Part, 0, len(p.Content))
	for k, c := range p.Content {
		if c.Type != chat.PartText {
			return nil, kernel.Invalid(fmt.Sprintf("%s.content[%d]", path, k), "tool_result_text",
				fmt.Sprintf("%s.content[%d]: this model's format takes text only in tool results", path, k))
		}
		texts = append(texts, c)
	}
	if p.IsError {
		if len(texts) == 0 {
			texts = append(texts, chat.Text(""))
		}
		texts[0].Text = ToolErrorPrefix + texts[0].Text
	}
	switch len(texts) {
	case 0:
		return "", nil
	case 1:
		return texts[0].Text, nil
	}
	return userContent(texts), nil
}
