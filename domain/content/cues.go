package content

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// CueRules are the readable-caption rules cues are built by (the common
// broadcast and streaming guidelines: at most two lines of 42 characters,
// on screen between 5/6 of a second and 7 seconds, about 17 characters a
// second of reading).
type CueRules struct {
	MaxLineChars int
	MaxLines     int
	MinDuration  time.Duration
	MaxDuration  time.Duration
	MaxCPS       float64
	// Pause starts a new cue at a silence at least this long between words.
	Pause time.Duration
}

// DefaultCueRules are the rules the captions use.
var DefaultCueRules = CueRules{MaxLineChars: 42, MaxLines: 2, MinDuration: 5 * time.Second / 6, MaxDuration: 7 * time.Second,
	MaxCPS: 17, Pause: time.Second}

// TimedWord is a recognised word with its times from the audio's start.
type TimedWord struct {
	Start, End time.Duration
	Text       string
}

// Cue is one caption on screen.
type Cue struct {
	Start, End time.Duration
	Lines      []string
}

// Text is the cue's lines joined by a space.
func (c Cue) Text() string { return strings.Join(c.Lines, " ") }

// SpreadWords times the words of a segment that has no word times (an
// engine that reports segments only): each word gets a share of the
// segment's span proportional to its length.
func SpreadWords(start, end time.Duration, text string) []TimedWord {
	fields := strings.Fields(text)
	total := 0
	for _, f := range fields {
		total += utf8.RuneCountInString(f) + 1
	}
	if total == 0 || end <= start {
		return nil
	}
	out := make([]TimedWord, 0, len(fields))
	at, span := start, end-start
	for _, f := range fields {
		d := span * time.Duration(utf8.RuneCountInString(f)+1) / time.Duration(total)
		out = append(out, TimedWord{Start: at, End: at + d, Text: f})
		at += d
	}
	out[len(out)-1].End = end
	return out
}

// BuildCues groups timed words into cues under r: a cue ends before a word
// that would not fit its lines, would keep it on screen past MaxDuration,
// or follows a pause; after a sentence's end once the cue holds half its
// room. Each cue stays up at least MinDuration and long enough to be read
// at MaxCPS, as far as the next cue's start and MaxDuration allow (speech
// faster than that is shown as fast as it is spoken).
func BuildCues(words []TimedWord, r CueRules) []Cue {
	var groups [][]TimedWord
	var cur []TimedWord
	room := r.MaxLineChars * r.MaxLines
	for _, w := range words {
		w.Text = strings.TrimSpace(w.Text)
		if w.Text == "" {
			continue
		}
		if len(cur) > 0 {
			last := cur[len(cur)-1]
			next := append(append([]TimedWord(nil), cur...), w)
			split := w.Start-last.End >= r.Pause || w.End-cur[0].Start > r.MaxDuration || layout(next, r) == nil ||
				(endsSentence(last.Text) && chars(cur) >= room/2)
			if split {
				groups = append(groups, cur)
				cur = nil
			}
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	cues := make([]Cue, 0, len(groups))
	for i, g := range groups {
		start, end := g[0].Start, g[len(g)-1].End
		read := time.Duration(float64(chars(g)) / r.MaxCPS * float64(time.Second))
		end = max(end, start+r.MinDuration, start+read)
		limit := start + r.MaxDuration
		if i+1 < len(groups) {
			limit = min(limit, groups[i+1][0].Start)
		}
		end = min(end, max(limit, g[len(g)-1].End))
		lines := layout(g, r)
		if lines == nil {
			lines = hardLines(g, r)
		}
		cues = append(cues, Cue{Start: start, End: end, Lines: lines})
	}
	return cues
}

func endsSentence(s string) bool {
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!")
}

func chars(ws []TimedWord) int {
	n := -1
	for _, w := range ws {
		n += utf8.RuneCountInString(w.Text) + 1
	}
	return max(n, 0)
}

// layout breaks the words into at most MaxLines lines of at most
// MaxLineChars, as balanced as possible (the shortest longest line); nil
// when they do not fit.
func layout(ws []TimedWord, r CueRules) []string {
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.Text
	}
	one := strings.Join(texts, " ")
	if utf8.RuneCountInString(one) <= r.MaxLineChars {
		return []string{one}
	}
	if r.MaxLines < 2 {
		return nil
	}
	best, bestLen := -1, 0
	for cut := 1; cut < len(texts); cut++ {
		a, b := strings.Join(texts[:cut], " "), strings.Join(texts[cut:], " ")
		la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
		if la > r.MaxLineChars || lb > r.MaxLineChars {
			continue
		}
		if longest := max(la, lb); best < 0 || longest < bestLen {
			best, bestLen = cut, longest
		}
	}
	if best < 0 {
		return nil
	}
	return []string{strings.Join(texts[:best], " "), strings.Join(texts[best:], " ")}
}

// hardLines cuts a cue whose single word is longer than a line into
// line-long pieces (at most MaxLines; the rest is dropped into the last).
func hardLines(ws []TimedWord, r CueRules) []string {
	var texts []string
	for _, w := range ws {
		texts = append(texts, w.Text)
	}
	rs := []rune(strings.Join(texts, " "))
	var lines []string
	for len(rs) > 0 && len(lines) < r.MaxLines-1 {
		n := min(len(rs), r.MaxLineChars)
		lines = append(lines, string(rs[:n]))
		rs = rs[n:]
	}
	if len(rs) > 0 {
		lines = append(lines, string(rs))
	}
	return lines
}

// SRT writes cues as SubRip: numbered from 1, times HH:MM:SS,mmm.
func SRT(cues []Cue) string {
	var b strings.Builder
	for i, c := range cues {
		fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, stamp(c.Start, ','), stamp(c.End, ','), strings.Join(c.Lines, "\n"))
	}
	return b.String()
}

// VTT writes cues as WebVTT (times HH:MM:SS.mmm; &, < and > escaped).
func VTT(cues []Cue) string {
	var b strings.Builder
	b.WriteString("WEBVTT\n\n")
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	for _, c := range cues {
		lines := make([]string, len(c.Lines))
		for i, l := range c.Lines {
			lines[i] = esc.Replace(l)
		}
		fmt.Fprintf(&b, "%s --> %s\n%s\n\n", stamp(c.Start, '.'), stamp(c.End, '.'), strings.Join(lines, "\n"))
	}
	return b.String()
}

func stamp(d time.Duration, sep byte) string {
	if d < 0 {
		d = 0
	}
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, sep, ms%1000)
}
