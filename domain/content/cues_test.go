package content_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/asticode/go-astisub"

	"github.com/strata-platform/strata/domain/content"
)

// speech times words at a steady rate (wordsPerSecond) with a pause after
// every sentence.
func speech(text string, wordsPerSecond float64, pause time.Duration) []content.TimedWord {
	var out []content.TimedWord
	at := 500 * time.Millisecond
	step := time.Duration(float64(time.Second) / wordsPerSecond)
	for _, w := range strings.Fields(text) {
		out = append(out, content.TimedWord{Start: at, End: at + step*9/10, Text: w})
		at += step
		if strings.HasSuffix(w, ".") {
			at += pause
		}
	}
	return out
}

const script = "Strata turns one script into a week of posts. Every caption is checked against the platform's rules before it is scheduled. " +
	"Nothing is posted twice, and nothing is invented. Supercalifragilisticexpialidociousnessesandmoreletters is one long word. " +
	"The dispatcher publishes each item within a minute of its time, and the founder decides what happens to an unconfirmed post."

func TestCuesFollowTheReadableCaptionRules(t *testing.T) {
	r := content.DefaultCueRules
	for _, rate := range []float64{1.5, 2.5, 3.5, 5} {
		words := speech(script, rate, 1200*time.Millisecond)
		cues := content.BuildCues(words, r)
		var got []string
		for i, c := range cues {
			if len(c.Lines) == 0 || len(c.Lines) > r.MaxLines {
				t.Fatalf("rate %.1f cue %d: %d lines", rate, i, len(c.Lines))
			}
			for _, l := range c.Lines {
				if n := utf8.RuneCountInString(l); n > r.MaxLineChars && !strings.Contains(l, "Supercali") {
					t.Fatalf("rate %.1f cue %d: line of %d characters: %q", rate, i, n, l)
				}
			}
			d := c.End - c.Start
			if d > r.MaxDuration {
				t.Fatalf("rate %.1f cue %d on screen %v", rate, i, d)
			}
			next := time.Duration(1 << 62)
			if i+1 < len(cues) {
				next = cues[i+1].Start
				if c.End > next {
					t.Fatalf("rate %.1f cue %d overlaps the next", rate, i)
				}
			}
			if d < r.MinDuration && c.End != next {
				t.Fatalf("rate %.1f cue %d on screen only %v", rate, i, d)
			}
			cps := float64(utf8.RuneCountInString(c.Text())) / d.Seconds()
			if cps > r.MaxCPS+0.01 && c.End != next && d != r.MaxDuration {
				t.Fatalf("rate %.1f cue %d reads at %.1f characters a second though it could stay longer", rate, i, cps)
			}
			got = append(got, c.Text())
		}
		// (a word longer than a line is cut across lines: compare without spaces)
		if strings.ReplaceAll(strings.Join(got, " "), " ", "") != strings.ReplaceAll(script, " ", "") {
			t.Fatalf("rate %.1f: the cues lose or change words:\n%s", rate, strings.Join(got, "|"))
		}
	}
}

func TestLinesAreBalanced(t *testing.T) {
	cues := content.BuildCues(speech("one two three four five six seven eight nine ten eleven twelve thirteen", 3, 0), content.DefaultCueRules)
	if len(cues) != 1 || len(cues[0].Lines) != 2 {
		t.Fatalf("cues: %+v", cues)
	}
	a, b := utf8.RuneCountInString(cues[0].Lines[0]), utf8.RuneCountInString(cues[0].Lines[1])
	if a-b > 12 || b-a > 12 {
		t.Fatalf("unbalanced lines %q / %q", cues[0].Lines[0], cues[0].Lines[1])
	}
}

func TestSpreadWordsKeepsTheSegmentsSpan(t *testing.T) {
	ws := content.SpreadWords(2*time.Second, 5*time.Second, "a longer sentence here")
	if len(ws) != 4 || ws[0].Start != 2*time.Second || ws[3].End != 5*time.Second {
		t.Fatalf("%+v", ws)
	}
	for i := 1; i < len(ws); i++ {
		if ws[i].Start != ws[i-1].End || ws[i].End <= ws[i].Start {
			t.Fatalf("gap or overlap at %d: %+v", i, ws)
		}
	}
	if content.SpreadWords(time.Second, time.Second, "x") != nil || content.SpreadWords(0, time.Second, " ") != nil {
		t.Fatal("an empty span or text gives words")
	}
}

// TestSRTAndVTTParseBack: a subtitle library reads both files back with the
// same cues, times and text.
func TestSRTAndVTTParseBack(t *testing.T) {
	words := speech(script+" Tom & Jerry <3 captions.", 2.5, time.Second)
	cues := content.BuildCues(words, content.DefaultCueRules)
	srt, err := astisub.ReadFromSRT(strings.NewReader(content.SRT(cues)))
	if err != nil {
		t.Fatalf("SRT does not parse: %v\n%s", err, content.SRT(cues))
	}
	vtt, err := astisub.ReadFromWebVTT(strings.NewReader(content.VTT(cues)))
	if err != nil {
		t.Fatalf("WebVTT does not parse: %v\n%s", err, content.VTT(cues))
	}
	for name, subs := range map[string]*astisub.Subtitles{"srt": srt, "vtt": vtt} {
		if len(subs.Items) != len(cues) {
			t.Fatalf("%s: %d items, want %d", name, len(subs.Items), len(cues))
		}
		for i, it := range subs.Items {
			c := cues[i]
			if it.StartAt != c.Start.Truncate(time.Millisecond) || it.EndAt != c.End.Truncate(time.Millisecond) {
				t.Fatalf("%s item %d: %v-%v, want %v-%v", name, i, it.StartAt, it.EndAt, c.Start, c.End)
			}
			var lines []string
			for _, l := range it.Lines {
				lines = append(lines, l.String())
			}
			if strings.TrimSpace(strings.Join(lines, " ")) != c.Text() {
				t.Fatalf("%s item %d: %q, want %q", name, i, strings.Join(lines, " "), c.Text())
			}
		}
	}
	if !strings.Contains(content.VTT(cues), "Tom &amp; Jerry &lt;3") {
		t.Fatal("WebVTT text is not escaped")
	}
}
