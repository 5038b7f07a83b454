package messages

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// The format's blocks, in the member order of its API.

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type imageBlock struct {
	Type   string      `json:"type"`
	Source imageSource `json:"source"`
}

type toolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   any    `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
}

// block returns the wire form of a part.
func block(p chat.Part) (any, error) {
	switch p.Type {
	case chat.PartText:
		return textBlock{Type: "text", Text: p.Text}, nil
	case chat.PartImage:
		return imageBlock{Type: "image", Source: imageSource{Type: "base64", MediaType: p.MediaType, Data: p.Data}}, nil
	case chat.PartToolUse:
		input := p.Input
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		return toolUseBlock{Type: "tool_use", ID: p.ID, Name: p.Name, Input: input}, nil
	case chat.PartToolResult:
		b := toolResultBlock{Type: "tool_result", ToolUseID: p.ToolUseID, IsError: p.IsError}
		if len(p.Content) > 0 {
			c, err := content(p.Content)
			if err != nil {
				return nil, err
			}
			b.Content = c
		}
		return b, nil
	}
	return nil, fmt.Errorf("messages: a part of type %q", p.Type)
}

// content is a string when it is one text part, else an array of blocks.
func content(parts []chat.Part) (any, error) {
	if len(parts) == 1 && parts[0].Type == chat.PartText {
		return parts[0].Text, nil
	}
	blocks := make([]any, 0, len(parts))
	for _, p := range parts {
		b, err := block(p)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type toolChoice struct {
	Type                   string `json:"type"`
	Name                   string `json:"name,omitempty"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use,omitempty"`
}

type metadata struct {
	UserID string `json:"user_id"`
}

type request struct {
	Model         string      `json:"model"`
	MaxTokens     int         `json:"max_tokens"`
	System        any         `json:"system,omitempty"`
	Messages      []message   `json:"messages"`
	Tools         []tool      `json:"tools,omitempty"`
	ToolChoice    *toolChoice `json:"tool_choice,omitempty"`
	Temperature   *float64    `json:"temperature,omitempty"`
	TopP          *float64    `json:"top_p,omitempty"`
	StopSequences []string    `json:"stop_sequences,omitempty"`
	Stream        bool        `json:"stream,omitempty"`
	Metadata      *metadata   `json:"metadata,omitempty"`
}

// EncodeRequest writes r as this format's request body, for an upstream.
// max_tokens, which the format requires, is chat.DefaultMaxTokens when r
// has none. Content of one text part is written as a string, as is a
// system prompt of one part. DisableParallelToolUse rides on tool_choice
// (type auto when r chose none).
func EncodeRequest(r chat.Request) ([]byte, error) {
	out := request{Model: r.Model, MaxTokens: chat.DefaultMaxTokens, Temperature: r.Temperature, TopP: r.TopP,
		StopSequences: r.Stop, Stream: r.Stream, Messages: []message{}}
	if r.MaxTokens != nil {
		out.MaxTokens = *r.MaxTokens
	}
	if len(r.System) > 0 {
		s, err := content(r.System)
		if err != nil {
			return nil, err
		}
		out.System = s
	}
	for _, m := range r.Messages {
		c, err := content(m.Content)
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, message{Role: string(m.Role), Content: c})
	}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	if r.ToolChoice != nil {
		out.ToolChoice = &toolChoice{Type: string(r.ToolChoice.Type), Name: r.ToolChoice.Name}
	}
	if r.DisableParallelToolUse && len(r.Tools) > 0 {
		if out.ToolChoice == nil {
			out.ToolChoice = &toolChoice{Type: string(chat.ToolChoiceAuto)}
		}
		out.ToolChoice.DisableParallelToolUse = true
	}
	if r.User != "" {
		out.Metadata = &metadata{UserID: r.User}
	}
	return wirejson.Marshal(out)
}
