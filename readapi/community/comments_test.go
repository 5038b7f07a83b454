package community_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	commentsPath = "/api/v1/community/comments"
	policyPath   = "/api/v1/community/moderation-policy"
)

// postComment posts text on the content item ("post", id) as u.
func (w *world) postComment(u *user, id int64, text string) reply {
	w.t.Helper()
	return w.do(u, "POST", commentsPath, map[string]any{"content_type": "post", "content_id": id, "comment": text})
}

// comment posts text on ("post", id) as u and fails unless it is accepted.
func (w *world) comment(u *user, id int64, text string) map[string]any {
	w.t.Helper()
	r := w.postComment(u, id, text)
	if r.status != http.StatusOK {
		w.t.Fatalf("comment %q: status %d: %s", text, r.status, r.raw)
	}
	return r.body
}

// listing reads a content item's comments anonymously.
func (w *world) listing(contentType string, id int64, query string) map[string]any {
	w.t.Helper()
	return w.must(nil, http.StatusOK, "GET", fmt.Sprintf("%s/%s/%d%s", commentsPath, contentType, id, query), nil)
}

// texts is the comment texts of a listing, in order.
func texts(l map[string]any) []string {
	var out []string
	for _, c := range l["comments"].([]any) {
		out = append(out, c.(map[string]any)["comment"].(string))
	}
	return out
}

func TestCommentPostShape(t *testing.T) {
	w := start(t)
	ada := w.register("Ada Lovelace")
	c := w.comment(ada, 7, "  Great talk!  ")
	if c["user_id"] != ada.ID || c["user_name"] != "Ada Lovelace" || c["content_type"] != "post" ||
		c["content_id"] != float64(7) || c["comment"] != "Great talk!" {
		t.Fatalf("comment: %v", c)
	}
	for _, k := range []string{"user_avatar", "updated_at"} {
		if v, ok := c[k]; !ok || v != nil {
			t.Fatalf("%s must be present and null: %v", k, c)
		}
	}
	id, _ := c["id"].(string)
	if len(id) != 36 || c["created_at"] != w.api.Clock.Now().UTC().Format(time.RFC3339Nano) {
		t.Fatalf("id %q / created_at %v (clock %v)", id, c["created_at"], w.api.Clock.Now())
	}
	// An API key works as well.
	if k := w.comment(ada.withKey(), 7, "by key"); k["user_id"] != ada.ID {
		t.Fatalf("comment with an API key: %v", k)
	}
}

func TestCommentValidation(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	post := func(body map[string]any) reply { return w.do(ada, "POST", commentsPath, body) }
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"content_type": "post", "content_id": 1, "comment": "hi"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	w.refused(post(ok(map[string]any{"comment": ""})), 400, "comment", "required")
	w.refused(post(ok(map[string]any{"comment": " \n\t "})), 400, "comment", "required")
	w.refused(post(ok(map[string]any{"comment": strings.Repeat("é", 5001)})), 400, "comment", "max_length:5000")
	long := strings.Repeat("é", 5000) // 10000 bytes, 5000 characters
	if got := w.comment(ada, 1, long); got["comment"] != long {
		t.Fatal("a 5000-character comment must be kept whole")
	}
	body := ok(nil)
	delete(body, "content_id")
	w.refused(post(body), 400, "content_id", "required")
	w.refused(post(ok(map[string]any{"content_id": "12"})), 400, "content_id", "type:integer")
	w.refused(post(ok(map[string]any{"content_id": 1.5})), 400, "content_id", "type:integer")
	w.refused(post(ok(map[string]any{"content_id": -1})), 400, "content_id", "min:0")
	w.refused(post(ok(map[string]any{"content_type": "Has Space"})), 400, "content_type", "pattern")
	w.refused(post(ok(map[string]any{"content_type": strings.Repeat("a", 51)})), 400, "content_type", "pattern")
	w.refused(post(ok(map[string]any{"content_type": ""})), 400, "content_type", "required")
	w.refused(post(ok(map[string]any{"extra": 1})), 400, "extra", "unknown_field")
	if r := w.do(nil, "POST", commentsPath, ok(nil)); r.status != 401 {
		t.Fatalf("anonymous comment: %d %s", r.status, r.raw)
	}
	w.refused(w.do(nil, "GET", commentsPath+"/Has%20Space/1", nil), 400, "content_type", "pattern")
	w.refused(w.do(nil, "GET", commentsPath+"/post/abc", nil), 400, "content_id", "integer")
	if l := w.listing("post", 1, ""); l["total"] != float64(1) {
		t.Fatalf("refused comments were stored: %v", l)
	}
}

func TestCommentListingPublicNewestFirstAndPaging(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	for i := 1; i <= 5; i++ {
		w.comment([]*user{ada, bob}[i%2], 1, fmt.Sprintf("c%d", i))
		w.api.Clock.Advance(time.Second)
	}
	w.comment(ada, 2, "other id")
	w.must(ada, 200, "POST", commentsPath, map[string]any{"content_type": "photo", "content_id": 1, "comment": "other type"})

	l := w.listing("post", 1, "")
	if got := texts(l); !slices.Equal(got, []string{"c5", "c4", "c3", "c2", "c1"}) {
		t.Fatalf("newest first, this item only: %v", got)
	}
	if l["total"] != float64(5) || l["limit"] != float64(50) || l["offset"] != float64(0) || l["has_more"] != false {
		t.Fatalf("listing envelope: %v", l)
	}
	first := l["comments"].([]any)[0].(map[string]any)
	if first["user_id"] != bob.ID || first["user_name"] != "Bob" || first["created_at"].(string) <= l["comments"].([]any)[1].(map[string]any)["created_at"].(string) {
		t.Fatalf("listed comment: %v", first)
	}
	p := w.listing("post", 1, "?limit=2&offset=1")
	if got := texts(p); !slices.Equal(got, []string{"c4", "c3"}) || p["total"] != float64(5) || p["has_more"] != true || p["limit"] != float64(2) {
		t.Fatalf("page 2: %v", p)
	}
	last := w.listing("post", 1, "?limit=2&offset=4")
	if got := texts(last); !slices.Equal(got, []string{"c1"}) || last["total"] != float64(5) || last["has_more"] != false {
		t.Fatalf("last page: %v", last)
	}
	if e := w.listing("post", 99, ""); e["total"] != float64(0) || len(e["comments"].([]any)) != 0 {
		t.Fatalf("an item without comments: %v", e)
	}
	if got := texts(w.listing("photo", 1, "")); !slices.Equal(got, []string{"other type"}) {
		t.Fatalf("photo 1: %v", got)
	}
	w.refused(w.do(nil, "GET", commentsPath+"/post/1?limit=0", nil), 400, "limit", "range:1-100")
	w.refused(w.do(nil, "GET", commentsPath+"/post/1?limit=101", nil), 400, "limit", "range:1-100")
	w.refused(w.do(nil, "GET", commentsPath+"/post/1?offset=-1", nil), 400, "offset", "min:0")
}

func TestCommentDeleteOwnerOrAdmin(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	cy := w.member(ada, "Cy")
	eve := w.register("Eve") // owner of another organization
	mine := w.comment(bob, 1, "mine")
	second := w.comment(bob, 1, "moderated")
	del := func(u *user, c map[string]any) reply {
		return w.do(u, "DELETE", commentsPath+"/"+c["id"].(string), nil)
	}

	w.refused(del(cy, mine), 403, "", "")
	w.refused(del(eve, mine), 403, "", "")
	if r := del(nil, mine); r.status != 401 {
		t.Fatalf("anonymous delete: %d", r.status)
	}
	r := del(bob, mine)
	if r.status != 200 || r.body["success"] != true || r.body["message"] == "" || r.body["message"] == nil {
		t.Fatalf("owner delete: %d %s", r.status, r.raw)
	}
	w.refused(del(bob, mine), 404, "", "")
	if r := del(ada, second); r.status != 200 || r.body["success"] != true {
		t.Fatalf("organization owner delete: %d %s", r.status, r.raw)
	}
	if l := w.listing("post", 1, ""); l["total"] != float64(0) {
		t.Fatalf("deleted comments still listed: %v", l)
	}
	w.refused(w.do(ada, "DELETE", commentsPath+"/00000000-0000-7000-8000-000000000000", nil), 404, "", "")
	w.refused(w.do(ada, "PATCH", commentsPath+"/"+mine["id"].(string), map[string]any{"comment": "back"}), 404, "", "")
}

func TestCommentEditOwnerOnly(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	c := w.comment(bob, 3, "first")
	path := commentsPath + "/" + c["id"].(string)
	w.api.Clock.Advance(time.Minute)

	w.refused(w.do(ada, "PATCH", path, map[string]any{"comment": "admin words"}), 403, "", "")
	w.refused(w.do(bob, "PATCH", path, map[string]any{"comment": "  "}), 400, "comment", "required")
	e := w.must(bob, 200, "PATCH", path, map[string]any{"comment": " second "})
	want := w.api.Clock.Now().UTC().Format(time.RFC3339Nano)
	if e["comment"] != "second" || e["updated_at"] != want || e["created_at"] != c["created_at"] || e["id"] != c["id"] {
		t.Fatalf("edited comment: %v (updated_at want %s)", e, want)
	}
	l := w.listing("post", 3, "")
	got := l["comments"].([]any)[0].(map[string]any)
	if l["total"] != float64(1) || got["comment"] != "second" || got["updated_at"] != want {
		t.Fatalf("listing after edit: %v", l)
	}
}

