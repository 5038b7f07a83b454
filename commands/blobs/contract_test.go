package blobs_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/strata-platform/strata/commands/blobs"
	"github.com/strata-platform/strata/commands/blobs/s3test"
)

// contract is the behaviour every blob store keeps, run against each
// implementation.
var contract = []struct {
	name string
	run  func(t *testing.T, s blobs.Store)
}{
	{"stage commit open exists remove", testLifecycle},
	{"staged content is invisible until committed, discarded leaves nothing", testStagedInvisible},
	{"commit is idempotent and equal content is kept once", testIdempotentCommit},
	{"owners are isolated", testOwnerIsolation},
	{"reads seek to ranges", testRanges},
	{"size limit", testLimits},
	{"names that are not plain are refused", testNames},
	{"missing blob is os.ErrNotExist", testMissing},
	{"content larger than one upload part", testLarge},
}

func runContract(t *testing.T, newStore func(t *testing.T) blobs.Store) {
	for _, c := range contract {
		t.Run(c.name, func(t *testing.T) { c.run(t, newStore(t)) })
	}
}

func TestLocalContract(t *testing.T) {
	t.Parallel()
	runContract(t, func(t *testing.T) blobs.Store { return blobs.NewLocal(t.TempDir()) })
}

func TestS3Contract(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3-compatible server")
	}
	t.Parallel()
	srv := s3test.Start(t)
	s3, err := blobs.NewS3(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := s3.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	// One server for the table: owners are unique per case so they do not meet.
	runContract(t, func(t *testing.T) blobs.Store { return s3 })
	missing := srv.Config
	missing.Bucket = "no-such-bucket"
	other, err := blobs.NewS3(missing)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "no-such-bucket") {
		t.Fatalf("a missing bucket passes the check: %v", err)
	}
}

// owner returns an owner name unique to the test case.
func owner(t *testing.T, suffix string) string {
	sum := sha256.Sum256([]byte(t.Name()))
	return "co" + hex.EncodeToString(sum[:6]) + suffix
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func read(t *testing.T, s blobs.Store, owner, d string) []byte {
	t.Helper()
	b, err := s.Open(context.Background(), owner, d)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer b.Close()
	got, err := io.ReadAll(b)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if b.Size() != int64(len(got)) || b.ModTime().IsZero() {
		t.Fatalf("size %d for %d bytes, mod time %v", b.Size(), len(got), b.ModTime())
	}
	return got
}

func put(t *testing.T, s blobs.Store, owner string, content []byte) string {
	t.Helper()
	st, err := s.Stage(context.Background(), owner, bytes.NewReader(content), 64<<20)
	if err != nil {
		t.Fatalf("stage: %v", err)
	}
	if err := st.Commit(context.Background()); err != nil {
		t.Fatalf("commit: %v", err)
	}
	return st.SHA256
}

func testLifecycle(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	content := bytes.Repeat([]byte("cap table "), 1000)
	st, err := s.Stage(ctx, co, bytes.NewReader(content), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if st.SHA256 != digest(content) || st.Size != int64(len(content)) || !bytes.Equal(st.Head, content[:512]) {
		t.Fatalf("staged %s %d head %d", st.SHA256, st.Size, len(st.Head))
	}
	if err := st.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, co, st.SHA256); err != nil || !ok {
		t.Fatalf("exists after commit: %v %v", ok, err)
	}
	if got := read(t, s, co, st.SHA256); !bytes.Equal(got, content) {
		t.Fatal("content differs")
	}
	if err := s.Remove(ctx, co, st.SHA256); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, co, st.SHA256); err != nil || ok {
		t.Fatalf("exists after remove: %v %v", ok, err)
	}
	if err := s.Remove(ctx, co, st.SHA256); err != nil {
		t.Fatalf("removing an absent blob: %v", err)
	}
}

