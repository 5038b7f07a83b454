package gateway_test

// The chat routes through the official SDKs of both formats, against the
// real router (identity, plans, the catalog) with the development upstream
// behind it, speaking either format: client format x upstream format x
// stream on and off.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/gorilla/mux"
	sdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	cmdgateway "github.com/strata-platform/strata/commands/gateway"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
	cmdplans "github.com/strata-platform/strata/commands/plans"
	"github.com/strata-platform/strata/domain/gateway/catalog"
	"github.com/strata-platform/strata/domain/plans"
	projgateway "github.com/strata-platform/strata/projections/gateway"
	readgateway "github.com/strata-platform/strata/readapi/gateway"
	readidentity "github.com/strata-platform/strata/readapi/identity"
	"github.com/strata-platform/strata/readapi/identity/identitytest"
)

// chatWorld is the platform API with the chat routes, the built-in catalog
// (every model on upstream "dev") and a development upstream configured as
// "dev" in one format.
type chatWorld struct {
	*world
	dev    *devupstream.Handler
	u      user        // on the basic plan (tools)
	router *mux.Router // the surface's routes, for a server of a test's own
}

func startChat(t *testing.T, upstreamFormat string, configured bool) *chatWorld {
	return startChatWith(t, upstreamFormat, configured, nil)
}

func startChatWith(t *testing.T, upstreamFormat string, configured bool, credits readgateway.ChatCredits) *chatWorld {
	t.Helper()
	return startChatConfig(t, upstreamFormat, configured, credits, nil)
}

// startChatConfig is startChatWith with a last say on the chat routes'
// configuration (tune may be nil).
func startChatConfig(t *testing.T, upstreamFormat string, configured bool, credits readgateway.ChatCredits,
	tune func(*readgateway.ChatConfig)) *chatWorld {
	t.Helper()
	dev, base := devupstream.Start(t)
	var ups []cmdgateway.Upstream
	if configured {
		ups = []cmdgateway.Upstream{{ID: "dev", Format: upstreamFormat, BaseURL: base + "/v1", Timeout: 10 * time.Second, Retries: 1, Weight: 1}}
	}
	upstreams := cmdgateway.NewUpstreams(ups, nil)
	upstreams.Backoff = time.Millisecond
	w := &world{t: t}
	var router *mux.Router
	events := append(plans.Events(), catalog.Events()...)
	w.api = identitytest.StartWithEvents(t, readidentity.Options{}, events, func(e *identitytest.Env) {
		logger := slog.New(slog.DiscardHandler)
		w.view = projgateway.NewCatalogView(e.Store, logger)
		w.catalog = cmdgateway.NewCatalog(e.Store, e.Clock, w.view.Sync)
		if _, err := w.catalog.ImportBuiltin(context.Background()); err != nil {
			t.Fatal(err)
		}
		w.plans = cmdplans.New(e.Store, e.Clock, e.Svc.Directory().Sync)
		cat := readgateway.NewCatalog(readgateway.CatalogConfig{View: w.view, Auth: e.Auth, Plans: e.Svc.Directory()})
		cfg := readgateway.ChatConfig{Catalog: cat, Auth: e.Auth, Upstreams: upstreams, Credits: credits, Logger: logger}
		if tune != nil {
			tune(&cfg)
		}
		readgateway.Routes(e.Router, readgateway.Config{Catalog: cat, Chat: readgateway.NewChat(cfg)})
		router = e.Router
	})
	cw := &chatWorld{world: w, dev: dev, router: router}
	cw.u = w.register()
	w.setPlan(cw.u, plans.LinePlatform, "basic")
	return cw
}

func (c *chatWorld) anthropic() anthropic.Client {
	return anthropic.NewClient(aoption.WithBaseURL(c.api.URL), aoption.WithAPIKey(c.u.Key), aoption.WithMaxRetries(0))
}

