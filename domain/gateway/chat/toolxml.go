package chat

import (
	"encoding/json"
	"fmt"
	"strings"
)

const (
	openTag  = "<tool_call>"
	closeTag = "</tool_call>"
)

// ToolCallFilter removes the stray <tool_call>...</tool_call> XML that some
// models write into their text, from a stream of events, without buffering
// the stream:
//
//   - Text outside a tag passes at once, except a suffix that could be the
//     start of "<tool_call>" ("<", "<tool_"...): the shortest hold-back that
//     still sees a tag split across deltas. It passes as soon as the next
//     delta shows it is no tag, or at the end of the block.
//   - Text inside a tag is held until the closing tag (or the end of the
//     block, for a tag left open, as when "</tool_call>" was a stop
//     sequence), then dropped, or, when tools were offered and it is a
//     well-formed call, {"name": "<an offered tool>", "arguments": {...}}
//     ("arguments" may also be a JSON string holding the object, or be
//     named "parameters"), turned into a real tool_use block with an id
//     from newID. A reply that made such a call and ended its turn stops
//     with StopToolUse.
//   - Whitespace that would begin a text block is held until something else
//     follows it, so that stripping a call leaves no whitespace-only block
//     (the messages format refuses those in a later request). A block that
//     held no tag comes out as it went in.
//
// Blocks are renumbered to stay consecutive. Push expects one block open at
// a time, as both wire parsers produce. A ToolCallFilter serves one stream.
type ToolCallFilter struct {
	tools  map[string]bool
	newID  func() string
	next   int         // output index of the next block
	inOpen int         // open input block, -1 when none
	kind   BlockKind   // its kind
	outIdx int         // output index of an open pass-through block
	text   *textFilter // state of an open input text block
	made   int         // tool calls made from XML
}

type textFilter struct {
	pending string // held back: a possible tag start (or tag end inside a tag)
	ws      string // whitespace held before the output text block opens
	inTag   bool
	tag     strings.Builder // the content of the open tag
	open    bool            // an output text block is open
	index   int             // its index
	tagSeen bool
}

// NewToolCallFilter returns a filter for a stream of a request that offered
// tools (none: every call is stripped). newID mints the ids of tool calls
// made from XML.
func NewToolCallFilter(tools []Tool, newID func() string) *ToolCallFilter {
	f := &ToolCallFilter{tools: map[string]bool{}, newID: newID, inOpen: -1}
	for _, t := range tools {
		f.tools[t.Name] = true
	}
	return f
}

// Push takes the next event of the stream and returns what passes on, in
// order (often nothing or one event).
func (f *ToolCallFilter) Push(ev Event) ([]Event, error) {
	var out []Event
	switch e := ev.(type) {
	case BlockStart:
		if f.inOpen >= 0 {
			return nil, fmt.Errorf("tool call filter: block %d opened while block %d is open", e.Index, f.inOpen)
		}
		f.inOpen, f.kind = e.Index, e.Kind
		if e.Kind == BlockText {
			f.text = &textFilter{}
			return nil, nil
		}
		f.outIdx = f.next
		f.next++
		e.Index = f.outIdx
		return []Event{e}, nil
	case TextDelta:
		if f.inOpen != e.Index || f.text == nil {
			return nil, fmt.Errorf("tool call filter: text for block %d, which is not the open text block", e.Index)
		}
		return f.feed(out, e.Text), nil
	case InputDelta:
		if f.inOpen != e.Index || f.text != nil {
			return nil, fmt.Errorf("tool call filter: input for block %d, which is not the open tool_use block", e.Index)
		}
		e.Index = f.outIdx
		return []Event{e}, nil
	case BlockStop:
		if f.inOpen != e.Index {
			return nil, fmt.Errorf("tool call filter: block %d closed but not open", e.Index)
		}
		f.inOpen = -1
		if f.text == nil {
			return []Event{BlockStop{Index: f.outIdx}}, nil
		}
		out = f.endText(out)
		f.text = nil
		return out, nil
	case Stop:
		if f.made > 0 && (e.Reason == StopEndTurn || e.Reason == StopSequence) {
			e.Reason, e.Sequence = StopToolUse, ""
		}
		return []Event{e}, nil
	case Start, Error:
		return []Event{ev}, nil
	}
	return nil, fmt.Errorf("tool call filter: unknown event %T", ev)
}

