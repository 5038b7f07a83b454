package memory

import (
	"errors"
	"net/http"

	"github.com/strata-platform/strata/commands/memory/actions"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/readapi/httpx"
)

// The write-back actions (POST /actions/...) act with the caller's
// connected provider accounts through Config.Actions. Every answer carries
// action_id (beyond the seed), the id of the memory.action_performed event
// recorded for it. Failures: invalid input 400 naming the field and rule;
// no connected account 409 (code not_connected) naming the provider kind;
// the account's authorization refused by the provider 409 (code
// reconnect_required); the provider refusing the action 422 with its
// reason; the provider unavailable or rate limiting 503 with Retry-After
// when it gave one (nothing was done); no confirmation from the provider
// 502 or 504 (code outcome_unknown: it may have been done and was not
// retried); Config.Actions nil 503.

type chatSendBody struct {
	Channel  string `json:"channel"`
	Message  string `json:"message"`
	ThreadTS string `json:"thread_ts"`
}

type chatSendResult struct {
	ActionID string `json:"action_id"`
	TS       string `json:"ts"`
	Channel  string `json:"channel"`
	Message  string `json:"message"`
}

type mailReplyBody struct {
	ThreadID string   `json:"thread_id"`
	Body     string   `json:"body"`
	Cc       []string `json:"cc"`
}

type mailReplyResult struct {
	ActionID string `json:"action_id"`
	ID       string `json:"id"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
}

type calendarBody struct {
	Title       string   `json:"title"`
	Start       string   `json:"start"`
	End         string   `json:"end"`
	Description string   `json:"description"`
	Attendees   []string `json:"attendees"`
	CalendarID  string   `json:"calendar_id"`
}

type calendarResult struct {
	ActionID string `json:"action_id"`
	ID       string `json:"id"`
	HTMLLink string `json:"html_link"`
	Message  string `json:"message"`
}

type issueBody struct {
	Repo   string   `json:"repo"`
	Title  string   `json:"title"`
	Body   string   `json:"body"`
	Labels []string `json:"labels"`
}

type issueResult struct {
	ActionID string `json:"action_id"`
	Number   int    `json:"number"`
	HTMLURL  string `json:"html_url"`
	Message  string `json:"message"`
}

type pageBody struct {
	ParentID string `json:"parent_id"`
	Title    string `json:"title"`
	Content  string `json:"content"`
}

type pageResult struct {
	ActionID string `json:"action_id"`
	ID       string `json:"id"`
	URL      string `json:"url"`
	Message  string `json:"message"`
}

// action serves one write-back action: the body decoded strictly into a
// B, then run with the caller as owner.
func action[B any](svc *actions.Service, run func(r *http.Request, svc *actions.Service, owner string, body B) (any, error)) func(http.ResponseWriter, *http.Request, caller) {
	return func(w http.ResponseWriter, r *http.Request, c caller) {
		if svc == nil {
			httpx.WriteError(w, r, kernel.Unavailable("write-back actions are not configured on this server", nil))
			return
		}
		var body B
		if err := httpx.DecodeJSON(r, &body); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		out, err := run(r, svc, c.UserID, body)
		if err != nil {
			writeActionError(w, r, err)
			return
		}
		_ = httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// writeActionError answers an action's failure, with the provider's
// Retry-After on a 503.
func writeActionError(w http.ResponseWriter, r *http.Request, err error) {
	var f *actions.Failed
	if errors.As(err, &f) && f.RetryAfter > 0 {
		err = &httpx.RetryAfter{After: f.RetryAfter, Err: err}
	}
	httpx.WriteError(w, r, err)
}

func (a *API) chatSend(svc *actions.Service) func(http.ResponseWriter, *http.Request, caller) {
	return action(svc, func(r *http.Request, svc *actions.Service, owner string, b chatSendBody) (any, error) {
		out, err := svc.SendChat(r.Context(), owner, actions.ChatSend{Channel: b.Channel, Message: b.Message, ThreadTS: b.ThreadTS})
		return chatSendResult{ActionID: out.ActionID, TS: out.TS, Channel: out.Channel, Message: out.Message}, err
	})
}

func (a *API) mailReply(svc *actions.Service) func(http.ResponseWriter, *http.Request, caller) {
	return action(svc, func(r *http.Request, svc *actions.Service, owner string, b mailReplyBody) (any, error) {
		out, err := svc.ReplyMail(r.Context(), owner, actions.MailReply{ThreadID: b.ThreadID, Body: b.Body, Cc: b.Cc})
		return mailReplyResult{ActionID: out.ActionID, ID: out.ID, ThreadID: out.ThreadID, Message: out.Message}, err
	})
}

func (a *API) calendarCreate(svc *actions.Service) func(http.ResponseWriter, *http.Request, caller) {
	return action(svc, func(r *http.Request, svc *actions.Service, owner string, b calendarBody) (any, error) {
		out, err := svc.CreateEvent(r.Context(), owner, actions.CalendarEvent{Title: b.Title, Start: b.Start, End: b.End,
			Description: b.Description, Attendees: b.Attendees, CalendarID: b.CalendarID})
		return calendarResult{ActionID: out.ActionID, ID: out.ID, HTMLLink: out.HTMLLink, Message: out.Message}, err
	})
}

func (a *API) issueCreate(svc *actions.Service) func(http.ResponseWriter, *http.Request, caller) {
	return action(svc, func(r *http.Request, svc *actions.Service, owner string, b issueBody) (any, error) {
		out, err := svc.CreateIssue(r.Context(), owner, actions.Issue{Repo: b.Repo, Title: b.Title, Body: b.Body, Labels: b.Labels})
		return issueResult{ActionID: out.ActionID, Number: out.Number, HTMLURL: out.HTMLURL, Message: out.Message}, err
	})
}

func (a *API) notesPage(svc *actions.Service) func(http.ResponseWriter, *http.Request, caller) {
	return action(svc, func(r *http.Request, svc *actions.Service, owner string, b pageBody) (any, error) {
		out, err := svc.CreatePage(r.Context(), owner, actions.Page{ParentID: b.ParentID, Title: b.Title, Content: b.Content})
		return pageResult{ActionID: out.ActionID, ID: out.ID, URL: out.URL, Message: out.Message}, err
	})
}
