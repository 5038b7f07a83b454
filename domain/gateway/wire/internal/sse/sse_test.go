package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReader(t *testing.T) {
	in := ": comment\r\n\r\nevent: a\r\ndata: {\"x\":1}\r\n\r\n\n\ndata:two\ndata: lines\nid: 7\nretry: 10\n\ndata:\n\nevent: last\ndata: cut"
	want := []Event{{Name: "a", Data: []byte(`{"x":1}`)}, {Data: []byte("two\nlines")}, {Data: []byte{}}, {Name: "last", Data: []byte("cut")}}
	// One byte at a time, so that every line is split across reads.
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	var got []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Data == nil {
			ev.Data = []byte{}
		}
		got = append(got, ev)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %v", err)
	}
}

func TestReaderLongLine(t *testing.T) {
	r := NewReader(strings.NewReader("data: " + strings.Repeat("x", MaxLine) + "\n\n"))
	if _, err := r.Next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("a line over MaxLine: %v", err)
	}
	long := strings.Repeat("y", 200<<10) // longer than the read buffer
	r = NewReader(strings.NewReader("data: " + long + "\n\n"))
	if ev, err := r.Next(); err != nil || string(ev.Data) != long {
		t.Fatalf("a long line: %v (%d bytes)", err, len(ev.Data))
	}
}

func TestAppend(t *testing.T) {
	b := AppendEvent(nil, "ping", []byte(`{"type":"ping"}`))
	b = AppendData(b, []byte("[DONE]"))
	if string(b) != "event: ping\ndata: {\"type\":\"ping\"}\n\ndata: [DONE]\n\n" {
		t.Fatalf("%q", b)
	}
}
