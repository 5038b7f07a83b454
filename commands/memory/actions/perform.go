package actions

import (
	"context"
	"strconv"

	"github.com/strata-platform/strata/commands/connections"
	"github.com/strata-platform/strata/domain/memory"
)

// SendChat sends a chat message as owner (POST /actions/chat/send).
func (s *Service) SendChat(ctx context.Context, owner string, in ChatSend) (ChatSent, error) {
	if err := in.Check(); err != nil {
		return ChatSent{}, err
	}
	var out ChatSent
	a := act{kind: ProviderChat, action: memory.ActionSend, target: in.Channel, configured: s.ad.Chat != nil}
	if a.configured {
		a.label = s.ad.Chat.Label()
		a.do = func(ctx context.Context, t connections.Tokens, _ connections.Identity) (done, error) {
			var err error
			out, err = s.ad.Chat.Send(ctx, t, in)
			return done{id: out.TS, ref: out.Channel}, err
		}
	}
	id, _, err := s.run(ctx, owner, a)
	out.ActionID = id
	return out, err
}

// ReplyMail replies in a mail thread as owner (POST /actions/mail/reply).
func (s *Service) ReplyMail(ctx context.Context, owner string, in MailReply) (MailReplied, error) {
	if err := in.Check(); err != nil {
		return MailReplied{}, err
	}
	var out MailReplied
	a := act{kind: ProviderMail, action: memory.ActionReply, target: in.ThreadID, configured: s.ad.Mail != nil}
	if a.configured {
		a.label = s.ad.Mail.Label()
		a.do = func(ctx context.Context, t connections.Tokens, acct connections.Identity) (done, error) {
			var err error
			out, err = s.ad.Mail.Reply(ctx, t, acct, in)
			return done{id: out.ID, ref: out.ThreadID}, err
		}
	}
	id, _, err := s.run(ctx, owner, a)
	out.ActionID = id
	return out, err
}

// CreateEvent creates a calendar event as owner (POST
// /actions/calendar/create).
func (s *Service) CreateEvent(ctx context.Context, owner string, in CalendarEvent) (CalendarCreated, error) {
	if err := in.Check(); err != nil {
		return CalendarCreated{}, err
	}
	var out CalendarCreated
	a := act{kind: ProviderCalendar, action: memory.ActionCreate, target: in.CalendarID, configured: s.ad.Calendar != nil}
	if a.configured {
		a.label = s.ad.Calendar.Label()
		a.do = func(ctx context.Context, t connections.Tokens, _ connections.Identity) (done, error) {
			var err error
			out, err = s.ad.Calendar.Create(ctx, t, in)
			return done{id: out.ID, url: out.HTMLLink}, err
		}
	}
	id, _, err := s.run(ctx, owner, a)
	out.ActionID = id
	return out, err
}

// CreateIssue opens an issue as owner (POST /actions/issues/create).
func (s *Service) CreateIssue(ctx context.Context, owner string, in Issue) (IssueCreated, error) {
	if err := in.Check(); err != nil {
		return IssueCreated{}, err
	}
	var out IssueCreated
	a := act{kind: ProviderIssues, action: memory.ActionCreate, target: in.Repo, configured: s.ad.Issues != nil}
	if a.configured {
		a.label = s.ad.Issues.Label()
		a.do = func(ctx context.Context, t connections.Tokens, _ connections.Identity) (done, error) {
			var err error
			out, err = s.ad.Issues.Create(ctx, t, in)
			d := done{url: out.HTMLURL}
			if out.Number > 0 {
				d.id = strconv.Itoa(out.Number)
			}
			return d, err
		}
	}
	id, _, err := s.run(ctx, owner, a)
	out.ActionID = id
	return out, err
}

// CreatePage writes a notes page as owner (POST /actions/notes/page).
func (s *Service) CreatePage(ctx context.Context, owner string, in Page) (PageCreated, error) {
	if err := in.Check(); err != nil {
		return PageCreated{}, err
	}
	var out PageCreated
	a := act{kind: ProviderNotes, action: memory.ActionPage, target: in.ParentID, configured: s.ad.Notes != nil}
	if a.configured {
		a.label = s.ad.Notes.Label()
		a.do = func(ctx context.Context, t connections.Tokens, _ connections.Identity) (done, error) {
			var err error
			out, err = s.ad.Notes.Create(ctx, t, in)
			return done{id: out.ID, url: out.URL}, err
		}
	}
	id, _, err := s.run(ctx, owner, a)
	out.ActionID = id
	return out, err
}
