package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/domain/memory/extract"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/llm/llmtest"
)

func TestExtractFactsAsksForTheSchemaAndParsesTheAnswer(t *testing.T) {
	srv := llmtest.Start(t)
	srv.SetScript(func(system, user string) (string, bool) {
		if user != "We pay Gusto for payroll." {
			return "", false
		}
		return `{"entities":[{"name":"Gusto","kind":"org"}],"relations":[{"subject":"user","predicate":"uses","object":"Gusto"}],` +
			`"ended":[{"subject":"user","predicate":"uses","object":"ADP"}]}`, true
	})
	c, err := llm.New(llm.Config{URL: srv.URL + "/v1", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ExtractFacts(context.Background(), "We pay Gusto for payroll.")
	if err != nil {
		t.Fatal(err)
	}
	want := extract.Result{Entities: []extract.Mention{{Name: "Gusto", Kind: extract.Org}},
		Relations: []extract.Relation{{Subject: "user", Predicate: "uses", Object: "Gusto"}},
		Ended:     []extract.Relation{{Subject: "user", Predicate: "uses", Object: "ADP"}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("ExtractFacts = %+v, want %+v", got, want)
	}
	system, user, maxTokens := srv.Last()
	if user != "We pay Gusto for payroll." || maxTokens != llm.ExtractMaxTokens ||
		!strings.Contains(system, `"`+memory.ModelSelf+`"`) {
		t.Fatalf("sent system %q, user %q, max_tokens %d", system, user, maxTokens)
	}
	format, temperature := srv.LastFormat()
	if temperature != 0 {
		t.Fatalf("temperature %v, want 0", temperature)
	}
	var f struct {
		Type       string
		JSONSchema struct {
			Name   string
			Strict bool
			Schema struct {
				Required   []string
				Properties struct {
					Relations struct {
						Items struct {
							Properties struct {
								Predicate struct{ Enum []string }
							}
						}
					}
				}
			}
		} `json:"json_schema"`
	}
	if err := json.Unmarshal([]byte(format), &f); err != nil {
		t.Fatal(err)
	}
	if f.Type != "json_schema" || !f.JSONSchema.Strict || f.JSONSchema.Name != llm.ExtractSchemaName ||
		fmt.Sprint(f.JSONSchema.Schema.Required) != "[entities relations ended]" ||
		fmt.Sprint(f.JSONSchema.Schema.Properties.Relations.Items.Properties.Predicate.Enum) != fmt.Sprint(extract.Predicates()) {
		t.Fatalf("response_format = %s", format)
	}

	if _, err := c.ExtractFacts(context.Background(), "a text the script does not know"); err == nil ||
		!strings.Contains(err.Error(), "no scripted answer") {
		t.Fatalf("unscripted: err = %v", err)
	}
	srv.Fail.Store(true)
	if _, err := c.ExtractFacts(context.Background(), "We pay Gusto for payroll."); err == nil {
		t.Fatal("an outage gave no error")
	}
	srv.Fail.Store(false)

	slow, err := llm.New(llm.Config{URL: srv.URL + "/v1", Model: "m1", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv.Delay.Store(int64(2 * time.Second))
	begin := time.Now()
	if _, err := slow.ExtractFacts(context.Background(), "We pay Gusto for payroll."); err == nil || time.Since(begin) > time.Second {
		t.Fatalf("a slow endpoint: err %v after %v, want a timeout within the client's bound", err, time.Since(begin))
	}
}

func TestParseExtractAnswerRefusesWhatIsNotTheSchema(t *testing.T) {
	for _, bad := range []string{``, `not json`, `null`, `[]`, `{"entities":[]} {"entities":[]}`,
		`{"entities":[{"name":"Gusto","kind":"org","confidence":0.9}]}`, `{"facts":[]}`,
		`{"relations":[{"subject":"user","predicate":"uses","object":3}]}`} {
		if r, err := llm.ParseExtractAnswer(bad); err == nil {
			t.Errorf("ParseExtractAnswer(%q) = %+v, want an error", bad, r)
		}
	}
	r, err := llm.ParseExtractAnswer(` {"entities":[],"relations":[]} `)
	if err != nil || len(r.Entities)+len(r.Relations)+len(r.Ended) != 0 {
		t.Fatalf("an empty answer: %+v, %v", r, err)
	}
}
