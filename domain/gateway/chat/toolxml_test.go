package chat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var weatherTool = []Tool{{Name: "get_weather", InputSchema: weatherSchema}}

func counterIDs() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("toolu_xml%d", n) }
}

const paris = `{"name": "get_weather", "arguments": {"city": "Paris"}}`

func TestToolCallFilterEverySplit(t *testing.T) {
	weather := func(id, city string) Part {
		return ToolUse(id, "get_weather", json.RawMessage(`{"city":"`+city+`"}`))
	}
	cases := []struct {
		name   string
		tools  []Tool
		text   string
		parts  []Part
		reason StopReason
	}{
		{"no tag", weatherTool, "Hello <b>world</b> a<b 1 < 2 <tool", []Part{Text("Hello <b>world</b> a<b 1 < 2 <tool")}, StopEndTurn},
		{"call after text", weatherTool, "Let me check.\n<tool_call>\n" + paris + "\n</tool_call>",
			[]Part{Text("Let me check.\n"), weather("toolu_xml1", "Paris")}, StopToolUse},
		{"call stripped without tools", nil, "Let me check.\n<tool_call>\n" + paris + "\n</tool_call>",
			[]Part{Text("Let me check.\n")}, StopEndTurn},
		{"text around a stripped call stays one block", nil, "A <tool_call>" + paris + "</tool_call> B",
			[]Part{Text("A  B")}, StopEndTurn},
		{"unknown tool stripped", weatherTool, "A<tool_call>{\"name\":\"rm_rf\",\"arguments\":{}}</tool_call>B",
			[]Part{Text("AB")}, StopEndTurn},
		{"malformed call stripped", weatherTool, "A<tool_call>{\"name\":\"get_weather\",</tool_call>B",
			[]Part{Text("AB")}, StopEndTurn},
		{"text after a call opens a block", weatherTool, "A<tool_call>" + paris + "</tool_call>B",
			[]Part{Text("A"), weather("toolu_xml1", "Paris"), Text("B")}, StopToolUse},
		{"only a call, whitespace around", weatherTool, "\n\n<tool_call>" + paris + "</tool_call>\n",
			[]Part{weather("toolu_xml1", "Paris")}, StopToolUse},
		{"two calls, string arguments, parameters", weatherTool,
			"<tool_call>{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\": \\\"Rome\\\"}\"}</tool_call>" +
				"<tool_call>{\"name\":\"get_weather\",\"parameters\":{\"city\":\"Oslo\"}}</tool_call>",
			[]Part{weather("toolu_xml1", "Rome"), weather("toolu_xml2", "Oslo")}, StopToolUse},
		{"call left open at the end", weatherTool, "X<tool_call>" + paris,
			[]Part{Text("X"), weather("toolu_xml1", "Paris")}, StopToolUse},
		{"whitespace before a call goes with it", weatherTool, "\n<tool_call>" + paris + "</tool_call>Done",
			[]Part{weather("toolu_xml1", "Paris"), Text("Done")}, StopToolUse},
		{"a tag start at the end is text", weatherTool, "a <tool_c", []Part{Text("a <tool_c")}, StopEndTurn},
		{"blank block comes out", weatherTool, "  ", []Part{Text("  ")}, StopEndTurn},
		{"stray closing tag is text", weatherTool, "a</tool_call>", []Part{Text("a</tool_call>")}, StopEndTurn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := Response{ID: "msg_1", Model: "m", Content: c.parts, StopReason: c.reason, Usage: Usage{InputTokens: 3, OutputTokens: 9}}
			check := func(chunks []string) {
				t.Helper()
				got := filterChunks(t, c.tools, chunks)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("chunks %q:\n got %+v\nwant %+v", chunks, got, want)
				}
			}
			check([]string{c.text})
			for i := 0; i <= len(c.text); i++ {
				check([]string{c.text[:i], c.text[i:]})
				for j := i; j <= len(c.text); j++ {
					check([]string{c.text[:i], c.text[i:j], c.text[j:]})
				}
			}
			check(strings.Split(c.text, ""))
		})
	}
}

// filterChunks streams text as deltas of one text block through a filter
// and accumulates what comes out (which must be a valid stream).
func filterChunks(t *testing.T, tools []Tool, chunks []string) Response {
	t.Helper()
	evs := []Event{Start{ID: "msg_1", Model: "m", InputTokens: 3}, BlockStart{Index: 0, Kind: BlockText}}
	for _, c := range chunks {
		evs = append(evs, TextDelta{Index: 0, Text: c})
	}
	evs = append(evs, BlockStop{Index: 0}, Stop{Reason: StopEndTurn, Usage: Usage{InputTokens: 3, OutputTokens: 9}})
	f := NewToolCallFilter(tools, counterIDs())
	var acc Accumulator
	for _, ev := range evs {
		out, err := f.Push(ev)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			if err := acc.Add(o); err != nil {
				t.Fatalf("filter output %#v: %v", o, err)
			}
		}
	}
	return acc.Response()
}

