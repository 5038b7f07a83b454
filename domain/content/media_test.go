package content

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/kernel"
)

func TestSentencesSplitAtEndsAndLines(t *testing.T) {
	got := Sentences("Hello there. How are you?\nFine!  Thanks… ok\n...\n3.5 apples cost 2 dollars.")
	want := []string{"Hello there.", "How are you?", "Fine!", "Thanks…", "ok", "3.5 apples cost 2 dollars."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Sentences = %q, want %q", got, want)
	}
}

func TestCreditsAreTenASecondToTheMillisecond(t *testing.T) {
	for _, c := range []struct {
		sec  float64
		want int64
	}{{1, 10_000_000}, {12.345, 123_450_000}, {0.0004, 0}, {30, 300_000_000}} {
		if got := CreditsFor(c.sec); got != c.want {
			t.Errorf("CreditsFor(%v) = %d, want %d", c.sec, got, c.want)
		}
	}
	if got := Seconds(12345678 * time.Microsecond); got != 12.346 {
		t.Errorf("Seconds = %v", got)
	}
}

func TestCheckScript(t *testing.T) {
	for _, c := range []struct {
		in   string
		rule string
	}{{"", "required"}, {"   ", "required"}, {"...", "words"}, {strings.Repeat("a", 5001), "max_length:5000"}, {"Hi.", ""}} {
		err := CheckScript("script", c.in)
		var ke *kernel.Error
		switch {
		case c.rule == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.rule != "" && (!errors.As(err, &ke) || ke.Rule != c.rule || ke.Field != "script"):
			t.Errorf("%q: got %v, want rule %s", c.in, err, c.rule)
		}
	}
}

func TestBurnInStyleNormalize(t *testing.T) {
	s, err := BurnInStyle{}.Normalize()
	if err != nil || s != DefaultBurnIn {
		t.Fatalf("defaults: %+v %v", s, err)
	}
	s, err = BurnInStyle{FontSize: 30, FontColor: "Yellow", Position: "TOP"}.Normalize()
	if err != nil || s.FontColor != "#FFFF00" || s.Position != "top" || s.FontSize != 30 {
		t.Fatalf("named: %+v %v", s, err)
	}
	if s, _ = (BurnInStyle{FontColor: "#a1b"}).Normalize(); s.FontColor != "#AA11BB" {
		t.Fatalf("#RGB: %s", s.FontColor)
	}
	for field, bad := range map[string]BurnInStyle{"font_size": {FontSize: 5}, "font_color": {FontColor: "#12345G"},
		"position": {Position: "left"}} {
		var ke *kernel.Error
		if _, err := bad.Normalize(); !errors.As(err, &ke) || ke.Field != field {
			t.Errorf("%s: got %v", field, err)
		}
	}
}

var voices = ReelDefaults{Voices: []string{"flite-slt", "flite-rms"}}

func TestParseReelsAcceptsAHundredRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("\ufeffscript,platform,voice_id\n")
	for i := range 100 {
		fmt.Fprintf(&b, "\"Reel number %d, with a comma.\",short_video,flite-slt\n", i)
	}
	rows, errs, err := ParseReels([]byte(b.String()), voices)
	if err != nil || len(errs) != 0 || len(rows) != 100 {
		t.Fatalf("rows %d errs %v err %v", len(rows), errs, err)
	}
	if rows[99].Row != 100 || rows[99].Line != 101 || rows[0].Script != "Reel number 0, with a comma." {
		t.Fatalf("row numbering: %+v", rows[99])
	}
}

func TestParseReelsRefusesRow101WithForbidden(t *testing.T) {
	var b strings.Builder
	b.WriteString("script,platform,voice_id\n")
	for i := range 101 {
		fmt.Fprintf(&b, "Reel %d.,short_video,flite-slt\n", i)
	}
	_, _, err := ParseReels([]byte(b.String()), voices)
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindForbidden || !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("101 rows: %v", err)
	}
}

func TestParseReelsReportsEveryBadCellByRowAndColumn(t *testing.T) {
	csv := "script,platform,voice_id\nGood one.,short_video,flite-slt\n,tiktok,nobody\nFine.,,\n"
	rows, errs, err := ParseReels([]byte(csv), ReelDefaults{Voices: voices.Voices, VoiceID: "flite-rms"})
	if err != nil || len(rows) != 3 {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range errs {
		got[fmt.Sprintf("%d/%s", e.Row, e.Column)] = e.Rule
	}
	want := map[string]string{"2/script": "required", "2/platform": "enum", "2/voice_id": "voice", "3/platform": "required"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("errors %v, want %v", got, want)
	}
	if rows[2].VoiceID != "flite-rms" {
		t.Fatalf("the twin's voice is the default: %+v", rows[2])
	}
}

func TestParseReelsRefusesFilesThatAreNotTheCSV(t *testing.T) {
	for name, in := range map[string]string{"empty": "", "header only": "script\n", "unknown column": "script,voice\nhi.,x\n",
		"no script": "platform\nshort_video\n", "bad quote": "script\n\"unterminated\n", "binary": "script\n\x00\n",
		"duplicate column": "script,script\na.,b.\n"} {
		_, _, err := ParseReels([]byte(in), voices)
		var ke *kernel.Error
		if !errors.As(err, &ke) || ke.Field != "csv_file" || ke.Kind != kernel.KindInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestBatchStatusAndProgress(t *testing.T) {
	var b Batch
	b.Apply(&BatchAccepted{BatchID: "b", Rows: []ReelRow{{Row: 1}, {Row: 2}}})
	if b.Status() != TaskQueued || b.Progress() != 0 {
		t.Fatal(b.Status())
	}
	b.Apply(&ReelStarted{Row: 1})
	b.Apply(&ReelRendered{Row: 1})
	if b.Status() != TaskProcessing || b.Progress() != 50 {
		t.Fatal(b.Status(), b.Progress())
	}
	b.Apply(&ReelFailed{Row: 2})
	if b.Status() != TaskDone || b.Progress() != 100 {
		t.Fatal(b.Status())
	}
	b.Apply(&ReelFailed{Row: 7}) // out of range: ignored
}

func TestTwinColours(t *testing.T) {
	bg, fg := TwinColours(Twin{ID: "x", PlatformDefaults: map[string]map[string]any{"short_video": {"background": "#112233"}}}, "photo_network")
	if bg != "#112233" || fg != "#FFFFFF" {
		t.Fatal(bg, fg)
	}
	bg, _ = TwinColours(Twin{ID: "y"}, "")
	if !isHexColour(bg) {
		t.Fatal(bg)
	}
}

func TestLocalScriptsAreMostlyLatin(t *testing.T) {
	for in, want := range map[string]bool{"Hello there.": true, "¿Dónde está la estación?": true, "你好，世界。今天天气很好。": false,
		"Привет, мир.": false, "Hello 你好世界今天": false, "Hi 你": true, "123 456.": false} {
		if got := LatinScript(in); got != want {
			t.Errorf("LatinScript(%q) = %v, want %v", in, got, want)
		}
	}
	var ke *kernel.Error
	if err := CheckLocalScript("script", "你好，世界。"); !errors.As(err, &ke) || ke.Kind != kernel.KindUnprocessable || ke.Rule != "latin_script" {
		t.Fatalf("a Chinese script: %v", err)
	}
	_, errs, err := ParseReels([]byte("script,platform,voice_id\n你好，世界。,short_video,flite-slt\n"), voices)
	if err != nil || len(errs) != 1 || errs[0].Column != "script" || errs[0].Rule != "latin_script" {
		t.Fatalf("a Chinese reel: %v %v", errs, err)
	}
}
