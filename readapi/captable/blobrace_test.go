package captable_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/blobs"
	cmd "github.com/strata-platform/strata/commands/captable"
	"github.com/strata-platform/strata/domain/captable"
	"github.com/strata-platform/strata/eventstore"
)

// pausingRemove is a real blob store whose Remove waits, after the
// deleting process has decided that nothing refers to the bytes, until the
// test lets it go on.
type pausingRemove struct {
	blobs.Store
	entered, release chan struct{}
}

func (p *pausingRemove) Remove(ctx context.Context, owner, digest string) error {
	close(p.entered)
	<-p.release
	return p.Store.Remove(ctx, owner, digest)
}

// Two processes share one blob store: process a deletes the only document
// with some bytes while process b uploads the same bytes as a new
// document. Whatever the interleaving, b's recorded document keeps its
// bytes: a's check-and-remove and b's commit-and-append exclude each other
// across processes (a PostgreSQL advisory lock per company), not only
// within one.
func TestDeleteInOneProcessNeverRemovesBytesAnUploadInAnotherRecorded(t *testing.T) {
	t.Parallel()
	w := start(t)
	reg := (&client{w: w}).must(http.StatusCreated, "POST", "/auth/register", map[string]any{"name": "Race",
		"email": "race@d.test", "password": "correct-horse-9", "companyName": "Race Co"}).body
	company := str(reg["company"].(map[string]any)["id"])
	owner := str(reg["user"].(map[string]any)["id"])
	dir := t.TempDir()
	shared := blobs.NewLocal(dir)
	pause := &pausingRemove{Store: shared, entered: make(chan struct{}), release: make(chan struct{})}
	process := func(b blobs.Store) *cmd.Service {
		return cmd.New(w.platform.Store, w.platform.Clock, eventstore.NewULIDs(w.platform.Clock),
			slog.New(slog.NewTextHandler(io.Discard, nil)), cmd.Config{TokenKey: bytes.Repeat([]byte{5}, 32), Blobs: b})
	}
	a, b := process(pause), process(shared)
	ctx := context.Background()
	content := []byte("%PDF-1.4\n%race\n%%EOF\n")
	in := captable.DocumentInput{Name: "minutes.pdf", Type: "OTHER"}
	if _, err := a.UploadDocument(ctx, company, "doc-1", in, bytes.NewReader(content), owner); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if _, err := a.DeleteDocument(ctx, company, "doc-1", owner); err != nil {
			t.Errorf("delete on a: %v", err)
		}
	}()
	<-pause.entered // a found the bytes unreferenced and is about to remove them
	var upErr error
	uploaded := make(chan struct{})
	go func() {
		defer wg.Done()
		defer close(uploaded)
		_, upErr = b.UploadDocument(ctx, company, "doc-2", in, bytes.NewReader(content), owner)
	}()
	select {
	case <-uploaded: // b did not wait for a: its bytes are about to go
	case <-time.After(500 * time.Millisecond): // b waits for a's removal to finish
	}
	close(pause.release)
	wg.Wait()
	if upErr != nil {
		t.Fatalf("upload on b: %v", upErr)
	}
	var digest string
	err := b.View(ctx, company, func(c *captable.Company) error {
		if d := c.Documents["doc-2"]; d != nil {
			digest = d.SHA256
		}
		return nil
	})
	if err != nil || digest == "" {
		t.Fatalf("doc-2 not recorded: %v", err)
	}
	f, err := b.OpenBlob(ctx, company, digest)
	if err != nil {
		t.Fatalf("doc-2 is recorded but its bytes are gone: %v", err)
	}
	f.Close()
}
