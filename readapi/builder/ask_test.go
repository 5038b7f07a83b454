package builder_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	cmdbuilder "github.com/strata-platform/strata/commands/builder"
	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/builder/artifacts"
	"github.com/strata-platform/strata/eventstore"
)

// The Ask thread of a real company: answers computed from its events
// (versions, files, entities, generations, artifacts, deploys), the plain
// no-model answer outside the matcher, every turn kept and read back in
// order.
func TestAskThreadAboutACompany(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	company := w.generate("book yoga classes at my studio")
	thread := "chat_01JTHREADTHREADTHREAD0001"
	ctx := context.Background()
	ch, err := w.chats.Load(ctx, company)
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := ch.CurrentVersion()
	var size int64
	for _, f := range cur.Files {
		size += f.Size
	}
	ask := func(q string) map[string]any {
		t.Helper()
		status, out := w.do("POST", "/api/build/ask", jsonBody(map[string]string{"question": q, "idea": "book yoga classes at my studio",
			"track": "app", "companyName": "Studio", "companyId": company, "chatId": thread}))
		if status != 200 || out["kept"] != true || out["provider"] != "strata" || out["generator"] != "facts" || out["model"] != artifacts.AskVersion {
			t.Fatalf("%q: %d %v", q, status, out)
		}
		return out
	}
	wantAnswers := []struct{ q, want string }{
		{"How many versions are there?", fmt.Sprintf("This company has 1 version; the current one is version 1 (%s).", cur.VersionID)},
		{"how many files?", fmt.Sprintf("Version 1 has %d files, %d bytes in all.", len(cur.Files), size)},
		{"which entities does it have?", "The app spec of version 1 has 3 entities: Service (4 fields), Booking (8 fields) and Class (5 fields); 17 fields in all."},
		{"did a build fail?", fmt.Sprintf("There was 1 generation: 1 completed, 0 failed, 0 running. The latest (%s, generator template) completed with version 1.", ch.Generations[0].ID)},
		{"what should my pricing be?", artifacts.NoModelAnswer},
		{"any artifacts?", "No artifact is recorded for this company yet."},
		{"is it deployed?", "No deploy is recorded for this company, so its app has not been deployed (the preview's first request or a redeploy deploys it)."},
	}
	for _, c := range wantAnswers {
		out := ask(c.q)
		if out["answer"] != c.want {
			t.Fatalf("%q:\n got %v\nwant %s", c.q, out["answer"], c.want)
		}
		if c.want == artifacts.NoModelAnswer && len(out["sources"].([]any)) != 0 {
			t.Fatalf("the no-model answer cites %v", out["sources"])
		}
	}
	src := ask("versions")["sources"].([]any)[0].(map[string]any)
	if src["fact"] != "versions" || src["stream"] != company || src["upToVersion"] != float64(ch.Version) {
		t.Fatalf("sources %v", src)
	}
	// A recorded artifact and a recorded deploy change the answers.
	if status, out := w.do("POST", "/api/build/artifact", jsonBody(map[string]string{"view": "dataModel", "idea": "x", "track": "app",
		"companyId": company})); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if _, err := w.store.Append(ctx, eventstore.Stream{Type: builder.StreamDeploys, ID: builder.DeploysStream(company)}, eventstore.NoStream,
		&builder.AppDeployed{CompanyID: company, VersionID: cur.VersionID, Switched: true, Probes: 2, Trigger: builder.TriggerRedeploy, At: cur.At}); err != nil {
		t.Fatal(err)
	}
	if a := ask("which artifacts?")["answer"].(string); !strings.HasPrefix(a, "1 artifact is recorded for this company: 1 dataModel.") {
		t.Fatal(a)
	}
	if a := ask("is it live?")["answer"].(string); !strings.Contains(a, fmt.Sprintf("deployed version 1 (%s)", cur.VersionID)) ||
		!strings.Contains(a, "whether the app is up at this moment is not recorded") {
		t.Fatal(a)
	}
	// The thread reads back oldest first: each question, then its answer.
	status, out := w.do("GET", "/api/build/ask?"+url.Values{"companyId": {company}, "chatId": {thread}}.Encode(), "")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	turns := out["turns"].([]any)
	if len(turns) != 2*(len(wantAnswers)+3) {
		t.Fatalf("%d turns", len(turns))
	}
	for i, c := range wantAnswers {
		q, a := turns[2*i].(map[string]any), turns[2*i+1].(map[string]any)
		if q["role"] != "user" || q["text"] != c.q || a["role"] != "assistant" || a["text"] != c.want || a["generator"] != "facts" ||
			q["createdAt"] == nil || q["generator"] != nil {
			t.Fatalf("turns %d, %d: %v %v", 2*i, 2*i+1, q, a)
		}
	}
	// Another thread of the same company is empty.
	if _, out := w.do("GET", "/api/build/ask?companyId="+company+"&chatId="+company, ""); len(out["turns"].([]any)) != 0 {
		t.Fatalf("%v", out)
	}
}

