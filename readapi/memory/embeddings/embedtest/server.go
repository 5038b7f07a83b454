// Package embedtest is a loopback server speaking the OpenAI embeddings
// protocol, for tests: its "model" maps words to a few concept dimensions
// (so that "animals" and "corgi" are near), which the offline similarity
// cannot know. It stands in for a real endpoint; it is no model.
package embedtest

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
)

// Server is a running fake endpoint.
type Server struct {
	*httptest.Server
	// Requests counts the requests answered; Inputs the texts embedded.
	Requests, Inputs atomic.Int64
	// Fail makes every request answer 500 while set.
	Fail atomic.Bool
}

// Concepts are the fake model's dimensions and the words that load them.
var Concepts = [][]string{
	{"animal", "animals", "pet", "pets", "dog", "dogs", "corgi", "cat", "cats", "hamster", "puppy", "kitten"},
	{"food", "foods", "eat", "eating", "lunch", "dinner", "menu", "catering", "dish", "meal"},
	{"travel", "trip", "trips", "holiday", "holidays", "vacation", "getaway", "flight"},
}

// Start serves the fake endpoint at URL + "/v1/embeddings" until the test
// ends; it checks the bearer token key when key is not empty.
func Start(t testing.TB, key string) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
			return
		}
		if s.Fail.Load() {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":{"message":"the model is overloaded"}}`))
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Input) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"message":"model and input are required"}}`))
			return
		}
		s.Requests.Add(1)
		s.Inputs.Add(int64(len(req.Input)))
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		data := make([]item, len(req.Input))
		for i, text := range req.Input { // answered in reverse order: clients must use index
			data[len(data)-1-i] = item{Object: "embedding", Index: i, Embedding: Vector(text)}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
			"usage": map[string]int{"prompt_tokens": 0, "total_tokens": 0}})
	}))
	t.Cleanup(s.Close)
	return s
}

// Vector is the fake model's embedding of text: concept counts plus a
// small constant dimension, normalised.
func Vector(text string) []float32 {
	v := make([]float64, len(Concepts)+1)
	v[len(Concepts)] = 0.1
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		for d, words := range Concepts {
			for _, c := range words {
				if w == c {
					v[d]++
				}
			}
		}
	}
	var n float64
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(n))
	}
	return out
}
