package blobs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStageCommitOpenRemove(t *testing.T) {
	s := New(t.TempDir())
	content := bytes.Repeat([]byte("cap table "), 1000)
	st, err := s.Stage("co1", bytes.NewReader(content), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	if st.SHA256 != hex.EncodeToString(sum[:]) || st.Size != int64(len(content)) || !bytes.Equal(st.Head, content[:512]) {
		t.Fatalf("staged %s %d head %d", st.SHA256, st.Size, len(st.Head))
	}
	if _, err := s.Open("co1", st.SHA256); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("staged content visible before commit: %v", err)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	// Equal content again: kept once, the second temporary file dropped.
	again, err := s.Stage("co1", bytes.NewReader(content), 1<<20)
	if err != nil || again.Commit() != nil {
		t.Fatal(err)
	}
	f, err := s.Open("co1", st.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, content) {
		t.Fatal("content differs")
	}
	entries, _ := os.ReadDir(filepath.Join(s.dir, "co1"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".upload-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
	// Another owner does not see it.
	if _, err := s.Open("co2", st.SHA256); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("owner isolation: %v", err)
	}
	if err := s.Remove("co1", st.SHA256); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open("co1", st.SHA256); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("removed blob still opens")
	}
}

func TestLimitsAndNames(t *testing.T) {
	s := New(t.TempDir())
	if _, err := s.Stage("co1", strings.NewReader("12345"), 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	if st, err := s.Stage("co1", strings.NewReader("1234"), 4); err != nil || st.Size != 4 {
		t.Fatalf("at the limit: %v", err)
	}
	for _, owner := range []string{"", "../x", "a/b", strings.Repeat("a", 65)} {
		if _, err := s.Stage(owner, strings.NewReader("x"), 4); err == nil {
			t.Errorf("owner %q accepted", owner)
		}
	}
	if _, err := s.Open("co1", "../../etc/passwd"); err == nil {
		t.Fatal("a path as digest accepted")
	}
}
