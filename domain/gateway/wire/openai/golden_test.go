package openai

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
)

var update = flag.Bool("update", false, "rewrite the golden SSE transcripts in testdata")

// encodeStream encodes a whole stream, checking that each event's bytes
// are whole data-only SSE events (so each can be flushed as it comes).
func encodeStream(t *testing.T, evs []chat.Event, includeUsage bool) []byte {
	t.Helper()
	enc := NewStreamEncoder(includeUsage)
	var out []byte
	for _, ev := range evs {
		b, err := enc.Encode(ev)
		if err != nil {
			t.Fatalf("encode %#v: %v", ev, err)
		}
		if len(b) > 0 && (!bytes.HasPrefix(b, []byte("data: ")) || !bytes.HasSuffix(b, []byte("\n\n"))) {
			t.Fatalf("encode %#v: %q is not whole data events", ev, b)
		}
		out = append(out, b...)
	}
	return out
}

// parseStream parses a whole stream of this format.
func parseStream(t *testing.T, b []byte) ([]chat.Event, error) {
	t.Helper()
	p := NewStreamParser(bytes.NewReader(b))
	var evs []chat.Event
	for {
		ev, err := p.Next()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

// asSeenHere is a stream as this format carries it: the reply's id with
// its prefix, input tokens told only at the end (and not at all without
// the usage chunk).
func asSeenHere(evs []chat.Event, includeUsage bool) []chat.Event {
	out := make([]chat.Event, len(evs))
	for i, ev := range evs {
		switch e := ev.(type) {
		case chat.Start:
			e.ID, e.InputTokens = CompletionID(e.ID), 0
			ev = e
		case chat.Stop:
			if !includeUsage {
				e.Usage = chat.Usage{}
			}
			ev = e
		}
		out[i] = ev
	}
	return out
}

// TestGoldenStreams compares each scenario's stream, as this format's SSE
// (with the usage chunk; a few also without), with its transcript in
// testdata byte for byte (go test -update rewrites them), and parses the
// transcript back into the same events.
func TestGoldenStreams(t *testing.T) {
	for _, s := range scenarios.All() {
		if s.Status != 0 {
			continue // an error before the stream is an HTTP error, not a stream
		}
		for _, usage := range []bool{true, false} {
			name := s.Name
			if !usage {
				if s.Name != "plain_text" && s.Name != "parallel_tool_calls" {
					continue
				}
				name += "_no_usage"
			}
			t.Run(name, func(t *testing.T) {
				evs := s.ClientStream()
				got := encodeStream(t, evs, usage)
				path := filepath.Join("testdata", name+".sse")
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (go test -update writes it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("stream differs from %s:\n got:\n%s\nwant:\n%s", path, got, want)
				}
				back, err := parseStream(t, want)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, asSeenHere(evs, usage)) {
					t.Fatalf("parsed back:\n got %#v\nwant %#v", back, asSeenHere(evs, usage))
				}
			})
		}
	}
}
