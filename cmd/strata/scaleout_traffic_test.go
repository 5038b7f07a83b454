package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
)

// scaleoutIdentity registers through both processes and the balancer,
// signs in on the other one, and shows keys and logouts revoked on one
// process refused by the other within a second or two.
func scaleoutIdentity(t *testing.T, a, b *soNode, lb *soBalancer) string {
	reg := func(base, email string) string {
		body := soMust(t, 201, "POST", base+"/api/v1/auth/register", nil,
			map[string]any{"email": email, "password": "Correct-Horse-9!", "full_name": "Ann Scale"})
		return body["access_token"].(string)
	}
	ann := reg(a.api, "ann@scale.test")
	reg(b.api, "bob@scale.test")
	reg(lb.srv.URL, "cat@scale.test")
	login := soMust(t, 200, "POST", b.api+"/api/v1/auth/login", nil, map[string]any{"email": "ann@scale.test", "password": "Correct-Horse-9!"})
	other := login["access_token"].(string)
	if me := soMust(t, 200, "GET", a.api+"/api/v1/auth/me", soBearer(other), nil); me["email"] != "ann@scale.test" {
		t.Fatalf("me on a with b's token: %v", me)
	}
	key := soMust(t, 201, "POST", a.api+"/api/v1/api-keys", soBearer(ann), map[string]any{"name": "scale"})
	secret, _ := key["api_key"].(string)
	// b learns of the key when its directory catches up (woken by the
	// commit's NOTIFY): it may refuse the key for those milliseconds.
	answeredWithin(t, "a key created on a, used on b", 200, 2*time.Second, func() int {
		return soCall(t, "GET", b.api+"/api/v1/auth/me", map[string]string{"X-API-Key": secret}, nil).status
	})
	soMust(t, 200, "DELETE", b.api+"/api/v1/api-keys/"+key["id"].(string), soBearer(ann), nil)
	answeredWithin(t, "a key revoked on b, used on a", 401, 2*time.Second, func() int {
		return soCall(t, "GET", a.api+"/api/v1/auth/me", map[string]string{"X-API-Key": secret}, nil).status
	})
	soMust(t, 200, "POST", a.api+"/api/v1/auth/logout", soBearer(other), nil)
	answeredWithin(t, "a token logged out on a, used on b", 401, 2*time.Second, func() int {
		return soCall(t, "GET", b.api+"/api/v1/auth/me", soBearer(other), nil).status
	})
	return ann
}

