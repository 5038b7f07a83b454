package runtime

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRingLog(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name     string
		lines    int
		bytes    int
		writes   []string
		tail     int
		want     string
		maxBytes int // when set, check the bound instead of want
	}{
		{name: "whole lines", writes: []string{"a\nb\n"}, want: "a\nb"},
		{name: "partial line kept", writes: []string{"a\nb"}, want: "a\nb"},
		{name: "line split across writes", writes: []string{"he", "llo\nwor", "ld\n"}, want: "hello\nworld"},
		{name: "crlf", writes: []string{"a\r\nb\r\n"}, want: "a\nb"},
		{name: "line bound", lines: 3, writes: []string{"1\n2\n3\n4\n5\n"}, want: "3\n4\n5"},
		{name: "byte bound", lines: 100, bytes: 6, writes: []string{"aa\nbb\ncc\ndd\n"}, want: "bb\ncc\ndd"},
		{name: "tail n", writes: []string{"1\n2\n3\n"}, tail: 2, want: "2\n3"},
		{name: "tail larger than held", writes: []string{"1\n2\n"}, tail: 10, want: "1\n2"},
		{name: "long line cut", writes: []string{long + "\n"}, want: long[:maxLineBytes-len(cutMark)] + cutMark},
		{name: "long partial line flushed", writes: []string{long}, want: long[:maxLineBytes-len(cutMark)] + cutMark},
		{name: "invalid utf-8 and NUL", writes: []string{"a\xffb\x00c\n"}, want: "a\uFFFDb\uFFFDc"},
		{name: "many writes stay bounded", lines: 50, bytes: 1000, writes: manyLines(10000), maxBytes: 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRingLog(tc.lines, tc.bytes)
			for _, w := range tc.writes {
				if n, err := r.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			got := r.Tail(tc.tail)
			if !utf8.ValidString(got) || strings.ContainsRune(got, 0) {
				t.Fatalf("tail is not clean text: %q", got)
			}
			if tc.maxBytes > 0 {
				if n := len(got) - strings.Count(got, "\n"); n > tc.maxBytes {
					t.Fatalf("tail holds %d bytes, bound %d", n, tc.maxBytes)
				}
				if lines := strings.Count(got, "\n") + 1; lines > tc.lines {
					t.Fatalf("tail holds %d lines, bound %d", lines, tc.lines)
				}
				return
			}
			if got != tc.want {
				t.Fatalf("Tail(%d) = %q, want %q", tc.tail, got, tc.want)
			}
		})
	}
}

func TestRingLogLineFlushesPartial(t *testing.T) {
	t.Parallel()
	r := NewRingLog(0, 0)
	_, _ = r.Write([]byte("no newline yet"))
	r.Line("[runtime] exited: exit status 1")
	if got, want := r.Tail(0), "no newline yet\n[runtime] exited: exit status 1"; got != want {
		t.Fatalf("Tail = %q, want %q", got, want)
	}
}

func manyLines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d\n", i)
	}
	return out
}
