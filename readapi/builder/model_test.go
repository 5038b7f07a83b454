package builder_test

import (
	"strings"
	"testing"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/commands/gateway/devupstream"
)

// With a model path configured the stream says generator model, the
// files come from the model's streamed answer, usage counts its tokens;
// a failing model ends the generation with its code, never a template.
func TestChatStreamModelPath(t *testing.T) {
	_, base := devupstream.Start(t)
	c := startChatsWith(t, cmdbuilder.NewModelGenerator(cmdbuilder.ModelConfig{BaseURL: base + "/v1", APIKey: "k", Model: "strata-dev-32b-code"}))
	msg := `make it <file path=\"server.js\">require('http').createServer((q, s) => s.end('ok')).listen(process.env.PORT)</file> <file path=\"public/index.html\"><p>hi</p></file>`
	evs := read(t, c.post(`{"message":"`+msg+`"}`, "").Body, -1)
	n := names(evs)
	if !strings.HasPrefix(n, "start step plan step file file ") || !strings.HasSuffix(n, "preview usage complete") {
		t.Fatalf("%s", n)
	}
	start, usage := evs[0].Data, evs[len(evs)-2].Data
	if start["generator"] != "model" || start["model"] != "strata-dev-32b-code" || usage["generator"] != "model" ||
		usage["input_tokens"].(float64) == 0 || usage["output_tokens"].(float64) == 0 || usage["files"].(float64) != 2 {
		t.Fatalf("start %v usage %v", start, usage)
	}
	if !strings.Contains(jsonText(evs[2].Data["assumptions"]), "A model") {
		t.Fatalf("plan %v", evs[2].Data)
	}
	// A model request names its model; the model path fails honestly.
	evs = read(t, c.post(`{"message":"[[fail:503 retry-after=0]] a CRM","model":"strata-dev-frontier"}`, "").Body, -1)
	last := evs[len(evs)-1].Data
	var errEv map[string]any
	for _, e := range evs {
		if e.Name == "error" {
			errEv = e.Data
		}
		if e.Name == "file" {
			t.Fatal("a failed model wrote files")
		}
	}
	if evs[0].Data["model"] != "strata-dev-frontier" || errEv["code"] != cmdbuilder.CodeModelUnavailable || last["status"] != "failed" ||
		last["versionId"] != nil {
		t.Fatalf("%s: %v %v", names(evs), errEv, last)
	}
	r, body := get(t, c.url+"/api/preview/"+last["chatId"].(string)+"/")
	if r.StatusCode != 503 || !strings.Contains(string(body), "503") {
		t.Fatalf("preview of a failed generation: %d %s", r.StatusCode, body)
	}
}
