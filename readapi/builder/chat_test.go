package builder_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func postJSON(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// A generation streams start, plan, steps, one file event per file, the
// preview, usage and a final complete; every event has an id; the same
// idea gives the same files.
func TestChatStreamGeneratesAnApp(t *testing.T) {
	c := startChats(t)
	resp := c.post(`{"message":"book yoga classes at my studio"}`, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	evs := read(t, resp.Body, -1)
	resp.Body.Close()
	n := names(evs)
	if !strings.HasPrefix(n, "start step plan step file ") || !strings.HasSuffix(n, " step preview usage complete") {
		t.Fatalf("events: %s", n)
	}
	seen := map[string]bool{}
	for _, e := range evs {
		if e.ID == "" || seen[e.ID] {
			t.Fatalf("event %s has id %q (repeated or empty)", e.Name, e.ID)
		}
		seen[e.ID] = true
	}
	start, done := evs[0].Data, evs[len(evs)-1].Data
	chatID, _ := start["chatId"].(string)
	if !strings.HasPrefix(chatID, "chat_") || start["generator"] != "template" || start["provider"] != "strata" || start["model"] == "" {
		t.Fatalf("start %v", start)
	}
	if done["chatId"] != chatID || done["status"] != "completed" || done["versionId"] == nil ||
		done["previewUrl"] != c.url+"/api/preview/"+chatID+"/" {
		t.Fatalf("complete %v", done)
	}
	plan := evs[2].Data
	if plan["archetype"] != "booking" || len(plan["assumptions"].([]any)) == 0 {
		t.Fatalf("plan %v", plan)
	}
	files := map[string]string{}
	for _, e := range evs {
		if e.Name == "file" {
			files[e.Data["path"].(string)] = e.Data["sha256"].(string)
		}
	}
	for _, p := range []string{"server.js", "public/index.html", "public/app.js", "spec.json"} {
		if files[p] == "" {
			t.Fatalf("no %s among %v", p, files)
		}
	}
	// The same idea in another chat: byte-identical files.
	again := read(t, c.post(`{"message":"book yoga classes at my studio"}`, "").Body, -1)
	for _, e := range again {
		if e.Name == "file" && files[e.Data["path"].(string)] != e.Data["sha256"] {
			t.Fatalf("%s differs between two generations of one idea", e.Data["path"])
		}
	}
	// The preview serves the app under its own CSP sandbox.
	r, body := get(t, c.url+"/api/preview/"+chatID)
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/api/preview/"+chatID+"/" {
		t.Fatalf("%d %s", r.StatusCode, r.Header.Get("Location"))
	}
	r, body = get(t, c.url+"/api/preview/"+chatID+"/")
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") ||
		!strings.HasPrefix(r.Header.Get("Content-Security-Policy"), "sandbox allow-scripts") || !bytes.Contains(body, []byte("app.js")) {
		t.Fatalf("%d %v %.200s", r.StatusCode, r.Header, body)
	}
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != files["public/index.html"] {
		t.Fatal("the preview's index.html is not the generated one")
	}
	if r, _ = get(t, c.url+"/api/preview/"+chatID+"/app.js"); r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
		t.Fatalf("app.js: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if r, _ = get(t, c.url+"/api/preview/chat_01ABCDEFGHJKMNPQRSTVWXYZ00/"); r.StatusCode != 404 {
		t.Fatalf("unknown chat: %d", r.StatusCode)
	}
}

// A client that reconnects with Last-Event-ID misses nothing and gets
// nothing twice.
func TestChatStreamResumes(t *testing.T) {
	c := startChats(t)
	full := read(t, c.post(`{"message":"a CRM for my real estate deals"}`, "").Body, -1)
	chatID := full[0].Data["chatId"].(string)
	// A second generation in the chat, read in two connections.
	resp := c.post(`{"message":"add a page for the open houses","chatId":"`+chatID+`"}`, "")
	first := read(t, resp.Body, 3)
	resp.Body.Close()
	rest := read(t, c.post(`{}`, first[2].ID).Body, -1)
	all := append(first, rest...)
	if n := names(all); !strings.HasPrefix(n, "start step plan") || !strings.HasSuffix(n, "preview usage complete") {
		t.Fatalf("resumed: %s", n)
	}
	ids := map[string]bool{}
	for _, e := range all {
		if ids[e.ID] {
			t.Fatalf("event %s sent twice", e.ID)
		}
		ids[e.ID] = true
	}
	if len(all) != len(full) {
		t.Fatalf("%d events over two connections, %d in one", len(all), len(full))
	}
	// Resuming after the end gives nothing more; a replay from the start
	// gives the whole generation again, the same ids.
	if again := read(t, c.post(`{}`, all[len(all)-1].ID).Body, -1); len(again) != 0 {
		t.Fatalf("after the end: %s", names(again))
	}
	if again := read(t, c.post(`{}`, all[0].ID).Body, -1); len(again) != len(all)-1 || again[0].ID != all[1].ID {
		t.Fatalf("from the start: %s", names(again))
	}
}

// Versions are listed and restored (as a new version); a version exports
// as a zip of its files.
func TestChatVersionsRestoreAndExport(t *testing.T) {
	c := startChats(t)
	one := read(t, c.post(`{"message":"online store for vintage sneakers"}`, "").Body, -1)
	chatID := one[0].Data["chatId"].(string)
	two := read(t, c.post(`{"message":"track my running workouts","chatId":"`+chatID+`"}`, "").Body, -1)
	v1, v2 := one[len(one)-1].Data["versionId"].(string), two[len(two)-1].Data["versionId"].(string)
	r, body := get(t, c.url+"/api/build/versions?chatId="+chatID)
	var list struct {
		Current  string
		Versions []struct {
			VersionID string
			Number    int
			Current   bool
			Files     []struct{ Path, SHA256 string }
		}
	}
	if err := json.Unmarshal(body, &list); err != nil || r.StatusCode != 200 || len(list.Versions) != 2 || list.Current != v2 ||
		list.Versions[0].VersionID != v1 || !list.Versions[1].Current {
		t.Fatalf("%d %s", r.StatusCode, body)
	}
	status, out := postJSON(t, c.url+"/api/build/versions/restore", `{"chatId":"`+chatID+`","version":"1"}`)
	restored, _ := out["version"].(map[string]any)
	if status != 200 || restored["number"] != 3.0 || restored["restoredFrom"] != v1 || restored["current"] != true {
		t.Fatalf("%d %v", status, out)
	}
	// Export: the current version (v3, the files of v1) as a zip.
	r, body = get(t, c.url+"/api/build/export/"+chatID)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("%d %s", r.StatusCode, body)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range list.Versions[0].Files {
		want[chatID+"-v3/"+f.Path] = f.SHA256
	}
	if len(zr.File) != len(want) {
		t.Fatalf("%d files in the zip, want %d", len(zr.File), len(want))
	}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		sum := sha256.Sum256(b)
		if want[f.Name] != hex.EncodeToString(sum[:]) {
			t.Fatalf("%s: not the version's file", f.Name)
		}
	}
	again, _ := get(t, c.url+"/api/build/export/"+chatID+"?version=3")
	_, body2 := get(t, c.url+"/api/build/export/"+chatID+"?version=3")
	if again.StatusCode != 200 || !bytes.Equal(body, body2) {
		t.Fatal("the same version exported twice differs")
	}
	if r, _ = get(t, c.url+"/api/build/export/"+chatID+"?version=9"); r.StatusCode != 404 {
		t.Fatalf("unknown version: %d", r.StatusCode)
	}
}

