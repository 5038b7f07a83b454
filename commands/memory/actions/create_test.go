package actions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	"github.com/strata-platform/strata/domain/kernel"
)

func TestCalendarCreate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	out, err := e.svc.CreateEvent(ctx, owner, actions.CalendarEvent{Title: "Board review", Start: "2025-03-04T10:00:00+01:00",
		End: "2025-03-04T11:00:00+01:00", Description: "Q1", Attendees: []string{"bob@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.ID == "" || !strings.HasPrefix(out.HTMLLink, "https://www.google.com/calendar/event?eid=") {
		t.Fatalf("%+v", out)
	}
	calls := e.google.Calls(http.MethodPost, "/calendar/v3/calendars/primary/events")
	if len(calls) != 1 || calls[0].Query != "sendUpdates=all" || calls[0].Header.Get("Authorization") != "Bearer "+googleToken {
		t.Fatalf("calls %+v", calls)
	}
	var body struct {
		Summary, Description string
		Start, End           map[string]string
		Attendees            []map[string]string
	}
	if err := json.Unmarshal(calls[0].Body, &body); err != nil || body.Summary != "Board review" ||
		body.Start["dateTime"] != "2025-03-04T10:00:00+01:00" || body.End["dateTime"] != "2025-03-04T11:00:00+01:00" ||
		body.Attendees[0]["email"] != "bob@example.com" {
		t.Fatalf("body %s", calls[0].Body)
	}
	if _, err := e.svc.CreateEvent(ctx, owner, actions.CalendarEvent{Title: "Offsite", Start: "2025-03-10", End: "2025-03-12"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.CreateEvent(ctx, owner, actions.CalendarEvent{Title: "x", Start: "2025-03-10T09:00:00Z", End: "2025-03-10T10:00:00Z",
		CalendarID: "other@group.calendar.google.com"})
	kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused)
	evs := e.recorded(t, owner)
	if len(evs) != 3 || evs[0].ResultID != out.ID || evs[0].URL != out.HTMLLink || evs[0].Target != "primary" || evs[2].Outcome != "refused" {
		t.Fatalf("events %+v", evs)
	}
	cases := []struct {
		in          actions.CalendarEvent
		field, rule string
	}{
		{actions.CalendarEvent{Start: "2025-03-10", End: "2025-03-11"}, "title", "required"},
		{actions.CalendarEvent{Title: "x", Start: "2025-03-10T09:00:00", End: "2025-03-10T10:00:00Z"}, "start", "datetime_offset"},
		{actions.CalendarEvent{Title: "x", Start: "next tuesday", End: "2025-03-10T10:00:00Z"}, "start", "datetime"},
		{actions.CalendarEvent{Title: "x", Start: "2025-03-10T09:00:00Z", End: "2025-03-10T09:00:00Z"}, "end", "after_start"},
		{actions.CalendarEvent{Title: "x", Start: "2025-03-10", End: "2025-03-10T10:00:00Z"}, "end", "same_form"},
		{actions.CalendarEvent{Title: "x", Start: "2025-03-10", End: "2025-03-11", Attendees: []string{"bob"}}, "attendees[0]", "email"},
	}
	for _, c := range cases {
		_, err := e.svc.CreateEvent(ctx, owner, c.in)
		invalid(t, err, c.field, c.rule)
	}
	e.noTokens(t)
}

func TestIssuesCreate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	out, err := e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/web", Title: "Login breaks", Body: "**Steps**", Labels: []string{"bug"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Number != 1 || out.HTMLURL != "https://github.com/acme/web/issues/1" || !strings.Contains(out.Message, "#1") {
		t.Fatalf("%+v", out)
	}
	calls := e.github.Calls(http.MethodPost, "/repos/acme/web/issues")
	if len(calls) != 1 || calls[0].Header.Get("X-GitHub-Api-Version") != "2022-11-28" ||
		calls[0].Header.Get("Accept") != "application/vnd.github+json" || !strings.Contains(string(calls[0].Body), `"labels":["bug"]`) {
		t.Fatalf("calls %+v", calls)
	}
	_, err = e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/missing", Title: "x"})
	if ke := kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused); !strings.Contains(ke.Message, "Not Found") {
		t.Fatal(ke.Message)
	}
	// The primary rate limit spent: 403 with x-ratelimit-remaining 0 is transient.
	e.github.FailNext(http.MethodPost, "/repos/acme/web/issues", actiontest.Failure{Status: 403,
		Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800"},
		Body:   `{"message":"API rate limit exceeded for user ID 583231."}`})
	_, err = e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/web", Title: "x"})
	kindOf(t, err, kernel.KindUnavailable, actions.CodeProviderBusy)
	// A 500 to a POST: the issue may exist; not retried.
	e.github.FailNext(http.MethodPost, "/repos/acme/web/issues", actiontest.GitHubError(500, "Server Error"))
	_, err = e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/web", Title: "x"})
	kindOf(t, err, kernel.KindBadGateway, actions.CodeOutcomeUnknown)
	evs := e.recorded(t, owner)
	if len(evs) != 4 || evs[0].ResultID != "1" || evs[0].URL != out.HTMLURL || evs[1].Reason != "Not Found" {
		t.Fatalf("events %+v", evs)
	}
	for _, c := range []struct{ repo, rule string }{{"acme", "repo"}, {"-acme/web", "repo"}, {"acme/..", "repo"},
		{"acme/we b", "single_line"}, {strings.Repeat("a", 40) + "/web", "repo"}} {
		_, err := e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: c.repo, Title: "x"})
		if c.rule == "single_line" {
			invalid(t, err, "repo", "repo")
			continue
		}
		invalid(t, err, "repo", c.rule)
	}
	_, err = e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/web", Title: strings.Repeat("t", 257)})
	invalid(t, err, "title", "max_length:256")
	e.noTokens(t)
}

