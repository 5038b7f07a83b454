package hackathon_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/multipart"
	"net/http"
	"testing"
)

// upload posts data as the multipart part "file" named name.
func (s *server) upload(t *testing.T, token, p, name string, data []byte) reply {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.WriteField("note", "screenshots"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", s.URL+p, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return s.send(req)
}

// png is a PNG signature and header chunk followed by n filler bytes.
func png(n int) []byte {
	b := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	for i := range n {
		b = append(b, byte(i*7))
	}
	return b
}

// TestSubmissionFiles: a multipart upload is stored with its sniffed type
// and SHA-256 and downloads byte for byte; a disallowed type is 415, a
// file over the limit 413; only the team (or an organiser) uploads.
func TestSubmissionFiles(t *testing.T) {
	s := newServer(t)
	org := s.actor(t, "org")
	id := s.liveHackathon(t, org.Token, nil)
	e := s.entry(t, id, "ann", "")
	other := s.builder(t, id, "bob")
	files := path(id, "/submissions/"+e.Submission+"/files")

	data := png(5000)
	sum := sha256.Sum256(data)
	// The name says .txt: the type comes from the bytes.
	r := s.upload(t, e.Builder.Token, files, "screenshot.txt", data)
	if r.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.Status, r.Raw)
	}
	if r.Body["content_type"] != "image/png" || r.Body["sha256"] != hex.EncodeToString(sum[:]) ||
		r.Body["size"] != float64(len(data)) || r.Body["name"] != "screenshot.txt" {
		t.Fatalf("stored file: %s", r.Raw)
	}
	fileID := r.Body["file_id"].(string)

	sub := s.must(t, http.StatusOK, "GET", path(id, "/submissions/"+e.Submission), other.Token, nil)
	if fs := sub["files"].([]any); len(fs) != 1 || fs[0].(map[string]any)["file_id"] != fileID {
		t.Fatalf("submission files %v", sub["files"])
	}
	// Anyone who sees the hackathon downloads the same bytes.
	d := s.raw("GET", files+"/"+fileID, other.Token, nil)
	if d.Status != http.StatusOK || !bytes.Equal(d.Raw, data) || d.Header.Get("Content-Type") != "image/png" ||
		d.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("download: %d, %d bytes, type %q", d.Status, len(d.Raw), d.Header.Get("Content-Type"))
	}
	refused(t, s.raw("GET", files+"/0190d3a4-0000-7000-8000-000000000000", other.Token, nil), http.StatusNotFound,
		files+"/0190d3a4-0000-7000-8000-000000000000")

	// An executable (ELF header) is refused whatever its name says.
	elf := append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00"), make([]byte, 200)...)
	refused(t, s.upload(t, e.Builder.Token, files, "demo.png", elf), http.StatusUnsupportedMediaType, files, "file", "not an allowed type")
	mz := append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), make([]byte, 200)...)
	refused(t, s.upload(t, e.Builder.Token, files, "setup.exe", mz), http.StatusUnsupportedMediaType, files)

	// Over the file limit (testMaxFile), within the route's body limit;
	// and over the body limit itself.
	refused(t, s.upload(t, e.Builder.Token, files, "big.png", png(testMaxFile)), http.StatusRequestEntityTooLarge, files, "file")
	refused(t, s.upload(t, e.Builder.Token, files, "huge.png", png(4*testMaxFile)), http.StatusRequestEntityTooLarge, files)
	// Exactly at the limit is fine.
	at := s.upload(t, e.Builder.Token, files, "edge.png", png(testMaxFile-len(png(0))))
	if at.Status != http.StatusCreated || at.Body["size"] != float64(testMaxFile) {
		t.Fatalf("a file of exactly the limit: %d %s", at.Status, at.Raw)
	}

	// Not the team's: 403; not multipart: 415; an empty file: 400.
	refused(t, s.upload(t, other.Token, files, "x.png", data), http.StatusForbidden, files)
	refused(t, s.raw("POST", files, e.Builder.Token, map[string]any{"file": "x"}), http.StatusUnsupportedMediaType, files, "multipart")
	refused(t, s.upload(t, e.Builder.Token, files, "empty.png", nil), http.StatusBadRequest, files, "file")
	// An organiser may attach a file too.
	if r := s.upload(t, org.Token, files, "judges-notes.md", []byte("# Notes\n\nGood demo.\n")); r.Status != http.StatusCreated ||
		r.Body["content_type"] != "text/markdown; charset=utf-8" {
		t.Fatalf("organiser's markdown upload: %d %s", r.Status, r.Raw)
	}
	sub = s.must(t, http.StatusOK, "GET", path(id, "/submissions/"+e.Submission), org.Token, nil)
	if n := len(sub["files"].([]any)); n != 3 {
		t.Fatalf("%d files on the submission, want 3 (refused uploads store nothing)", n)
	}
}
