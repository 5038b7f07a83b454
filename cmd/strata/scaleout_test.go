package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/blobs/s3test"
	"github.com/strata-platform/strata/eventstore/pgtest"
)

// Two strata processes (each with its own data directory, as on two
// machines) on one database and one S3 bucket, behind a round-robin
// balancer that is the public URL. Mixed traffic goes through both; then
// every read model built live by the two processes is compared with a
// replay of the events into fresh tables (strata projections rebuild).
func TestTwoProcessesOnOneDatabaseWithS3Blobs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, starts SeaweedFS and two servers")
	}
	t.Parallel()
	s3 := s3test.Start(t) // skips, naming the install command, without weed
	db := pgtest.DB(t)
	bin := buildStrata(t, t.TempDir())
	master := make([]byte, 32)
	_, _ = rand.Read(master)
	lb := startBalancer(t)
	env := []string{"DATABASE_URL=" + db.URL, "STRATA_MASTER_KEY=" + base64.StdEncoding.EncodeToString(master),
		"STRATA_PUBLIC_URL=" + lb.srv.URL, "STRATA_BUILDER_PUBLIC_URL=" + lb.srv.URL, "STRATA_LOG_LEVEL=warn",
		"STRATA_WORDNET_DIR=off", "STRATA_BLOB_S3_ENDPOINT=" + s3.Config.Endpoint, "STRATA_BLOB_S3_BUCKET=" + s3.Config.Bucket,
		"STRATA_BLOB_S3_ACCESS_KEY=" + s3.Config.AccessKey, "STRATA_BLOB_S3_SECRET_KEY=" + s3.Config.SecretKey,
		"STRATA_BLOB_S3_REGION=" + s3.Config.Region, "STRATA_BLOB_S3_SECURE=false"}
	// Both start at once: migrations and the first signing key race.
	a, b := startNode(t, bin, "a", env), startNode(t, bin, "b", env)
	a.waitHealthy(t)
	b.waitHealthy(t)
	lb.route(a, b)

	ann := scaleoutIdentity(t, a, b, lb)
	scaleoutCommunity(t, a, b, ann)
	scaleoutDocuments(t, a, b, ann, s3.Config)
	scaleoutMemory(t, a, b, ann)

	// Stopping flushes usage counts as events; a third process, started
	// later, catches every projector up on them and stops with nothing to
	// flush. The read models are then final...
	a.stop(t)
	b.stop(t)
	c := startNode(t, bin, "c", env)
	c.waitHealthy(t)
	waitCaughtUp(t, bin, env)
	c.stop(t)
	waitCaughtUp(t, bin, env)
	// ... and each table equals a replay of the events into fresh ones,
	// but for change stamps that count applied batches by design.
	volatile := map[string]string{"rm_memory_v1.users.epoch": "random per build of the read model: tells recall caches to reload"}
	for _, tbl := range []string{"users", "memories", "removed", "entities", "edges", "mentions"} {
		volatile["rm_memory_v1."+tbl+".version"] = "the user's change stamp, bumped once per applied batch (recall indexes catch up by it)"
	}
	live := readModels(t, db.SQL, volatile)
	for _, want := range []string{"rm_captable", "rm_community", "rm_memory"} {
		rows := 0
		for tbl, lines := range live {
			if strings.HasPrefix(tbl, want) {
				rows += len(lines)
			}
		}
		if rows == 0 {
			t.Fatalf("no rows in any %s* table: the comparison would prove nothing (%d tables)", want, len(live))
		}
	}
	cmd := exec.Command(bin, "projections", "rebuild", "--all")
	cmd.Env = append(cmd.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("projections rebuild: %v\n%s", err, out)
	}
	replayed := readModels(t, db.SQL, volatile)
	for tbl, lines := range live {
		if got := replayed[tbl]; strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s differs from a replay of the events:\nlive:   %s\nreplay: %s", tbl, strings.Join(lines, "\n        "), strings.Join(got, "\n        "))
		}
	}
	if len(replayed) != len(live) {
		t.Errorf("%d read-model tables live, %d after the replay", len(live), len(replayed))
	}
}

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

// waitCaughtUp waits until `strata projections status` reports no lag.
func waitCaughtUp(t *testing.T, bin string, env []string) {
	t.Helper()
	var last []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		cmd := exec.Command(bin, "projections", "status", "--json")
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("projections status: %v", err)
		}
		last = out
		var st []struct {
			Name      string `json:"name"`
			LagEvents int64  `json:"lag_events"`
		}
		if err := json.Unmarshal(out, &st); err != nil {
			t.Fatalf("projections status --json: %v\n%s", err, out)
		}
		behind := 0
		for _, s := range st {
			if s.LagEvents > 0 {
				behind++
			}
		}
		if behind == 0 && len(st) > 0 {
			return
		}
	}
	t.Fatalf("projectors did not catch up:\n%s", last)
}
