package devupstream_test

// The official SDKs of both formats talk to the development upstream as to
// a real one: they send their own requests (which its strict decoders
// take) and read its replies and streams with their own accumulators.

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	sdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

func anthropicClient(base string) anthropic.Client {
	return anthropic.NewClient(aoption.WithBaseURL(base), aoption.WithAPIKey("dev"), aoption.WithMaxRetries(0))
}

func openaiClient(base string) sdk.Client {
	return sdk.NewClient(ooption.WithBaseURL(base+"/v1/"), ooption.WithAPIKey("dev"), ooption.WithMaxRetries(0))
}

func TestAnthropicSDK(t *testing.T) {
	_, base := devupstream.Start(t)
	c := anthropicClient(base)
	ctx := context.Background()
	tool := anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{Name: "get_weather",
		InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{"city": map[string]any{"type": "string"}}}}}
	params := anthropic.MessageNewParams{Model: "dev-7b", MaxTokens: 64, Tools: []anthropic.ToolUnionParam{tool},
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(`[[tool:get_weather {"city":"Paris"}]]`))}}
	m, err := c.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if m.StopReason != anthropic.StopReasonToolUse || len(m.Content) != 1 || m.Content[0].Name != "get_weather" ||
		string(m.Content[0].Input) != `{"city":"Paris"}` {
		t.Fatalf("%+v", m)
	}
	stream := c.Messages.NewStreaming(ctx, params)
	var acc anthropic.Message
	for stream.Next() {
		if err := acc.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.StopReason != m.StopReason || len(acc.Content) != 1 || string(acc.Content[0].Input) != `{"city":"Paris"}` ||
		acc.Usage.OutputTokens != m.Usage.OutputTokens || acc.Usage.InputTokens != m.Usage.InputTokens {
		t.Fatalf("streamed %+v\nreplied %+v", acc, m)
	}

	params.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("[[tokens:30]]"))}
	params.MaxTokens = 10
	m, err = c.Messages.New(ctx, params)
	if err != nil || m.StopReason != anthropic.StopReasonMaxTokens || m.Usage.OutputTokens != 10 {
		t.Fatalf("%+v %v", m, err)
	}

	params.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("[[fail:429 retry-after=1]]"))}
	_, err = c.Messages.New(ctx, params)
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests || apiErr.Type() != "rate_limit_error" {
		t.Fatalf("%v", err)
	}

	params.Messages = []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("[[tokens:10]] [[error:after=4]]"))}
	stream = c.Messages.NewStreaming(ctx, params)
	n := 0
	for stream.Next() {
		n++
	}
	if !errors.As(stream.Err(), &apiErr) || apiErr.Type() != "overloaded_error" || n != 1+1+4 {
		t.Fatalf("%d events, %v", n, stream.Err())
	}
}

func TestOpenAISDK(t *testing.T) {
	_, base := devupstream.Start(t)
	c := openaiClient(base)
	ctx := context.Background()
	tool := sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{Name: "get_weather",
		Parameters: sdk.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}})
	params := sdk.ChatCompletionNewParams{Model: "dev-7b", MaxTokens: sdk.Int(64), Tools: []sdk.ChatCompletionToolUnionParam{tool},
		Messages: []sdk.ChatCompletionMessageParamUnion{
			sdk.SystemMessage("Be brief."),
			sdk.UserMessage(`[[tool:get_weather {"city":"Paris"}]] [[tool:get_weather {"city":"Oslo"}]]`)}}
	r, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if r.Choices[0].FinishReason != "tool_calls" || len(r.Choices[0].Message.ToolCalls) != 2 ||
		r.Choices[0].Message.ToolCalls[1].Function.Arguments != `{"city":"Oslo"}` {
		t.Fatalf("%+v", r)
	}
	params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
	stream := c.Chat.Completions.NewStreaming(ctx, params)
	var acc sdk.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	calls := acc.Choices[0].Message.ToolCalls
	if len(calls) != 2 || calls[0].Function.Arguments != `{"city":"Paris"}` || calls[1].ID != r.Choices[0].Message.ToolCalls[1].ID ||
		acc.Usage.CompletionTokens != r.Usage.CompletionTokens || acc.Usage.PromptTokens != r.Usage.PromptTokens {
		t.Fatalf("streamed %+v\nreplied %+v", acc.ChatCompletion, r)
	}

	params = sdk.ChatCompletionNewParams{Model: "dev-7b", Stop: sdk.ChatCompletionNewParamsStopUnion{OfString: sdk.String("END")},
		Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("x [[stop:END]]")}}
	r, err = c.Chat.Completions.New(ctx, params)
	if err != nil || r.Choices[0].FinishReason != "stop" || r.Choices[0].Message.Content != "You said: x" {
		t.Fatalf("%+v %v", r, err)
	}

	params.Messages = []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("[[fail:503]]")}
	_, err = c.Chat.Completions.New(ctx, params)
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("%v", err)
	}

	params.Messages = []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("[[tokens:10]] [[cut:after=3]]")}
	stream = c.Chat.Completions.NewStreaming(ctx, params)
	n := 0
	for stream.Next() {
		n++
	}
	if stream.Err() == nil || n != 1+3 {
		t.Fatalf("a cut stream: %d chunks, error %v", n, stream.Err())
	}
}
