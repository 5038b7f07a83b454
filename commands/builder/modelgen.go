package builder

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/strata-platform/strata/domain/builder"
)

// Codes of a model path's failures.
const (
	CodeBudgetExceeded   = "budget_exceeded"
	CodeModelUnavailable = "model_unavailable"
	CodeInvalidOutput    = "invalid_output"
	// CodeInsufficientCredits: the gateway refused the call (402).
	CodeInsufficientCredits = "insufficient_credits"
)

// ModelConfig configures the model path: an OpenAI-compatible endpoint
// (Strata's own gateway: http://127.0.0.1:8080/v1 with an sk_ key).
type ModelConfig struct {
	BaseURL string // up to the version: http://127.0.0.1:8080/v1
	APIKey  string
	Model   string // a catalog model or router id (software-engineering)
	// Budget bounds the tokens (input and output, continuations included)
	// of one generation; over it the generation fails with budget_exceeded.
	Budget int
	// MaxContinuations bounds the follow-up requests made when an answer
	// stops at its length limit (finish_reason length).
	MaxContinuations int
	// MaxTokens is each request's max_tokens (0: the gateway's default).
	MaxTokens int
	Timeout   time.Duration
	HTTP      *http.Client
}

// Defaults of ModelConfig.
const (
	DefaultModelBudget        = 200_000
	DefaultModelContinuations = 3
	DefaultModelTimeout       = 5 * time.Minute
)

// ModelGenerator writes apps with a model through the gateway, in the
// OpenAI format, streaming: files are read from the answer as it streams
// (tagged blocks, builder.FileParser) and stored one by one. It continues
// an answer only when it stopped at its length limit, up to
// MaxContinuations; it never retries a model on its own (no fix loop).
type ModelGenerator struct {
	cfg    ModelConfig
	client sdk.Client
}

// NewModelGenerator returns the model path.
func NewModelGenerator(cfg ModelConfig) *ModelGenerator {
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultModelBudget
	}
	if cfg.MaxContinuations < 0 {
		cfg.MaxContinuations = 0
	} else if cfg.MaxContinuations == 0 {
		cfg.MaxContinuations = DefaultModelContinuations
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultModelTimeout
	}
	opts := []option.RequestOption{option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/") + "/"), option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0), option.WithRequestTimeout(cfg.Timeout)}
	if cfg.HTTP != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTP))
	}
	return &ModelGenerator{cfg: cfg, client: sdk.NewClient(opts...)}
}

// Name implements Generator.
func (*ModelGenerator) Name() string { return builder.GeneratorModel }

// Provider implements Generator: the gateway, until it reports the
// model's provider (Strata-Provider).
func (*ModelGenerator) Provider() string { return "gateway" }

// Model implements Generator: the configured model or router.
func (m *ModelGenerator) Model() string { return m.cfg.Model }

// Plan implements Generator: the model path plans in its answer; the
// plan says so.
func (m *ModelGenerator) Plan(context.Context, string) (Plan, error) {
	return Plan{Assumptions: []string{"A model (" + m.cfg.Model + ", through the platform's gateway) writes the app from the idea; " +
		"its files are stored as they arrive, and nothing is generated from templates."}}, nil
}

// SystemPrompt is what the model is asked to write.
const SystemPrompt = `You write small, complete web apps. Answer with the app's files only, each as a block:
<file path="relative/path">
file content
</file>
Write server.js (Node.js 20 standard library only, no packages) that listens on process.env.PORT and process.env.HOST, serves public/ statically, answers GET /healthz with {"status":"ok"}, keeps records in the JSON file process.env.DATA_FILE and reads secrets from process.env; and public/index.html, public/app.js, public/style.css (no inline scripts, relative URLs only).`

// Files implements Generator: one streamed request, continued while it
// stops at its length limit, within the token budget.
func (m *ModelGenerator) Files(ctx context.Context, message, model string, _ Plan, emit func(GenFile) error) (Produced, error) {
	if model == "" {
		model = m.cfg.Model
	}
	out := Produced{Provider: m.Provider(), Model: model}
	msgs := []sdk.ChatCompletionMessageParamUnion{sdk.SystemMessage(SystemPrompt), sdk.UserMessage(message)}
	var parser builder.FileParser
	files := 0
	for turn := 0; ; turn++ {
		params := sdk.ChatCompletionNewParams{Model: model, Messages: msgs,
			StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}}
		if m.cfg.MaxTokens > 0 {
			params.MaxTokens = sdk.Int(int64(m.cfg.MaxTokens))
		}
		var resp *http.Response
		st := m.client.Chat.Completions.NewStreaming(ctx, params, option.WithResponseInto(&resp))
		var text strings.Builder
		finish := ""
		for st.Next() {
			ch := st.Current()
			if ch.Model != "" {
				out.Model = ch.Model // the model the gateway says served it
			}
			if ch.Usage.TotalTokens > 0 {
				out.InputTokens += int(ch.Usage.PromptTokens)
				out.OutputTokens += int(ch.Usage.CompletionTokens)
			}
			for _, c := range ch.Choices {
				if c.FinishReason != "" {
					finish = c.FinishReason
				}
				if c.Delta.Content == "" {
					continue
				}
				text.WriteString(c.Delta.Content)
				fs, err := parser.Push(c.Delta.Content)
				if err != nil {
					return out, &GenError{Code: CodeInvalidOutput, Message: err.Error()}
				}
				for _, f := range fs {
					files++
					if err := emit(GenFile{Path: f.Path, Content: []byte(f.Content)}); err != nil {
						return out, err
					}
				}
			}
		}
		if resp != nil {
			if p := resp.Header.Get("Strata-Provider"); p != "" {
				out.Provider = p
			}
		}
		if err := st.Err(); err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, modelError(err)
		}
		if out.InputTokens+out.OutputTokens > m.cfg.Budget {
			return out, &GenError{Code: CodeBudgetExceeded, Message: fmt.Sprintf("the generation used %d tokens, over its budget of %d",
				out.InputTokens+out.OutputTokens, m.cfg.Budget)}
		}
		if finish != "length" {
			break
		}
		if turn >= m.cfg.MaxContinuations {
			return out, &GenError{Code: CodeBudgetExceeded, Message: fmt.Sprintf("the answer was still cut at its length limit after %d continuations", turn)}
		}
		msgs = append(msgs, sdk.AssistantMessage(text.String()), sdk.UserMessage("Continue exactly where you stopped, without repeating anything."))
	}
	if err := parser.End(); err != nil {
		return out, &GenError{Code: CodeInvalidOutput, Message: err.Error()}
	}
	if files == 0 {
		return out, &GenError{Code: CodeInvalidOutput, Message: "the model's answer held no <file path=\"...\"> blocks"}
	}
	return out, nil
}

// modelError turns a failed call into the generation's failure: the
// gateway's refusal or outage, said as it is.
func modelError(err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		code := CodeModelUnavailable
		if apiErr.StatusCode == http.StatusPaymentRequired {
			code = CodeInsufficientCredits
		}
		return &GenError{Code: code, Message: fmt.Sprintf("the gateway answered %d: %s", apiErr.StatusCode, apiErr.Message)}
	}
	return &GenError{Code: CodeModelUnavailable, Message: "the model could not be reached: " + err.Error()}
}
