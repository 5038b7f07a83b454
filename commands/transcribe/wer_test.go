package transcribe

import (
	"strings"
	"testing"
	"unicode"
)

// words is s lower-cased, split on anything but letters, digits and
// apostrophes.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// wer is the word error rate of hyp against ref: (substitutions +
// deletions + insertions) / len(ref) by word-level Levenshtein distance.
func wer(ref, hyp string) float64 {
	r, h := words(ref), words(hyp)
	if len(r) == 0 {
		return float64(len(h))
	}
	prev := make([]int, len(h)+1)
	cur := make([]int, len(h)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(h); j++ {
			sub := prev[j-1]
			if r[i-1] != h[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(h)]) / float64(len(r))
}

// stopwords are the function words left out of contentRecall.
func stopwords() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a an the this that is are was be to of for in on at by with and or " +
		"me my you your i we it after about") {
		m[w] = true
	}
	return m
}

// contentRecall is the share of ref's content words (stopwords left out)
// found in hyp, each hyp word matching once.
func contentRecall(ref, hyp string) float64 {
	stop := stopwords()
	have := map[string]int{}
	for _, w := range words(hyp) {
		have[w]++
	}
	n, found := 0, 0
	for _, w := range words(ref) {
		if stop[w] {
			continue
		}
		n++
		if have[w] > 0 {
			have[w]--
			found++
		}
	}
	if n == 0 {
		return 1
	}
	return float64(found) / float64(n)
}

func TestWER(t *testing.T) {
	for _, c := range []struct {
		ref, hyp string
		want     float64
	}{
		{"hello world", "hello world", 0},
		{"hello world", "Hello, world!", 0},
		{"hello big world", "hello world", 1.0 / 3},
		{"hello world", "yellow world again", 1},
		{"a b c d", "", 1},
	} {
		if got := wer(c.ref, c.hyp); got != c.want {
			t.Errorf("wer(%q, %q) = %v, want %v", c.ref, c.hyp, got, c.want)
		}
	}
	if got := contentRecall("please call me back tomorrow", "please fall back to morrow"); got != 0.5 {
		t.Errorf("contentRecall = %v, want 0.5 (please, back of please, call, back, tomorrow)", got)
	}
}