// feed runs a text delta through the open text block's state.
func (f *ToolCallFilter) feed(out []Event, s string) []Event {
	t := f.text
	buf := t.pending + s
	t.pending = ""
	for buf != "" {
		if !t.inTag {
			if k := strings.Index(buf, openTag); k >= 0 {
				out = f.emit(out, buf[:k])
				buf, t.inTag, t.tagSeen = buf[k+len(openTag):], true, true
				t.ws = "" // whitespace before a call is dropped with it
				continue
			}
			h := heldSuffix(buf, openTag)
			out = f.emit(out, buf[:len(buf)-h])
			t.pending = buf[len(buf)-h:]
			return out
		}
		if k := strings.Index(buf, closeTag); k >= 0 {
			t.tag.WriteString(buf[:k])
			buf, t.inTag = buf[k+len(closeTag):], false
			out = f.call(out)
			continue
		}
		h := heldSuffix(buf, closeTag)
		t.tag.WriteString(buf[:len(buf)-h])
		t.pending = buf[len(buf)-h:]
		return out
	}
	return out
}

// endText flushes the open text block at its end.
func (f *ToolCallFilter) endText(out []Event) []Event {
	t := f.text
	if t.inTag {
		t.tag.WriteString(t.pending)
		t.pending, t.inTag = "", false
		out = f.call(out)
	} else {
		out = f.emit(out, t.pending)
		t.pending = ""
	}
	if !t.open && !t.tagSeen {
		// A block with no tag comes out as it went in, even empty or blank.
		out = f.openText(out)
		if t.ws != "" {
			out = append(out, TextDelta{Index: t.index, Text: t.ws})
		}
	}
	return f.closeText(out)
}

// emit passes text on, opening the output text block when it is more than
// whitespace.
func (f *ToolCallFilter) emit(out []Event, s string) []Event {
	t := f.text
	if s == "" {
		return out
	}
	if !t.open {
		s = t.ws + s
		if strings.TrimSpace(s) == "" {
			t.ws = s
			return out
		}
		t.ws = ""
		out = f.openText(out)
	}
	return append(out, TextDelta{Index: t.index, Text: s})
}

func (f *ToolCallFilter) openText(out []Event) []Event {
	f.text.open, f.text.index = true, f.next
	f.next++
	return append(out, BlockStart{Index: f.text.index, Kind: BlockText})
}

func (f *ToolCallFilter) closeText(out []Event) []Event {
	if !f.text.open {
		return out
	}
	f.text.open = false
	return append(out, BlockStop{Index: f.text.index})
}

// call ends a tag: a well-formed call of an offered tool becomes a tool_use
// block, anything else is dropped.
func (f *ToolCallFilter) call(out []Event) []Event {
	content := f.text.tag.String()
	f.text.tag.Reset()
	name, input, ok := parseToolCall(content)
	if !ok || !f.tools[name] {
		return out
	}
	out = f.closeText(out)
	idx := f.next
	f.next++
	f.made++
	return append(out,
		BlockStart{Index: idx, Kind: BlockToolUse, ToolID: f.newID(), ToolName: name},
		InputDelta{Index: idx, PartialJSON: string(input)},
		BlockStop{Index: idx})
}

// parseToolCall reads {"name": ..., "arguments": {...}}.
func parseToolCall(s string) (string, json.RawMessage, bool) {
	var c struct {
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &c) != nil || c.Name == "" {
		return "", nil, false
	}
	args := c.Arguments
	if len(args) == 0 {
		args = c.Parameters
	}
	var str string
	if json.Unmarshal(args, &str) == nil {
		args = json.RawMessage(str)
	}
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	if !IsJSONObject(args) {
		return "", nil, false
	}
	return c.Name, ToolInput(string(args)), true
}

// heldSuffix is the length of the longest suffix of s that is a proper
// prefix of tag: what must wait for the next delta.
func heldSuffix(s, tag string) int {
	for h := min(len(s), len(tag)-1); h > 0; h-- {
		if strings.HasSuffix(s, tag[:h]) {
			return h
		}
	}
	return 0
}

// StripToolCalls applies a ToolCallFilter to a whole response, as to the
// stream that describes it (EventsOf).
func StripToolCalls(r Response, tools []Tool, newID func() string) (Response, error) {
	f := NewToolCallFilter(tools, newID)
	var acc Accumulator
	for _, ev := range EventsOf(r) {
		out, err := f.Push(ev)
		if err != nil {
			return Response{}, err
		}
		for _, o := range out {
			if err := acc.Add(o); err != nil {
				return Response{}, err
			}
		}
	}
	return acc.Response(), nil
}
