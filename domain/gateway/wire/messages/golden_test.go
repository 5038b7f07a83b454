package messages

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
// are whole SSE events (so each can be flushed as it comes).
func encodeStream(t *testing.T, evs []chat.Event) []byte {
	t.Helper()
	enc := NewStreamEncoder()
	var out []byte
	for _, ev := range evs {
		b, err := enc.Encode(ev)
		if err != nil {
			t.Fatalf("encode %#v: %v", ev, err)
		}
		if len(b) > 0 && (!bytes.HasPrefix(b, []byte("event: ")) || !bytes.HasSuffix(b, []byte("\n\n"))) {
			t.Fatalf("encode %#v: %q is not whole SSE events", ev, b)
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
// its prefix, no created time.
func asSeenHere(evs []chat.Event) []chat.Event {
	out := make([]chat.Event, len(evs))
	for i, ev := range evs {
		if s, ok := ev.(chat.Start); ok {
			s.ID, s.Created = MessageID(s.ID), 0
			ev = s
		}
		out[i] = ev
	}
	return out
}

// TestGoldenStreams compares each scenario's stream, as this format's SSE,
// with its transcript in testdata byte for byte (go test -update rewrites
// them), and parses the transcript back into the same events.
func TestGoldenStreams(t *testing.T) {
	for _, s := range scenarios.All() {
		if s.Status != 0 {
			continue // an error before the stream is an HTTP error, not a stream
		}
		t.Run(s.Name, func(t *testing.T) {
			evs := s.ClientStream()
			got := encodeStream(t, evs)
			path := filepath.Join("testdata", s.Name+".sse")
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
			if !reflect.DeepEqual(back, asSeenHere(evs)) {
				t.Fatalf("parsed back:\n got %#v\nwant %#v", back, asSeenHere(evs))
			}
		})
	}
}
