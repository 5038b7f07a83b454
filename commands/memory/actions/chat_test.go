package actions_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory"
)

func TestChatSendByNameAndID(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	out, err := e.svc.SendChat(ctx, owner, actions.ChatSend{Channel: "#general", Message: "ship it <now> & then", ThreadTS: "1700000000.000001"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Channel != "C0GENERAL" || out.TS == "" || out.Message != "ship it &lt;now&gt; &amp; then" || out.ActionID == "" {
		t.Fatalf("sent %+v", out)
	}
	calls := e.slack.Calls(http.MethodPost, "/api/chat.postMessage")
	if len(calls) != 1 || calls[0].Header.Get("Authorization") != "Bearer "+slackToken {
		t.Fatalf("calls %+v", calls)
	}
	var body map[string]string
	if err := json.Unmarshal(calls[0].Body, &body); err != nil || body["channel"] != "#general" || body["thread_ts"] != "1700000000.000001" {
		t.Fatalf("body %s", calls[0].Body)
	}
	if _, err := e.svc.SendChat(ctx, owner, actions.ChatSend{Channel: "C0RANDOM", Message: "hi"}); err != nil {
		t.Fatal(err)
	}
	evs := e.recorded(t, owner)
	if len(evs) != 2 || evs[0].ActionID != out.ActionID || evs[0].Kind != "chat" || evs[0].Action != "send" ||
		evs[0].Target != "#general" || evs[0].Outcome != memory.OutcomeOK || evs[0].ResultID != out.TS || evs[0].ResultRef != "C0GENERAL" {
		t.Fatalf("events %+v", evs[0])
	}
	e.noTokens(t)
}

func TestChatValidation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cases := []struct {
		in          actions.ChatSend
		field, rule string
	}{
		{actions.ChatSend{Message: "x"}, "channel", "required"},
		{actions.ChatSend{Channel: "General Chat", Message: "x"}, "channel", "channel"},
		{actions.ChatSend{Channel: "general"}, "message", "required"},
		{actions.ChatSend{Channel: "general", Message: "a\x00b"}, "message", "no_nul"},
		{actions.ChatSend{Channel: "general", Message: "x", ThreadTS: "yesterday"}, "thread_ts", "ts"},
		{actions.ChatSend{Channel: "general", Message: strings.Repeat("x", 40001)}, "message", "max_length:40000"},
	}
	for _, c := range cases {
		_, err := e.svc.SendChat(ctx, owner, c.in)
		invalid(t, err, c.field, c.rule)
	}
	if len(e.slack.Requests()) != 0 || len(e.recorded(t, owner)) != 0 {
		t.Fatal("invalid input reached the provider or was recorded")
	}
}

func TestChatFailures(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	send := func() error {
		_, err := e.svc.SendChat(ctx, owner, actions.ChatSend{Channel: "general", Message: "hi"})
		return err
	}
	// channel_not_found (HTTP 200 ok:false): refused, 422, the reason shown.
	_, err := e.svc.SendChat(ctx, owner, actions.ChatSend{Channel: "nowhere", Message: "hi"})
	if ke := kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused); !strings.Contains(ke.Message, "channel_not_found") {
		t.Fatal(ke.Message)
	}
	// ratelimited with Retry-After: unavailable, retry later.
	e.slack.FailNext(http.MethodPost, "/api/chat.postMessage", actiontest.Failure{Status: http.StatusTooManyRequests,
		Header: map[string]string{"Retry-After": "30"}, Body: `{"ok":false,"error":"ratelimited"}`})
	err = send()
	kindOf(t, err, kernel.KindUnavailable, actions.CodeProviderBusy)
	var f *actions.Failed
	if !errors.As(err, &f) || f.RetryAfter != 30*time.Second {
		t.Fatalf("retry after: %v", err)
	}
	// fatal_error: the outcome is unknown, 502, not retried.
	e.slack.FailNext(http.MethodPost, "/api/chat.postMessage", actiontest.SlackError("fatal_error"))
	kindOf(t, send(), kernel.KindBadGateway, actions.CodeOutcomeUnknown)
	// a dropped connection after the request was sent: 504, not retried.
	e.slack.FailNext(http.MethodPost, "/api/chat.postMessage", actiontest.Failure{Drop: true})
	kindOf(t, send(), kernel.KindTimeout, actions.CodeOutcomeUnknown)
	if n := len(e.slack.Calls(http.MethodPost, "/api/chat.postMessage")); n != 4 {
		t.Fatalf("%d calls: a failed send was retried", n)
	}
	// token_revoked: reconnect, reported to the store.
	e.slack.FailNext(http.MethodPost, "/api/chat.postMessage", actiontest.SlackError("token_revoked"))
	ke := kindOf(t, send(), kernel.KindConflict, actions.CodeReconnectRequired)
	if !strings.Contains(ke.Message, "reconnect the chat provider") {
		t.Fatal(ke.Message)
	}
	if r := e.tokens.reported(); len(r) != 1 || r[0] != owner+"/chat unauthorized" {
		t.Fatalf("reports %v", r)
	}
	outcomes := []string{}
	for _, ev := range e.recorded(t, owner) {
		outcomes = append(outcomes, ev.Outcome+":"+ev.Reason)
	}
	want := "refused:channel_not_found transient:ratelimited unconfirmed:fatal_error unconfirmed:sent, no answer: EOF unauthorized:token_revoked"
	if got := strings.Join(outcomes, " "); got != want {
		t.Fatalf("outcomes %q\nwant     %q", got, want)
	}
	e.noTokens(t)
}

func TestExpiredTokenAndNotConnected(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.tokens.connect(owner, actions.ProviderChat, actiontest.Expired, connections.Identity{})
	_, err := e.svc.SendChat(ctx, owner, actions.ChatSend{Channel: "general", Message: "hi"})
	kindOf(t, err, kernel.KindConflict, actions.CodeReconnectRequired)
	e.tokens.connect(owner, actions.ProviderIssues, actiontest.Expired, connections.Identity{})
	_, err = e.svc.CreateIssue(ctx, owner, actions.Issue{Repo: "acme/web", Title: "t"})
	kindOf(t, err, kernel.KindConflict, actions.CodeReconnectRequired)
	if r := e.tokens.reported(); len(r) != 2 {
		t.Fatalf("reports %v", r)
	}
	// Another user has connected nothing.
	_, err = e.svc.SendChat(ctx, "user-bob", actions.ChatSend{Channel: "general", Message: "hi"})
	if ke := kindOf(t, err, kernel.KindConflict, actions.CodeNotConnected); !strings.Contains(ke.Message, "chat") {
		t.Fatal(ke.Message)
	}
	if len(e.recorded(t, "user-bob")) != 0 {
		t.Fatal("an action that was not attempted was recorded")
	}
}

func TestNotConfigured(t *testing.T) {
	e := newEnv(t)
	svc := actions.New(e.store, e.tokens, actions.Adapters{}, kernel.SystemClock{}, kernel.FixedIDs(), nil)
	_, err := svc.CreatePage(context.Background(), owner, actions.Page{ParentID: strings.Repeat("a", 32), Title: "t"})
	if ke := kindOf(t, err, kernel.KindUnavailable, ""); !strings.Contains(ke.Message, "notes") {
		t.Fatal(ke.Message)
	}
	if len(svc.Providers()) != 0 || len(e.svc.Providers()) != 5 {
		t.Fatal("providers")
	}
}
