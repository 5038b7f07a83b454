package captable_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/eventstore"
)

// An S3 store that cannot be reached makes uploads and downloads answer
// unavailable (503, retry later), not an internal error, and an upload
// that could not keep its bytes records nothing. A delete is recorded even
// when its bytes cannot be removed: they stay behind unreferenced, as
// after a crash.
func TestUnreachableBlobStoreIsUnavailable(t *testing.T) {
	t.Parallel()
	w := start(t)
	reg := (&client{w: w}).must(http.StatusCreated, "POST", "/auth/register", map[string]any{"name": "Down",
		"email": "down@d.test", "password": "correct-horse-9", "companyName": "Down Co"}).body
	company := str(reg["company"].(map[string]any)["id"])
	owner := str(reg["user"].(map[string]any)["id"])
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := l.Addr().String()
	l.Close() // nothing listens there now
	s3, err := blobs.NewS3(blobs.S3Config{Endpoint: endpoint, Bucket: "docs", AccessKey: "ak", SecretKey: "sk-0123456789",
		StagingDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	svc := cmd.New(w.platform.Store, w.platform.Clock, eventstore.NewULIDs(w.platform.Clock),
		slog.New(slog.NewTextHandler(io.Discard, nil)), cmd.Config{TokenKey: bytes.Repeat([]byte{5}, 32), Blobs: s3})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = svc.UploadDocument(ctx, company, "doc-1", captable.DocumentInput{Name: "a.pdf", Type: "OTHER"},
		strings.NewReader("%PDF-1.4\n%down\n%%EOF\n"), owner)
	if kernel.KindOf(err) != kernel.KindUnavailable {
		t.Fatalf("upload with the blob store down: %v (kind %v), want unavailable", err, kernel.KindOf(err))
	}
	err = svc.View(context.Background(), company, func(c *captable.Company) error {
		if len(c.Documents) != 0 {
			t.Errorf("a document was recorded without its bytes: %v", c.Documents)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel2()
	_, err = svc.OpenBlob(ctx2, company, strings.Repeat("ab", 32))
	if kernel.KindOf(err) != kernel.KindUnavailable {
		t.Fatalf("download with the blob store down: %v (kind %v), want unavailable", err, kernel.KindOf(err))
	}
	if _, err := w.svc.UploadDocument(context.Background(), company, "doc-2", captable.DocumentInput{Name: "b.txt", Type: "OTHER"},
		strings.NewReader("kept elsewhere"), owner); err != nil {
		t.Fatal(err)
	}
	ctx3, cancel3 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel3()
	if _, err := svc.DeleteDocument(ctx3, company, "doc-2", owner); err != nil {
		t.Fatalf("delete with the blob store down: %v", err)
	}
}
