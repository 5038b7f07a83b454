package transcribe

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// How pocketsphinx's words are grouped into segments: a new segment starts
// at a pause of at least segmentPause between two words (the decoder's own
// utterance breaks need longer silences, so they always split), or when the
// segment has reached segmentMax in time or segmentChars in text (about two
// caption lines).
const (
	segmentPause = 300 * time.Millisecond
	segmentMax   = 7 * time.Second
	segmentChars = 84
)

// parseWordTimes reads pocketsphinx_continuous -time yes output: per
// utterance, a hypothesis line, then one "WORD START END POSTERIOR" line per
// word or filler (<s>, </s>, <sil>, [NOISE], ++...++), times in seconds
// from the audio's start. Hypothesis lines are skipped (the words carry the
// same text); fillers are dropped. Words come back in time order.
func parseWordTimes(out []byte) ([]Word, error) {
	var words []Word
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 {
			continue
		}
		var n [3]float64
		ok := true
		for i := range n {
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				ok = false
				break
			}
			n[i] = v
		}
		if !ok || filler(f[0]) {
			continue
		}
		if n[1] < n[0] {
			return nil, fmt.Errorf("transcribe: pocketsphinx: word %q ends (%v) before it starts (%v)", f[0], n[1], n[0])
		}
		words = append(words, Word{
			Start:      seconds(n[0]),
			End:        seconds(n[1]),
			Text:       trimVariant(f[0]),
			Confidence: new(clamp01(n[2])),
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("transcribe: pocketsphinx output: %w", err)
	}
	for i := 1; i < len(words); i++ {
		if words[i].Start < words[i-1].End {
			return nil, fmt.Errorf("transcribe: pocketsphinx: word %q at %v overlaps %q", words[i].Text, words[i].Start, words[i-1].Text)
		}
	}
	return words, nil
}

// filler reports the decoder's non-word tokens.
func filler(w string) bool {
	return strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "++")
}

// trimVariant drops a dictionary word's pronunciation-variant suffix:
// "the(2)" is "the".
func trimVariant(w string) string {
	base, num, ok := strings.Cut(w, "(")
	if !ok || !strings.HasSuffix(num, ")") || len(num) < 2 {
		return w
	}
	if _, err := strconv.Atoi(num[:len(num)-1]); err != nil {
		return w
	}
	return base
}

// seconds is s seconds as a Duration, to the millisecond the tool prints.
func seconds(s float64) time.Duration {
	return time.Duration(math.Round(s*1000)) * time.Millisecond
}

// segmentWords groups time-ordered words into segments (see segmentPause),
// times bounded by the audio's duration. A segment's confidence is the mean
// of its words' posteriors.
func segmentWords(words []Word, duration time.Duration) []Segment {
	var segs []Segment
	var cur []Word
	chars := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		s := Segment{Start: cur[0].Start, End: cur[len(cur)-1].End, Words: cur}
		texts := make([]string, len(cur))
		sum := 0.0
		for i, w := range cur {
			texts[i] = w.Text
			sum += *w.Confidence
		}
		s.Text = strings.Join(texts, " ")
		s.Confidence = new(sum / float64(len(cur)))
		segs = append(segs, s)
		cur, chars = nil, 0
	}
	for _, w := range words {
		w.Start, w.End = min(w.Start, duration), min(w.End, duration)
		if len(cur) > 0 {
			last := cur[len(cur)-1]
			if w.Start-last.End >= segmentPause || w.End-cur[0].Start > segmentMax || chars+1+len(w.Text) > segmentChars {
				flush()
			}
		}
		if len(cur) > 0 {
			chars++
		}
		chars += len(w.Text)
		cur = append(cur, w)
	}
	flush()
	return segs
}

// joinSegments is the transcript's text and its confidence: the mean of the
// segments' confidences weighted by their word counts (so the mean over
// all words for pocketsphinx), or by their durations when segments carry no
// words (OpenAI). Nil when no segment has a confidence.
func joinSegments(segs []Segment) (string, *float64) {
	texts := make([]string, 0, len(segs))
	var sum, weight float64
	for _, s := range segs {
		if t := strings.TrimSpace(s.Text); t != "" {
			texts = append(texts, t)
		}
		if s.Confidence == nil {
			continue
		}
		wt := float64(len(s.Words))
		if s.Words == nil {
			wt = max(s.End-s.Start, time.Millisecond).Seconds()
		}
		sum += *s.Confidence * wt
		weight += wt
	}
	text := strings.Join(texts, " ")
	if weight == 0 {
		return text, nil
	}
	return text, new(clamp01(sum / weight))
}
