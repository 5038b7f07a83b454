package openai_test

// Compatibility with the official SDK of this format
// (github.com/openai/openai-go/v3): the SDK talks to a loopback server that
// answers with this package's bytes, and what the SDK parses, and what its
// stream accumulator (ChatCompletionAccumulator) builds, must be the IR that
// was encoded. The SDK is imported by tests only.

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

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/strata-platform/strata/domain/gateway/chat"
	"github.com/strata-platform/strata/domain/gateway/wire/internal/scenarios"
	"github.com/strata-platform/strata/domain/gateway/wire/openai"
)

// server answers POST /v1/chat/completions with status and body, after
// checking that the SDK's request is one DecodeRequest takes; it hands the
// decoded request to got.
func server(t *testing.T, status int, contentType string, body []byte, got *chat.Request) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, _ := io.ReadAll(r.Body)
		req, err := openai.DecodeRequest(in)
		switch {
		case r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost:
			t.Errorf("SDK called %s %s", r.Method, r.URL.Path)
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

func client(srv *httptest.Server) *sdk.Client {
	c := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey("sk_test"), option.WithMaxRetries(0))
	return &c
}

var hello = sdk.ChatCompletionNewParams{Model: "llama-3.3-70b", MaxTokens: sdk.Int(1024),
	Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("Hello")}}

// fromSDK reads what the SDK parsed back into the IR; stopReason is the
// stop_reason member next to finish_reason, which the SDK keeps as an
// extra field.
func fromSDK(t *testing.T, c sdk.ChatCompletion, stopReason json.RawMessage) chat.Response {
	t.Helper()
	r := chat.Response{ID: c.ID, Model: c.Model, Created: c.Created,
		Usage: chat.Usage{InputTokens: int(c.Usage.PromptTokens), OutputTokens: int(c.Usage.CompletionTokens)}}
	if int(c.Usage.TotalTokens) != r.Usage.InputTokens+r.Usage.OutputTokens {
		t.Fatalf("total_tokens %d", c.Usage.TotalTokens)
	}
	if len(c.Choices) != 1 {
		t.Fatalf("%d choices", len(c.Choices))
	}
	ch := c.Choices[0]
	if ch.Message.Role != "assistant" {
		t.Fatalf("role %q", ch.Message.Role)
	}
	if ch.FinishReason != "" {
		r.StopReason, r.StopSequence = openai.StopReason(ch.FinishReason, stopReason)
	}
	if ch.Message.Content != "" {
		r.Content = append(r.Content, chat.Text(ch.Message.Content))
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "function" {
			t.Fatalf("tool call of type %q", tc.Type)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(tc.Function.Arguments)); err != nil {
			t.Fatalf("arguments %q: %v", tc.Function.Arguments, err)
		}
		r.Content = append(r.Content, chat.ToolUse(tc.ID, tc.Function.Name, compact.Bytes()))
	}
	return r
}

