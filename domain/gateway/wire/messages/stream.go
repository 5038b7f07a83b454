package messages

import (
	"encoding/json"
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/sse"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// StreamEncoder writes a stream of IR events as this format's SSE, one
// call per event, so that the caller writes and flushes each event's bytes
// as it comes:
//
//	event: message_start        (Start: id, model, usage.input_tokens)
//	event: content_block_start  (BlockStart: a text block, or a tool_use with id, name and input {})
//	event: content_block_delta  (TextDelta: text_delta; InputDelta: input_json_delta)
//	event: content_block_stop   (BlockStop)
//	event: message_delta        (Stop: stop_reason, stop_sequence, cumulative usage)
//	event: message_stop         (Stop)
//	event: error                (Error, after a 200, ending the stream)
//
// Every event passes a chat.StreamChecker first, so the output is always a
// well-formed stream: exactly one message_start first, blocks opened and
// closed in index order. Empty deltas write nothing. A Stop with
// chat.StopError, which this format cannot say, ends the stream with an
// error event of type api_error instead.
type StreamEncoder struct {
	check chat.StreamChecker
}

// NewStreamEncoder returns an encoder for one stream.
func NewStreamEncoder() *StreamEncoder { return &StreamEncoder{} }

type startMessage struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Model        string  `json:"model"`
	Content      []any   `json:"content"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        usage   `json:"usage"`
}

type messageStart struct {
	Type    string       `json:"type"`
	Message startMessage `json:"message"`
}

type blockStart struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block"`
}

type textDelta struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type inputDelta struct {
	Type        string `json:"type"`
	PartialJSON string `json:"partial_json"`
}

type blockDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"`
}

type blockStop struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type stopDelta struct {
	StopReason   string  `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

type messageDelta struct {
	Type  string    `json:"type"`
	Delta stopDelta `json:"delta"`
	Usage usage     `json:"usage"`
}

type typeOnly struct {
	Type string `json:"type"`
}

// Encode returns the SSE bytes of ev (none for an empty delta), or the
// stream rule ev breaks.
func (e *StreamEncoder) Encode(ev chat.Event) ([]byte, error) {
	if err := e.check.Check(ev); err != nil {
		return nil, err
	}
	switch v := ev.(type) {
	case chat.Start:
		if v.ID == "" {
			return nil, fmt.Errorf("messages: a stream start without an id")
		}
		return event(nil, "message_start", messageStart{Type: "message_start", Message: startMessage{
			ID: MessageID(v.ID), Type: "message", Role: "assistant", Model: v.Model, Content: []any{},
			Usage: usage{InputTokens: v.InputTokens}}})
	case chat.BlockStart:
		var cb any = textBlock{Type: "text"}
		if v.Kind == chat.BlockToolUse {
			cb = toolUseBlock{Type: "tool_use", ID: v.ToolID, Name: v.ToolName, Input: json.RawMessage(`{}`)}
		}
		return event(nil, "content_block_start", blockStart{Type: "content_block_start", Index: v.Index, ContentBlock: cb})
	case chat.TextDelta:
		if v.Text == "" {
			return nil, nil
		}
		return event(nil, "content_block_delta", blockDelta{Type: "content_block_delta", Index: v.Index,
			Delta: textDelta{Type: "text_delta", Text: v.Text}})
	case chat.InputDelta:
		if v.PartialJSON == "" {
			return nil, nil
		}
		return event(nil, "content_block_delta", blockDelta{Type: "content_block_delta", Index: v.Index,
			Delta: inputDelta{Type: "input_json_delta", PartialJSON: v.PartialJSON}})
	case chat.BlockStop:
		return event(nil, "content_block_stop", blockStop{Type: "content_block_stop", Index: v.Index})
	case chat.Stop:
		reason, ok := stopReasons[v.Reason]
		if !ok {
			return errorEvent(nil, chat.Error{Message: "the model stopped with an error"})
		}
		d := messageDelta{Type: "message_delta", Delta: stopDelta{StopReason: reason},
			Usage: usage{InputTokens: v.Usage.InputTokens, OutputTokens: v.Usage.OutputTokens}}
		if v.Reason == chat.StopSequence && v.Sequence != "" {
			d.Delta.StopSequence = &v.Sequence
		}
		b, err := event(nil, "message_delta", d)
		if err != nil {
			return nil, err
		}
		return event(b, "message_stop", typeOnly{Type: "message_stop"})
	case chat.Error:
		return errorEvent(nil, v)
	}
	return nil, fmt.Errorf("messages: unknown event %T", ev)
}

func event(b []byte, name string, v any) ([]byte, error) {
	data, err := wirejson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("messages: encode %s: %w", name, err)
	}
	return sse.AppendEvent(b, name, data), nil
}

func errorEvent(b []byte, e chat.Error) ([]byte, error) {
	return sse.AppendEvent(b, "error", EncodeError(e)), nil
}
