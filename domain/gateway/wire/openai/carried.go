package openai

import (
	"strings"

	"github.com/strata-platform/strata/domain/gateway/chat"
)

// Carried is r as it comes back from a trip through this format (encoded
// by EncodeRequest, read by DecodeRequest): what the format cannot say is
// gone. A tool result's is_error becomes ToolErrorPrefix before its text,
// and one empty text becomes no content; an assistant turn's text parts
// come before its tool calls (empty text dropped when there are calls); a
// stream asks for usage; DisableParallelToolUse holds only with tools.
func Carried(r chat.Request) chat.Request {
	r.IncludeUsage = r.Stream
	r.DisableParallelToolUse = r.DisableParallelToolUse && len(r.Tools) > 0
	msgs := make([]chat.Message, len(r.Messages))
	for i, m := range r.Messages {
		var texts, calls, parts []chat.Part
		for _, p := range m.Content {
			switch {
			case p.Type == chat.PartToolResult:
				parts = append(parts, carriedResult(p))
			case m.Role == chat.RoleAssistant && p.Type == chat.PartText:
				texts = append(texts, p)
			case m.Role == chat.RoleAssistant:
				calls = append(calls, p)
			default:
				parts = append(parts, p)
			}
		}
		if m.Role == chat.RoleAssistant {
			if len(calls) > 0 && len(texts) == 1 && texts[0].Text == "" {
				texts = nil
			}
			parts = append(texts, calls...)
		}
		msgs[i] = chat.Message{Role: m.Role, Content: parts}
	}
	r.Messages = msgs
	return r
}

func carriedResult(p chat.Part) chat.Part {
	content := append([]chat.Part(nil), p.Content...)
	if p.IsError {
		if len(content) == 0 {
			content = []chat.Part{chat.Text("")}
		}
		content[0].Text = ToolErrorPrefix + content[0].Text
	}
	if len(content) == 1 && content[0].Type == chat.PartText && content[0].Text == "" {
		content = nil
	}
	return chat.ToolResult(p.ToolUseID, content, false)
}

// CarriedResponse is r as it comes back from a trip through this format
// (EncodeResponse, DecodeResponse): the id with this format's prefix, and
// one text part, all the text joined, before the tool calls (none when the
// text is empty).
func CarriedResponse(r chat.Response) chat.Response {
	r.ID = CompletionID(r.ID)
	var text strings.Builder
	var calls []chat.Part
	for _, p := range r.Content {
		if p.Type == chat.PartText {
			text.WriteString(p.Text)
		} else {
			calls = append(calls, p)
		}
	}
	r.Content = nil
	if text.Len() > 0 {
		r.Content = append(r.Content, chat.Text(text.String()))
	}
	r.Content = append(r.Content, calls...)
	return r
}

// CarriedStream is the reply a stream describes after a trip through this
// format (StreamEncoder, StreamParser, with usage asked for): the id with
// this format's prefix; text blocks keep their place among the tool calls,
// but adjacent text blocks are one and empty ones are gone.
func CarriedStream(r chat.Response) chat.Response {
	r.ID = CompletionID(r.ID)
	var out []chat.Part
	for _, p := range r.Content {
		if p.Type == chat.PartText {
			if p.Text == "" {
				continue
			}
			if n := len(out); n > 0 && out[n-1].Type == chat.PartText {
				out[n-1].Text += p.Text
				continue
			}
		}
		out = append(out, p)
	}
	r.Content = out
	return r
}