func (c *chatWorld) openai(path string) sdk.Client {
	return sdk.NewClient(ooption.WithBaseURL(c.api.URL+path), ooption.WithAPIKey(c.u.Key), ooption.WithMaxRetries(0))
}

// result is a scenario's outcome as either SDK saw it.
type result struct {
	text      string
	calls     []call
	stop      string // the IR's stop reason
	in, out   int64
	status    int // an error's status
	errType   string
	requestID string
	model     string
	provider  string // the Strata-Provider header
}

type call struct{ id, name, args string }

// scenario is one request in neutral terms.
type scenario struct {
	system    string
	turns     []turn
	tools     bool
	forced    string
	maxTokens int64
	stop      string
	none      bool   // tool_choice none
	image     string // base64 PNG sent with the last user turn
}

type turn struct {
	role    string
	text    string
	calls   []call
	results []call // id, "", content
}

var weatherSchema = map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}

func (c *chatWorld) viaAnthropic(t *testing.T, s scenario, stream bool) result {
	t.Helper()
	p := anthropic.MessageNewParams{Model: "strata-dev-frontier", MaxTokens: 1024}
	if s.maxTokens > 0 {
		p.MaxTokens = s.maxTokens
	}
	if s.system != "" {
		p.System = []anthropic.TextBlockParam{{Text: s.system}}
	}
	if s.stop != "" {
		p.StopSequences = []string{s.stop}
	}
	if s.tools {
		p.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "get_weather", Description: anthropic.String("weather"),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema["properties"]}}}}
	}
	if s.forced != "" {
		p.ToolChoice = anthropic.ToolChoiceParamOfTool(s.forced)
	}
	if s.none {
		p.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
	}
	for i, tn := range s.turns {
		var blocks []anthropic.ContentBlockParamUnion
		if s.image != "" && i == len(s.turns)-1 {
			blocks = append(blocks, anthropic.NewImageBlockBase64("image/png", s.image))
		}
		for _, r := range tn.results {
			blocks = append(blocks, anthropic.NewToolResultBlock(r.id, r.args, false))
		}
		if tn.text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(tn.text))
		}
		for _, cl := range tn.calls {
			blocks = append(blocks, anthropic.NewToolUseBlock(cl.id, json.RawMessage(cl.args), cl.name))
		}
		if tn.role == "assistant" {
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(blocks...))
		} else {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(blocks...))
		}
	}
	cl := c.anthropic()
	var m anthropic.Message
	var err error
	var hdr http.Header
	if stream {
		var resp *http.Response
		st := cl.Messages.NewStreaming(context.Background(), p, aoption.WithResponseInto(&resp))
		for st.Next() {
			if e := m.Accumulate(st.Current()); e != nil {
				t.Fatal(e)
			}
		}
		err = st.Err()
		if resp != nil {
			hdr = resp.Header
		}
	} else {
		var resp *http.Response
		var mp *anthropic.Message
		mp, err = cl.Messages.New(context.Background(), p, aoption.WithResponseInto(&resp))
		if mp != nil {
			m = *mp
		}
		if resp != nil {
			hdr = resp.Header
		}
	}
	var r result
	if hdr != nil {
		r.requestID, r.provider = hdr.Get("request-id"), hdr.Get(readgateway.ProviderHeader)
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		r.status, r.errType = apiErr.StatusCode, string(apiErr.Type())
		if r.requestID == "" && apiErr.Response != nil {
			r.requestID = apiErr.Response.Header.Get("request-id")
		}
		if !stream || r.status != 0 && r.status != 200 {
			return r
		}
	} else if err != nil {
		r.errType = "transport: " + err.Error()
		return r
	}
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			r.text += b.Text
		case "tool_use":
			r.calls = append(r.calls, call{b.ID, b.Name, string(b.Input)})
		}
	}
	r.stop, r.in, r.out, r.model = string(m.StopReason), m.Usage.InputTokens, m.Usage.OutputTokens, m.Model
	return r
}

