package community

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	cmd "github.com/strata-platform/strata/commands/community"
	"github.com/strata-platform/strata/domain/community"
	"github.com/strata-platform/strata/domain/kernel"
	proj "github.com/strata-platform/strata/projections/community"
	"github.com/strata-platform/strata/readapi/community/icalendar"
	"github.com/strata-platform/strata/readapi/httpx"
)

// prodID names Strata as the calendar's producer.
const prodID = "-//Strata//Community Events//EN"

// Feed bounds: events that started more than feedPast ago drop out of the
// feed; at most feedMax events are listed.
const (
	feedPast = 90 * 24 * time.Hour
	feedMax  = 1000
)

// toICal is the VEVENT of an event. The UID is the event's id, so every
// export and the feed describe the same calendar entry; SEQUENCE rises with
// every change and the cancellation.
func toICal(e proj.EventRow) icalendar.Event {
	v := icalendar.Event{UID: e.ID + "@strata", Sequence: e.Sequence, Stamp: e.UpdatedAt, Created: e.CreatedAt,
		LastModified: e.UpdatedAt, Start: e.StartTime, Summary: e.Title, Description: e.Description.String,
		Location: e.Location.String, URL: e.URL.String, Cancelled: e.Status == community.StatusCancelled}
	if e.EndTime.Valid {
		v.End = e.EndTime.Time
	}
	return v
}

// exportICal serves GET /{event_id}/export/ical: {ical_content, filename}.
func (a *API) exportICal(w http.ResponseWriter, r *http.Request, c caller) {
	var out struct {
		ICalContent string `json:"ical_content"`
		Filename    string `json:"filename"`
	}
	err := c.tenant()
	var e proj.EventRow
	if err == nil {
		e, err = proj.Event(r.Context(), a.db, c.Tenant, mux.Vars(r)["event_id"])
	}
	var b []byte
	if err == nil {
		b, err = icalendar.Encode(icalendar.Calendar{ProdID: prodID, Events: []icalendar.Event{toICal(e)}})
	}
	out.ICalContent, out.Filename = string(b), icalendar.Filename(e.Title, e.ID)
	writeJSON(w, r, http.StatusOK, out, err)
}

// feed serves GET /community-events/calendar.ics?token=...: the events the
// feed's owner is going to, as a calendar programs subscribe to. The token
// is the only credential (calendar programs send no headers); it reads
// nothing else and is refused once revoked or replaced.
func (a *API) feed(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if token == "" || !strings.HasPrefix(token, cmd.FeedTokenPrefix) {
		httpx.WriteError(w, r, kernel.Unauthenticated("a calendar feed token is required: ?token=scf_..."))
		return
	}
	f, err := proj.FeedByTokenHash(r.Context(), a.db, cmd.HashFeedToken(token))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	rows, _, err := proj.MyEvents(r.Context(), a.db, proj.MyEventsFilter{Tenant: f.TenantID, User: f.UserID,
		Status: community.Going, From: a.svc.Now().Add(-feedPast)}, proj.Page{Limit: feedMax})
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	cal := icalendar.Calendar{ProdID: prodID, Name: "Strata events", RefreshInterval: time.Hour}
	for _, e := range rows {
		cal.Events = append(cal.Events, toICal(e))
	}
	b, err := icalendar.Encode(cal)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="strata-events.ics"`)
	w.Header().Set("Cache-Control", "private, max-age=300")
	_, _ = w.Write(b)
}

// feedJSON describes a calendar feed; the token only when it is issued.
type feedJSON struct {
	Active    bool    `json:"active"`
	FeedID    *string `json:"feed_id"`
	CreatedAt *string `json:"created_at"`
	Token     string  `json:"token,omitempty"`
	URL       string  `json:"url,omitempty"`
}

func toFeed(f community.Feed) feedJSON {
	if !f.Active {
		return feedJSON{}
	}
	at := ts(f.IssuedAt)
	return feedJSON{Active: true, FeedID: &f.FeedID, CreatedAt: &at}
}

// issueFeed serves POST /community-events/calendar-feed: a new feed URL
// (the old one stops working). The token is shown only here.
func (a *API) issueFeed(w http.ResponseWriter, r *http.Request, c caller) {
	f, err := a.svc.IssueFeed(r.Context(), c.Tenant, c.UserID)
	out := toFeed(f.Feed)
	out.Token = f.Token
	out.URL = strings.TrimRight(a.baseURL, "/") + "/api/v1/community-events/calendar.ics?token=" + f.Token
	writeJSON(w, r, http.StatusCreated, out, err)
}

// getFeed serves GET /community-events/calendar-feed.
func (a *API) getFeed(w http.ResponseWriter, r *http.Request, c caller) {
	f, err := a.svc.Feed(r.Context(), c.Tenant, c.UserID)
	writeJSON(w, r, http.StatusOK, toFeed(f), err)
}

// revokeFeed serves DELETE /community-events/calendar-feed.
func (a *API) revokeFeed(w http.ResponseWriter, r *http.Request, c caller) {
	if err := a.svc.RevokeFeed(r.Context(), c.Tenant, c.UserID); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
