package messages

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/sse"
)

// StreamParser reads an upstream's SSE stream of this format into IR
// events, one event at a time as the bytes arrive. The format's events map
// one to one: message_start to Start, content_block_start/delta/stop to
// BlockStart, TextDelta or InputDelta, BlockStop, message_delta to Stop
// (whose Usage.InputTokens is message_start's unless message_delta gives
// its own), error to Error. ping, message_stop and event types it does not
// know are skipped, and so are blocks other than text and tool_use
// (thinking) with their deltas; the blocks it keeps are renumbered to stay
// consecutive. Empty input_json_delta fragments are dropped.
type StreamParser struct {
	r       *sse.Reader
	stopped bool
	done    bool
	input   int         // input tokens from message_start
	index   map[int]int // upstream block index -> IR index, kept blocks
	next    int
	queue   []chat.Event
	err     error // returned once the queue is empty
}

// NewStreamParser reads the stream body r.
func NewStreamParser(r io.Reader) *StreamParser {
	return &StreamParser{r: sse.NewReader(r), index: map[int]int{}}
}

// ErrTruncated is returned when the stream ends before its reply did.
var ErrTruncated = errors.New("messages: the upstream stream ended before message_stop")

type streamEvent struct {
	Type         string          `json:"type"`
	Message      json.RawMessage `json:"message"`
	Index        int             `json:"index"`
	ContentBlock wireBlock       `json:"content_block"`
	Delta        struct {
		Type         string  `json:"type"`
		Text         string  `json:"text"`
		PartialJSON  string  `json:"partial_json"`
		StopReason   string  `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	} `json:"delta"`
	Usage *struct {
		InputTokens  *int `json:"input_tokens"`
		OutputTokens int  `json:"output_tokens"`
	} `json:"usage"`
}

// Next returns the next event, io.EOF after the last (after Stop or an
// Error), ErrTruncated when the stream breaks off before its Stop, or the
// error of a stream that is not this format's.
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
			if p.stopped {
				return nil, io.EOF
			}
			return nil, ErrTruncated
		}
		if err != nil {
			return nil, err
		}
		evs, err := p.event(raw)
		if err != nil {
			p.done, p.err = true, err
		}
		p.queue = evs
	}
}

// event maps one SSE event to none, one or (a block start that carries
// content) two IR events.
func (p *StreamParser) event(raw sse.Event) ([]chat.Event, error) {
	if raw.Name == "error" {
		p.done = true
		return []chat.Event{DecodeError(0, raw.Data)}, nil
	}
	if raw.Name == "ping" || len(raw.Data) == 0 {
		return nil, nil
	}
	var e streamEvent
	if err := json.Unmarshal(raw.Data, &e); err != nil {
		return nil, fmt.Errorf("messages: read stream event %q: %w", raw.Name, err)
	}
	switch e.Type {
	case "message_start":
		var m struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage usage  `json:"usage"`
		}
		if err := json.Unmarshal(e.Message, &m); err != nil {
			return nil, fmt.Errorf("messages: read message_start: %w", err)
		}
		p.input = m.Usage.InputTokens
		return one(chat.Start{ID: m.ID, Model: m.Model, InputTokens: m.Usage.InputTokens})
	case "content_block_start":
		b := e.ContentBlock
		switch b.Type {
		case "text":
			i := p.open(e.Index)
			evs := []chat.Event{chat.BlockStart{Index: i, Kind: chat.BlockText}}
			if b.Text != "" { // the format starts blocks empty; keep text that came anyway
				evs = append(evs, chat.TextDelta{Index: i, Text: b.Text})
			}
			return evs, nil
		case "tool_use":
			i := p.open(e.Index)
			evs := []chat.Event{chat.BlockStart{Index: i, Kind: chat.BlockToolUse, ToolID: b.ID, ToolName: b.Name}}
			if s := string(b.Input); s != "" && s != "{}" && s != "null" {
				evs = append(evs, chat.InputDelta{Index: i, PartialJSON: s})
			}
			return evs, nil
		}
		return nil, nil
	case "content_block_delta":
		i, ok := p.index[e.Index]
		if !ok {
			return nil, nil
		}
		switch e.Delta.Type {
		case "text_delta":
			return one(chat.TextDelta{Index: i, Text: e.Delta.Text})
		case "input_json_delta":
			if e.Delta.PartialJSON == "" {
				return nil, nil
			}
			return one(chat.InputDelta{Index: i, PartialJSON: e.Delta.PartialJSON})
		}
		return nil, nil
	case "content_block_stop":
		i, ok := p.index[e.Index]
		if !ok {
			return nil, nil
		}
		return one(chat.BlockStop{Index: i})
	case "message_delta":
		s := chat.Stop{Reason: StopReason(e.Delta.StopReason), Usage: chat.Usage{InputTokens: p.input}}
		if e.Delta.StopSequence != nil {
			s.Sequence = *e.Delta.StopSequence
		}
		if e.Usage != nil {
			s.Usage.OutputTokens = e.Usage.OutputTokens
			if e.Usage.InputTokens != nil {
				s.Usage.InputTokens = *e.Usage.InputTokens
			}
		}
		p.stopped = true
		return one(s)
	case "message_stop":
		p.done = true
		if !p.stopped {
			return nil, ErrTruncated
		}
		return nil, nil
	}
	return nil, nil
}

// open gives upstream block index a the next IR index.
func one(ev chat.Event) ([]chat.Event, error) { return []chat.Event{ev}, nil }

func (p *StreamParser) open(a int) int {
	i := p.next
	p.index[a] = i
	p.next++
	return i
}