func (c *chatWorld) viaOpenAI(t *testing.T, s scenario, stream bool, path string) result {
	t.Helper()
	p := sdk.ChatCompletionNewParams{Model: "strata-dev-frontier"}
	if s.maxTokens > 0 {
		p.MaxTokens = sdk.Int(s.maxTokens)
	}
	if s.system != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(s.system))
	}
	if s.stop != "" {
		p.Stop = sdk.ChatCompletionNewParamsStopUnion{OfString: sdk.String(s.stop)}
	}
	if s.tools {
		p.Tools = []sdk.ChatCompletionToolUnionParam{sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{Name: "get_weather",
			Description: sdk.String("weather"), Parameters: weatherSchema})}
	}
	if s.forced != "" {
		p.ToolChoice = sdk.ToolChoiceOptionFunctionToolChoice(sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: s.forced})
	}
	if s.none {
		p.ToolChoice = sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: sdk.String("none")}
	}
	for i, tn := range s.turns {
		for _, r := range tn.results {
			p.Messages = append(p.Messages, sdk.ToolMessage(r.args, r.id))
		}
		if tn.role == "assistant" {
			a := sdk.ChatCompletionAssistantMessageParam{}
			if tn.text != "" {
				a.Content.OfString = sdk.String(tn.text)
			}
			for _, cl := range tn.calls {
				a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID: cl.id, Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: cl.name, Arguments: cl.args}}})
			}
			p.Messages = append(p.Messages, sdk.ChatCompletionMessageParamUnion{OfAssistant: &a})
		} else if s.image != "" && i == len(s.turns)-1 {
			p.Messages = append(p.Messages, sdk.UserMessage([]sdk.ChatCompletionContentPartUnionParam{
				sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: "data:image/png;base64," + s.image}),
				sdk.TextContentPart(tn.text)}))
		} else if tn.text != "" {
			p.Messages = append(p.Messages, sdk.UserMessage(tn.text))
		}
	}
	cl := c.openai(path)
	var cc sdk.ChatCompletion
	var err error
	var hdr http.Header
	var resp *http.Response
	if stream {
		p.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
		st := cl.Chat.Completions.NewStreaming(context.Background(), p, ooption.WithResponseInto(&resp))
		var acc sdk.ChatCompletionAccumulator
		for st.Next() {
			acc.AddChunk(st.Current())
		}
		err = st.Err()
		cc = acc.ChatCompletion
	} else {
		var cp *sdk.ChatCompletion
		cp, err = cl.Chat.Completions.New(context.Background(), p, ooption.WithResponseInto(&resp))
		if cp != nil {
			cc = *cp
		}
	}
	if resp != nil {
		hdr = resp.Header
	}
	var r result
	if hdr != nil {
		r.requestID, r.provider = hdr.Get("x-request-id"), hdr.Get(readgateway.ProviderHeader)
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		r.status, r.errType = apiErr.StatusCode, apiErr.Type
		if r.requestID == "" && apiErr.Response != nil {
			r.requestID = apiErr.Response.Header.Get("x-request-id")
		}
		if !stream || r.status != 0 && r.status != 200 {
			return r
		}
	} else if err != nil {
		r.errType = "transport: " + err.Error()
		return r
	}
	if len(cc.Choices) > 0 {
		ch := cc.Choices[0]
		r.text = ch.Message.Content
		for _, tc := range ch.Message.ToolCalls {
			r.calls = append(r.calls, call{tc.ID, tc.Function.Name, tc.Function.Arguments})
		}
		r.stop = map[string]string{"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}[ch.FinishReason]
	}
	r.in, r.out, r.model = cc.Usage.PromptTokens, cc.Usage.CompletionTokens, cc.Model
	return r
}

