// Package blobs is the platform's one blob store (files of documents,
// reports, submissions, media): content-addressed by SHA-256, one copy per
// owner (a company, a user), with two implementations behind one interface:
// Local, a directory for a single node, and S3, S3-compatible object storage
// that several processes on several machines share.
//
// Writing is two steps so that a crash can leave an unreferenced file but
// never a record without its bytes: Stage copies the content into a
// temporary file and hashes it (nothing is visible yet); the caller decides,
// then Commit makes the content durable in the store, and only after that is
// the event that refers to it appended.
//
// Owners keep separate copies of equal files on purpose: one tenant's upload
// never reveals (by deduplication) or pins another tenant's file.
package blobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"
)

// Store keeps blobs by owner and SHA-256. A missing blob is an error
// satisfying errors.Is(err, os.ErrNotExist).
type Store interface {
	// Stage copies r (at most max bytes; more is ErrTooLarge) into a
	// temporary file, hashing it. Nothing is visible in the store until
	// the returned Staged is committed.
	Stage(ctx context.Context, owner string, r io.Reader, max int64) (*Staged, error)
	// Open opens owner's blob with the given digest for reading and
	// seeking (ranges).
	Open(ctx context.Context, owner, digest string) (Blob, error)
	// Exists tells whether owner's blob with the given digest is stored.
	Exists(ctx context.Context, owner, digest string) (bool, error)
	// Remove deletes owner's blob with the given digest; absent is fine.
	Remove(ctx context.Context, owner, digest string) error
}

// Blob is an opened blob: its bytes (seekable, for Range requests), its
// size and when it was stored.
type Blob interface {
	io.ReadSeekCloser
	Size() int64
	ModTime() time.Time
}

// ErrTooLarge is returned by Stage when the content exceeds its limit.
var ErrTooLarge = errors.New("blobs: content exceeds the size limit")

var (
	ownerRE  = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
	digestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// checkName refuses an owner or digest that is not a plain name, so neither
// can reach outside its place (a path, an object key prefix).
func checkName(owner, digest string) error {
	if !ownerRE.MatchString(owner) || !digestRE.MatchString(digest) {
		return fmt.Errorf("blobs: invalid owner %q or digest %q", owner, digest)
	}
	return nil
}

// key is the blob's place relative to the store's root:
// <owner>/<first two hex digits>/<sha256 hex>.
func key(owner, digest string) string {
	return owner + "/" + digest[:2] + "/" + digest
}

// Staged is content written to a temporary file and hashed, not yet in the
// store: Commit makes it durable in the store, Discard drops it. Head holds
// its first bytes (up to 512) for content sniffing.
type Staged struct {
	SHA256 string
	Size   int64
	Head   []byte
	owner  string
	tmp    string
	done   bool
	put    func(ctx context.Context, st *Staged) error
}

// Commit makes the staged content durable in the store. It is idempotent:
// content already stored is kept, and a second Commit (a command decided
// again after a version clash) does nothing. Once it returns nil the bytes
// survive a crash, so the event that refers to them may be appended.
func (st *Staged) Commit(ctx context.Context) error {
	if st.done {
		return nil
	}
	if err := st.put(ctx, st); err != nil {
		return fmt.Errorf("blobs: commit %s of %s: %w", st.SHA256, st.owner, err)
	}
	st.done = true
	return st.Discard()
}

// Discard removes the staged temporary file, if it is still there.
func (st *Staged) Discard() error {
	if err := os.Remove(st.tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("blobs: discard staged upload: %w", err)
	}
	return nil
}

// stage copies r (at most max bytes) into a new temporary file in dir,
// hashing it and keeping its head, and syncs it to disk.
func stage(dir, owner string, r io.Reader, max int64, put func(context.Context, *Staged) error) (*Staged, error) {
	f, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return nil, fmt.Errorf("blobs: stage: %w", err)
	}
	st := &Staged{owner: owner, tmp: f.Name(), put: put}
	h := sha256.New()
	head := &headWriter{max: 512}
	n, err := io.Copy(io.MultiWriter(f, h, head), io.LimitReader(r, max+1))
	if err == nil && n > max {
		err = ErrTooLarge
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(st.tmp)
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("blobs: stage: %w", err)
	}
	st.SHA256, st.Size, st.Head = hex.EncodeToString(h.Sum(nil)), n, head.buf
	return st, nil
}

type headWriter struct {
	buf []byte
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
