package actions

import (
	"strconv"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

// ChatSend is POST /actions/chat/send.
type ChatSend struct {
	Channel  string // a channel id or name (with or without '#')
	Message  string
	ThreadTS string // optional: the ts of the thread's parent message
}

// ChatSent is what the chat provider confirmed.
type ChatSent struct {
	ActionID string
	TS       string
	Channel  string // the channel id the message is in
	Message  string // the text as the provider stored it
}

// Check validates the request.
func (in *ChatSend) Check() error {
	in.Channel = strings.TrimSpace(in.Channel)
	if err := checkChannel("channel", in.Channel); err != nil {
		return err
	}
	if err := checkText("message", in.Message, true, 40000, false); err != nil {
		return err
	}
	if in.ThreadTS != "" && !slackTS.MatchString(in.ThreadTS) {
		return kernel.Invalid("thread_ts", "ts", "thread_ts must be a message ts (1712345678.123456)")
	}
	return nil
}

// MailReply is POST /actions/mail/reply.
type MailReply struct {
	ThreadID string
	Body     string // plain text, or HTML (detected)
	Cc       []string
}

// MailReplied is the sent reply.
type MailReplied struct {
	ActionID string
	ID       string // the message id
	ThreadID string
	Message  string // what was done, for a person
}

// Check validates the request.
func (in *MailReply) Check() error {
	in.ThreadID = strings.TrimSpace(in.ThreadID)
	if err := checkText("thread_id", in.ThreadID, true, 64, true); err != nil {
		return err
	}
	if !gmailID.MatchString(in.ThreadID) {
		return kernel.Invalid("thread_id", "thread_id", "thread_id must be a mail thread id (hexadecimal)")
	}
	if err := checkText("body", in.Body, true, 200000, false); err != nil {
		return err
	}
	return checkList("cc", in.Cc, 50, checkEmail)
}

// CalendarEvent is POST /actions/calendar/create.
type CalendarEvent struct {
	Title       string
	Start, End  string // RFC 3339 date-times with offsets, or both dates (an all-day event)
	Description string
	Attendees   []string
	CalendarID  string // "" : primary

	start, end time.Time
	allDay     bool
}

// CalendarCreated is the created event.
type CalendarCreated struct {
	ActionID string
	ID       string
	HTMLLink string
	Message  string
}

// Check validates the request.
func (in *CalendarEvent) Check() error {
	if err := checkText("title", in.Title, true, 1024, true); err != nil {
		return err
	}
	var err error
	if in.start, in.allDay, err = parseWhen("start", in.Start); err != nil {
		return err
	}
	var endDay bool
	if in.end, endDay, err = parseWhen("end", in.End); err != nil {
		return err
	}
	if endDay != in.allDay {
		return kernel.Invalid("end", "same_form", "start and end must both be dates or both be date-times")
	}
	if !in.end.After(in.start) {
		return kernel.Invalid("end", "after_start", "end must be after start")
	}
	if err := checkText("description", in.Description, false, 8000, false); err != nil {
		return err
	}
	if err := checkList("attendees", in.Attendees, 100, checkEmail); err != nil {
		return err
	}
	in.CalendarID = strings.TrimSpace(in.CalendarID)
	if in.CalendarID == "" {
		in.CalendarID = "primary"
	}
	if err := checkText("calendar_id", in.CalendarID, true, 255, true); err != nil {
		return err
	}
	if strings.ContainsAny(in.CalendarID, " /?#") {
		return kernel.Invalid("calendar_id", "calendar_id", "calendar_id must be primary or a calendar id (name@group.calendar.google.com)")
	}
	return nil
}

// parseWhen reads an ISO 8601 date-time with its offset (RFC 3339) or a
// date, between the years 1900 and 2100.
func parseWhen(field, s string) (time.Time, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, kernel.Invalid(field, "required", field+" is required")
	}
	var (
		t   time.Time
		err error
		day = dateOnly.MatchString(s)
	)
	if day {
		t, err = time.Parse(time.DateOnly, s)
	} else {
		t, err = time.Parse(time.RFC3339, s)
	}
	if err != nil {
		if _, e := time.Parse("2006-01-02T15:04:05", strings.SplitN(s, ".", 2)[0]); e == nil {
			return time.Time{}, false, kernel.Invalid(field, "datetime_offset", field+" needs its UTC offset (2025-03-01T09:00:00+01:00 or ...Z)")
		}
		return time.Time{}, false, kernel.Invalid(field, "datetime", field+" must be an ISO 8601 date-time with offset (2025-03-01T09:00:00+01:00) or a date (2025-03-01)")
	}
	if y := t.Year(); y < 1900 || y > 2100 {
		return time.Time{}, false, kernel.Invalid(field, "range:1900-2100", field+" must be within the years 1900 to 2100")
	}
	return t, day, nil
}

// Issue is POST /actions/issues/create.
type Issue struct {
	Repo   string // owner/repo
	Title  string
	Body   string // markdown
	Labels []string

	owner, repo string
}

// IssueCreated is the created issue.
type IssueCreated struct {
	ActionID string
	Number   int
	HTMLURL  string
	Message  string
}

// Check validates the request.
func (in *Issue) Check() error {
	in.Repo = strings.TrimSpace(in.Repo)
	var err error
	if in.owner, in.repo, err = checkRepo("repo", in.Repo); err != nil {
		return err
	}
	if err := checkText("title", in.Title, true, 256, true); err != nil {
		return err
	}
	if err := checkText("body", in.Body, false, 65536, false); err != nil {
		return err
	}
	return checkList("labels", in.Labels, 100, checkLabel)
}

// Page is POST /actions/notes/page.
type Page struct {
	ParentID string // a page or database id
	Title    string
	Content  string // plain text or markdown

	blocks []Block
}

// PageCreated is the created page.
type PageCreated struct {
	ActionID string
	ID       string
	URL      string
	Message  string
}

// Check validates the request.
func (in *Page) Check() error {
	in.ParentID = strings.TrimSpace(in.ParentID)
	if err := checkText("parent_id", in.ParentID, true, 36, true); err != nil {
		return err
	}
	if !notionID.MatchString(in.ParentID) {
		return kernel.Invalid("parent_id", "uuid", "parent_id must be a page or database id (a UUID, with or without hyphens)")
	}
	if err := checkText("title", in.Title, true, 2000, true); err != nil {
		return err
	}
	if err := checkText("content", in.Content, false, 100000, false); err != nil {
		return err
	}
	in.blocks = Blocks(in.Content)
	if len(in.blocks) > MaxBlocks {
		return kernel.Invalid("content", "max_blocks:"+strconv.Itoa(MaxBlocks),
			"content makes "+strconv.Itoa(len(in.blocks))+" blocks; a page may have at most "+strconv.Itoa(MaxBlocks))
	}
	return nil
}