// each runs fn for both client formats (and the OpenAI format on both of
// its paths), streaming and not.
func (c *chatWorld) each(t *testing.T, s scenario, fn func(t *testing.T, client string, stream bool, r result)) {
	for _, client := range []string{"messages", "openai", "openai-api"} {
		for _, stream := range []bool{false, true} {
			name := client
			if stream {
				name += "/stream"
			}
			t.Run(name, func(t *testing.T) {
				var r result
				switch client {
				case "messages":
					r = c.viaAnthropic(t, s, stream)
				case "openai":
					r = c.viaOpenAI(t, s, stream, "/v1/")
				default:
					r = c.viaOpenAI(t, s, stream, "/api/v1/")
				}
				fn(t, client, stream, r)
			})
		}
	}
}

func userSays(text string) scenario { return scenario{turns: []turn{{role: "user", text: text}}} }

func TestChatMatrix(t *testing.T) {
	for _, upstream := range []string{cmdgateway.FormatMessages, cmdgateway.FormatOpenAI} {
		t.Run("upstream-"+upstream, func(t *testing.T) {
			t.Parallel()
			c := startChat(t, upstream, true)
			t.Run("plain", func(t *testing.T) {
				c.each(t, userSays("Hello, world!"), func(t *testing.T, _ string, _ bool, r result) {
					if r.text != "You said: Hello, world!" || r.stop != "end_turn" || r.in != 4 || r.out != 7 || r.provider != "strata-dev" ||
						r.model != "strata-dev-frontier" || !strings.HasPrefix(r.requestID, "req_") {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("system-and-multi-turn", func(t *testing.T) {
				s := scenario{system: "Be brief.", turns: []turn{{role: "user", text: "Hi"}, {role: "assistant", text: "Hello."},
					{role: "user", text: "[[echo]]"}}}
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if !strings.Contains(r.text, `"Text":"Be brief."`) || !strings.Contains(r.text, `"Text":"Hello."`) ||
						!strings.Contains(r.text, `"Role":"assistant"`) || r.stop != "end_turn" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("tool-calls", func(t *testing.T) {
				s := userSays(`[[tool:get_weather {"city":"Paris"}]] [[tool:get_weather {"city":"Oslo"}]]`)
				s.tools = true
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if len(r.calls) != 2 || r.calls[0].name != "get_weather" || r.calls[1].args != `{"city":"Oslo"}` || r.stop != "tool_use" ||
						r.calls[0].id == "" || r.calls[0].id == r.calls[1].id {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("tool-result-round-trip", func(t *testing.T) {
				s := scenario{tools: true, turns: []turn{{role: "user", text: "weather?"},
					{role: "assistant", calls: []call{{"call_1", "get_weather", `{"city":"Paris"}`}}},
					{role: "user", results: []call{{"call_1", "", "sunny"}}}}}
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if r.text != "The tool returned: sunny" || r.stop != "end_turn" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("forced-tool", func(t *testing.T) {
				s := userSays("anything")
				s.tools, s.forced = true, "get_weather"
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if len(r.calls) != 1 || r.calls[0].name != "get_weather" || r.stop != "tool_use" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("max-tokens", func(t *testing.T) {
				s := userSays("[[tokens:50]]")
				s.maxTokens = 10
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if r.stop != "max_tokens" || r.out != 10 {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("stop-sequence", func(t *testing.T) {
				s := userSays("go [[stop:END]]")
				s.stop = "END"
				c.each(t, s, func(t *testing.T, client string, _ bool, r result) {
					want := "stop_sequence"
					if client != "messages" {
						want = "end_turn" // finish_reason stop
					}
					if r.text != "You said: go" || r.stop != want {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("xml-noise", func(t *testing.T) {
				c.each(t, userSays("[[xml]] look"), func(t *testing.T, _ string, _ bool, r result) {
					if r.text != "Checking.  You said: look" || len(r.calls) != 0 || r.stop != "end_turn" { // the tag stripped
						t.Fatalf("%+v", r)
					}
				})
				s := userSays("[[xml]] look")
				s.tools = true // offered: the XML becomes a real tool call
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if strings.Contains(r.text, "tool_call") || len(r.calls) != 1 || r.calls[0].name != "get_weather" ||
						r.calls[0].args != `{"q":"x"}` || r.stop != "tool_use" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("upstream-429-and-503", func(t *testing.T) {
				for _, status := range []int{429, 503} {
					c.each(t, userSays("[[fail:"+itoa(status)+" retry-after=0]]"), func(t *testing.T, client string, _ bool, r result) {
						if r.status != status || r.errType == "" || !strings.HasPrefix(r.requestID, "req_") {
							t.Fatalf("%+v", r)
						}
					})
				}
			})
			t.Run("parallel-tools-directive", func(t *testing.T) {
				s := userSays("[[parallel-tools:3]]")
				s.tools = true
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if len(r.calls) != 3 || r.calls[2].args != `{"n":3}` || r.stop != "tool_use" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("tool-choice-none", func(t *testing.T) {
				s := userSays(`[[tool:get_weather {"city":"Paris"}]] hi`)
				s.tools, s.none = true, true
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					if len(r.calls) != 0 || r.text != "You said: hi" || r.stop != "end_turn" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("non-ascii", func(t *testing.T) {
				c.each(t, userSays("Grüße, 世界! ünïcödé ✓"), func(t *testing.T, _ string, _ bool, r result) {
					if r.text != "You said: Grüße, 世界! ünïcödé ✓" || r.stop != "end_turn" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("image", func(t *testing.T) {
				s := userSays("what is this?")
				s.image = tinyPNG
				c.each(t, s, func(t *testing.T, _ string, _ bool, r result) {
					// what is this ? (4) + one image (85)
					if r.text != "You said: what is this?" || r.in != 4+85 {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("upstream-429-retried", func(t *testing.T) {
				// Only the first request with this prompt fails: the gateway's
				// retry answers it, and the client never sees the 429.
				c.each(t, userSays("[[fail:429 retry-after=0 times=1]] again"), func(t *testing.T, _ string, _ bool, r result) {
					if r.status != 0 || r.text != "You said: again" {
						t.Fatalf("%+v", r)
					}
				})
			})
			t.Run("streamed-usage-equals-unstreamed", func(t *testing.T) {
				s := userSays(`[[tool:get_weather {"city":"Paris"}]] [[tokens:12]]`)
				s.tools, s.system = true, "Be brief."
				seen := map[string]result{}
				c.each(t, s, func(t *testing.T, client string, stream bool, r result) {
					if r.in == 0 || r.out == 0 {
						t.Fatalf("%+v", r)
					}
					if other, ok := seen[client]; ok && (other.in != r.in || other.out != r.out) {
						t.Fatalf("%s: streamed %v usage %d/%d, the other %d/%d", client, stream, r.in, r.out, other.in, other.out)
					}
					seen[client] = r
				})
			})
			t.Run("mid-stream-error", func(t *testing.T) {

				for _, client := range []string{"messages", "openai"} {
					var r result
					if client == "messages" {
						r = c.viaAnthropic(t, userSays("[[tokens:20]] [[error:after=5]]"), true)
					} else {
						r = c.viaOpenAI(t, userSays("[[tokens:20]] [[error:after=5]]"), true, "/v1/")
					}
					if r.errType == "" || r.stop != "" {
						t.Fatalf("%s: %+v", client, r)
					}
				}
			})
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// tinyPNG is a 1x1 PNG, base64.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// A cut upstream stream ends the client's stream with an error event in
// its format; a client that goes away cancels the upstream call.
func TestChatStreamCutAndDisconnect(t *testing.T) {
	c := startChat(t, cmdgateway.FormatOpenAI, true)
	r := c.viaAnthropic(t, userSays("[[tokens:20]] [[cut:after=5]]"), true)
	if r.errType != "overloaded_error" && !strings.Contains(r.errType, "overloaded") {
		t.Fatalf("%+v", r)
	}
	// Retries spent: the upstream's status and Retry-After, in the client's format.
	failed := c.call(http.MethodPost, "/v1/chat/completions", map[string]any{"model": "strata-dev-frontier",
		"messages": []any{map[string]any{"role": "user", "content": "[[fail:429 retry-after=1]]"}}}, "X-API-Key", c.u.Key)
	errObj, _ := failed.body["error"].(map[string]any)
	if failed.status != 429 || failed.header.Get("Retry-After") != "1" || errObj["type"] != "rate_limit_error" ||
		len(c.dev.Requests()) != 3 { // the cut stream's, and two attempts
		t.Fatalf("%d %v %s (%d upstream requests)", failed.status, failed.header, failed.raw, len(c.dev.Requests()))
	}
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"model":"strata-dev-frontier","stream":true,"messages":[{"role":"user","content":"[[tokens:500]] [[slow:10ms]]"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.api.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("X-API-Key", c.u.Key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	n, err := resp.Body.Read(buf) // the first events come at once: the stream is not buffered
	if err != nil || !strings.Contains(string(buf[:n]), "chat.completion.chunk") {
		t.Fatalf("%q %v", buf[:n], err)
	}
	cancel()
	resp.Body.Close()
	deadline := time.Now().Add(3 * time.Second)
	for c.dev.Canceled() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the upstream stream was not cancelled")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestChatRefusals(t *testing.T) {
	c := startChat(t, cmdgateway.FormatMessages, false)
	post := func(path, body string, headers ...string) reply {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		return c.call(http.MethodPost, path, v, headers...)
	}
	msg := `{"model":"strata-dev-frontier","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	r := post("/v1/messages", msg, "X-API-Key", c.u.Key)
	if r.status != 400 || !strings.Contains(string(r.raw), "anthropic-version") || r.header.Get("request-id") == "" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	r = post("/v1/messages", msg, "X-API-Key", "sk-ant-api03-xyz", "anthropic-version", "2023-06-01")
	if r.status != 401 || r.body["type"] != "error" || !strings.Contains(string(r.raw), "sk_") {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	r = post("/v1/chat/completions", msg, "Authorization", "Bearer nonsense")
	if r.status != 401 || r.body["error"] == nil {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	// No upstream configured: 503 naming the variable, never invented text.
	r = post("/v1/chat/completions", `{"model":"strata-dev-frontier","messages":[{"role":"user","content":"hi"}]}`, "Authorization", "Bearer "+c.u.Bearer)
	if r.status != 503 || !strings.Contains(string(r.raw), cmdgateway.UpstreamsEnv) || r.header.Get("x-request-id") == "" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	r = post("/v1/messages", msg, "X-API-Key", c.u.Key, "anthropic-version", "2023-06-01")
	if r.status != 503 || !strings.Contains(string(r.raw), cmdgateway.UpstreamsEnv) || r.body["type"] != "error" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	// A catalog refusal in the client's format.
	r = post("/v1/chat/completions", `{"model":"no-such-model","messages":[{"role":"user","content":"hi"}]}`, "X-API-Key", c.u.Key)
	errObj, _ := r.body["error"].(map[string]any)
	if r.status != 404 && r.status != 400 || errObj == nil || errObj["code"] != catalog.CodeModelNotFound {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	// Tools to a model without tool support: a clear 400, never dropped.
	r = post("/v1/chat/completions", `{"model":"strata-dev-7b-text","messages":[{"role":"user","content":"hi"}],
		"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}`, "X-API-Key", c.u.Key)
	if errObj, _ := r.body["error"].(map[string]any); r.status != 400 || errObj == nil || errObj["type"] != "invalid_request_error" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	// A strict decoder's refusal names the field.
	r = post("/v1/chat/completions", `{"model":"strata-dev-frontier","messages":[],"bogus":1}`, "X-API-Key", c.u.Key)
	if r.status != 400 || r.body["error"] == nil {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	if len(c.dev.Requests()) != 0 {
		t.Fatal("the upstream was called")
	}
}
