package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/sse"
)

// StreamParser reads an upstream's SSE stream of this format into IR
// events, one chunk at a time as the bytes arrive:
//
//   - the first chunk gives Start (id, model, created; InputTokens 0: this
//     format tells usage at the end);
//   - delta.content opens a text block (closing an open tool_use block) and
//     gives TextDelta;
//   - tool-call fragments are reassembled by their index: the first
//     fragment of an index closes the open block and opens a tool_use block
//     with its id (an id the upstream left out is made from the stream's
//     id and the index) and name; arguments give InputDelta. A fragment for
//     a call already closed is an error: blocks are never reopened;
//   - finish_reason closes the open block; the Stop it gives waits for the
//     usage chunk (choices empty), for data: [DONE] or for the end of the
//     stream, and carries the usage (prompt and completion tokens) of the
//     last chunk that had any;
//   - a chunk {"error": {...}} gives an Error and ends the stream.
//
// [DONE] without a finish_reason stops with tool_use when the reply called
// tools, else end_turn.
type StreamParser struct {
	r        *sse.Reader
	started  bool
	done     bool
	id       string
	open     int         // IR index of the open block, -1 when none
	openTool int         // its tool call index, -1 when it is text or none
	next     int         // next IR index
	tools    map[int]int // tool call index -> IR index of its block
	closed   map[int]bool
	finish   string
	finished bool
	stopSeq  json.RawMessage
	usage    chat.Usage
	queue    []chat.Event
	err      error // returned once the queue is empty
}

// NewStreamParser reads the stream body r.
func NewStreamParser(r io.Reader) *StreamParser {
	return &StreamParser{r: sse.NewReader(r), open: -1, openTool: -1, tools: map[int]int{}, closed: map[int]bool{}}
}

// ErrTruncated is returned when the stream ends before its finish_reason.
var ErrTruncated = errors.New("openai: the upstream stream ended before its finish_reason")

type streamChunk struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string         `json:"finish_reason"`
		StopReason   json.RawMessage `json:"stop_reason"`
	} `json:"choices"`
	Usage *usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// Next returns the next event, io.EOF after the last (after Stop or an
// Error), ErrTruncated when the stream breaks off before its
// finish_reason, or the error of a stream that is not this format's.
func (p *StreamParser) Next() (chat.Event, error) {
	for {
		if len(p.queue) > 0 {
			ev := p.queue[0]
			p.queue = p.queue[1:]
			return ev, nil
		}
		if p.err != nil {
			return nil, p.err
		}
		if p.done {
			return nil, io.EOF
		}
		raw, err := p.r.Next()
		if errors.Is(err, io.EOF) {
			p.done = true
			if !p.finished {
				return nil, ErrTruncated
			}
			p.queue = append(p.queue, p.stop())
			continue
		}
		if err != nil {
			p.done = true
			return nil, err
		}
		if err := p.chunk(raw.Data); err != nil {
			// The events of the chunk before the broken part come first.
			p.done, p.err = true, err
		}
	}
}

// chunk maps one data line into the queue.
func (p *StreamParser) chunk(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if string(data) == Done {
		p.done = true
		if !p.started {
			return ErrTruncated
		}
		p.queue = append(p.queue, p.stop())
		return nil
	}
	var c streamChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("openai: read a stream chunk: %w", err)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		p.done = true
		p.queue = append(p.queue, DecodeError(0, data))
		return nil
	}
	if !p.started {
		p.started, p.id = true, c.ID
		p.queue = append(p.queue, chat.Start{ID: c.ID, Model: c.Model, Created: c.Created})
	}
	if c.Usage != nil {
		p.usage = chat.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // the gateway asks for one choice
		}
		if p.finished {
			return fmt.Errorf("openai: a delta after finish_reason")
		}
		d := ch.Delta
		text := ""
		if d.Content != nil {
			text = *d.Content
		}
		if d.Refusal != nil {
			text += *d.Refusal
		}
		if text != "" {
			if p.open < 0 || p.openTool >= 0 {
				p.closeOpen()
				p.queue = append(p.queue, chat.BlockStart{Index: p.next, Kind: chat.BlockText})
				p.open, p.openTool = p.next, -1
				p.next++
			}
			p.queue = append(p.queue, chat.TextDelta{Index: p.open, Text: text})
		}
		for _, tc := range d.ToolCalls {
			if err := p.toolFragment(tc.Index, tc.ID, tc.Function.Name, tc.Function.Arguments); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			p.closeOpen()
			p.finish, p.stopSeq, p.finished = *ch.FinishReason, ch.StopReason, true
		}
	}
	return nil
}

func (p *StreamParser) toolFragment(index int, id, name, args string) error {
	if p.closed[index] {
		return fmt.Errorf("openai: a fragment of tool call %d after it was closed", index)
	}
	if _, ok := p.tools[index]; !ok {
		if name == "" {
			return fmt.Errorf("openai: tool call %d starts without a name", index)
		}
		if id == "" {
			id = fmt.Sprintf("call_%s_%d", p.id, index)
		}
		p.closeOpen()
		p.tools[index] = p.next
		p.queue = append(p.queue, chat.BlockStart{Index: p.next, Kind: chat.BlockToolUse, ToolID: id, ToolName: name})
		p.open, p.openTool = p.next, index
		p.next++
	}
	if args != "" {
		p.queue = append(p.queue, chat.InputDelta{Index: p.tools[index], PartialJSON: args})
	}
	return nil
}

func (p *StreamParser) closeOpen() {
	if p.open < 0 {
		return
	}
	p.queue = append(p.queue, chat.BlockStop{Index: p.open})
	if p.openTool >= 0 {
		p.closed[p.openTool] = true
	}
	p.open, p.openTool = -1, -1
}

func (p *StreamParser) stop() chat.Event {
	p.closeOpen()
	reason, seq := StopReason(p.finish, p.stopSeq)
	if !p.finished {
		reason = chat.StopEndTurn
		if len(p.tools) > 0 {
			reason = chat.StopToolUse
		}
	}
	return chat.Stop{Reason: reason, Sequence: seq, Usage: p.usage}
}
