package devupstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Script is what the directives of a prompt ask of the development
// upstream. Directives are read from the text of the last user turn:
//
//	[[tool:NAME {JSON}]]         call tool NAME with these arguments (a JSON object; {} when left
//	                             out); several tool directives make parallel tool calls
//	[[parallel-tools:N]]         N parallel calls of the first offered tool, with {"n": 1} to {"n": N}
//	[[tokens:N]]                 answer exactly N tokens of text (before max_tokens and stop)
//	[[stop:SEQ]]                 the answer contains SEQ followed by more text, so that a request
//	                             whose stop sequences list SEQ stops there (stop_sequence)
//	[[fail:STATUS]]              answer STATUS (400-599) with an error in the format's shape;
//	                             options: retry-after=SECONDS (the Retry-After header), times=N
//	                             (fail only the first N such requests, then answer normally)
//	[[cut:after=N]]              streams: cut the connection after N deltas, without an end;
//	                             replies: close the connection without an answer
//	[[error:after=N]]            streams: after N deltas, an error event (overloaded) after the
//	                             200; replies: a 500 error
//	[[xml]]                      add stray <tool_call>{...}</tool_call> XML to the text (naming
//	                             the first offered tool, or "lookup"), split across deltas
//	[[slow:DURATION]]            pace deltas DURATION apart (a Go duration: 20ms); a reply waits
//	                             as long as its stream would
//	[[echo]]                     answer the request as the upstream decoded it, as JSON
//
// Without directives the answer is deterministic and derived from the
// prompt: "You said: " and the last user text (directives removed), or,
// after tool results, "The tool returned: " and their text. A tool choice
// of a named tool (or "any", naming the first tool) with no tool directive
// calls that tool with {}. An unknown directive is a 400.
type Script struct {
	Tools      []ToolCall
	Parallel   int // [[parallel-tools:N]]
	Tokens     int // -1: unset
	Stop       string
	Fail       int // 0: none
	RetryAfter string
	Times      int // 0: always
	Cut        int // -1: none
	ErrorAfter int // -1: none
	XML        bool
	Slow       time.Duration
	Echo       bool
	Text       string // the last user text without its directives
	FailKey    string // what identifies this failure for Times
}

// ToolCall is a tool directive.
type ToolCall struct {
	Name  string
	Input json.RawMessage
}

// ParseScript reads the directives of text.
func ParseScript(text string) (Script, error) {
	s := Script{Tokens: -1, Cut: -1, ErrorAfter: -1}
	var rest strings.Builder
	for {
		i := strings.Index(text, "[[")
		if i < 0 {
			rest.WriteString(text)
			break
		}
		rest.WriteString(text[:i])
		body := text[i+2:]
		name := body
		if j := strings.IndexAny(body, ":]"); j >= 0 {
			name = body[:j]
		}
		after := body[len(name):]
		var arg string
		switch {
		case strings.HasPrefix(after, "]]"):
			text = after[2:]
		case strings.HasPrefix(after, ":") && name == "tool":
			call, n, err := parseTool(after[1:])
			if err != nil {
				return s, err
			}
			s.Tools = append(s.Tools, call)
			text = after[1+n:]
			continue
		case strings.HasPrefix(after, ":"):
			end := strings.Index(after, "]]")
			if end < 0 {
				return s, fmt.Errorf("directive [[%s: has no closing ]]", name)
			}
			arg, text = strings.TrimSpace(after[1:end]), after[end+2:]
		default:
			return s, fmt.Errorf("directive [[%s has no closing ]]", name)
		}
		if err := s.set(name, arg); err != nil {
			return s, err
		}
	}
	s.Text = strings.Join(strings.Fields(rest.String()), " ")
	return s, nil
}

// parseTool reads "NAME {JSON}]]" and returns the call and the bytes read.
func parseTool(s string) (ToolCall, int, error) {
	trimmed := strings.TrimLeft(s, " ")
	lead := len(s) - len(trimmed)
	end := strings.IndexAny(trimmed, " ]")
	if end <= 0 {
		return ToolCall{}, 0, fmt.Errorf("directive [[tool: needs a tool name")
	}
	call := ToolCall{Name: trimmed[:end], Input: json.RawMessage(`{}`)}
	rest := trimmed[end:]
	read := lead + end
	body := strings.TrimLeft(rest, " ")
	read += len(rest) - len(body)
	if !strings.HasPrefix(body, "]]") {
		dec := json.NewDecoder(strings.NewReader(body))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
			return ToolCall{}, 0, fmt.Errorf("directive [[tool:%s needs a JSON object of arguments", call.Name)
		}
		var b bytes.Buffer
		_ = json.Compact(&b, raw)
		call.Input = b.Bytes()
		off := int(dec.InputOffset())
		body = body[off:]
		read += off
		trimmed := strings.TrimLeft(body, " ")
		read += len(body) - len(trimmed)
		body = trimmed
	}
	if !strings.HasPrefix(body, "]]") {
		return ToolCall{}, 0, fmt.Errorf("directive [[tool:%s has no closing ]]", call.Name)
	}
	return call, read + 2, nil
}

func (s *Script) set(name, arg string) error {
	opts := map[string]string{}
	var head string
	for i, f := range strings.Fields(arg) {
		if k, v, ok := strings.Cut(f, "="); ok {
			opts[k] = v
		} else if i == 0 {
			head = f
		} else {
			return fmt.Errorf("directive [[%s:%s]]: %q is not key=value", name, arg, f)
		}
	}
	num := func(v, what string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("directive [[%s]]: %s must be a number >= 0, not %q", name, what, v)
		}
		return n, nil
	}
	var err error
	switch name {
	case "tokens":
		s.Tokens, err = num(arg, "the token count")
	case "parallel-tools":
		if s.Parallel, err = num(arg, "the number of calls"); err == nil && (s.Parallel < 1 || s.Parallel > 64) {
			err = fmt.Errorf("directive [[parallel-tools:%s]]: 1 to 64 calls", arg)
		}
	case "stop":
		if arg == "" {
			return fmt.Errorf("directive [[stop:]] needs a sequence")
		}
		s.Stop = arg
	case "fail":
		if s.Fail, err = num(head, "the status"); err == nil && (s.Fail < 400 || s.Fail > 599) {
			err = fmt.Errorf("directive [[fail:%s]]: the status must be 400-599", arg)
		}
		if v, ok := opts["retry-after"]; ok && err == nil {
			_, err = num(v, "retry-after")
			s.RetryAfter = v
		}
		if v, ok := opts["times"]; ok && err == nil {
			s.Times, err = num(v, "times")
		}
		s.FailKey = arg
	case "cut":
		s.Cut, err = num(opts["after"], "after")
	case "error":
		s.ErrorAfter, err = num(opts["after"], "after")
	case "xml":
		s.XML = true
	case "echo":
		s.Echo = true
	case "slow":
		s.Slow, err = time.ParseDuration(arg)
		if err != nil || s.Slow < 0 || s.Slow > time.Minute {
			err = fmt.Errorf("directive [[slow:%s]]: a duration between 0 and 1m, such as 20ms", arg)
		}
	default:
		return fmt.Errorf("unknown directive [[%s]]", name)
	}
	return err
}

// failStatus is the status a fail directive answers, for the error's kind.
func failStatusText(status int) string { return http.StatusText(status) }
