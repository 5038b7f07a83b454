package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// Prefixes of the ids of this format and of the messages format.
const (
	CompletionIDPrefix = "chatcmpl-"
	messagesIDPrefix   = "msg_"
)

// CompletionID is the id a client of this format sees for a reply: the
// upstream's id with this format's prefix, chatcmpl-, in place of the
// messages format's msg_ (so msg_abc and chatcmpl-abc name the same reply
// both ways) or before an id with neither.
func CompletionID(id string) string {
	if strings.HasPrefix(id, CompletionIDPrefix) {
		return id
	}
	return CompletionIDPrefix + strings.TrimPrefix(id, messagesIDPrefix)
}

var finishReasons = map[chat.StopReason]string{
	chat.StopEndTurn:   "stop",
	chat.StopSequence:  "stop",
	chat.StopToolUse:   "tool_calls",
	chat.StopMaxTokens: "length",
	chat.StopRefusal:   "content_filter",
	chat.StopError:     "error",
}

// FinishReason is this format's finish_reason for a stop reason.
func FinishReason(r chat.StopReason) string {
	if f, ok := finishReasons[r]; ok {
		return f
	}
	return "stop"
}

// StopReason reads a finish_reason, with the stop_reason member that vLLM
// and this gateway put next to it (the stop sequence met, when it is a
// string): stop is StopSequence with one, else StopEndTurn; tool_calls and
// the legacy function_call StopToolUse; length StopMaxTokens;
// content_filter StopRefusal; error StopError; anything else StopEndTurn.
func StopReason(finish string, stopReason json.RawMessage) (chat.StopReason, string) {
	switch finish {
	case "tool_calls", "function_call":
		return chat.StopToolUse, ""
	case "length":
		return chat.StopMaxTokens, ""
	case "content_filter":
		return chat.StopRefusal, ""
	case "error":
		return chat.StopError, ""
	}
	var seq string
	if json.Unmarshal(stopReason, &seq) == nil && seq != "" {
		return chat.StopSequence, seq
	}
	return chat.StopEndTurn, ""
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func usageOf(u chat.Usage) *usage {
	return &usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
}

type responseMessage struct {
	Role      string     `json:"role"`
	Content   *string    `json:"content"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type choice struct {
	Index        int             `json:"index"`
	Message      responseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
	StopReason   *string         `json:"stop_reason,omitempty"`
}

type response struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   *usage   `json:"usage"`
}

// EncodeResponse writes r as this format's response body: id (chatcmpl-),
// object chat.completion, created, model, one choice whose message holds
// the text parts joined as content (null when none) and the tool_use parts
// as tool_calls, finish_reason (with stop_reason naming the stop sequence
// met, as vLLM does), and usage {prompt_tokens, completion_tokens,
// total_tokens}.
func EncodeResponse(r chat.Response) ([]byte, error) {
	if r.ID == "" {
		return nil, fmt.Errorf("openai: a response without an id")
	}
	msg := responseMessage{Role: "assistant"}
	var text strings.Builder
	hasText := false
	for _, p := range r.Content {
		switch p.Type {
		case chat.PartText:
			text.WriteString(p.Text)
			hasText = true
		case chat.PartToolUse:
			args := string(p.Input)
			if args == "" {
				args = "{}"
			}
			msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: p.ID, Type: "function", Function: function{Name: p.Name, Arguments: args}})
		default:
			return nil, fmt.Errorf("openai: a response part of type %q", p.Type)
		}
	}
	if hasText {
		s := text.String()
		msg.Content = &s
	}
	c := choice{Message: msg, FinishReason: FinishReason(r.StopReason)}
	if r.StopReason == chat.StopSequence && r.StopSequence != "" {
		c.StopReason = &r.StopSequence
	}
	return wirejson.Marshal(response{ID: CompletionID(r.ID), Object: "chat.completion", Created: r.Created, Model: r.Model,
		Choices: []choice{c}, Usage: usageOf(r.Usage)})
}

// DecodeResponse reads an upstream's response body of this format: its
// first choice (the gateway asks for one), content as a text part (an
// empty or null content as none; a refusal as text), tool_calls as tool_use
// parts whose arguments must hold a JSON object ("" reads as {}). Members it
// does not know are ignored.
func DecodeResponse(body []byte) (chat.Response, error) {
	var in struct {
		ID      string `json:"id"`
		Created int64  `json:"created"`
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				Refusal   *string `json:"refusal"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string          `json:"finish_reason"`
			StopReason   json.RawMessage `json:"stop_reason"`
		} `json:"choices"`
		Usage usage `json:"usage"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return chat.Response{}, fmt.Errorf("openai: read a response: %w", err)
	}
	if len(in.Choices) == 0 {
		return chat.Response{}, fmt.Errorf("openai: a response without choices")
	}
	c := in.Choices[0]
	r := chat.Response{ID: in.ID, Model: in.Model, Created: in.Created,
		Usage: chat.Usage{InputTokens: in.Usage.PromptTokens, OutputTokens: in.Usage.CompletionTokens}}
	r.StopReason, r.StopSequence = StopReason(c.FinishReason, c.StopReason)
	if m := c.Message; m.Content != nil && *m.Content != "" {
		r.Content = append(r.Content, chat.Text(*m.Content))
	} else if m.Refusal != nil && *m.Refusal != "" {
		r.Content = append(r.Content, chat.Text(*m.Refusal))
	}
	for i, tc := range c.Message.ToolCalls {
		args := tc.Function.Arguments
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		if !chat.IsJSONObject(json.RawMessage(args)) {
			return chat.Response{}, fmt.Errorf("openai: tool call %d: arguments that are not a JSON object", i)
		}
		r.Content = append(r.Content, chat.ToolUse(tc.ID, tc.Function.Name, wirejson.Compact(json.RawMessage(args))))
	}
	return r, nil
}
