// Package blobs is a content-addressed file store under the data directory:
// each file is kept once per owner (a company) under its SHA-256, written to
// a temporary file, synced, and renamed into place, so a file is either
// whole or absent. Events record the digest; the bytes live here.
//
// Layout: <dir>/<owner>/<first two hex digits>/<sha256 hex>. Owners keep
// separate copies of equal files on purpose: one tenant's upload never
// reveals (by deduplication) or pins another tenant's file.
package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// Store is a content-addressed blob store rooted at a directory.
type Store struct{ dir string }

// New returns a store rooted at dir (created on first write).
func New(dir string) *Store { return &Store{dir: dir} }

// ErrTooLarge is returned by Stage when the content exceeds its limit.
var ErrTooLarge = errors.New("blobs: content exceeds the size limit")

var (
	ownerRE  = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
	digestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// Staged is content written to a temporary file and hashed, not yet in the
// store: Commit moves it into place, Discard drops it. Head holds its first
// bytes (up to 512) for content sniffing.
type Staged struct {
	SHA256 string
	Size   int64
	Head   []byte
	owner  string
	tmp    string
	s      *Store
}

// Stage copies r (at most max bytes; more is ErrTooLarge) into a temporary
// file of owner's directory, hashing it, and syncs it to disk.
func (s *Store) Stage(owner string, r io.Reader, max int64) (*Staged, error) {
	if !ownerRE.MatchString(owner) {
		return nil, fmt.Errorf("blobs: invalid owner %q", owner)
	}
	dir := filepath.Join(s.dir, owner)
	if err := mkdirSynced(dir); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return nil, err
	}
	st := &Staged{owner: owner, tmp: f.Name(), s: s}
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
		return nil, err
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

// Commit moves the staged content into the store (idempotent: content
// already there is kept and the temporary file dropped) and syncs the
// directory, so the file survives a crash once Commit returns.
func (st *Staged) Commit() error {
	final, err := st.s.path(st.owner, st.SHA256)
	if err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		return st.Discard()
	}
	if err := mkdirSynced(filepath.Dir(final)); err != nil {
		return err
	}
	if err := os.Rename(st.tmp, final); err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

// Discard removes the staged temporary file, if it is still there.
func (st *Staged) Discard() error {
	if err := os.Remove(st.tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Open opens owner's blob with the given digest; a missing blob is an
// error satisfying errors.Is(err, os.ErrNotExist).
func (s *Store) Open(owner, digest string) (*os.File, error) {
	p, err := s.path(owner, digest)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// Remove deletes owner's blob with the given digest (absent is fine).
func (s *Store) Remove(owner, digest string) error {
	p, err := s.path(owner, digest)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func (s *Store) path(owner, digest string) (string, error) {
	if !ownerRE.MatchString(owner) || !digestRE.MatchString(digest) {
		return "", fmt.Errorf("blobs: invalid owner %q or digest %q", owner, digest)
	}
	return filepath.Join(s.dir, owner, digest[:2], digest), nil
}

// mkdirSynced creates dir and any missing parents, syncing the parent of
// each directory it creates, so the new entries survive a crash.
func mkdirSynced(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirSynced(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return syncDir(filepath.Dir(dir))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
