package wire_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
)

type eventEncoder interface {
	Encode(chat.Event) ([]byte, error)
}

type eventParser interface {
	Next() (chat.Event, error)
}

// format is one wire format's codec, seen through the same signatures.
type format struct {
	name            string
	decodeRequest   func([]byte) (chat.Request, error)
	encodeRequest   func(chat.Request) ([]byte, error)
	encodeResponse  func(chat.Response) ([]byte, error)
	decodeResponse  func([]byte) (chat.Response, error)
	encoder         func() eventEncoder
	parser          func(io.Reader) eventParser
	encodeError     func(chat.Error) []byte
	decodeError     func(int, []byte) chat.Error
	carried         func(chat.Request) chat.Request
	carriedResponse func(chat.Response) chat.Response
	carriedStream   func(chat.Response) chat.Response
}

var formats = []format{
	{
		name: "messages", decodeRequest: messages.DecodeRequest, encodeRequest: messages.EncodeRequest,
		encodeResponse: messages.EncodeResponse, decodeResponse: messages.DecodeResponse,
		encoder:     func() eventEncoder { return messages.NewStreamEncoder() },
		parser:      func(r io.Reader) eventParser { return messages.NewStreamParser(r) },
		encodeError: messages.EncodeError, decodeError: messages.DecodeError,
		carried: messages.Carried, carriedResponse: messages.CarriedResponse, carriedStream: messages.CarriedResponse,
	},
	{
		name: "openai", decodeRequest: openai.DecodeRequest, encodeRequest: openai.EncodeRequest,
		encodeResponse: openai.EncodeResponse, decodeResponse: openai.DecodeResponse,
		encoder:     func() eventEncoder { return openai.NewStreamEncoder(true) },
		parser:      func(r io.Reader) eventParser { return openai.NewStreamParser(r) },
		encodeError: openai.EncodeError, decodeError: openai.DecodeError,
		carried: openai.Carried, carriedResponse: openai.CarriedResponse, carriedStream: openai.CarriedStream,
	},
}

func (f format) encodeStream(t *testing.T, evs []chat.Event) []byte {
	t.Helper()
	enc := f.encoder()
	var out []byte
	for _, ev := range evs {
		b, err := enc.Encode(ev)
		if err != nil {
			t.Fatalf("%s: encode %#v: %v", f.name, ev, err)
		}
		out = append(out, b...)
	}
	return out
}

func (f format) parseStream(t *testing.T, b []byte) []chat.Event {
	t.Helper()
	p := f.parser(bytes.NewReader(b))
	var evs []chat.Event
	for {
		ev, err := p.Next()
		if errors.Is(err, io.EOF) {
			return evs
		}
		if err != nil {
			t.Fatalf("%s: parse: %v\n%s", f.name, err, b)
		}
		evs = append(evs, ev)
	}
}

// gateway is what the gateway does between an upstream's stream and a
// client's: the <tool_call> filter.
func gateway(t *testing.T, s scenarios.Scenario, evs []chat.Event) []chat.Event {
	t.Helper()
	f := chat.NewToolCallFilter(s.Request.Tools, scenarios.XMLToolIDs())
	var out []chat.Event
	for _, ev := range evs {
		o, err := f.Push(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o...)
	}
	return out
}

// accumulate folds a stream; err is the stream's Error event, if any.
func accumulate(t *testing.T, evs []chat.Event) (chat.Response, error) {
	t.Helper()
	var acc chat.Accumulator
	for _, ev := range evs {
		if err := acc.Add(ev); err != nil {
			var ce chat.Error
			if errors.As(err, &ce) {
				return acc.Response(), ce
			}
			t.Fatalf("stream rule broken: %v", err)
		}
	}
	return acc.Response(), nil
}

// TestRoundTrips runs every scenario from a client of each format through
// the IR to an upstream of each format and back: the request (client
// format -> IR -> upstream format -> IR -> client format), the reply or the
// upstream's error, and the stream. What arrives is what was sent, less
// what each format cannot say (Carried, CarriedResponse, CarriedStream).
func TestRoundTrips(t *testing.T) {
	for _, s := range scenarios.All() {
		for _, c := range formats {
			for _, u := range formats {
				t.Run(s.Name+"/"+c.name+"_to_"+u.name, func(t *testing.T) {
					roundTripRequest(t, s, c, u)
					if s.Status != 0 {
						roundTripError(t, s, c, u)
						return
					}
					roundTripResponse(t, s, c, u)
					roundTripStream(t, s, c, u)
				})
			}
		}
	}
}

func roundTripRequest(t *testing.T, s scenarios.Scenario, c, u format) {
	sent, err := c.encodeRequest(s.Request)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.decodeRequest(sent) // the gateway reads the client
	if err != nil {
		t.Fatalf("client request refused: %v\n%s", err, sent)
	}
	up, err := u.encodeRequest(r) // and asks the upstream
	if err != nil {
		t.Fatal(err)
	}
	got, err := u.decodeRequest(up) // which reads it
	if err != nil {
		t.Fatalf("upstream request refused: %v\n%s", err, up)
	}
	want := u.carried(c.carried(s.Request))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("request at the upstream:\n got %+v\nwant %+v", got, want)
	}
	back, err := c.encodeRequest(got)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.decodeRequest(back)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.carried(want); !reflect.DeepEqual(again, want) {
		t.Fatalf("request back in the client's format:\n got %+v\nwant %+v", again, want)
	}
}

func roundTripError(t *testing.T, s scenarios.Scenario, c, u format) {
	fromUpstream := u.decodeError(s.Status, u.encodeError(*s.Err))
	got := c.decodeError(s.Status, c.encodeError(fromUpstream))
	if got != *s.Err {
		t.Fatalf("error: got %+v, want %+v", got, *s.Err)
	}
}

func roundTripResponse(t *testing.T, s scenarios.Scenario, c, u format) {
	body, err := u.encodeResponse(s.Reply)
	if err != nil {
		t.Fatal(err)
	}
	r, err := u.decodeResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = chat.StripToolCalls(r, s.Request.Tools, scenarios.XMLToolIDs()); err != nil {
		t.Fatal(err)
	}
	out, err := c.encodeResponse(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.decodeResponse(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.carriedResponse(u.carriedResponse(s.Client())); !reflect.DeepEqual(got, want) {
		t.Fatalf("reply at the client:\n got %+v\nwant %+v", got, want)
	}
}

func roundTripStream(t *testing.T, s scenarios.Scenario, c, u format) {
	upstream := u.encodeStream(t, s.Stream())
	sent := c.encodeStream(t, gateway(t, s, u.parseStream(t, upstream)))
	got, gotErr := accumulate(t, c.parseStream(t, sent))
	want, wantErr := accumulate(t, s.ClientStream())
	want = c.carriedStream(u.carriedStream(want))
	if wantErr != nil && (c.name == "openai" || u.name == "openai") {
		// A stream broken off before its end tells no usage in the OpenAI
		// format, where usage comes last.
		want.Usage = chat.Usage{}
	}
	if !reflect.DeepEqual(got, want) || gotErr != wantErr {
		t.Fatalf("stream at the client:\n got %+v (%v)\nwant %+v (%v)\n%s", got, gotErr, want, wantErr, sent)
	}
	// Between two ends of one format nothing changes, byte for byte.
	if c.name == u.name && s.Want == nil && !bytes.Equal(sent, upstream) {
		t.Fatalf("%s to %s changed the stream:\n%s\nto\n%s", u.name, c.name, upstream, sent)
	}
}
