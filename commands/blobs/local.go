package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Local is a blob store in a directory, for a single node:
// <dir>/<owner>/<first two hex digits>/<sha256 hex>. Staged content is a
// temporary file in the owner's directory, synced, and renamed into place
// by Commit (the directory synced too), so a file is either whole or absent.
type Local struct{ dir string }

// NewLocal returns a store rooted at dir (created on first write).
func NewLocal(dir string) *Local { return &Local{dir: dir} }

// Stage copies r into a temporary file of owner's directory.
func (s *Local) Stage(_ context.Context, owner string, r io.Reader, max int64) (*Staged, error) {
	if !ownerRE.MatchString(owner) {
		return nil, fmt.Errorf("blobs: invalid owner %q", owner)
	}
	dir := filepath.Join(s.dir, owner)
	if err := mkdirSynced(dir); err != nil {
		return nil, fmt.Errorf("blobs: stage: %w", err)
	}
	return stage(dir, owner, r, max, s.put)
}

// put renames the staged file into place and syncs its directory; content
// already there is kept.
func (s *Local) put(_ context.Context, st *Staged) error {
	final, err := s.path(st.owner, st.SHA256)
	if err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		return nil
	}
	if err := mkdirSynced(filepath.Dir(final)); err != nil {
		return err
	}
	if err := os.Rename(st.tmp, final); err != nil {
		return err
	}
	return syncDir(filepath.Dir(final))
}

// Open opens owner's blob with the given digest.
func (s *Local) Open(_ context.Context, owner, digest string) (Blob, error) {
	p, err := s.path(owner, digest)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("blobs: open: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("blobs: open: %w", err)
	}
	return &localBlob{File: f, size: info.Size(), mod: info.ModTime()}, nil
}

type localBlob struct {
	*os.File
	size int64
	mod  time.Time
}

func (b *localBlob) Size() int64        { return b.size }
func (b *localBlob) ModTime() time.Time { return b.mod }

// Exists tells whether owner's blob with the given digest is stored.
func (s *Local) Exists(_ context.Context, owner, digest string) (bool, error) {
	p, err := s.path(owner, digest)
	if err != nil {
		return false, err
	}
	_, err = os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("blobs: exists: %w", err)
	}
	return true, nil
}

// Remove deletes owner's blob with the given digest (absent is fine).
func (s *Local) Remove(_ context.Context, owner, digest string) error {
	p, err := s.path(owner, digest)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("blobs: remove: %w", err)
	}
	return nil
}

func (s *Local) path(owner, digest string) (string, error) {
	if err := checkName(owner, digest); err != nil {
		return "", err
	}
	return filepath.Join(s.dir, filepath.FromSlash(key(owner, digest))), nil
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
