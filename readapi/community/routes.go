package community

import (
	"net/http"

	"github.com/gorilla/mux"
)

// Routes adds the community routes to the platform API's router.
func Routes(r *mux.Router, cfg Config) *API {
	a := &API{svc: cfg.Service, db: cfg.DB, auth: cfg.Auth, people: cfg.People, baseURL: cfg.BaseURL}
	const ev = "/api/v1/community-events"
	const id = "/{event_id}"
	get, post, patch, del := http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete

	for _, base := range []string{ev, ev + "/"} {
		r.Handle(base, a.need(a.createEvent)).Methods(post)
		r.Handle(base, a.need(a.listEvents)).Methods(get)
	}
	// Fixed paths before /{event_id}, which would match them too.
	r.Handle(ev+"/browse", a.need(a.browse)).Methods(get)
	r.Handle(ev+"/my-events", a.need(a.myEvents)).Methods(get)
	r.Handle(ev+"/calendar.ics", http.HandlerFunc(a.feed)).Methods(get)
	r.Handle(ev+"/calendar-feed", a.need(a.issueFeed)).Methods(post)
	r.Handle(ev+"/calendar-feed", a.need(a.getFeed)).Methods(get)
	r.Handle(ev+"/calendar-feed", a.need(a.revokeFeed)).Methods(del)
	r.Handle(ev+"/rsvps/{rsvp_id}", a.need(a.patchRSVP)).Methods(patch)
	r.Handle(ev+"/rsvps/{rsvp_id}/history", a.need(a.rsvpHistory)).Methods(get)

	r.Handle(ev+id, a.need(a.getEvent)).Methods(get)
	r.Handle(ev+id, a.need(a.patchEvent)).Methods(patch)
	r.Handle(ev+id, a.need(a.deleteEvent)).Methods(del)
	r.Handle(ev+id+"/rsvp", a.need(a.rsvp)).Methods(post)
	r.Handle(ev+id+"/attendees", a.need(a.attendees)).Methods(get)
	r.Handle(ev+id+"/rsvps", a.need(a.rsvps)).Methods(get)
	r.Handle(ev+id+"/export/ical", a.need(a.exportICal)).Methods(get)

	const cm = "/api/v1/community/comments"
	r.Handle(cm, a.need(a.postComment)).Methods(post)
	r.Handle(cm+"/{content_type}/{content_id}", http.HandlerFunc(a.listComments)).Methods(get)
	r.Handle(cm+"/{comment_id}", a.need(a.editComment)).Methods(patch)
	r.Handle(cm+"/{comment_id}", a.need(a.deleteComment)).Methods(del)
	r.Handle("/api/v1/community/moderation-policy", a.need(a.getPolicy)).Methods(get)
	r.Handle("/api/v1/community/moderation-policy", a.need(a.putPolicy)).Methods(http.MethodPut)
	return a
}
