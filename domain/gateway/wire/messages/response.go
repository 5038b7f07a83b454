package messages

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// Prefixes of the ids of this format and of the OpenAI format.
const (
	MessageIDPrefix = "msg_"
	openaiIDPrefix  = "chatcmpl-"
)

// MessageID is the id a client of this format sees for a reply: the
// upstream's id with this format's prefix, msg_, in place of the OpenAI
// format's chatcmpl- (so chatcmpl-abc and msg_abc name the same reply both
// ways) or before an id with neither.
func MessageID(id string) string {
	if strings.HasPrefix(id, MessageIDPrefix) {
		return id
	}
	return MessageIDPrefix + strings.TrimPrefix(id, openaiIDPrefix)
}

// stopReasons maps the IR's stop reasons to this format's; StopError has
// none (a reply that ended in an error is an error).
var stopReasons = map[chat.StopReason]string{
	chat.StopEndTurn:   "end_turn",
	chat.StopToolUse:   "tool_use",
	chat.StopMaxTokens: "max_tokens",
	chat.StopSequence:  "stop_sequence",
	chat.StopRefusal:   "refusal",
}

// StopReason reads this format's stop_reason. pause_turn (a server tool's
// pause, which this gateway never asks for) reads as end_turn and
// model_context_window_exceeded as max_tokens; anything unknown as
// end_turn.
func StopReason(s string) chat.StopReason {
	for r, w := range stopReasons {
		if w == s {
			return r
		}
	}
	if s == "model_context_window_exceeded" {
		return chat.StopMaxTokens
	}
	return chat.StopEndTurn
}

// ErrStoppedWithError is returned for a reply whose stop reason is
// chat.StopError: this format has no such stop reason, and the gateway
// sends an error instead.
var ErrStoppedWithError = errors.New("messages: the reply ended in an error; send an error instead")

type usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

type response struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Model        string  `json:"model"`
	Content      []any   `json:"content"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        usage   `json:"usage"`
}

// EncodeResponse writes r as this format's response body: id (msg_),
// type message, role assistant, model, content blocks, stop_reason,
// stop_sequence (null unless one was met), usage {input_tokens,
// output_tokens}.
func EncodeResponse(r chat.Response) ([]byte, error) {
	if r.ID == "" {
		return nil, fmt.Errorf("messages: a response without an id")
	}
	reason, ok := stopReasons[r.StopReason]
	if r.StopReason == chat.StopError {
		return nil, ErrStoppedWithError
	}
	if !ok {
		return nil, fmt.Errorf("messages: stop reason %q", r.StopReason)
	}
	out := response{ID: MessageID(r.ID), Type: "message", Role: "assistant", Model: r.Model, Content: []any{},
		StopReason: &reason, Usage: usage{r.Usage.InputTokens, r.Usage.OutputTokens}}
	if r.StopReason == chat.StopSequence && r.StopSequence != "" {
		out.StopSequence = &r.StopSequence
	}
	for _, p := range r.Content {
		b, err := block(p)
		if err != nil {
			return nil, err
		}
		out.Content = append(out.Content, b)
	}
	return wirejson.Marshal(out)
}

// wireBlock is any block of this format as an upstream sends it.
type wireBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// DecodeResponse reads an upstream's response body of this format. Members
// it does not know are ignored, and so are blocks other than text and
// tool_use (thinking: the gateway does not ask for it).
func DecodeResponse(body []byte) (chat.Response, error) {
	var in struct {
		ID           string      `json:"id"`
		Type         string      `json:"type"`
		Model        string      `json:"model"`
		Content      []wireBlock `json:"content"`
		StopReason   string      `json:"stop_reason"`
		StopSequence *string     `json:"stop_sequence"`
		Usage        usage       `json:"usage"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return chat.Response{}, fmt.Errorf("messages: read a response: %w", err)
	}
	if in.Type != "message" {
		return chat.Response{}, fmt.Errorf("messages: a response of type %q", in.Type)
	}
	r := chat.Response{ID: in.ID, Model: in.Model, StopReason: StopReason(in.StopReason),
		Usage: chat.Usage{InputTokens: in.Usage.InputTokens, OutputTokens: in.Usage.OutputTokens}}
	if in.StopSequence != nil {
		r.StopSequence = *in.StopSequence
	}
	for _, b := range in.Content {
		switch b.Type {
		case "text":
			r.Content = append(r.Content, chat.Text(b.Text))
		case "tool_use":
			r.Content = append(r.Content, chat.ToolUse(b.ID, b.Name, chat.ToolInput(string(b.Input))))
		}
	}
	return r, nil
}
