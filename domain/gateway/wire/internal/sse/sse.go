// Package sse reads and writes the Server-Sent Events framing that both
// gateway wire formats stream in: "event:" and "data:" lines, an event
// dispatched by a blank line, comments (":") and other fields ignored.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine bounds one line of an upstream's stream (a data line carries one
// JSON chunk, a few KiB at most in practice).
const MaxLine = 8 << 20

// Event is one dispatched event: its name ("" when no event line came) and
// its data lines joined by "\n".
type Event struct {
	Name string
	Data []byte
}

// Reader reads events incrementally: each Next reads only as far as the
// blank line that ends the next event.
type Reader struct {
	r   *bufio.Reader
	err error
}

// NewReader reads events from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next event, or io.EOF after the last. Lines end in LF or
// CRLF. An event cut off by the end of the stream is still dispatched, as
// some servers omit the last blank line.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	var ev Event
	var data []byte
	seen, hasData := false, false // a data or event line, a data line of this event
	for {
		line, err := r.line()
		if err != nil {
			r.err = err
			if seen && errors.Is(err, io.EOF) {
				ev.Data = data
				return ev, nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if !seen {
				continue
			}
			ev.Data = data
			return ev, nil
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "event":
			ev.Name, seen = string(value), true
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data, seen, hasData = append(data, value...), true, true
		}
	}
}

// line reads one line without its end.
func (r *Reader) line() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, fmt.Errorf("sse: a line longer than %d bytes", MaxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(line) > 0 {
				return bytes.TrimSuffix(line, []byte("\r")), nil
			}
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}

// AppendEvent appends an event with a name and one data line to b.
func AppendEvent(b []byte, name string, data []byte) []byte {
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, '\n')
	return AppendData(b, data)
}

// AppendData appends a nameless event with one data line to b.
func AppendData(b []byte, data []byte) []byte {
	b = append(b, "data: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
