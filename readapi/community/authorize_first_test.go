package community_test

import "testing"

// TestAuthorizeBeforeValidate: a caller who may not act on an event, an
// RSVP or a comment learns nothing from a bad body: another tenant gets 404, a member
// who is not the creator or owner 403, an anonymous caller 401, never the
// validation error the body would earn.
func TestAuthorizeBeforeValidate(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	eve := w.register("Eve") // another organization
	id := w.event(ada, nil)["id"].(string)
	comment := commentsPath + "/" + w.comment(ada, 3, "first")["id"].(string)
	rsvp := w.must(ada, 201, "POST", base+"/"+id+"/rsvp", map[string]any{"status": "going"})["id"].(string)

	cases := []struct {
		name         string
		u            *user
		method, path string
		body         any
		status       int
	}{
		{"another tenant patches the event", eve, "PATCH", base + "/" + id, map[string]any{"title": 7}, 404},
		{"another tenant RSVPs", eve, "POST", base + "/" + id + "/rsvp", map[string]any{"status": "maybe-later"}, 404},
		{"another tenant changes the RSVP", eve, "PATCH", base + "/rsvps/" + rsvp, map[string]any{"status": "maybe-later"}, 404},
		{"a member who is not the creator patches", bob, "PATCH", base + "/" + id, map[string]any{"title": 7}, 403},
		{"a member changes another's RSVP", bob, "PATCH", base + "/rsvps/" + rsvp, map[string]any{"status": "maybe-later"}, 403},
		{"a member edits another's comment", bob, "PATCH", comment, map[string]any{"comment": 7}, 403},
		{"anonymous comment edit", nil, "PATCH", comment, map[string]any{"comment": 7}, 401},
		{"anonymous patch", nil, "PATCH", base + "/" + id, map[string]any{"title": 7}, 401},
		{"anonymous RSVP", nil, "POST", base + "/" + id + "/rsvp", map[string]any{"status": "maybe-later"}, 401},
	}
	for _, c := range cases {
		if r := w.do(c.u, c.method, c.path, c.body); r.status != c.status {
			t.Errorf("%s: %d, want %d: %s", c.name, r.status, c.status, r.raw)
		}
	}
	// The rightful caller still gets the validation error.
	w.refused(w.do(ada, "POST", base+"/"+id+"/rsvp", map[string]any{"status": "maybe-later"}), 400, "status", "enum")
}