const (
	pageID = "0f1e2d3c4b5a49688776655443322110"
	dbID   = "11111111-2222-4333-8444-555555555555"
)

func TestNotesPage(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.notion.AddPage(pageID)
	e.notion.AddDatabase(dbID, "Name")
	content := "# Plan\n\nIntro line one\nline two\n\n- a\n- b\n1. first\n```go\nfmt.Println(1)\n```\n" + strings.Repeat("p\n\n", 150)
	out, err := e.svc.CreatePage(ctx, owner, actions.Page{ParentID: pageID, Title: "Q1 plan", Content: content})
	if err != nil {
		t.Fatal(err)
	}
	if out.ID == "" || !strings.HasPrefix(out.URL, "https://www.notion.so/") {
		t.Fatalf("%+v", out)
	}
	blocks := e.notion.Children(out.ID)
	if len(blocks) != 156 || blocks[0]["type"] != "heading_1" || blocks[5]["type"] != "code" {
		t.Fatalf("%d blocks: %v", len(blocks), blocks[:7])
	}
	if n := len(e.notion.Calls(http.MethodPatch, "/v1/blocks/"+out.ID+"/children")); n != 1 {
		t.Fatalf("%d appends", n)
	}
	var sent struct {
		Parent     map[string]string `json:"parent"`
		Properties map[string]any    `json:"properties"`
	}
	_ = json.Unmarshal(e.notion.Calls(http.MethodPost, "/v1/pages")[0].Body, &sent)
	if sent.Parent["page_id"] != pageID || sent.Properties["title"] == nil {
		t.Fatalf("page body %+v", sent)
	}
	// Under a database: the title goes to its title property.
	if _, err := e.svc.CreatePage(ctx, owner, actions.Page{ParentID: dbID, Title: "Row", Content: "text"}); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(e.notion.Calls(http.MethodPost, "/v1/pages")[1].Body, &sent)
	if sent.Parent["database_id"] != dbID || sent.Properties["Name"] == nil {
		t.Fatalf("database page body %+v", sent)
	}
	// Not shared with the integration: Notion's 404, refused.
	_, err = e.svc.CreatePage(ctx, owner, actions.Page{ParentID: strings.Repeat("9", 32), Title: "x"})
	if ke := kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused); !strings.Contains(ke.Message, "object_not_found") {
		t.Fatal(ke.Message)
	}
	// Notion's 409 conflict_error: nothing written, retry later.
	e.notion.FailNext(http.MethodPost, "/v1/pages", actiontest.NotionError(409, "conflict_error", "Transaction could not be completed."))
	_, err = e.svc.CreatePage(ctx, owner, actions.Page{ParentID: pageID, Title: "x"})
	kindOf(t, err, kernel.KindUnavailable, actions.CodeProviderBusy)
	_, err = e.svc.CreatePage(ctx, owner, actions.Page{ParentID: "https://notion.so/x", Title: "x"})
	invalid(t, err, "parent_id", "uuid")
	_, err = e.svc.CreatePage(ctx, owner, actions.Page{ParentID: pageID, Title: "x", Content: strings.Repeat("p\n\n", 1001)})
	invalid(t, err, "content", "max_blocks:1000")
	evs := e.recorded(t, owner)
	if len(evs) != 4 || evs[0].ResultID != out.ID || evs[0].URL != out.URL || evs[0].Kind != "notes" || evs[0].Action != "page" {
		t.Fatalf("events %+v", evs)
	}
	e.noTokens(t)
}

func TestNotesPartialAppendIsReported(t *testing.T) {
	e := newEnv(t)
	e.notion.AddPage(pageID)
	e.notion.FailNext(http.MethodPatch, "/v1/blocks/d3d3d3d3-0000-4000-8000-000000000001/children",
		actiontest.NotionError(400, "validation_error", "bad block"))
	_, err := e.svc.CreatePage(context.Background(), owner, actions.Page{ParentID: pageID, Title: "x", Content: strings.Repeat("p\n\n", 120)})
	ke := kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused)
	if !strings.Contains(ke.Message, "was created, but only 100 of 120 blocks") {
		t.Fatal(ke.Message)
	}
	evs := e.recorded(t, owner)
	if len(evs) != 1 || evs[0].Outcome != "refused" || evs[0].ResultID != "d3d3d3d3-0000-4000-8000-000000000001" {
		t.Fatalf("events %+v", evs)
	}
}
