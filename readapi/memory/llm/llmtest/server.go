// Package llmtest is a loopback server speaking the OpenAI chat completions
// protocol, for tests and for the memory benchmark. Its "model" answers
// with a fixed prefix and the numbered lines of the prompt it was given,
// optionally padded far beyond any budget; a request asking for structured
// output (response_format json_schema) gets the answer of a script the
// caller sets, looked up by the user message. It stands in for a real
// endpoint and is no model.
package llmtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Prefix starts every answer.
const Prefix = "MODEL SUMMARY:"

// Script answers a structured-output request: the content the model
// returns for the request's system and user messages, ok false for none
// (the server then answers 500).
type Script func(system, user string) (content string, ok bool)

// Server is a running fake endpoint.
type Server struct {
	*httptest.Server
	// Fail makes every request answer 500 while set; Pad makes answers
	// thousands of words long.
	Fail, Pad atomic.Bool
	// Delay holds every answer back this long (nanoseconds), or until the
	// client goes away.
	Delay atomic.Int64

	mu       sync.Mutex
	last     request
	script   Script
	requests int
}

type request struct {
	Model          string          `json:"model"`
	MaxTokens      int             `json:"max_tokens"`
	Temperature    *float64        `json:"temperature"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Messages       []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// Last returns the last request's system and user messages and max_tokens.
func (s *Server) Last() (system, user string, maxTokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.last.Messages {
		switch m.Role {
		case "system":
			system = m.Content
		case "user":
			user = m.Content
		}
	}
	return system, user, s.last.MaxTokens
}

// LastFormat returns the last request's response_format as sent ("" when
// it had none) and its temperature (-1 when it had none).
func (s *Server) LastFormat() (format string, temperature float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	temperature = -1
	if s.last.Temperature != nil {
		temperature = *s.last.Temperature
	}
	return string(s.last.ResponseFormat), temperature
}

// Requests counts the requests answered or refused so far.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// SetScript sets the script that answers structured-output requests.
func (s *Server) SetScript(f Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = f
}

// Start serves the fake endpoint at URL + "/v1/chat/completions" until the
// test (anything with Cleanup, such as testing.TB) ends.
func Start(t interface{ Cleanup(func()) }) *Server {
	s := New()
	t.Cleanup(s.Close)
	return s
}

// New serves the fake endpoint at URL + "/v1/chat/completions" until Close.
func New() *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// schemaFormat is the part of response_format the server checks.
type schemaFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string         `json:"name"`
		Strict bool           `json:"strict"`
		Schema map[string]any `json:"schema"`
	} `json:"json_schema"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Messages) == 0 {
		fail(w, http.StatusBadRequest, "model and messages are required")
		return
	}
	// The body is read, so the request's context ends when the client goes away.
	if d := time.Duration(s.Delay.Load()); d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	if s.Fail.Load() {
		fail(w, http.StatusServiceUnavailable, "the model is overloaded")
		return
	}
	s.mu.Lock()
	s.last = req
	script := s.script
	s.mu.Unlock()
	system, user, _ := s.Last()
	var answer string
	if len(req.ResponseFormat) > 0 {
		var f schemaFormat
		if err := json.Unmarshal(req.ResponseFormat, &f); err != nil || f.Type != "json_schema" || f.JSONSchema == nil ||
			f.JSONSchema.Name == "" || !f.JSONSchema.Strict || f.JSONSchema.Schema["type"] != "object" {
			fail(w, http.StatusBadRequest, "response_format: want type json_schema with a name, strict true and an object schema")
			return
		}
		ok := false
		if script != nil {
			answer, ok = script(system, user)
		}
		if !ok {
			fail(w, http.StatusInternalServerError, "no scripted answer for this text")
			return
		}
	} else {
		var lines []string
		for _, l := range strings.Split(user, "\n") {
			if len(l) > 2 && l[0] >= '1' && l[0] <= '9' {
				lines = append(lines, l)
			}
		}
		answer = Prefix + " " + strings.Join(lines, " | ")
		if s.Pad.Load() {
			answer += strings.Repeat(" and so on", 5000)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]string{"role": "assistant", "content": answer}}}})
}

func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	raw, _ := json.Marshal(map[string]any{"error": map[string]string{"message": msg}})
	_, _ = w.Write(raw)
}
