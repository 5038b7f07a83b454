package actions

import (
	"context"
	"encoding/base64"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// Mail is the mail provider: Gmail, through Google's OAuth (scopes
// gmail.send and gmail.readonly, a connection of its own). A reply reads
// the thread's headers, builds an RFC 5322 reply to its last message and
// sends it with users.messages.send in the same thread.
type Mail struct{ google }

func gmailDefaults() connections.Settings {
	return connections.Settings{
		AuthURL: connections.GoogleAuthURL, TokenURL: connections.GoogleTokenURL, RevokeURL: connections.GoogleRevokeURL,
		APIBase: "https://gmail.googleapis.com",
		Scopes:  []string{"https://www.googleapis.com/auth/gmail.send", "https://www.googleapis.com/auth/gmail.readonly"},
		Env:     "STRATA_MAIL_",
	}
}

// NewMail returns the mail provider over s (empty URLs: Google's) calling
// through d.
func NewMail(s connections.Settings, d connections.Doer) *Mail {
	return &Mail{google{base{name: ProviderMail, label: "the mail provider (Gmail)", s: s.WithDefaults(gmailDefaults()), d: d}}}
}

// Identify implements connections.Provider with users.getProfile: the
// mailbox's address is its id and handle.
func (m *Mail) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var p struct {
		EmailAddress string `json:"emailAddress"`
	}
	if err := m.api(ctx, http.MethodGet, m.s.APIBase+"/gmail/v1/users/me/profile", t.AccessToken, nil, true, &p); err != nil {
		return connections.Identity{}, err
	}
	return connections.Identity{ID: p.EmailAddress, Handle: p.EmailAddress}, nil
}

// gmailThread is users.threads.get with format=metadata.
type gmailThread struct {
	ID       string `json:"id"`
	Messages []struct {
		ID       string   `json:"id"`
		LabelIDs []string `json:"labelIds"`
		Payload  struct {
			Headers []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"headers"`
		} `json:"payload"`
	} `json:"messages"`
}

// replyHeaders are the headers of the thread's message being replied to.
var replyHeaders = []string{"Subject", "From", "To", "Cc", "Message-ID", "References", "Reply-To"}

// Reply replies in.Body in thread in.ThreadID as acct (the connected
// address; looked up when the identity lacks it).
func (m *Mail) Reply(ctx context.Context, t connections.Tokens, acct connections.Identity, in MailReply) (MailReplied, error) {
	from := acct.ID
	if !strings.Contains(from, "@") {
		id, err := m.Identify(ctx, t)
		if err != nil {
			return MailReplied{}, err
		}
		from = id.ID
	}
	q := url.Values{"format": {"metadata"}, "metadataHeaders": replyHeaders}
	var th gmailThread
	u := m.s.APIBase + "/gmail/v1/users/me/threads/" + url.PathEscape(in.ThreadID) + "?" + q.Encode()
	if err := m.api(ctx, http.MethodGet, u, t.AccessToken, nil, true, &th); err != nil {
		return MailReplied{}, err
	}
	last := map[string]string{}
	found := false
	for _, msg := range th.Messages {
		if contains(msg.LabelIDs, "DRAFT") {
			continue
		}
		found = true
		clear(last)
		for _, h := range msg.Payload.Headers {
			last[strings.ToLower(h.Name)] = h.Value
		}
	}
	if !found {
		return MailReplied{}, connections.Fail(connections.Refused, 0, "the thread has no message to reply to")
	}
	msg, err := replyTo(last, from, in)
	if err != nil {
		return MailReplied{}, err
	}
	raw, err := msg.bytes(time.Now())
	if err != nil {
		return MailReplied{}, err
	}
	body := map[string]string{"raw": base64.URLEncoding.EncodeToString(raw), "threadId": in.ThreadID}
	var sent struct {
		ID       string `json:"id"`
		ThreadID string `json:"threadId"`
	}
	if err := m.api(ctx, http.MethodPost, m.s.APIBase+"/gmail/v1/users/me/messages/send", t.AccessToken, body, false, &sent); err != nil {
		return MailReplied{}, err
	}
	if sent.ThreadID == "" {
		sent.ThreadID = in.ThreadID
	}
	return MailReplied{ID: sent.ID, ThreadID: sent.ThreadID, Message: "reply sent to " + addressList(msg.To) + " in thread " + sent.ThreadID}, nil
}

// replyTo builds the reply to the message with headers h (lower-case
// names) from the address from: to its Reply-To, else its From; to its
// recipients when it is the sender's own message.
func replyTo(h map[string]string, from string, in MailReply) (*message, error) {
	self := &mail.Address{Address: from}
	to := parseList(h["reply-to"])
	if len(to) == 0 {
		to = parseList(h["from"])
	}
	if len(to) == 1 && strings.EqualFold(to[0].Address, from) {
		if rcpt := parseList(h["to"]); len(rcpt) > 0 {
			to = rcpt
		}
	}
	if len(to) == 0 {
		return nil, connections.Fail(connections.Refused, 0, "the last message of the thread has no sender address to reply to")
	}
	var cc []*mail.Address
	for _, c := range in.Cc {
		if !hasAddress(to, c) && !hasAddress(cc, c) {
			cc = append(cc, &mail.Address{Address: c})
		}
	}
	subject := strings.TrimSpace(h["subject"])
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = strings.TrimSpace("Re: " + subject)
	}
	id := strings.TrimSpace(h["message-id"])
	refs := strings.Fields(h["references"])
	if id != "" && !contains(refs, id) {
		refs = append(refs, id)
	}
	return &message{From: self, To: to, Cc: cc, Subject: subject, InReplyTo: id, References: refs, Body: in.Body}, nil
}

func parseList(v string) []*mail.Address {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	l, err := mail.ParseAddressList(v)
	if err != nil {
		return nil
	}
	return l
}

func hasAddress(l []*mail.Address, a string) bool {
	for _, x := range l {
		if strings.EqualFold(x.Address, a) {
			return true
		}
	}
	return false
}

func addressList(l []*mail.Address) string {
	parts := make([]string, len(l))
	for i, a := range l {
		parts[i] = a.Address
	}
	return strings.Join(parts, ", ")
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
