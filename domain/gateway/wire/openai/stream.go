package openai

import (
	"fmt"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/sse"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/wirejson"
)

// StreamEncoder writes a stream of IR events as this format's SSE, data
// lines only, one call per event, so that the caller writes and flushes
// each event's bytes as it comes. Every chunk is a chat.completion.chunk
// with the stream's id (chatcmpl-), created and model:
//
//   - Start: the first chunk, delta {role: assistant, content: ""}.
//   - TextDelta: delta {content}.
//   - BlockStart of a tool_use: delta {tool_calls: [{index, id, type
//     function, function {name, arguments ""}}]}, index counting the
//     reply's tool calls from 0; InputDelta: delta {tool_calls: [{index,
//     function {arguments}}]}. Text blocks' starts and all stops write
//     nothing.
//   - Stop: a chunk with an empty delta and finish_reason (and stop_reason
//     naming the stop sequence met, as vLLM does); then, when the client
//     asked for usage (stream_options.include_usage), a chunk with no
//     choices and usage; then data: [DONE]. With usage asked for, the
//     other chunks carry "usage": null, as the format's API does.
//   - Error: a data line {"error": {...}} in EncodeError's shape, then
//     data: [DONE].
//
// Every event passes a chat.StreamChecker first. Empty deltas write
// nothing.
type StreamEncoder struct {
	check        chat.StreamChecker
	includeUsage bool
	id, model    string
	created      int64
	tools        map[int]int // IR block index -> tool call index
}

// NewStreamEncoder returns an encoder for one stream; includeUsage is the
// client's stream_options.include_usage.
func NewStreamEncoder(includeUsage bool) *StreamEncoder {
	return &StreamEncoder{includeUsage: includeUsage, tools: map[int]int{}}
}

type delta struct {
	Role      string     `json:"role,omitempty"`
	Content   *string    `json:"content,omitempty"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
	StopReason   *string `json:"stop_reason,omitempty"`
}

type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage,omitempty"`
}

// chunkWithUsage is a chunk whose usage member is always written (null on
// all but the last chunk) when the client asked for usage.
type chunkWithUsage struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage"`
}

// Done is the line that ends every stream of this format.
const Done = "[DONE]"

// Encode returns the SSE bytes of ev (none for some), or the stream rule
// ev breaks.
func (e *StreamEncoder) Encode(ev chat.Event) ([]byte, error) {
	if err := e.check.Check(ev); err != nil {
		return nil, err
	}
	switch v := ev.(type) {
	case chat.Start:
		if v.ID == "" {
			return nil, fmt.Errorf("openai: a stream start without an id")
		}
		e.id, e.model, e.created = CompletionID(v.ID), v.Model, v.Created
		empty := ""
		return e.chunk(nil, delta{Role: "assistant", Content: &empty}, nil, nil)
	case chat.BlockStart:
		if v.Kind != chat.BlockToolUse {
			return nil, nil
		}
		n := len(e.tools)
		e.tools[v.Index] = n
		return e.chunk(nil, delta{ToolCalls: []toolCall{{Index: &n, ID: v.ToolID, Type: "function",
			Function: function{Name: v.ToolName}}}}, nil, nil)
	case chat.TextDelta:
		if v.Text == "" {
			return nil, nil
		}
		return e.chunk(nil, delta{Content: &v.Text}, nil, nil)
	case chat.InputDelta:
		if v.PartialJSON == "" {
			return nil, nil
		}
		n := e.tools[v.Index]
		return e.chunk(nil, delta{ToolCalls: []toolCall{{Index: &n, Function: function{Arguments: v.PartialJSON}}}}, nil, nil)
	case chat.BlockStop:
		return nil, nil
	case chat.Stop:
		finish := FinishReason(v.Reason)
		var seq *string
		if v.Reason == chat.StopSequence && v.Sequence != "" {
			seq = &v.Sequence
		}
		b, err := e.chunk(nil, delta{}, &finish, seq)
		if err != nil {
			return nil, err
		}
		if e.includeUsage {
			data, err := wirejson.Marshal(chunk{ID: e.id, Object: "chat.completion.chunk", Created: e.created, Model: e.model,
				Choices: []chunkChoice{}, Usage: usageOf(v.Usage)})
			if err != nil {
				return nil, err
			}
			b = sse.AppendData(b, data)
		}
		return sse.AppendData(b, []byte(Done)), nil
	case chat.Error:
		b := sse.AppendData(nil, EncodeError(v))
		return sse.AppendData(b, []byte(Done)), nil
	}
	return nil, fmt.Errorf("openai: unknown event %T", ev)
}

func (e *StreamEncoder) chunk(b []byte, d delta, finish, seq *string) ([]byte, error) {
	c := chunkChoice{Delta: d, FinishReason: finish, StopReason: seq}
	var v any = chunk{ID: e.id, Object: "chat.completion.chunk", Created: e.created, Model: e.model, Choices: []chunkChoice{c}}
	if e.includeUsage {
		v = chunkWithUsage{ID: e.id, Object: "chat.completion.chunk", Created: e.created, Model: e.model, Choices: []chunkChoice{c}}
	}
	data, err := wirejson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("openai: encode a chunk: %w", err)
	}
	return sse.AppendData(b, data), nil
}