func TestModerationPolicySetAndValidate(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	p := w.must(bob, 200, "GET", policyPath, nil)
	if p["tenant_id"] != ada.Org || len(p["blocked_terms"].([]any)) != 0 || p["max_links"] != nil || p["updated_at"] != nil {
		t.Fatalf("default policy: %v", p)
	}
	w.refused(w.do(bob, "PUT", policyPath, map[string]any{"blocked_terms": []string{"x"}}), 403, "", "")
	if r := w.do(nil, "GET", policyPath, nil); r.status != 401 {
		t.Fatalf("anonymous policy read: %d", r.status)
	}
	p = w.must(ada, 200, "PUT", policyPath, map[string]any{"blocked_terms": []string{"Spam", "buy   now", " SPAM "}, "max_links": 1})
	if fmt.Sprint(p["blocked_terms"]) != "[buy now spam]" || p["max_links"] != float64(1) || p["updated_by"] != ada.ID || p["updated_at"] == nil {
		t.Fatalf("normalised policy: %v", p)
	}
	if got := w.must(bob, 200, "GET", policyPath, nil); fmt.Sprint(got) != fmt.Sprint(p) {
		t.Fatalf("policy read back %v, want %v", got, p)
	}
	w.refused(w.do(ada, "PUT", policyPath, map[string]any{"max_links": -1}), 400, "max_links", "range")
	w.refused(w.do(ada, "PUT", policyPath, map[string]any{"max_links": 101}), 400, "max_links", "range")
	w.refused(w.do(ada, "PUT", policyPath, map[string]any{"blocked_terms": []string{"ok", "  "}}), 400, "blocked_terms", "non_empty")
	w.refused(w.do(ada, "PUT", policyPath, map[string]any{"blocked_terms": []string{strings.Repeat("é", 101)}}), 400, "blocked_terms", "max_length:100")
	if got := w.must(ada, 200, "GET", policyPath, nil); fmt.Sprint(got) != fmt.Sprint(p) {
		t.Fatalf("a refused policy changed it: %v", got)
	}
	// Another organization has its own (default) policy.
	if o := w.must(w.register("Eve"), 200, "GET", policyPath, nil); len(o["blocked_terms"].([]any)) != 0 || o["max_links"] != nil {
		t.Fatalf("other tenant's policy: %v", o)
	}
}

func TestModerationRejectsComments(t *testing.T) {
	w := start(t)
	ada := w.register("Ada")
	bob := w.member(ada, "Bob")
	before := w.comment(bob, 1, "spam before the policy")
	w.must(ada, 200, "PUT", policyPath, map[string]any{"blocked_terms": []string{"Spam", "buy now"}, "max_links": 1})

	blocked := func(text, term string) {
		t.Helper()
		r := w.postComment(bob, 1, text)
		w.refused(r, 400, "comment", "moderation:blocked_term")
		if d, _ := r.body["detail"].(string); !strings.Contains(d, `"`+term+`"`) {
			t.Errorf("%q: the message must name %q: %s", text, term, r.raw)
		}
	}
	blocked("This is SPAM!", "spam")
	blocked("(spam)", "spam")
	blocked("Buy now, cheap", "buy now")
	w.comment(bob, 1, "antispam measures, spammy, spam1") // whole words only
	w.comment(bob, 1, "buy nowhere")
	// White space inside a phrase is collapsed as the policy's terms are.
	blocked("Buy   now", "buy now")
	blocked("buy\nnow", "buy now")

	w.refused(w.postComment(bob, 1, "https://a.example https://b.example"), 400, "comment", "moderation:max_links")
	w.refused(w.postComment(bob, 1, "www.a.example and HTTP://b.example"), 400, "comment", "moderation:max_links")
	w.comment(bob, 1, "see https://a.example")

	// The policy is the tenant's: another organization's user is not bound.
	eve := w.register("Eve")
	w.comment(eve, 1, "spam spam https://a.example https://b.example")

	// Edits are moderated too; earlier comments stay.
	c := w.comment(bob, 1, "clean")
	path := commentsPath + "/" + c["id"].(string)
	w.refused(w.do(bob, "PATCH", path, map[string]any{"comment": "now SPAM"}), 400, "comment", "moderation:blocked_term")
	w.refused(w.do(bob, "PATCH", path, map[string]any{"comment": "https://a.example www.b.example"}), 400, "comment", "moderation:max_links")
	l := w.listing("post", 1, "")
	if got := texts(l); !slices.Contains(got, "clean") || !slices.Contains(got, before["comment"].(string)) || l["total"] != float64(6) {
		t.Fatalf("listing: %v", got)
	}
	// Clearing the policy lets everything through again.
	w.must(ada, 200, "PUT", policyPath, map[string]any{"blocked_terms": []string{}, "max_links": nil})
	w.comment(bob, 1, "spam https://a.example https://b.example")
}
