package actions_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
)

// TestOAuthDialects runs each provider's authorization URL, code
// exchange, refresh, identity and revocation against its fake.
func TestOAuthDialects(t *testing.T) {
	ctx := context.Background()
	d := http.DefaultClient
	slack := actiontest.NewSlack(t, slackToken)
	google := actiontest.NewGoogle(t, googleToken, mailbox)
	github := actiontest.NewGitHub(t, githubToken)
	notion := actiontest.NewNotion(t, notionToken)
	cases := []struct {
		p         connections.Provider
		token     string
		id        string
		authQuery []string
	}{
		{actions.NewChat(slack.Settings(), d), slackToken, "U0ANA", []string{"user_scope=chat%3Awrite"}},
		{actions.NewMail(google.Settings(), d), googleToken, mailbox, []string{"access_type=offline", "code_challenge_method=S256",
			"gmail.send", "gmail.readonly"}},
		{actions.NewCalendar(google.Settings(), d), googleToken, "110000000000000000001", []string{"calendar.events", "prompt=consent"}},
		{actions.NewIssues(github.Settings(), d), githubToken, "583231", []string{"scope=repo", "code_challenge="}},
		{actions.NewNotes(notion.Settings(), d), notionToken, "a1a1a1a1-0000-4000-8000-000000000002", []string{"owner=user", "response_type=code"}},
	}
	for _, c := range cases {
		t.Run(c.p.Name(), func(t *testing.T) {
			u := c.p.AuthCodeURL("st4te", "https://strata.test/cb", "chall")
			for _, want := range append(c.authQuery, "state=st4te", "client_id="+actiontest.ClientID,
				"redirect_uri="+url.QueryEscape("https://strata.test/cb")) {
				if !strings.Contains(u, want) {
					t.Fatalf("%s lacks %s", u, want)
				}
			}
			tok, err := c.p.Exchange(ctx, actiontest.Code, "https://strata.test/cb", "verifier")
			if err != nil || tok.AccessToken != c.token {
				t.Fatalf("exchange: %+v %v", tok, err)
			}
			_, err = c.p.Exchange(ctx, "bad-code", "https://strata.test/cb", "verifier")
			if connections.ClassOf(err) != connections.Refused {
				t.Fatalf("bad code: %v", err)
			}
			id, err := c.p.Identify(ctx, tok)
			if err != nil || id.ID != c.id || id.Handle == "" {
				t.Fatalf("identify: %+v %v", id, err)
			}
			if err := c.p.Revoke(ctx, tok); err != nil {
				t.Fatalf("revoke: %v", err)
			}
			if c.p.Name() == actions.ProviderNotes {
				return // the fake's integration tokens do not expire
			}
			r, err := c.p.Refresh(ctx, connections.Tokens{AccessToken: "old", RefreshToken: actiontest.Refresh})
			if err != nil || r.AccessToken != c.token || r.RefreshToken == "" || r.Expiry.IsZero() {
				t.Fatalf("refresh: %+v %v", r, err)
			}
			_, err = c.p.Refresh(ctx, connections.Tokens{RefreshToken: "revoked"})
			if connections.ClassOf(err) != connections.Unauthorized {
				t.Fatalf("refused refresh: %v", err)
			}
		})
	}
	// Notion answers a missing revoke endpoint with 404: ErrNoRevoke.
	notion.FailNext(http.MethodPost, "/v1/oauth/revoke", actiontest.NotionError(404, "object_not_found", "no"))
	if err := actions.NewNotes(notion.Settings(), d).Revoke(ctx, connections.Tokens{AccessToken: notionToken}); !errors.Is(err, connections.ErrNoRevoke) {
		t.Fatal(err)
	}
}

func TestBlocks(t *testing.T) {
	md := "## Goals\n### Sub\n#### Deep\nplain\ncontinued\n\n* star\n+ plus\n2) two\n> quoted\n---\n~~~js\nlet a\n\nlet b\n~~~\n```nolang\nx\n```"
	var kinds []string
	for _, b := range actions.Blocks(md) {
		kinds = append(kinds, b["type"].(string))
	}
	want := "heading_2 heading_3 heading_3 paragraph bulleted_list_item bulleted_list_item numbered_list_item quote divider code code"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("kinds %s", got)
	}
	b := actions.Blocks(md)
	code := b[9]["code"].(map[string]any)
	if code["language"] != "javascript" || b[10]["code"].(map[string]any)["language"] != "plain text" {
		t.Fatalf("languages %v", code)
	}
	if text := code["rich_text"].([]map[string]any)[0]["text"].(map[string]any)["content"]; text != "let a\n\nlet b" {
		t.Fatalf("code %q", text)
	}
	// Long text: rich text objects of at most 2000 UTF-16 units, no
	// character split, and a new block past 100 objects.
	long := strings.Repeat("😀", 1500) + strings.Repeat("word ", 41000)
	blocks := actions.Blocks(long)
	var joined strings.Builder
	for _, bl := range blocks {
		for _, r := range bl["paragraph"].(map[string]any)["rich_text"].([]map[string]any) {
			s := r["text"].(map[string]any)["content"].(string)
			if n := len(utf16.Encode([]rune(s))); n > actions.MaxRichText {
				t.Fatalf("a rich text of %d units", n)
			}
			joined.WriteString(s)
		}
	}
	if len(blocks) != 2 || joined.String() != long {
		t.Fatalf("%d blocks; text kept: %v", len(blocks), joined.String() == long)
	}
}