// TestToolCallFilterHoldsBackOnlyATagStart checks what passes at once:
// everything but the longest suffix that could begin "<tool_call>".
func TestToolCallFilterHoldsBackOnlyATagStart(t *testing.T) {
	cases := []struct{ in, passed string }{
		{"Hello", "Hello"},
		{"Hello <", "Hello "},
		{"Hello <t", "Hello "},
		{"Hello <tool_call", "Hello "},
		{"Hello <b", "Hello <b"},
		{"a << b <<", "a << b <"},
		{"x <tool_cal <", "x <tool_cal "},
		{"1 < 2", "1 < 2"},
		{"Hi <tool_call>{\"name\"", "Hi "},
	}
	for _, c := range cases {
		f := NewToolCallFilter(weatherTool, counterIDs())
		for _, ev := range []Event{Start{ID: "m"}, BlockStart{Index: 0, Kind: BlockText}} {
			if _, err := f.Push(ev); err != nil {
				t.Fatal(err)
			}
		}
		out, err := f.Push(TextDelta{Index: 0, Text: c.in})
		if err != nil {
			t.Fatal(err)
		}
		passed := ""
		for _, o := range out {
			if d, ok := o.(TextDelta); ok {
				passed += d.Text
			}
		}
		if passed != c.passed {
			t.Errorf("%q: passed %q, want %q", c.in, passed, c.passed)
		}
	}
}

func TestToolCallFilterRenumbersAndPassesOtherBlocks(t *testing.T) {
	in := []Event{
		Start{ID: "msg_1", Model: "m"},
		BlockStart{Index: 0, Kind: BlockText},
		TextDelta{Index: 0, Text: "<tool_call>" + paris + "</tool_call>ok"},
		BlockStop{Index: 0},
		BlockStart{Index: 1, Kind: BlockToolUse, ToolID: "toolu_real", ToolName: "get_weather"},
		InputDelta{Index: 1, PartialJSON: `{"city":`},
		InputDelta{Index: 1, PartialJSON: `"Lima"}`},
		BlockStop{Index: 1},
		Stop{Reason: StopToolUse, Usage: Usage{OutputTokens: 4}},
	}
	want := []Event{
		Start{ID: "msg_1", Model: "m"},
		BlockStart{Index: 0, Kind: BlockToolUse, ToolID: "toolu_xml1", ToolName: "get_weather"},
		InputDelta{Index: 0, PartialJSON: `{"city":"Paris"}`},
		BlockStop{Index: 0},
		BlockStart{Index: 1, Kind: BlockText},
		TextDelta{Index: 1, Text: "ok"},
		BlockStop{Index: 1},
		BlockStart{Index: 2, Kind: BlockToolUse, ToolID: "toolu_real", ToolName: "get_weather"},
		InputDelta{Index: 2, PartialJSON: `{"city":`},
		InputDelta{Index: 2, PartialJSON: `"Lima"}`},
		BlockStop{Index: 2},
		Stop{Reason: StopToolUse, Usage: Usage{OutputTokens: 4}},
	}
	f := NewToolCallFilter(weatherTool, counterIDs())
	var got []Event
	for _, ev := range in {
		out, err := f.Push(ev)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
	f = NewToolCallFilter(nil, counterIDs())
	f.Push(Start{ID: "x"})
	f.Push(BlockStart{Index: 0, Kind: BlockText})
	if _, err := f.Push(BlockStart{Index: 1, Kind: BlockText}); err == nil {
		t.Fatal("interleaved blocks accepted")
	}
}

func TestStripToolCalls(t *testing.T) {
	r := Response{ID: "msg_1", Model: "m", Content: []Part{Text("Sure. <tool_call>" + paris + "</tool_call>")},
		StopReason: StopEndTurn, Usage: Usage{InputTokens: 1, OutputTokens: 2}}
	got, err := StripToolCalls(r, weatherTool, counterIDs())
	if err != nil {
		t.Fatal(err)
	}
	want := Response{ID: "msg_1", Model: "m", Content: []Part{Text("Sure. "),
		ToolUse("toolu_xml1", "get_weather", json.RawMessage(`{"city":"Paris"}`))},
		StopReason: StopToolUse, Usage: Usage{InputTokens: 1, OutputTokens: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
