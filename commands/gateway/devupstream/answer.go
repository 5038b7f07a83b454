package devupstream

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/gateway/chat"
)

// vocabulary is what [[tokens:N]] answers with: one token a word.
var vocabulary = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa")

// answer is a scripted reply and the deltas a stream of it sends.
type answer struct {
	resp   chat.Response
	deltas [][]string // per content part: text spans or tool-input fragments
}

// lastUser is the last user turn of r.
func lastUser(r chat.Request) []chat.Part {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == chat.RoleUser {
			return r.Messages[i].Content
		}
	}
	return nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}

// compose builds the reply the script asks for: the text, the tool calls,
// then max_tokens and the request's stop sequences applied, with usage by
// the one token rule. idPrefix is the format's tool call id prefix.
func compose(r chat.Request, s Script, idPrefix string, created int64) (answer, error) {
	canon, err := json.Marshal(r)
	if err != nil {
		return answer{}, err
	}
	same := r // streamed or not, the same request gets the same ids
	same.Stream, same.IncludeUsage = false, false
	sameJSON, err := json.Marshal(same)
	if err != nil {
		return answer{}, err
	}
	id := digest(sameJSON)
	calls := s.Tools
	if s.Parallel > 0 && len(r.Tools) > 0 {
		for i := 1; i <= s.Parallel; i++ {
			calls = append(calls, ToolCall{Name: r.Tools[0].Name, Input: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))})
		}
	}
	if len(calls) == 0 && r.ToolChoice != nil && len(r.Tools) > 0 {
		switch r.ToolChoice.Type {
		case chat.ToolChoiceTool:
			calls = []ToolCall{{Name: r.ToolChoice.Name, Input: json.RawMessage(`{}`)}}
		case chat.ToolChoiceAny:
			calls = []ToolCall{{Name: r.Tools[0].Name, Input: json.RawMessage(`{}`)}}
		}
	}
	if r.ToolChoice != nil && r.ToolChoice.Type == chat.ToolChoiceNone {
		calls = nil
	}
	var text string
	switch {
	case s.Echo:
		text = string(canon)
	case s.Tokens >= 0:
		words := make([]string, s.Tokens)
		start := int(id[0]) % len(vocabulary)
		for i := range words {
			words[i] = vocabulary[(start+i)%len(vocabulary)]
		}
		text = strings.Join(words, " ")
	default:
		var results []string
		for _, p := range lastUser(r) {
			if p.Type == chat.PartToolResult {
				results = append(results, joinTexts(p.Content))
			}
		}
		if len(results) > 0 {
			text = "The tool returned: " + strings.Join(results, "; ")
		} else if len(calls) == 0 {
			text = "You said: " + s.Text
		}
	}
	if s.Stop != "" {
		text = strings.TrimSpace(text + " " + s.Stop + " and more after it")
	}
	if s.XML {
		name := "lookup"
		if len(r.Tools) > 0 {
			name = r.Tools[0].Name
		}
		text = strings.TrimSpace(`Checking. <tool_call>{"name": "` + name + `", "arguments": {"q": "x"}}</tool_call> ` + text)
	}

	stop := chat.StopEndTurn
	var seq string
	if i, sq := firstStop(text, r.Stop); i >= 0 {
		text, stop, seq, calls = strings.TrimRight(text[:i], " "), chat.StopSequence, sq, nil
	}
	budget := chat.DefaultMaxTokens
	if r.MaxTokens != nil {
		budget = *r.MaxTokens
	}
	a := answer{resp: chat.Response{ID: "dev" + id, Model: r.Model, Created: created}}
	textSpans := spans(text)
	if len(textSpans) > budget {
		textSpans, stop, seq, calls = textSpans[:budget], chat.StopMaxTokens, "", nil
	}
	used := len(textSpans)
	if len(textSpans) > 0 {
		a.resp.Content = append(a.resp.Content, chat.Text(strings.Join(textSpans, "")))
		a.deltas = append(a.deltas, textSpans)
	}
	for i, c := range calls {
		p := chat.ToolUse(fmt.Sprintf("%sdev%s%d", idPrefix, id[:8], i), c.Name, c.Input)
		n := chat.PartTokens(p)
		if used+n > budget {
			stop = chat.StopMaxTokens
			break
		}
		used += n
		a.resp.Content = append(a.resp.Content, p)
		a.deltas = append(a.deltas, halves(string(c.Input)))
		stop = chat.StopToolUse
	}
	a.resp.StopReason, a.resp.StopSequence = stop, seq
	a.resp.Usage = chat.Usage{InputTokens: InputTokens(r), OutputTokens: outputTokens(a.resp.Content)}
	return a, nil
}

// firstStop finds the earliest of the stop sequences in text.
func firstStop(text string, stops []string) (int, string) {
	at, seq := -1, ""
	for _, s := range stops {
		if s == "" {
			continue
		}
		if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at) {
			at, seq = i, s
		}
	}
	return at, seq
}

// halves splits a tool input into two fragments (at a rune boundary), so
// that streams carry partial JSON.
func halves(s string) []string {
	mid := len(s) / 2
	for mid > 0 && !utf8.RuneStart(s[mid]) {
		mid--
	}
	if mid == 0 {
		return []string{s}
	}
	return []string{s[:mid], s[mid:]}
}

// events is the stream of a: the deltas one by one.
func (a answer) events() []chat.Event {
	r := a.resp
	evs := []chat.Event{chat.Start{ID: r.ID, Model: r.Model, Created: r.Created, InputTokens: r.Usage.InputTokens}}
	for i, p := range r.Content {
		if p.Type == chat.PartText {
			evs = append(evs, chat.BlockStart{Index: i, Kind: chat.BlockText})
			for _, d := range a.deltas[i] {
				evs = append(evs, chat.TextDelta{Index: i, Text: d})
			}
		} else {
			evs = append(evs, chat.BlockStart{Index: i, Kind: chat.BlockToolUse, ToolID: p.ID, ToolName: p.Name})
			for _, d := range a.deltas[i] {
				evs = append(evs, chat.InputDelta{Index: i, PartialJSON: d})
			}
		}
		evs = append(evs, chat.BlockStop{Index: i})
	}
	return append(evs, chat.Stop{Reason: r.StopReason, Sequence: r.StopSequence, Usage: r.Usage})
}

// deltaCount is how many deltas a's stream sends.
func (a answer) deltaCount() int {
	n := 0
	for _, d := range a.deltas {
		n += len(d)
	}
	return n
}
