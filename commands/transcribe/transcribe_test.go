package transcribe

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// decoded is pocketsphinx_continuous -time yes output for two espeak-ng
// sentences three seconds apart (captured from Debian's 0.8+5prealpha).
const decoded = `hello world it is a test of a voice service
<s> 0.000 0.020 1.000100
hello 0.030 0.280 0.531914
world 0.290 0.700 0.999200
it 0.710 0.830 0.167410
is 0.840 0.960 0.944210
a 0.970 0.990 0.595199
<sil> 1.000 1.040 0.973748
test 1.050 1.330 0.087040
of 1.340 1.450 0.579689
a 1.460 1.570 0.294657
voice 1.580 1.900 0.207405
service(2) 1.910 2.320 0.916576
</s> 2.330 2.860 1.000000
please call me back tomorrow morning
<s> 5.620 5.710 0.999700
please 5.720 6.010 0.354509
call 6.020 6.330 0.452670
me 6.340 6.480 0.873353
back 6.490 6.740 0.495553
<sil> 6.750 6.780 0.830173
tomorrow 6.790 7.180 0.999700
morning 7.190 7.660 0.999400
</s> 7.670 7.970 1.000000
`

func TestParseAndSegment(t *testing.T) {
	words, err := parseWordTimes([]byte(decoded))
	if err != nil {
		t.Fatal(err)
	}
	if len(words) != 16 || words[9].Text != "service" || words[0].Start != 30*time.Millisecond {
		t.Fatalf("words %+v", words)
	}
	segs := segmentWords(words, 7980*time.Millisecond)
	if len(segs) != 2 {
		t.Fatalf("segments %+v", segs)
	}
	if segs[0].Text != "hello world it is a test of a voice service" || segs[0].Start != 30*time.Millisecond || segs[0].End != 2320*time.Millisecond {
		t.Errorf("segment 0 %q %v-%v", segs[0].Text, segs[0].Start, segs[0].End)
	}
	if segs[1].Text != "please call me back tomorrow morning" || segs[1].Start != 5720*time.Millisecond || len(segs[1].Words) != 6 {
		t.Errorf("segment 1 %+v", segs[1])
	}
	mean := (0.354509 + 0.452670 + 0.873353 + 0.495553 + 0.999700 + 0.999400) / 6
	if c := *segs[1].Confidence; c < mean-1e-9 || c > mean+1e-9 {
		t.Errorf("segment 1 confidence %v, want the mean posterior %v", c, mean)
	}
	text, conf := joinSegments(segs)
	if text != segs[0].Text+" "+segs[1].Text || conf == nil || *conf <= 0 || *conf >= 1 {
		t.Errorf("%q %v", text, conf)
	}

	// The end is bounded by the audio; an over-1 posterior is clamped.
	words, _ = parseWordTimes([]byte("yes 0.10 0.50 1.000100\n"))
	segs = segmentWords(words, 400*time.Millisecond)
	if segs[0].End != 400*time.Millisecond || *segs[0].Confidence != 1 {
		t.Errorf("%+v", segs[0])
	}
	if _, err := parseWordTimes([]byte("a 1.0 2.0 0.5\nb 1.5 2.5 0.5\n")); err == nil {
		t.Error("overlapping words accepted")
	}
	if words, _ := parseWordTimes(nil); segmentWords(words, time.Second) != nil {
		t.Error("silence gave segments")
	}
}

func TestSegmentCaps(t *testing.T) {
	var words []Word
	for i := range 40 { // one word every 250 ms, no pauses
		at := time.Duration(i) * 250 * time.Millisecond
		words = append(words, Word{Start: at, End: at + 240*time.Millisecond, Text: "word", Confidence: new(0.5)})
	}
	segs := segmentWords(words, time.Minute)
	if len(segs) < 3 {
		t.Fatalf("%d segments", len(segs))
	}
	for i, s := range segs {
		if s.End-s.Start > segmentMax || len(s.Text) > segmentChars {
			t.Errorf("segment %d spans %v, %d characters", i, s.End-s.Start, len(s.Text))
		}
	}
}

func TestPick(t *testing.T) {
	de := openai(t, OpenAIConfig{BaseURL: "http://127.0.0.1:1", Languages: []string{"de", "en"}})
	anyLang := openai(t, OpenAIConfig{BaseURL: "http://127.0.0.1:2", Model: "whisper-large-v3"})
	pick := Pick(de, anyLang)
	for lang, want := range map[string]Transcriber{"de-AT": de, "": de, "EN-us": de, "fr": anyLang} {
		if got, err := pick(lang); err != nil || got != want {
			t.Errorf("pick(%q) = %v, %v", lang, got, err)
		}
	}
	_, err := Pick(de)("fr")
	var le *LanguageError
	if !errors.As(err, &le) || !errors.Is(err, ErrLanguage) || le.Language != "fr" || len(le.Engines) != 1 {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`"fr"`, de.Name() + " serves de, en", "OpenAI-compatible", "pocketsphinx with a fr acoustic model"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
	if _, err := Pick()("en"); !errors.Is(err, ErrLanguage) || !strings.Contains(err.Error(), "no engine configured") ||
		!strings.Contains(err.Error(), "pocketsphinx-en-us") {
		t.Errorf("no engines: %v", err)
	}
	if _, err := de.Transcribe(context.Background(), Audio{Language: "de"}); err == nil || errors.Is(err, ErrLanguage) {
		t.Errorf("no audio: %v", err)
	}
}

func TestPickOffline(t *testing.T) {
	p := offline(t, PocketsphinxConfig{})
	o := openai(t, OpenAIConfig{BaseURL: "http://127.0.0.1:1"})
	pick := Pick(p, o)
	if got, _ := pick("en"); got != p {
		t.Errorf("en went to %v", got)
	}
	if got, _ := pick("fr"); got != o {
		t.Errorf("fr went to %v", got)
	}
	_, err := Pick(p)("fr")
	if !errors.Is(err, ErrLanguage) || !strings.Contains(err.Error(), p.Name()+" serves en-US") {
		t.Errorf("err = %v", err)
	}
}
