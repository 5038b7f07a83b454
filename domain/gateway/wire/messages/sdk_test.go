package messages_test

// Compatibility with the official SDK of this format
// (github.com/anthropics/anthropic-sdk-go/v2): the SDK talks to a loopback
// server that answers with this package's bytes, and what the SDK parses,
// and what its stream accumulator (Message.Accumulate) builds, must be the
// IR that was encoded. The SDK is imported by tests only.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/gateway/wire/messages"
)

// server answers POST /v1/messages with status and body, after checking
// that the SDK's request is one DecodeRequest takes; it hands the decoded
// request to got.
func server(t *testing.T, status int, contentType string, body []byte, got *chat.Request) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, _ := io.ReadAll(r.Body)
		req, err := messages.DecodeRequest(in)
		switch {
		case r.URL.Path != "/v1/messages" || r.Method != http.MethodPost:
			t.Errorf("SDK called %s %s", r.Method, r.URL.Path)
		case r.Header.Get("anthropic-version") == "":
			t.Errorf("SDK sent no anthropic-version")
		case err != nil:
			t.Errorf("the SDK's request is refused: %v\n%s", err, in)
		}
		if got != nil {
			*got = req
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func client(srv *httptest.Server) *anthropic.Client {
	c := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk_test"), option.WithMaxRetries(0))
	return &c
}

var hello = anthropic.MessageNewParams{Model: "llama-3.3-70b", MaxTokens: 1024,
	Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hello"))}}

// fromSDK reads what the SDK parsed back into the IR.
func fromSDK(t *testing.T, m anthropic.Message) chat.Response {
	t.Helper()
	r := chat.Response{ID: m.ID, Model: string(m.Model), StopSequence: m.StopSequence,
		Usage: chat.Usage{InputTokens: int(m.Usage.InputTokens), OutputTokens: int(m.Usage.OutputTokens)}}
	if m.StopReason != "" { // a stream broken off has none
		r.StopReason = messages.StopReason(string(m.StopReason))
	}
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			r.Content = append(r.Content, chat.Text(b.Text))
		case "tool_use":
			var compact bytes.Buffer
			if err := json.Compact(&compact, b.Input); err != nil {
				t.Fatalf("tool input %q: %v", b.Input, err)
			}
			r.Content = append(r.Content, chat.ToolUse(b.ID, b.Name, compact.Bytes()))
		default:
			t.Fatalf("a %q block", b.Type)
		}
	}
	return r
}

func TestSDKReadsResponses(t *testing.T) {
	for _, s := range scenarios.All() {
		t.Run(s.Name, func(t *testing.T) {
			if s.Status != 0 {
				srv := server(t, s.Status, "application/json", messages.EncodeError(*s.Err), nil)
				_, err := client(srv).Messages.New(context.Background(), hello)
				var apiErr *anthropic.Error
				if !errors.As(err, &apiErr) || apiErr.StatusCode != s.Status ||
					string(apiErr.Type()) != messages.ErrorType(s.Err.Kind) || apiErr.Message != s.Err.Message {
					t.Fatalf("error: %v (%+v)", err, apiErr)
				}
				return
			}
			body, err := messages.EncodeResponse(s.Client())
			if err != nil {
				t.Fatal(err)
			}
			srv := server(t, http.StatusOK, "application/json", body, nil)
			m, err := client(srv).Messages.New(context.Background(), hello)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fromSDK(t, *m), messages.CarriedResponse(s.Client()); !reflect.DeepEqual(got, want) {
				t.Fatalf("SDK read:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestSDKAccumulatesStreams(t *testing.T) {
	for _, s := range scenarios.All() {
		if s.Status != 0 {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			evs := s.ClientStream()
			enc := messages.NewStreamEncoder()
			var body []byte
			var acc chat.Accumulator
			var wantErr *chat.Error
			for _, ev := range evs {
				b, err := enc.Encode(ev)
				if err != nil {
					t.Fatal(err)
				}
				body = append(body, b...)
				if err := acc.Add(ev); err != nil {
					e := chat.ErrorFrom(err)
					wantErr = &e
				}
			}
			srv := server(t, http.StatusOK, "text/event-stream", body, nil)
			stream := client(srv).Messages.NewStreaming(context.Background(), hello)
			var m anthropic.Message
			for stream.Next() {
				if err := m.Accumulate(stream.Current()); err != nil {
					t.Fatalf("Accumulate: %v", err)
				}
			}
			err := stream.Err()
			if wantErr == nil && err != nil {
				t.Fatalf("stream: %v", err)
			}
			if wantErr != nil {
				var apiErr *anthropic.Error
				if !errors.As(err, &apiErr) || string(apiErr.Type()) != messages.ErrorType(wantErr.Kind) || apiErr.Message != wantErr.Message {
					t.Fatalf("stream error: %v", err)
				}
			}
			if got, want := fromSDK(t, m), messages.CarriedResponse(acc.Response()); !reflect.DeepEqual(got, want) {
				t.Fatalf("SDK accumulated:\n got %+v\nwant %+v\n%s", got, want, body)
			}
		})
	}
}

// TestSDKRequestsDecode sends a request that uses every feature the IR
// carries through the SDK, and checks what DecodeRequest makes of it.
func TestSDKRequestsDecode(t *testing.T) {
	params := anthropic.MessageNewParams{
		Model: "llama-3.3-70b", MaxTokens: 300,
		System:        []anthropic.TextBlockParam{{Text: "Be brief."}},
		StopSequences: []string{"END"},
		Metadata:      anthropic.MetadataParam{UserID: anthropic.String("user-1")},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather", Description: anthropic.String("Weather"),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"city": map[string]any{"type": "string"}}, Required: []string{"city"}}}}},
		ToolChoice: anthropic.ToolChoiceParamOfTool("get_weather"),
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock("Weather here?"), anthropic.NewImageBlockBase64("image/png", scenarios.PNG)),
			anthropic.NewAssistantMessage(anthropic.NewTextBlock("Checking."), anthropic.NewToolUseBlock("toolu_1", map[string]any{"city": "Paris"}, "get_weather")),
			anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "18C", true), anthropic.NewTextBlock("Thanks")),
		},
	}
	var got chat.Request
	body, _ := messages.EncodeResponse(scenarios.All()[0].Reply)
	srv := server(t, http.StatusOK, "application/json", body, &got)
	if _, err := client(srv).Messages.New(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	max := 300
	want := chat.Request{Model: "llama-3.3-70b", MaxTokens: &max, System: []chat.Part{chat.Text("Be brief.")},
		Stop: []string{"END"}, User: "user-1",
		Tools: []chat.Tool{{Name: "get_weather", Description: "Weather",
			InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}`)}},
		ToolChoice: &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Weather here?"), chat.Image("image/png", scenarios.PNG)}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.Text("Checking."), chat.ToolUse("toolu_1", "get_weather", json.RawMessage(`{"city":"Paris"}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.ToolResult("toolu_1", []chat.Part{chat.Text("18C")}, true), chat.Text("Thanks")}},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded:\n got %+v\nwant %+v", got, want)
	}
}
