package runtime

import (
	"bytes"
	"strings"
	"sync"
)

// Default bounds of an instance's log ring.
const (
	DefaultLogLines = 200      // lines kept
	DefaultLogBytes = 64 << 10 // bytes kept, over all lines
	maxLineBytes    = 4 << 10  // a longer line is cut and marked
	cutMark         = " [line cut]"
)

// RingLog keeps the last lines written to it, bounded both in lines and in
// bytes. It is an io.Writer for a process's stdout and stderr: writes are
// split into lines (a partial last line is kept until its newline comes),
// lines longer than 4 KiB are cut, and text is made valid UTF-8 without NUL
// bytes so that a tail can go into events and JSON as it is. It is safe for
// concurrent use.
type RingLog struct {
	mu       sync.Mutex
	maxLines int
	maxBytes int
	lines    []string // ring of at most maxLines lines
	start    int      // index of the oldest line in lines
	n        int      // number of lines held
	bytes    int      // total bytes of the lines held
	partial  []byte   // bytes after the last newline
}

// NewRingLog returns a ring keeping at most maxLines lines and maxBytes
// bytes; zero or negative values take the defaults (200 lines, 64 KiB).
func NewRingLog(maxLines, maxBytes int) *RingLog {
	if maxLines <= 0 {
		maxLines = DefaultLogLines
	}
	if maxBytes <= 0 {
		maxBytes = DefaultLogBytes
	}
	return &RingLog{maxLines: maxLines, maxBytes: maxBytes, lines: make([]string, maxLines)}
}

// Write adds p to the ring. It never fails and always reports len(p).
func (r *RingLog) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.partial = append(r.partial, rest...)
			if len(r.partial) > maxLineBytes {
				r.push(string(r.partial))
				r.partial = r.partial[:0]
			}
			break
		}
		r.partial = append(r.partial, rest[:i]...)
		r.push(string(r.partial))
		r.partial = r.partial[:0]
		rest = rest[i+1:]
	}
	return len(p), nil
}

// Line adds one whole line (the runtime's own notes, such as an exit status).
func (r *RingLog) Line(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.partial) > 0 {
		r.push(string(r.partial))
		r.partial = r.partial[:0]
	}
	r.push(s)
}

// push appends one line, evicting the oldest until both bounds hold. The
// caller holds r.mu.
func (r *RingLog) push(s string) {
	s = clean(strings.TrimSuffix(s, "\r"))
	if len(s) > maxLineBytes {
		s = strings.ToValidUTF8(s[:maxLineBytes-len(cutMark)], "") + cutMark
	}
	if len(s) > r.maxBytes {
		s = strings.ToValidUTF8(s[:r.maxBytes], "")
	}
	for r.n > 0 && (r.n == r.maxLines || r.bytes+len(s) > r.maxBytes) {
		r.bytes -= len(r.lines[r.start])
		r.lines[r.start] = ""
		r.start = (r.start + 1) % r.maxLines
		r.n--
	}
	r.lines[(r.start+r.n)%r.maxLines] = s
	r.n++
	r.bytes += len(s)
}

// Tail returns the last n lines (all of them when n <= 0 or n is larger than
// what is held), joined by newlines, including a partial last line.
func (r *RingLog) Tail(n int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, r.n+1)
	for i := range r.n {
		out = append(out, r.lines[(r.start+i)%r.maxLines])
	}
	if len(r.partial) > 0 {
		out = append(out, clean(string(r.partial)))
	}
	if n > 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

// clean makes s valid UTF-8 without NUL bytes.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}
