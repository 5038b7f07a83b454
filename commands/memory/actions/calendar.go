package actions

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/strata-platform/strata/commands/connections"
)

// Calendar is the calendar provider: Google Calendar, through Google's
// OAuth (scopes calendar.events, and openid email for the account's
// address: a connection of its own, apart from mail). It creates events
// with events.insert.
type Calendar struct{ google }

func calendarDefaults() connections.Settings {
	return connections.Settings{
		AuthURL: connections.GoogleAuthURL, TokenURL: connections.GoogleTokenURL, RevokeURL: connections.GoogleRevokeURL,
		APIBase: "https://www.googleapis.com",
		Scopes:  []string{"openid", "email", "https://www.googleapis.com/auth/calendar.events"},
		Env:     "STRATA_CALENDAR_",
	}
}

// NewCalendar returns the calendar provider over s (empty URLs: Google's)
// calling through d.
func NewCalendar(s connections.Settings, d connections.Doer) *Calendar {
	return &Calendar{google{base{name: ProviderCalendar, label: "the calendar provider (Google Calendar)",
		s: s.WithDefaults(calendarDefaults()), d: d}}}
}

// Identify implements connections.Provider with Google's userinfo
// endpoint (the openid and email scopes): the subject is the id, the
// address the handle.
func (c *Calendar) Identify(ctx context.Context, t connections.Tokens) (connections.Identity, error) {
	var u struct {
		Sub   string `json:"sub"`
		Email string `json:"email"`
	}
	if err := c.api(ctx, http.MethodGet, c.s.APIBase+"/oauth2/v3/userinfo", t.AccessToken, nil, true, &u); err != nil {
		return connections.Identity{}, err
	}
	return connections.Identity{ID: u.Sub, Handle: u.Email}, nil
}

// calendarTime is an event's start or end: a dateTime, or a date for an
// all-day event.
type calendarTime struct {
	DateTime string `json:"dateTime,omitempty"`
	Date     string `json:"date,omitempty"`
}

type attendee struct {
	Email string `json:"email"`
}

// Create inserts in (checked) into its calendar. Attendees are sent
// Google's invitations (sendUpdates=all).
func (c *Calendar) Create(ctx context.Context, t connections.Tokens, in CalendarEvent) (CalendarCreated, error) {
	ev := struct {
		Summary     string       `json:"summary"`
		Description string       `json:"description,omitempty"`
		Start       calendarTime `json:"start"`
		End         calendarTime `json:"end"`
		Attendees   []attendee   `json:"attendees,omitempty"`
	}{Summary: in.Title, Description: in.Description}
	if in.allDay {
		ev.Start.Date, ev.End.Date = in.start.Format(time.DateOnly), in.end.Format(time.DateOnly)
	} else {
		ev.Start.DateTime, ev.End.DateTime = in.start.Format(time.RFC3339), in.end.Format(time.RFC3339)
	}
	for _, a := range in.Attendees {
		ev.Attendees = append(ev.Attendees, attendee{Email: a})
	}
	u := c.s.APIBase + "/calendar/v3/calendars/" + url.PathEscape(in.CalendarID) + "/events"
	if len(in.Attendees) > 0 {
		u += "?sendUpdates=all"
	}
	var out struct {
		ID       string `json:"id"`
		HTMLLink string `json:"htmlLink"`
	}
	if err := c.api(ctx, http.MethodPost, u, t.AccessToken, ev, false, &out); err != nil {
		return CalendarCreated{}, err
	}
	if out.ID == "" {
		return CalendarCreated{}, connections.Fail(connections.Unconfirmed, http.StatusOK, "the answer has no event id")
	}
	msg := "event created in calendar " + in.CalendarID
	if n := len(in.Attendees); n > 0 {
		msg += "; " + strconv.Itoa(n) + " attendee(s) invited"
	}
	return CalendarCreated{ID: out.ID, HTMLLink: out.HTMLLink, Message: msg}, nil
}
