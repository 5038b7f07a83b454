package chat

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestStreamCheckerRules(t *testing.T) {
	start := Start{ID: "msg_1", Model: "m"}
	text0 := BlockStart{Index: 0, Kind: BlockText}
	tool1 := BlockStart{Index: 1, Kind: BlockToolUse, ToolID: "t", ToolName: "f"}
	stop := Stop{Reason: StopEndTurn}
	cases := []struct {
		name string
		evs  []Event // the last one must be refused
	}{
		{"delta before start", []Event{TextDelta{}}},
		{"two starts", []Event{start, start}},
		{"block out of order", []Event{start, BlockStart{Index: 1, Kind: BlockText}}},
		{"block of unknown kind", []Event{start, BlockStart{Index: 0, Kind: "image"}}},
		{"tool block without id", []Event{start, BlockStart{Index: 0, Kind: BlockToolUse, ToolName: "f"}}},
		{"delta to no block", []Event{start, TextDelta{Index: 0, Text: "x"}}},
		{"input delta to a text block", []Event{start, text0, InputDelta{Index: 0, PartialJSON: "{"}}},
		{"text delta to a tool block", []Event{start, text0, BlockStop{Index: 0}, tool1, TextDelta{Index: 1}}},
		{"delta to a closed block", []Event{start, text0, BlockStop{Index: 0}, TextDelta{Index: 0}}},
		{"closed out of order", []Event{start, text0, tool1, BlockStop{Index: 1}}},
		{"stop with an open block", []Event{start, text0, stop}},
		{"stop without reason", []Event{start, Stop{}}},
		{"event after stop", []Event{start, stop, text0}},
		{"event after error", []Event{start, Error{Kind: kernel.KindUnavailable}, stop}},
	}
	for _, c := range cases {
		var ch StreamChecker
		for i, ev := range c.evs {
			err := ch.Check(ev)
			if last := i == len(c.evs)-1; last != (err != nil) {
				t.Errorf("%s: event %d (%#v): err %v", c.name, i, ev, err)
			}
		}
	}
	var ch StreamChecker
	for _, ev := range []Event{start, text0, tool1, TextDelta{Index: 0, Text: "a"}, InputDelta{Index: 1, PartialJSON: "{}"},
		BlockStop{Index: 0}, BlockStop{Index: 1}, stop} {
		if err := ch.Check(ev); err != nil {
			t.Fatalf("interleaved blocks closed in order refused: %v", err)
		}
	}
	if !ch.Ended() {
		t.Fatal("not ended after stop")
	}
	if err := (&StreamChecker{}).Check(Error{Kind: kernel.KindInvalid}); err != nil {
		t.Fatalf("an error before start is a valid stream: %v", err)
	}
}

func TestEventsOfAndAccumulator(t *testing.T) {
	r := Response{ID: "msg_1", Model: "m", Created: 7,
		Content: []Part{Text("Let me look."), ToolUse("toolu_1", "get_weather", json.RawMessage(`{"city":"Paris"}`)),
			ToolUse("toolu_2", "get_time", json.RawMessage(`{}`)), Text("")},
		StopReason: StopToolUse, Usage: Usage{InputTokens: 11, OutputTokens: 22}}
	evs := EventsOf(r)
	var acc Accumulator
	for _, ev := range evs {
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	if !acc.Done() || !reflect.DeepEqual(acc.Response(), r) {
		t.Fatalf("round trip: %+v\nwant %+v", acc.Response(), r)
	}

	// Input fragments are joined and compacted; a cut-off input becomes {}.
	acc = Accumulator{}
	for _, ev := range []Event{Start{ID: "x"},
		BlockStart{Index: 0, Kind: BlockToolUse, ToolID: "a", ToolName: "f"},
		InputDelta{Index: 0, PartialJSON: `{"a": `}, InputDelta{Index: 0, PartialJSON: `1}`}, BlockStop{Index: 0},
		BlockStart{Index: 1, Kind: BlockToolUse, ToolID: "b", ToolName: "f"},
		InputDelta{Index: 1, PartialJSON: `{"a": `}, BlockStop{Index: 1},
	} {
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	got := acc.Response().Content
	if string(got[0].Input) != `{"a":1}` || string(got[1].Input) != `{}` {
		t.Fatalf("inputs %s %s", got[0].Input, got[1].Input)
	}
	if acc.Done() {
		t.Fatal("done without stop")
	}
	want := Error{Kind: kernel.KindUnavailable, Message: "overloaded"}
	if err := acc.Add(want); !errors.Is(err, want) {
		t.Fatalf("error event: %v", err)
	}
}
