package mail

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Mailbox is the development stand-in Sender used when no SMTP URL is
// configured. It does not deliver mail: each message is written as an .eml
// file into a directory and its path is logged.
type Mailbox struct {
	dir    string
	logger *slog.Logger
}

// NewMailbox returns a Mailbox writing into dir (created on first Send).
// A nil logger means slog.Default().
func NewMailbox(dir string, logger *slog.Logger) *Mailbox {
	if logger == nil {
		logger = slog.Default()
	}
	return &Mailbox{dir: dir, logger: logger}
}

// Send writes m, built as by Build with DefaultFrom, to
// <dir>/<UTC timestamp>-<random>.eml with mode 0600. The file appears under
// its final name only once complete.
func (m *Mailbox) Send(ctx context.Context, msg Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	data, err := Build(DefaultFrom, msg, now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return fmt.Errorf("mail: dev mailbox: %w", err)
	}
	suffix, err := randomHex(4)
	if err != nil {
		return err
	}
	path := filepath.Join(m.dir, now.UTC().Format("20060102T150405.000000000Z")+"-"+suffix+".eml")
	if err := writeAtomic(path, data); err != nil {
		return fmt.Errorf("mail: dev mailbox: %w", err)
	}
	m.logger.InfoContext(ctx, "mail written to dev mailbox",
		"to", msg.To, "subject", msg.Subject, "path", path)
	return nil
}

// Messages returns the paths of the .eml files in the mailbox, oldest
// first. A mailbox directory that does not exist yet holds no messages.
func (m *Mailbox) Messages() ([]string, error) {
	entries, err := os.ReadDir(m.dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mail: dev mailbox: %w", err)
	}
	var paths []string // ReadDir sorts by name; names start with a fixed-width UTC timestamp
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".eml") && !strings.HasPrefix(e.Name(), ".") {
			paths = append(paths, filepath.Join(m.dir, e.Name()))
		}
	}
	return paths, nil
}

// writeAtomic writes data to a hidden temporary file beside path and
// renames it into place, so a reader never sees a partial file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".incoming-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