func TestSDKReadsResponses(t *testing.T) {
	for _, s := range scenarios.All() {
		t.Run(s.Name, func(t *testing.T) {
			if s.Status != 0 {
				srv := server(t, s.Status, "application/json", openai.EncodeError(*s.Err), nil)
				_, err := client(srv).Chat.Completions.New(context.Background(), hello)
				var apiErr *sdk.Error
				if !errors.As(err, &apiErr) || apiErr.StatusCode != s.Status || apiErr.Type != openai.ErrorType(s.Err.Kind) ||
					apiErr.Message != s.Err.Message {
					t.Fatalf("error: %v (%+v)", err, apiErr)
				}
				return
			}
			body, err := openai.EncodeResponse(s.Client())
			if err != nil {
				t.Fatal(err)
			}
			srv := server(t, http.StatusOK, "application/json", body, nil)
			c, err := client(srv).Chat.Completions.New(context.Background(), hello)
			if err != nil {
				t.Fatal(err)
			}
			var stopReason json.RawMessage
			if f, ok := c.Choices[0].JSON.ExtraFields["stop_reason"]; ok {
				stopReason = json.RawMessage(f.Raw())
			}
			if got, want := fromSDK(t, *c, stopReason), openai.CarriedResponse(s.Client()); !reflect.DeepEqual(got, want) {
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
			enc := openai.NewStreamEncoder(true)
			var body []byte
			var acc chat.Accumulator
			var wantErr *chat.Error
			for _, ev := range s.ClientStream() {
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
			params := hello
			params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
			stream := client(srv).Chat.Completions.NewStreaming(context.Background(), params)
			var cc sdk.ChatCompletionAccumulator
			var stopReason json.RawMessage
			for stream.Next() {
				chunk := stream.Current()
				if !cc.AddChunk(chunk) {
					t.Fatalf("the accumulator refused %s", chunk.RawJSON())
				}
				for _, ch := range chunk.Choices {
					if f, ok := ch.JSON.ExtraFields["stop_reason"]; ok {
						stopReason = json.RawMessage(f.Raw())
					}
				}
			}
			err := stream.Err()
			want := openai.CarriedResponse(acc.Response())
			if wantErr == nil && err != nil {
				t.Fatalf("stream: %v", err)
			}
			if wantErr != nil {
				var se *ssestream.StreamError
				if !errors.As(err, &se) || openai.DecodeError(0, se.Event.Data) != *wantErr {
					t.Fatalf("stream error: %v", err)
				}
				want.Usage = chat.Usage{} // broken off before the usage chunk
			}
			if got := fromSDK(t, cc.ChatCompletion, stopReason); !reflect.DeepEqual(got, want) {
				t.Fatalf("SDK accumulated:\n got %+v\nwant %+v\n%s", got, want, body)
			}
		})
	}
}

// TestSDKRequestsDecode sends a request that uses every feature the IR
// carries through the SDK, and checks what DecodeRequest makes of it.
func TestSDKRequestsDecode(t *testing.T) {
	img := sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: openai.DataURL("image/png", scenarios.PNG)})
	params := sdk.ChatCompletionNewParams{
		Model: "llama-3.3-70b", MaxCompletionTokens: sdk.Int(300), Temperature: sdk.Float(0.5), TopP: sdk.Float(0.9),
		User: sdk.String("user-1"), ParallelToolCalls: sdk.Bool(false), Seed: sdk.Int(7),
		Stop: sdk.ChatCompletionNewParamsStopUnion{OfStringArray: []string{"END", "STOP"}},
		Tools: []sdk.ChatCompletionToolUnionParam{sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{
			Name: "get_weather", Description: sdk.String("Weather"),
			Parameters: sdk.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}},
		})},
		ToolChoice: sdk.ToolChoiceOptionFunctionToolChoice(sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: "get_weather"}),
		Messages: []sdk.ChatCompletionMessageParamUnion{
			sdk.SystemMessage("Be brief."),
			sdk.UserMessage([]sdk.ChatCompletionContentPartUnionParam{sdk.TextContentPart("Weather here?"), img}),
			{OfAssistant: &sdk.ChatCompletionAssistantMessageParam{
				Content: sdk.ChatCompletionAssistantMessageParamContentUnion{OfString: sdk.String("Checking.")},
				ToolCalls: []sdk.ChatCompletionMessageToolCallUnionParam{{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID: "call_1", Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_weather", Arguments: `{"city": "Paris"}`}}}}}},
			sdk.ToolMessage("18C", "call_1"),
			sdk.UserMessage("Thanks"),
		},
	}
	var got chat.Request
	body, _ := openai.EncodeResponse(scenarios.All()[0].Reply)
	srv := server(t, http.StatusOK, "application/json", body, &got)
	if _, err := client(srv).Chat.Completions.New(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	max, temp, topP := 300, 0.5, 0.9
	want := chat.Request{Model: "llama-3.3-70b", MaxTokens: &max, Temperature: &temp, TopP: &topP,
		System: []chat.Part{chat.Text("Be brief.")}, Stop: []string{"END", "STOP"}, User: "user-1", DisableParallelToolUse: true,
		Tools: []chat.Tool{{Name: "get_weather", Description: "Weather",
			InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"}},"type":"object"}`)}},
		ToolChoice: &chat.ToolChoice{Type: chat.ToolChoiceTool, Name: "get_weather"},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Content: []chat.Part{chat.Text("Weather here?"), chat.Image("image/png", scenarios.PNG)}},
			{Role: chat.RoleAssistant, Content: []chat.Part{chat.Text("Checking."), chat.ToolUse("call_1", "get_weather", json.RawMessage(`{"city":"Paris"}`))}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.ToolResult("call_1", []chat.Part{chat.Text("18C")}, false), chat.Text("Thanks")}},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded:\n got %+v\nwant %+v", got, want)
	}
}