// Without companyId and chatId the question is answered but not kept,
// and the answer says so; without a company no state is read.
func TestAskWithoutAThread(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	status, out := w.do("POST", "/api/build/ask", `{"question":"how many versions are there?","idea":"a shop"}`)
	if status != 200 || out["kept"] != false || out["note"] != "The thread is kept only when both companyId and chatId are given; this question and its answer were not kept." ||
		out["answer"] != artifacts.NoCompanyAnswer {
		t.Fatalf("%d %v", status, out)
	}
	company := w.generate("track my running workouts")
	status, out = w.do("POST", "/api/build/ask", jsonBody(map[string]string{"question": "how many versions?", "idea": "x", "companyId": company}))
	if status != 200 || out["kept"] != false || !strings.HasPrefix(out["answer"].(string), "This company has 1 version") {
		t.Fatalf("%d %v", status, out)
	}
	if n, _ := w.store.Version(context.Background(), builder.AskStream(company, "")); n != 0 {
		t.Fatal("a thread without chatId was kept")
	}
	status, out = w.do("POST", "/api/build/ask", `{"question":"write my pitch","idea":"a shop"}`)
	if status != 200 || out["answer"] != artifacts.NoModelAnswer {
		t.Fatalf("%d %v", status, out)
	}
}

// Bad input is a 400 naming the field and the rule; an unknown company a
// 404.
func TestAskRefusesBadInput(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t)
	unknown := "chat_01ABCDEFGHJKMNPQRSTVWXYZ00"
	for name, c := range map[string]struct{ body, field, rule string }{
		"no question":   {`{"idea":"i"}`, "question", "required"},
		"long question": {jsonBody(map[string]string{"question": strings.Repeat("?", 2001), "idea": "i"}), "question", "max_length:2000"},
		"no idea":       {`{"question":"q"}`, "idea", "required"},
		"bad track":     {`{"question":"q","idea":"i","track":"apps"}`, "track", "enum:app|company"},
		"bad company":   {`{"question":"q","idea":"i","companyId":"42"}`, "companyId", "format"},
		"bad chat":      {`{"question":"q","idea":"i","chatId":"42"}`, "chatId", "format"},
		"unknown field": {`{"question":"q","idea":"i","user":"me"}`, "user", "unknown_field"},
	} {
		if status, out := w.do("POST", "/api/build/ask", c.body); status != 400 || out["field"] != c.field || out["rule"] != c.rule {
			t.Errorf("%s: %d %v", name, status, out)
		}
	}
	for name, c := range map[string]struct{ query, field, rule string }{
		"no company": {"chatId=" + unknown, "companyId", "required"},
		"no chat":    {"companyId=" + unknown, "chatId", "required"},
		"bad chat":   {"companyId=" + unknown + "&chatId=x", "chatId", "format"},
	} {
		if status, out := w.do("GET", "/api/build/ask?"+c.query, ""); status != 400 || out["field"] != c.field || out["rule"] != c.rule {
			t.Errorf("GET %s: %d %v", name, status, out)
		}
	}
	if status, _ := w.do("GET", "/api/build/ask?companyId="+unknown+"&chatId="+unknown, ""); status != 404 {
		t.Fatalf("unknown company: %d", status)
	}
	if status, _ := w.do("POST", "/api/build/ask", jsonBody(map[string]string{"question": "q", "idea": "i", "companyId": unknown, "chatId": unknown})); status != 404 {
		t.Fatalf("unknown company: %d", status)
	}
}

// Concurrent questions on one thread are all kept, each question next to
// its answer; a full thread refuses the next question with max_turns.
func TestAskThreadUnderContentionAndItsLimit(t *testing.T) {
	t.Parallel()
	w := startArtifacts(t, func(c *cmdbuilder.ArtifactsConfig) { c.MaxTurns = 22 })
	company := w.generate("sell cooking courses online")
	const n = 10
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := jsonBody(map[string]string{"question": fmt.Sprintf("question %d: how many files?", i), "idea": "x",
				"companyId": company, "chatId": company})
			if status, out := w.do("POST", "/api/build/ask", body); status != 200 || out["kept"] != true {
				errs <- fmt.Sprintf("%d %v", status, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	_, out := w.do("GET", "/api/build/ask?companyId="+company+"&chatId="+company, "")
	turns := out["turns"].([]any)
	seen := map[string]bool{}
	for i := 0; i < len(turns); i += 2 {
		q, a := turns[i].(map[string]any), turns[i+1].(map[string]any)
		if q["role"] != "user" || a["role"] != "assistant" || !strings.HasPrefix(a["text"].(string), "Version 1 has") || seen[q["text"].(string)] {
			t.Fatalf("turns %d, %d: %v %v", i, i+1, q, a)
		}
		seen[q["text"].(string)] = true
	}
	if len(seen) != n {
		t.Fatalf("%d questions kept of %d", len(seen), n)
	}
	ask := jsonBody(map[string]string{"question": "versions?", "idea": "x", "companyId": company, "chatId": company})
	if status, out := w.do("POST", "/api/build/ask", ask); status != 200 {
		t.Fatalf("the 11th pair: %d %v", status, out)
	}
	if status, out := w.do("POST", "/api/build/ask", ask); status != 400 || out["field"] != "chatId" || out["rule"] != "max_turns:22" {
		t.Fatalf("a full thread: %d %v", status, out)
	}
}
