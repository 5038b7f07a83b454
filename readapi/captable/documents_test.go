package captable_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/strata-platform/strata/eventstore"
)

// upload posts a multipart document.
func (c *client) upload(name string, content []byte, fields map[string]string) reply {
	c.w.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if name != "" {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			c.w.t.Fatal(err)
		}
		_, _ = fw.Write(content)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", c.w.url+"/documents", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.send(req)
}

// get fetches a path's raw response with extra headers.
func (c *client) get(path string, header map[string]string) reply {
	c.w.t.Helper()
	req, _ := http.NewRequest("GET", c.w.url+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return c.send(req)
}

func pdfBytes(marker string) []byte {
	return []byte("%PDF-1.4\n%" + marker + "\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

func TestDocuments(t *testing.T) {
	w := start(t)
	c := w.register("Doc", "doc@d.test", "D")
	common := c.must(http.StatusCreated, "POST", "/share-classes", map[string]any{"name": "Common", "type": "COMMON", "totalShares": 1000}).body
	f := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Founder", "type": "FOUNDER"}).body
	o := c.must(http.StatusCreated, "POST", "/stakeholders", map[string]any{"name": "Other", "type": "ADVISOR"}).body
	g := c.must(http.StatusCreated, "POST", "/equity-grants", map[string]any{"stakeholderId": f["id"], "shareClassId": common["id"],
		"grantType": "RESTRICTED_STOCK", "quantity": 100, "vestingSchedule": "IMMEDIATE", "grantDate": "2024-01-01"}).body

	content := pdfBytes("secret-marker-7f3a")
	up := c.upload("Grant agreement, Founder.pdf", content, map[string]string{"type": "GRANT_AGREEMENT",
		"stakeholderId": str(f["id"]), "grantId": str(g["id"])})
	if up.status != http.StatusCreated {
		t.Fatalf("upload %d %s", up.status, up.raw)
	}
	sum := sha256.Sum256(content)
	d := up.body
	if d["sha256"] != hex.EncodeToString(sum[:]) || d["size"] != float64(len(content)) || d["contentType"] != "application/pdf" ||
		d["name"] != "Grant agreement, Founder.pdf" || d["type"] != "GRANT_AGREEMENT" || d["grantId"] != g["id"] {
		t.Fatalf("document %s", up.raw)
	}
	did := str(d["id"])
	if got := c.must(http.StatusOK, "GET", "/documents/"+did, nil).body; got["sha256"] != d["sha256"] {
		t.Fatalf("get %v", got)
	}

	// The download streams the original bytes, with range and ETag support.
	dl := c.get("/documents/"+did+"/download", nil)
	_, params, _ := mime.ParseMediaType(dl.header.Get("Content-Disposition"))
	if dl.status != 200 || !bytes.Equal(dl.raw, content) || dl.header.Get("Content-Type") != "application/pdf" ||
		params["filename"] != "Grant agreement, Founder.pdf" || dl.header.Get("ETag") != `"`+str(d["sha256"])+`"` {
		t.Fatalf("download %d %v %q", dl.status, dl.header, dl.raw)
	}
	if part := c.get("/documents/"+did+"/download", map[string]string{"Range": "bytes=0-7"}); part.status != 206 || string(part.raw) != "%PDF-1.4" {
		t.Fatalf("range %d %q", part.status, part.raw)
	}
	if nm := c.get("/documents/"+did+"/download", map[string]string{"If-None-Match": dl.header.Get("ETag")}); nm.status != 304 {
		t.Fatalf("conditional %d", nm.status)
	}

	// The event records the digest, never the bytes.
	evs, err := w.platform.Store.Load(context.Background(), str(up.body["companyId"]), eventstore.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range evs {
		if e.Type == "captable.document_uploaded" {
			found = true
			if strings.Contains(string(e.Payload), "secret-marker") {
				t.Fatalf("the event holds the file: %s", e.Payload)
			}
		}
	}
	if !found {
		t.Fatal("no document_uploaded event")
	}

	// Lists filter by type, stakeholder and grant.
	c.upload("notes.txt", []byte("board notes\n"), map[string]string{"type": "BOARD_CONSENT"})
	for q, want := range map[string]float64{"": 2, "?type=BOARD_CONSENT": 1, "?stakeholderId=" + str(f["id"]): 1, "?grantId=" + str(g["id"]): 1,
		"?stakeholderId=" + str(o["id"]): 0} {
		if got := c.must(http.StatusOK, "GET", "/documents"+q, nil).body["pagination"].(map[string]any)["total"]; got != want {
			t.Errorf("list %q total %v, want %v", q, got, want)
		}
	}

	// Refusals name the field and the rule.
	field(t, c.upload("tool.exe", append([]byte("MZ\x90\x00"), make([]byte, 200)...), map[string]string{"type": "OTHER"}),
		415, "UNSUPPORTED_MEDIA_TYPE", "file")
	field(t, c.upload("big.pdf", append(pdfBytes("x"), make([]byte, uploadLimit)...), map[string]string{"type": "OTHER"}), 413, "PAYLOAD_TOO_LARGE", "file")
	field(t, c.upload("a.pdf", pdfBytes("x"), map[string]string{}), 400, "VALIDATION_ERROR", "type")
	field(t, c.upload("a.pdf", pdfBytes("x"), map[string]string{"type": "LOVE_LETTER"}), 400, "VALIDATION_ERROR", "type")
	field(t, c.upload("", nil, map[string]string{"type": "OTHER"}), 400, "VALIDATION_ERROR", "file")
	field(t, c.upload("empty.pdf", nil, map[string]string{"type": "OTHER"}), 400, "VALIDATION_ERROR", "file")
	field(t, c.upload("a.pdf", pdfBytes("x"), map[string]string{"type": "OTHER", "grantId": "nope"}), 400, "VALIDATION_ERROR", "grantId")
	field(t, c.upload("a.pdf", pdfBytes("x"), map[string]string{"type": "OTHER", "grantId": str(g["id"]), "stakeholderId": str(o["id"])}),
		400, "VALIDATION_ERROR", "grantId")
	field(t, c.do("POST", "/documents", map[string]any{"type": "OTHER"}), 415, "UNSUPPORTED_MEDIA_TYPE", "file")
	ag := c.must(http.StatusCreated, "POST", "/agents/onboard", map[string]any{"agentName": "reader", "role": "viewer"}).body
	viewer := &client{w: w, token: str(ag["apiKey"])}
	field(t, viewer.upload("a.pdf", pdfBytes("x"), map[string]string{"type": "OTHER"}), 403, "FORBIDDEN", "")
	if v := viewer.get("/documents/"+did+"/download", nil); v.status != 200 || !bytes.Equal(v.raw, content) {
		t.Fatalf("a viewer downloads: %d", v.status)
	}

	// Another company sees nothing.
	x := w.register("X", "x@x.test", "X")
	field(t, x.do("GET", "/documents/"+did, nil), 404, "NOT_FOUND", "")
	field(t, x.do("GET", "/documents/"+did+"/download", nil), 404, "NOT_FOUND", "")
	field(t, x.do("DELETE", "/documents/"+did, nil), 404, "NOT_FOUND", "")

	// A second document with the same bytes shares them; deleting one keeps
	// them, deleting both removes them from the blob store.
	twin := c.upload("copy.pdf", content, map[string]string{"type": "OTHER"}).body
	company := str(up.body["companyId"])
	c.must(http.StatusNoContent, "DELETE", "/documents/"+did, nil)
	field(t, c.do("GET", "/documents/"+did, nil), 404, "NOT_FOUND", "")
	field(t, c.do("GET", "/documents/"+did+"/download", nil), 404, "NOT_FOUND", "")
	field(t, c.do("DELETE", "/documents/"+did, nil), 404, "NOT_FOUND", "")
	if tw := c.get("/documents/"+str(twin["id"])+"/download", nil); !bytes.Equal(tw.raw, content) {
		t.Fatal("the twin lost its bytes")
	}
	c.must(http.StatusNoContent, "DELETE", "/documents/"+str(twin["id"]), nil)
	if _, err := w.svc.OpenBlob(context.Background(), company, str(d["sha256"])); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the bytes of deleted documents remain: %v", err)
	}
}
