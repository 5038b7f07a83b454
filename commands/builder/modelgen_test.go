package builder_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

// The model path against the development upstream (OpenAI format,
// streaming): files are read from the streamed answer; an answer cut at
// its length limit is continued; failures are the generation's own,
// with their codes, never a template in disguise.
func TestModelGenerator(t *testing.T) {
	dev, base := devupstream.Start(t)
	gen := cmdbuilder.NewModelGenerator(cmdbuilder.ModelConfig{BaseURL: base + "/v1", APIKey: "k", Model: "strata-dev-32b-code"})
	var got []cmdbuilder.GenFile
	emit := func(f cmdbuilder.GenFile) error { got = append(got, f); return nil }
	// The development upstream answers "You said: " and the message: a
	// message holding file blocks makes an answer holding them.
	msg := `<file path="server.js">
require('http').createServer((q, s) => s.end('ok')).listen(process.env.PORT)
</file> and <file path="public/index.html"><p>hi</p></file>`
	out, err := gen.Files(context.Background(), msg, "", cmdbuilder.Plan{}, emit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Path != "server.js" || !strings.Contains(string(got[0].Content), "createServer") ||
		got[1].Path != "public/index.html" || string(got[1].Content) != "<p>hi</p>" {
		t.Fatalf("%q", got)
	}
	if out.Model != "strata-dev-32b-code" || out.InputTokens == 0 || out.OutputTokens == 0 {
		t.Fatalf("%+v", out)
	}
	req := dev.Requests()[0].Request
	if !req.Stream || !req.IncludeUsage || req.System[0].Text != cmdbuilder.SystemPrompt {
		t.Fatalf("%+v", req)
	}

	for _, tc := range []struct {
		name, msg, code string
		cfg             cmdbuilder.ModelConfig
	}{
		{"no file blocks", "just talk", cmdbuilder.CodeInvalidOutput, cmdbuilder.ModelConfig{}},
		{"cut inside a block", `<file path="a.js">x [[cut:after=6]]`, cmdbuilder.CodeModelUnavailable, cmdbuilder.ModelConfig{}},
		{"upstream down", "[[fail:503 retry-after=0]]", cmdbuilder.CodeModelUnavailable, cmdbuilder.ModelConfig{}},
		{"over budget", `<file path="a.js">x</file>`, cmdbuilder.CodeBudgetExceeded, cmdbuilder.ModelConfig{Budget: 5}},
		{"still cut after continuing", "[[tokens:80]]", cmdbuilder.CodeBudgetExceeded, cmdbuilder.ModelConfig{MaxTokens: 10, MaxContinuations: 2}},
	} {
		tc.cfg.BaseURL, tc.cfg.Model = base+"/v1", "m"
		_, err := cmdbuilder.NewModelGenerator(tc.cfg).Files(context.Background(), tc.msg, "", cmdbuilder.Plan{}, emit)
		var ge *cmdbuilder.GenError
		if !errors.As(err, &ge) || ge.Code != tc.code {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
