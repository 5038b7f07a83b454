package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
)

// journal is the debit recorder's local write-ahead: one directory per
// recorder (its owner id) under the journal's base directory, holding a
// lock file (flock'ed for the recorder's life: a directory whose lock can
// be taken belongs to a process that is gone) and numbered segment files
// of one debit event per line. Append writes a line with one write(2):
// once it returns the line is the kernel's, and survives any crash of the
// process. Rotate starts a new segment and returns the previous one's
// name, to remove once its lines are committed in PostgreSQL.
type journal struct {
	dir  string
	lock *os.File

	mu  sync.Mutex
	f   *os.File
	seq int
	n   int // lines in the current segment
}

const journalLock = "lock"

// openJournal creates and locks the recorder's directory under base.
func openJournal(base, owner string) (*journal, error) {
	dir := filepath.Join(base, owner)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("debit journal: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, journalLock), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("debit journal: %w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		return nil, fmt.Errorf("debit journal: %s is locked by another process: %w", dir, err)
	}
	j := &journal{dir: dir, lock: lock}
	if err := j.next(); err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

func segmentName(seq int) string { return fmt.Sprintf("seg-%09d.log", seq) }

// next opens the next segment; j.mu is held (or j is not shared yet).
func (j *journal) next() error {
	j.seq++
	f, err := os.OpenFile(filepath.Join(j.dir, segmentName(j.seq)), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("debit journal: %w", err)
	}
	j.f, j.n = f, 0
	return nil
}

// Append writes line (without its newline) to the current segment, and
// then calls queued with the lock held (so the order of the queue is the
// order of the journal and a rotation sees the line queued).
func (j *journal) Append(line []byte, queued func()) error {
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return errors.New("debit journal: closed")
	}
	if _, err := j.f.Write(buf); err != nil {
		return fmt.Errorf("debit journal: %w", err)
	}
	j.n++
	queued()
	return nil
}

// Rotate calls take with the lock held (the spooler takes its queue), and
// when the current segment has lines, closes it and opens the next one;
// it returns the closed segment's path ("" when it had none).
func (j *journal) Rotate(take func()) (string, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	take()
	if j.f == nil || j.n == 0 {
		return "", nil
	}
	old := j.f
	if err := j.next(); err != nil {
		j.seq-- // keep writing to the old segment
		return "", err
	}
	old.Close()
	return old.Name(), nil
}

// Sync flushes the segments still on disk to stable storage (when their
// lines cannot reach PostgreSQL for a while).
func (j *journal) Sync() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f != nil {
		_ = j.f.Sync()
	}
}

// close closes the current segment and gives up the lock; with remove,
// the (spooled) directory is removed first.
func (j *journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
	if j.lock != nil {
		j.lock.Close()
		j.lock = nil
	}
}

// removeIfEmpty removes the recorder's directory when no segment in it has
// a line (everything spooled), and closes the journal.
func (j *journal) removeIfEmpty() bool {
	j.mu.Lock()
	n := j.n
	j.mu.Unlock()
	if n > 0 {
		j.close()
		return false
	}
	segs, _ := filepath.Glob(filepath.Join(j.dir, "seg-*.log"))
	for _, s := range segs {
		if fi, err := os.Stat(s); err == nil && fi.Size() > 0 {
			j.close()
			return false
		}
	}
	j.close()
	return os.RemoveAll(j.dir) == nil
}

// orphanJournal is the journal directory of a recorder that is gone,
// locked by the recorder recovering it.
type orphanJournal struct {
	dir  string
	lock *os.File
}

// orphanJournals locks and returns the directories under base other than
// own whose lock nobody holds.
func orphanJournals(base, own string) ([]orphanJournal, error) {
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("debit journal: %w", err)
	}
	var out []orphanJournal
	for _, e := range entries {
		if !e.IsDir() || e.Name() == own {
			continue
		}
		dir := filepath.Join(base, e.Name())
		lock, err := os.OpenFile(filepath.Join(dir, journalLock), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			continue
		}
		if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			lock.Close() // its recorder is running
			continue
		}
		out = append(out, orphanJournal{dir: dir, lock: lock})
	}
	return out, nil
}

// lines returns every complete line of the orphan's segments, in order. A
// last line without its newline (a write cut by a crash of the machine)
// is not a line; bad reports how many were left out.
func (o orphanJournal) lines() (lines [][]byte, bad int, err error) {
	segs, err := filepath.Glob(filepath.Join(o.dir, "seg-*.log"))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(segs)
	for _, s := range segs {
		raw, err := os.ReadFile(s)
		if err != nil {
			return nil, 0, fmt.Errorf("debit journal: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
				lines = append(lines, append([]byte(nil), l...))
			}
		}
		if len(raw) > 0 && raw[len(raw)-1] != '\n' && len(lines) > 0 {
			lines, bad = lines[:len(lines)-1], bad+1
		}
	}
	return lines, bad, nil
}

// remove removes the orphan's directory (its lines are in PostgreSQL) and
// lets go of its lock.
func (o orphanJournal) remove() error {
	defer o.lock.Close()
	return os.RemoveAll(o.dir)
}

// release lets go of the orphan's lock, leaving it for a later recovery.
func (o orphanJournal) release() { o.lock.Close() }

// name is the orphan's owner id.
func (o orphanJournal) name() string { return strings.TrimSuffix(filepath.Base(o.dir), "/") }
