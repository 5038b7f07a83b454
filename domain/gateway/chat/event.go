package chat

import "fmt"

// Event is one event of a streamed reply: Start, BlockStart, TextDelta,
// InputDelta, BlockStop, Stop or Error. The set is closed. A valid stream
// follows the rules that StreamChecker enforces (see the package doc).
type Event interface{ event() }

// Start opens a stream: exactly once, first.
type Start struct {
	ID      string // as Response.ID
	Model   string
	Created int64 // as Response.Created
	// InputTokens is the prompt's size when the upstream tells it at the
	// start (messages format); 0 when it tells it only at the end (OpenAI
	// format), where Stop.Usage has it.
	InputTokens int
}

// BlockKind is the kind of a content block.
type BlockKind string

// The block kinds.
const (
	BlockText    BlockKind = "text"
	BlockToolUse BlockKind = "tool_use"
)

// BlockStart opens content block Index (0, 1, 2... in order). A tool_use
// block names its call's id and tool; its input follows as InputDeltas.
type BlockStart struct {
	Index    int
	Kind     BlockKind
	ToolID   string // tool_use only
	ToolName string // tool_use only
}

// TextDelta appends text to the open text block Index.
type TextDelta struct {
	Index int
	Text  string
}

// InputDelta appends a fragment of the JSON arguments to the open tool_use
// block Index. The fragments of a block, concatenated, make its input.
type InputDelta struct {
	Index       int
	PartialJSON string
}

// BlockStop closes block Index.
type BlockStop struct{ Index int }

// Stop ends the reply: why, which stop sequence, and the final usage (both
// counts are totals: OutputTokens is cumulative over the whole reply).
type Stop struct {
	Reason   StopReason
	Sequence string
	Usage    Usage
}

func (Start) event()      {}
func (BlockStart) event() {}
func (TextDelta) event()  {}
func (InputDelta) event() {}
func (BlockStop) event()  {}
func (Stop) event()       {}
func (Error) event()      {}

// StreamChecker enforces the stream rules, one event at a time. The zero
// value is ready; encoders run every event through one so that what they
// write is always a well-formed stream of their format.
type StreamChecker struct {
	started, ended bool
	next           int               // index of the next block to open
	open           map[int]BlockKind // open blocks by index
}

// Check reports whether ev may come next, and records it if so. The rules:
// Start first and once; blocks open with indexes 0, 1, 2... in order;
// deltas go to an open block of their kind; blocks close in index order;
// Stop once, after every block is closed; Error at any time; nothing after
// Stop or Error.
func (c *StreamChecker) Check(ev Event) error {
	if c.ended {
		return fmt.Errorf("chat stream: %T after the stream ended", ev)
	}
	if _, ok := ev.(Error); ok {
		c.ended = true
		return nil
	}
	if !c.started {
		if _, ok := ev.(Start); !ok {
			return fmt.Errorf("chat stream: %T before start", ev)
		}
		c.started = true
		c.open = map[int]BlockKind{}
		return nil
	}
	switch e := ev.(type) {
	case Start:
		return fmt.Errorf("chat stream: a second start")
	case BlockStart:
		if e.Index != c.next {
			return fmt.Errorf("chat stream: block %d opened, expected %d", e.Index, c.next)
		}
		if e.Kind != BlockText && e.Kind != BlockToolUse {
			return fmt.Errorf("chat stream: block %d of unknown kind %q", e.Index, e.Kind)
		}
		if e.Kind == BlockToolUse && (e.ToolID == "" || e.ToolName == "") {
			return fmt.Errorf("chat stream: tool_use block %d without an id or a name", e.Index)
		}
		c.open[e.Index] = e.Kind
		c.next++
	case TextDelta:
		return c.delta(e.Index, BlockText)
	case InputDelta:
		return c.delta(e.Index, BlockToolUse)
	case BlockStop:
		if _, ok := c.open[e.Index]; !ok {
			return fmt.Errorf("chat stream: block %d closed but not open", e.Index)
		}
		for i := range c.open {
			if i < e.Index {
				return fmt.Errorf("chat stream: block %d closed before block %d", e.Index, i)
			}
		}
		delete(c.open, e.Index)
	case Stop:
		if len(c.open) > 0 {
			return fmt.Errorf("chat stream: stop with %d block(s) open", len(c.open))
		}
		if e.Reason == "" {
			return fmt.Errorf("chat stream: stop without a reason")
		}
		c.ended = true
	default:
		return fmt.Errorf("chat stream: unknown event %T", ev)
	}
	return nil
}

func (c *StreamChecker) delta(index int, kind BlockKind) error {
	k, ok := c.open[index]
	if !ok {
		return fmt.Errorf("chat stream: delta for block %d, which is not open", index)
	}
	if k != kind {
		return fmt.Errorf("chat stream: %s delta for %s block %d", kind, k, index)
	}
	return nil
}

// Started reports whether Start has passed.
func (c *StreamChecker) Started() bool { return c.started }

// Ended reports whether the stream is over (after Stop or Error).
func (c *StreamChecker) Ended() bool { return c.ended }
