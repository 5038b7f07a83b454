package actions_test

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/commands/memory/actions/actiontest"
	"github.com/strata-platform/strata/domain/kernel"
)

// thread adds a thread whose last message came from Bob (replying to
// his list address), after one of Ana's and before a draft.
func thread(g *actiontest.Google) {
	g.AddThread("18c1f2a3b4c5d6e7",
		actiontest.Message{ID: "m1", Labels: []string{"SENT"}, Headers: [][2]string{{"Subject", "=?utf-8?q?Pr=C3=BCfung?= plan"},
			{"From", "Ana <" + mailbox + ">"}, {"To", "bob@example.com"}, {"Message-ID", "<m1@acme.test>"}}},
		actiontest.Message{ID: "m2", Labels: []string{"INBOX"}, Headers: [][2]string{{"Subject", "Re: =?utf-8?q?Pr=C3=BCfung?= plan"},
			{"From", "Bob <bob@example.com>"}, {"Reply-To", "Team List <team@example.com>"}, {"To", mailbox},
			{"Message-Id", "<m2@example.com>"}, {"References", "<m1@acme.test>"}}},
		actiontest.Message{ID: "m3", Labels: []string{"DRAFT"}, Headers: [][2]string{{"Subject", "draft"}, {"From", mailbox}}})
}

func sentMessage(t *testing.T, g *actiontest.Google) *mail.Message {
	t.Helper()
	sent := g.Sent()
	if len(sent) != 1 {
		t.Fatalf("%d sent", len(sent))
	}
	if !bytes.Contains(sent[0].Raw, []byte("\r\n")) {
		t.Fatal("lines do not end in CRLF")
	}
	m, err := mail.ReadMessage(bytes.NewReader(sent[0].Raw))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMailReplyPlain(t *testing.T) {
	e := newEnv(t)
	thread(e.google)
	out, err := e.svc.ReplyMail(context.Background(), owner, actions.MailReply{ThreadID: "18c1f2a3b4c5d6e7",
		Body: "Sounds good — Thursday works.\nAna", Cc: []string{"carl@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.ID == "" || out.ThreadID != "18c1f2a3b4c5d6e7" || !strings.Contains(out.Message, "team@example.com") {
		t.Fatalf("%+v", out)
	}
	get := e.google.Calls(http.MethodGet, "/gmail/v1/users/me/threads/18c1f2a3b4c5d6e7")
	if len(get) != 1 || !strings.Contains(get[0].Query, "format=metadata") || !strings.Contains(get[0].Query, "metadataHeaders=Reply-To") {
		t.Fatalf("thread read %+v", get)
	}
	m := sentMessage(t, e.google)
	h := m.Header
	dec := new(mime.WordDecoder)
	subject, _ := dec.DecodeHeader(h.Get("Subject"))
	to, _ := h.AddressList("To")
	cc, _ := h.AddressList("Cc")
	from, _ := h.AddressList("From")
	if subject != "Re: Prüfung plan" || len(to) != 1 || to[0].Address != "team@example.com" || len(cc) != 1 ||
		cc[0].Address != "carl@example.com" || from[0].Address != mailbox {
		t.Fatalf("headers %v (subject %q)", h, subject)
	}
	if h.Get("In-Reply-To") != "<m2@example.com>" || strings.Join(strings.Fields(h.Get("References")), " ") != "<m1@acme.test> <m2@example.com>" {
		t.Fatalf("threading headers %v", h)
	}
	mt, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	if mt != "text/plain" || params["charset"] != "utf-8" || h.Get("Content-Transfer-Encoding") != "quoted-printable" {
		t.Fatalf("content type %v", h)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(m.Body))
	if strings.ReplaceAll(string(body), "\r\n", "\n") != "Sounds good — Thursday works.\nAna" {
		t.Fatalf("body %q", body)
	}
	evs := e.recorded(t, owner)
	if len(evs) != 1 || evs[0].Kind != "mail" || evs[0].Action != "reply" || evs[0].ResultID != out.ID || evs[0].Target != out.ThreadID {
		t.Fatalf("event %+v", evs)
	}
	e.noTokens(t)
}

func TestMailReplyHTMLIsAlternative(t *testing.T) {
	e := newEnv(t)
	thread(e.google)
	html := "<p>Hello <b>Bob</b> &amp; team,</p><ul><li>one</li><li>two</li></ul>"
	if _, err := e.svc.ReplyMail(context.Background(), owner, actions.MailReply{ThreadID: "18c1f2a3b4c5d6e7", Body: html}); err != nil {
		t.Fatal(err)
	}
	m := sentMessage(t, e.google)
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q", m.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	var types, bodies []string
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		types = append(types, p.Header.Get("Content-Type"))
		bodies = append(bodies, string(b))
	}
	if len(types) != 2 || types[0] != "text/plain; charset=utf-8" || types[1] != "text/html; charset=utf-8" {
		t.Fatalf("parts %v", types)
	}
	plain := strings.ReplaceAll(bodies[0], "\r\n", "\n")
	if plain != "Hello Bob & team,\n- one\n- two\n" || bodies[1] != html {
		t.Fatalf("plain %q html %q", plain, bodies[1])
	}
}

func TestMailReplyToOwnMessageAndErrors(t *testing.T) {
	e := newEnv(t)
	e.google.AddThread("abc", actiontest.Message{ID: "m1", Headers: [][2]string{{"Subject", "Re: hi"},
		{"From", mailbox}, {"To", "Dee <dee@example.com>, eve@example.com"}, {"Message-ID", "<x@y>"}}})
	ctx := context.Background()
	if _, err := e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "abc", Body: "ping"}); err != nil {
		t.Fatal(err)
	}
	to, _ := sentMessage(t, e.google).Header.AddressList("To")
	if len(to) != 2 || to[0].Address != "dee@example.com" {
		t.Fatalf("to %v", to)
	}
	if s := sentMessage(t, e.google).Header.Get("Subject"); s != "Re: hi" {
		t.Fatalf("subject %q", s)
	}
	_, err := e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "ffff", Body: "x"})
	if ke := kindOf(t, err, kernel.KindUnprocessable, actions.CodeProviderRefused); !strings.Contains(ke.Message, "notFound") {
		t.Fatal(ke.Message)
	}
	_, err = e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "abc", Body: "x", Cc: []string{"Carl <carl@x.test>"}})
	invalid(t, err, "cc[0]", "email")
	_, err = e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "not a thread", Body: "x"})
	invalid(t, err, "thread_id", "thread_id")
	// An expired token: Google's 401, reconnect.
	e.tokens.connect(owner, actions.ProviderMail, actiontest.Expired, connections.Identity{})
	_, err = e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "abc", Body: "x"})
	kindOf(t, err, kernel.KindConflict, actions.CodeReconnectRequired)
	// Missing scopes: a 403 insufficientPermissions also asks to reconnect.
	e.tokens.connect(owner, actions.ProviderMail, googleToken, connections.Identity{ID: mailbox})
	e.google.FailNext(http.MethodGet, "/gmail/v1/users/me/threads/abc", actiontest.GoogleError(403, "insufficientPermissions",
		"Request had insufficient authentication scopes."))
	_, err = e.svc.ReplyMail(ctx, owner, actions.MailReply{ThreadID: "abc", Body: "x"})
	kindOf(t, err, kernel.KindConflict, actions.CodeReconnectRequired)
}