// answeredWithin waits until status gives want, at most limit (the
// README's bound on how late another process sees an identity change).
func answeredWithin(t *testing.T, what string, want int, limit time.Duration, status func() int) {
	t.Helper()
	start := time.Now()
	for {
		s := status()
		if s == want {
			t.Logf("%s: %d after %s", what, want, time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > limit {
			t.Fatalf("%s: still %d after %s", what, s, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// scaleoutCommunity creates events on one process and sends RSVPs to them
// through both at once; each process answers what the other recorded.
func scaleoutCommunity(t *testing.T, a, b *soNode, ann string) {
	start := time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)
	var ids []string
	for i := 0; i < 3; i++ {
		ev := soMust(t, 201, "POST", a.api+"/api/v1/community-events/", soBearer(ann),
			map[string]any{"title": fmt.Sprintf("Meetup %d", i), "start_time": start, "capacity": 10})
		ids = append(ids, ev["id"].(string))
	}
	statuses := []string{"going", "interested", "not_going", "going"}
	var wg sync.WaitGroup
	for _, id := range ids {
		for i, st := range statuses {
			wg.Add(1)
			go func(base, id, st string) {
				defer wg.Done()
				r := soCall(t, "POST", base+"/api/v1/community-events/"+id+"/rsvp", soBearer(ann), map[string]any{"status": st})
				if r.status != 201 {
					t.Errorf("rsvp %s on %s: %d %s", st, base, r.status, r.raw)
				}
			}([]string{a.api, b.api}[i%2], id, st)
		}
	}
	wg.Wait()
	for _, id := range ids {
		fromA := soMust(t, 200, "GET", a.api+"/api/v1/community-events/"+id+"/attendees", soBearer(ann), nil)
		fromB := soMust(t, 200, "GET", b.api+"/api/v1/community-events/"+id+"/attendees", soBearer(ann), nil)
		ja, _ := json.Marshal(fromA)
		jb, _ := json.Marshal(fromB)
		if !bytes.Equal(ja, jb) || fromA["total"] != float64(1) {
			t.Fatalf("attendees of %s: a %s, b %s", id, ja, jb)
		}
	}
}

// scaleoutDocuments uploads cap-table documents on one process and
// downloads them (whole, a range, conditionally) through the other.
func scaleoutDocuments(t *testing.T, a, b *soNode, ann string, s3cfg blobs.S3Config) {
	anon := map[string]string{}
	sess := soMust(t, 201, "POST", b.captable+"/auth/platform-login", anon, map[string]any{"accessToken": ann, "companyName": "Scale Co"})
	tok := sess["accessToken"].(string)
	upload := func(n *soNode, name string, content []byte) map[string]any {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.WriteField("type", "OTHER")
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(content)
		_ = mw.Close()
		return soMust(t, 201, "POST", n.captable+"/documents", soBearer(tok), soRaw{buf.Bytes(), mw.FormDataContentType()})
	}
	one := []byte("%PDF-1.4\n%scale-out one\n" + strings.Repeat("x", 70_000) + "\n%%EOF\n")
	two := []byte("board minutes, kept in the bucket\n")
	d1, d2 := upload(a, "one.pdf", one), upload(b, "two.txt", two)
	for _, c := range []struct {
		via     *soNode
		doc     map[string]any
		content []byte
	}{{b, d1, one}, {a, d2, two}} {
		u := c.via.captable + "/documents/" + c.doc["id"].(string) + "/download"
		whole := soCall(t, "GET", u, soBearer(tok), nil)
		sum := sha256.Sum256(c.content)
		if whole.status != 200 || !bytes.Equal(whole.raw, c.content) || whole.header.Get("ETag") != `"`+hex.EncodeToString(sum[:])+`"` {
			t.Fatalf("download through %s: %d etag %q, %d bytes", c.via.name, whole.status, whole.header.Get("ETag"), len(whole.raw))
		}
		part := soCall(t, "GET", u, map[string]string{"Authorization": "Bearer " + tok, "Range": "bytes=5-12"}, nil)
		if part.status != 206 || !bytes.Equal(part.raw, c.content[5:13]) {
			t.Fatalf("range through %s: %d %q", c.via.name, part.status, part.raw)
		}
		nm := soCall(t, "GET", u, map[string]string{"Authorization": "Bearer " + tok, "If-None-Match": whole.header.Get("ETag")}, nil)
		if nm.status != 304 {
			t.Fatalf("conditional through %s: %d", c.via.name, nm.status)
		}
	}
	// Deleted on a: gone through b, and its object leaves the bucket.
	soMust(t, 204, "DELETE", a.captable+"/documents/"+d1["id"].(string), soBearer(tok), nil)
	if r := soCall(t, "GET", b.captable+"/documents/"+d1["id"].(string)+"/download", soBearer(tok), nil); r.status != 404 {
		t.Fatalf("deleted document through b: %d", r.status)
	}
	store, err := blobs.NewS3(s3cfg)
	if err != nil {
		t.Fatal(err)
	}
	company := d1["companyId"].(string)
	for sha, want := range map[string]bool{d1["sha256"].(string): false, d2["sha256"].(string): true} {
		if ok, err := store.Exists(context.Background(), company, sha); err != nil || ok != want {
			t.Fatalf("object %s in the bucket: %v (%v), want %v", sha, ok, err, want)
		}
	}
	rep := soMust(t, 201, "POST", b.captable+"/financial-reports", soBearer(tok), map[string]any{"type": "CAP_TABLE_SUMMARY", "format": "csv"})
	if r := soCall(t, "GET", a.captable+"/financial-reports/"+rep["id"].(string)+"/download", soBearer(tok), nil); r.status != 200 || len(r.raw) == 0 {
		t.Fatalf("report made on b, downloaded on a: %d %q", r.status, r.raw)
	}
}

// scaleoutMemory remembers on one process and recalls on the other.
func scaleoutMemory(t *testing.T, a, b *soNode, ann string) {
	base := "/api/v1/public/memory/v2"
	m1 := soMust(t, 200, "POST", a.api+base+"/remember", soBearer(ann), map[string]any{"content": "Ana Lima works at Globex as head of research."})
	m2 := soMust(t, 200, "POST", b.api+base+"/remember", soBearer(ann), map[string]any{"content": "Ana Lima lives in Oslo near the fjord."})
	recall := func(n *soNode, q string) []string {
		r := soMust(t, 200, "POST", n.api+base+"/recall", soBearer(ann), map[string]any{"query": q})
		var ids []string
		for _, x := range r["results"].([]any) {
			ids = append(ids, x.(map[string]any)["memory_id"].(string))
		}
		return ids
	}
	has := func(ids []string, id any) bool {
		for _, x := range ids {
			if x == id {
				return true
			}
		}
		return false
	}
	if ids := recall(b, "Where does Ana work?"); !has(ids, m1["memory_id"]) {
		t.Fatalf("remembered on a, recalled on b: %v lacks %v", ids, m1["memory_id"])
	}
	if ids := recall(a, "Where does Ana live?"); !has(ids, m2["memory_id"]) {
		t.Fatalf("remembered on b, recalled on a: %v lacks %v", ids, m2["memory_id"])
	}
	soMust(t, 200, "DELETE", b.api+base+"/forget/"+m1["memory_id"].(string), soBearer(ann), nil)
	if ids := recall(a, "Where does Ana work?"); has(ids, m1["memory_id"]) {
		t.Fatalf("forgotten on b, still recalled on a: %v", ids)
	}
}
