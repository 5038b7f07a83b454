package blobs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The local store keeps its files at <dir>/<owner>/<xx>/<sha256> and leaves
// no temporary file behind a commit or a discard.
func TestLocalLayoutAndNoLeftovers(t *testing.T) {
	ctx := context.Background()
	s := NewLocal(t.TempDir())
	content := bytes.Repeat([]byte("cap table "), 1000)
	st, err := s.Stage(ctx, "co1", bytes.NewReader(content), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := s.Stage(ctx, "co1", bytes.NewReader(content), 1<<20)
	if err != nil || again.Commit(ctx) != nil {
		t.Fatal(err)
	}
	dropped, err := s.Stage(ctx, "co1", strings.NewReader("dropped"), 1<<20)
	if err != nil || dropped.Discard() != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(s.dir, "co1", st.SHA256[:2], st.SHA256))
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("file at its place: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(s.dir, "co1"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".upload-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}
