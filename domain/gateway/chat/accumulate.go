package chat

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Accumulator builds the Response that a stream of events describes, as the
// official SDKs' stream accumulators do: the gateway answers a client that
// did not ask for a stream from an upstream stream with it, and tests compare
// streams through it. The zero value is ready.
type Accumulator struct {
	checker StreamChecker
	resp    Response
	inputs  map[int]*strings.Builder // tool inputs of open blocks
	done    bool
}

// Add takes the next event. It returns the stream rule an event breaks
// (see StreamChecker), or the Error event itself when the stream carried
// one.
func (a *Accumulator) Add(ev Event) error {
	if err := a.checker.Check(ev); err != nil {
		return err
	}
	switch e := ev.(type) {
	case Start:
		a.resp = Response{ID: e.ID, Model: e.Model, Created: e.Created, Usage: Usage{InputTokens: e.InputTokens}}
		a.inputs = map[int]*strings.Builder{}
	case BlockStart:
		if e.Kind == BlockText {
			a.resp.Content = append(a.resp.Content, Text(""))
		} else {
			a.resp.Content = append(a.resp.Content, ToolUse(e.ToolID, e.ToolName, nil))
			a.inputs[e.Index] = &strings.Builder{}
		}
	case TextDelta:
		a.resp.Content[e.Index].Text += e.Text
	case InputDelta:
		a.inputs[e.Index].WriteString(e.PartialJSON)
	case BlockStop:
		if b, ok := a.inputs[e.Index]; ok {
			a.resp.Content[e.Index].Input = ToolInput(b.String())
			delete(a.inputs, e.Index)
		}
	case Stop:
		a.resp.StopReason, a.resp.StopSequence, a.resp.Usage = e.Reason, e.Sequence, e.Usage
		a.done = true
	case Error:
		return e
	}
	return nil
}

// Done reports whether the stream reached its Stop event.
func (a *Accumulator) Done() bool { return a.done }

// Response returns what the events so far describe.
func (a *Accumulator) Response() Response { return a.resp }

// ToolInput turns a streamed tool input into a JSON object: compacted when it
// is one, {} when it is empty or not JSON (a call cut off by max_tokens), as
// the messages format's SDKs do.
func ToolInput(s string) json.RawMessage {
	var b bytes.Buffer
	if IsJSONObject(json.RawMessage(s)) && json.Compact(&b, []byte(s)) == nil {
		return json.RawMessage(b.Bytes())
	}
	return json.RawMessage(`{}`)
}

// EventsOf returns the stream of events that describes r: a model that
// answered without streaming, streamed to a client that asked for a stream
// (the seed's simulated SSE). Each text part is one delta, each tool input
// one InputDelta. Parts of other types are not part of a response and are
// left out.
func EventsOf(r Response) []Event {
	evs := []Event{Start{ID: r.ID, Model: r.Model, Created: r.Created, InputTokens: r.Usage.InputTokens}}
	i := 0
	for _, p := range r.Content {
		switch p.Type {
		case PartText:
			evs = append(evs, BlockStart{Index: i, Kind: BlockText})
			if p.Text != "" {
				evs = append(evs, TextDelta{Index: i, Text: p.Text})
			}
		case PartToolUse:
			evs = append(evs, BlockStart{Index: i, Kind: BlockToolUse, ToolID: p.ID, ToolName: p.Name})
			if len(p.Input) > 0 {
				evs = append(evs, InputDelta{Index: i, PartialJSON: string(p.Input)})
			}
		default:
			continue
		}
		evs = append(evs, BlockStop{Index: i})
		i++
	}
	return append(evs, Stop{Reason: r.StopReason, Sequence: r.StopSequence, Usage: r.Usage})
}