func testStagedInvisible(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	st, err := s.Stage(ctx, co, strings.NewReader("not yet"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Exists(ctx, co, st.SHA256); err != nil || ok {
		t.Fatalf("staged content visible before commit: %v %v", ok, err)
	}
	if _, err := s.Open(ctx, co, st.SHA256); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("staged content opens before commit: %v", err)
	}
	if err := st.Discard(); err != nil {
		t.Fatal(err)
	}
	if err := st.Discard(); err != nil {
		t.Fatalf("second discard: %v", err)
	}
	if ok, _ := s.Exists(ctx, co, st.SHA256); ok {
		t.Fatal("discarded content stored")
	}
}

func testIdempotentCommit(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	content := []byte("same bytes twice")
	st, err := s.Stage(ctx, co, bytes.NewReader(content), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // a command decided again after a version clash commits again
		if err := st.Commit(ctx); err != nil {
			t.Fatalf("commit %d: %v", i, err)
		}
	}
	if d := put(t, s, co, content); d != st.SHA256 {
		t.Fatalf("digest %s, want %s", d, st.SHA256)
	}
	if got := read(t, s, co, st.SHA256); !bytes.Equal(got, content) {
		t.Fatal("content differs")
	}
}

func testOwnerIsolation(t *testing.T, s blobs.Store) {
	ctx, a, b := context.Background(), owner(t, "a"), owner(t, "b")
	d := put(t, s, a, []byte("tenant a's file"))
	if ok, err := s.Exists(ctx, b, d); err != nil || ok {
		t.Fatalf("owner b sees a's blob: %v %v", ok, err)
	}
	if _, err := s.Open(ctx, b, d); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("owner b opens a's blob: %v", err)
	}
	put(t, s, b, []byte("tenant a's file"))
	if err := s.Remove(ctx, b, d); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Exists(ctx, a, d); !ok {
		t.Fatal("removing b's copy removed a's")
	}
}

func testRanges(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	content := make([]byte, 100_000)
	for i := range content {
		content[i] = byte(i * 7)
	}
	d := put(t, s, co, content)
	b, err := s.Open(ctx, co, d)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	end, err := b.Seek(0, io.SeekEnd)
	if err != nil || end != int64(len(content)) {
		t.Fatalf("seek end %d %v", end, err)
	}
	for _, off := range []int64{50_000, 10, 99_990} {
		if _, err := b.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 10)
		if _, err := io.ReadFull(b, got); err != nil {
			t.Fatalf("read at %d: %v", off, err)
		}
		if !bytes.Equal(got, content[off:off+10]) {
			t.Fatalf("bytes at %d differ", off)
		}
	}
}

func testLimits(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	if _, err := s.Stage(ctx, co, strings.NewReader("12345"), 4); !errors.Is(err, blobs.ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	st, err := s.Stage(ctx, co, strings.NewReader("1234"), 4)
	if err != nil || st.Size != 4 {
		t.Fatalf("at the limit: %v", err)
	}
	_ = st.Discard()
}

func testNames(t *testing.T, s blobs.Store) {
	ctx := context.Background()
	for _, o := range []string{"", "../x", "a/b", strings.Repeat("a", 65)} {
		if _, err := s.Stage(ctx, o, strings.NewReader("x"), 4); err == nil {
			t.Errorf("owner %q accepted", o)
		}
	}
	for _, d := range []string{"../../etc/passwd", strings.Repeat("A", 64), "abc"} {
		if _, err := s.Open(ctx, "co1", d); err == nil || errors.Is(err, os.ErrNotExist) {
			t.Errorf("digest %q: %v", d, err)
		}
		if _, err := s.Exists(ctx, "co1", d); err == nil {
			t.Errorf("exists with digest %q accepted", d)
		}
		if err := s.Remove(ctx, "co1", d); err == nil {
			t.Errorf("remove with digest %q accepted", d)
		}
	}
}

func testMissing(t *testing.T, s blobs.Store) {
	ctx, co := context.Background(), owner(t, "")
	d := digest([]byte("never stored"))
	if _, err := s.Open(ctx, co, d); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing blob: %v", err)
	}
	if ok, err := s.Exists(ctx, co, d); err != nil || ok {
		t.Fatalf("missing blob exists: %v %v", ok, err)
	}
}

// testLarge stores 20 MiB (more than minio-go's 16 MiB part: a multipart
// upload on S3) and reads it back whole.
func testLarge(t *testing.T, s blobs.Store) {
	if testing.Short() {
		t.Skip("20 MiB")
	}
	co := owner(t, "")
	content := bytes.Repeat([]byte("0123456789abcdef"), 20<<20/16)
	d := put(t, s, co, content)
	if got := read(t, s, co, d); digest(got) != d {
		t.Fatal("large content differs")
	}
}
