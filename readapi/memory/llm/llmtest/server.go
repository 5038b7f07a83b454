// Package llmtest is a loopback server speaking the OpenAI chat completions
// protocol, for tests. Its "model" answers with a fixed prefix and the
// numbered lines of the prompt it was given, optionally padded far beyond
// any budget; it stands in for a real endpoint and is no model.
package llmtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Prefix starts every answer.
const Prefix = "MODEL SUMMARY:"

// Server is a running fake endpoint.
type Server struct {
	*httptest.Server
	// Fail makes every request answer 500 while set; Pad makes answers
	// thousands of words long.
	Fail, Pad atomic.Bool

	mu   sync.Mutex
	last request
}

type request struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	Messages  []struct {
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

// Start serves the fake endpoint at URL + "/v1/chat/completions" until the
// test ends.
func Start(t testing.TB) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if s.Fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"error":{"message":"the model is overloaded"}}`))
			return
		}
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Messages) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"model and messages are required"}}`))
			return
		}
		s.mu.Lock()
		s.last = req
		s.mu.Unlock()
		_, user, _ := s.Last()
		var lines []string
		for _, l := range strings.Split(user, "\n") {
			if len(l) > 2 && l[0] >= '1' && l[0] <= '9' {
				lines = append(lines, l)
			}
		}
		answer := Prefix + " " + strings.Join(lines, " | ")
		if s.Pad.Load() {
			answer += strings.Repeat(" and so on", 5000)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]string{"role": "assistant", "content": answer}}}})
	}))
	t.Cleanup(s.Close)
	return s
}