// Bad requests get a 4xx naming the field; nothing is started.
func TestChatRefusals(t *testing.T) {
	c := startChats(t)
	for body, want := range map[string]string{
		`{}`:                              "message",
		`{"message":"   "}`:               "message",
		`{"message":"x","chatId":"nope"}`: "chatId",
		`{"message":"x","bogus":1}`:       "bogus",
		`{"message":"` + strings.Repeat("a", 4001) + `"}`: "message",
	} {
		status, out := postJSON(t, c.url+"/api/chat-ws", body)
		if status != 400 || !strings.Contains(jsonText(out), want) {
			t.Errorf("%.40s: %d %v", body, status, out)
		}
	}
	status, out := postJSON(t, c.url+"/api/chat-ws", `{"message":"x","chatId":"chat_01ABCDEFGHJKMNPQRSTVWXYZ00"}`)
	if status != 404 {
		t.Errorf("unknown chat: %d %v", status, out)
	}
	status, out = postJSON(t, c.url+"/api/chat-ws", `{"message":"a helpdesk","model":"gpt-x"}`)
	if status != 503 || !strings.Contains(jsonText(out), "llm_unavailable") {
		t.Errorf("model: %d %v", status, out)
	}
	resp := c.post(`{}`, "garbage")
	if resp.StatusCode != 400 {
		t.Errorf("Last-Event-ID garbage: %d", resp.StatusCode)
	}
	resp.Body.Close()
	if r, _ := get(t, c.url+"/api/build/versions"); r.StatusCode != 400 {
		t.Errorf("versions without chatId: %d", r.StatusCode)
	}
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }
