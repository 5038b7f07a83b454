package media

import (
	"strings"
	"testing"
	"time"
)

func TestParseColor(t *testing.T) {
	for _, c := range []struct {
		in      string
		r, g, b uint8
	}{
		{"#FFFF00", 255, 255, 0},
		{"#ffff00", 255, 255, 0},
		{"#1a2B3c", 0x1a, 0x2b, 0x3c},
		{"#000000", 0, 0, 0},
		{"#F80", 0xff, 0x88, 0x00},
		{"#fff", 255, 255, 255},
		{"white", 255, 255, 255},
		{"Yellow", 255, 255, 0},
		{" red ", 255, 0, 0},
		{"navy", 0, 0, 128},
		{"grey", 128, 128, 128},
		{"orange", 255, 165, 0},
	} {
		r, g, b, err := ParseColor(c.in)
		if err != nil || r != c.r || g != c.g || b != c.b {
			t.Errorf("ParseColor(%q) = %d,%d,%d, %v; want %d,%d,%d", c.in, r, g, b, err, c.r, c.g, c.b)
		}
	}
	for _, in := range []string{"", "#", "#12", "#1234", "#12345", "#1234567", "#GG0000", "FFFF00", "0xFFFF00", "rgb(1,2,3)", "chartreuse-ish", "#ff00 0"} {
		if _, _, _, err := ParseColor(in); err == nil || !strings.Contains(err.Error(), `want "#RRGGBB", "#RGB" or a basic colour name`) {
			t.Errorf("ParseColor(%q): err = %v, want the rule", in, err)
		}
	}
}

func TestWriteASS(t *testing.T) {
	var b strings.Builder
	cues := []Cue{
		{Start: 1500 * time.Millisecond, End: 3 * time.Second, Lines: []string{"{\\b1}bold?", `C:\new\path`}},
		{Start: 3 * time.Second, End: 62*time.Minute + 4567*time.Millisecond, Lines: []string{"one\ntwo", "a\\{b}"}},
		{Start: 70 * time.Second, End: 71 * time.Second, Lines: []string{"  "}}, // no text: left out
	}
	if err := WriteASS(&b, cues, CaptionStyle{FontColor: "yellow", Position: "top"}, 720, 1280); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		"PlayResX: 720\n", "PlayResY: 1280\n",
		// DejaVu Sans, 1280/24 px, yellow as &H00BBGGRR (alpha 00), top centre (8).
		"Style: Caption,DejaVu Sans,53,&H0000FFFF,",
		",8,36,36,64,1\n",
		"Dialogue: 0,0:00:01.50,0:00:03.00,Caption,,0,0,0,,\\{\\b1\\}bold?\\NC:\\\u2060new\\path\n",
		"Dialogue: 0,0:00:03.00,1:02:04.57,Caption,,0,0,0,,one\\Ntwo\\Na\\\\{b\\}\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "Dialogue:") != 2 {
		t.Errorf("want 2 events (the blank cue left out):\n%s", s)
	}

	b.Reset()
	if err := WriteASS(&b, nil, CaptionStyle{FontColor: "#FF8000", FontSize: 30}, 640, 360); err != nil {
		t.Fatal(err)
	}
	if want := "Style: Caption,DejaVu Sans,30,&H000080FF,"; !strings.Contains(b.String(), want) {
		t.Errorf("script lacks %q:\n%s", want, b.String())
	}
	if want := ",2,32,32,18,1\n"; !strings.Contains(b.String(), want) {
		t.Errorf("default position is not bottom centre (%q):\n%s", want, b.String())
	}

	for _, bad := range []struct {
		cues  []Cue
		style CaptionStyle
		w, h  int
		want  string
	}{
		{nil, CaptionStyle{FontColor: "mauve-ish"}, 720, 1280, "font colour"},
		{nil, CaptionStyle{Position: "left"}, 720, 1280, "want bottom, middle or top"},
		{nil, CaptionStyle{FontSize: -1}, 720, 1280, "font size"},
		{nil, CaptionStyle{}, 0, 1280, "0x1280"},
		{[]Cue{{Start: 2 * time.Second, End: time.Second, Lines: []string{"x"}}}, CaptionStyle{}, 720, 1280, "cue 0"},
	} {
		if err := WriteASS(&b, bad.cues, bad.style, bad.w, bad.h); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("WriteASS(%+v, %+v, %dx%d): err = %v, want %q", bad.cues, bad.style, bad.w, bad.h, err, bad.want)
		}
	}
}

func TestEscapeASS(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"{x}":             `\{x\}`,
		`\N`:              "\\\u2060N",
		`\n \h \b`:        "\\\u2060n \\\u2060h \\b",
		`\\N`:             "\\\\\u2060N",
		`\{`:              `\\{`,
		"a\r\nb\rc\nd\te": `a\Nb\Nc\Nd e`,
		"bell\a":          "bell ",
	} {
		if got := escapeASS(in); got != want {
			t.Errorf("escapeASS(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestASSTime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                       "0:00:00.00",
		1234 * time.Millisecond: "0:00:01.23",
		1235 * time.Millisecond: "0:00:01.24",
		time.Hour + 61*time.Second + 5*time.Millisecond: "1:01:01.01",
	} {
		if got := assTime(d); got != want {
			t.Errorf("assTime(%v) = %q, want %q", d, got, want)
		}
	}
}
