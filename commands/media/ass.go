package media

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// Cue is one caption: its lines, already broken, shown from Start to End.
type Cue struct {
	Start, End time.Duration
	Lines      []string
}

// CaptionStyle is how captions are drawn.
type CaptionStyle struct {
	// FontSize is the font's size in pixels at the video's height; 0 is
	// the default, a 24th of the height.
	FontSize int
	// FontColor is "#RRGGBB", "#RGB" or a basic colour name (see
	// ParseColor); "" is white. The text has a black outline.
	FontColor string
	// Position is "bottom" (the default, also for ""), "middle" or "top".
	Position string
}

// CaptionFont is the font family captions and titles are drawn in (Debian
// package fonts-dejavu-core).
const CaptionFont = "DejaVu Sans"

// colourNames are CSS's basic colour keywords (and grey, cyan, magenta and
// orange).
var colourNames = map[string][3]uint8{
	"black": {0, 0, 0}, "silver": {192, 192, 192}, "gray": {128, 128, 128},
	"grey": {128, 128, 128}, "white": {255, 255, 255}, "maroon": {128, 0, 0},
	"red": {255, 0, 0}, "purple": {128, 0, 128}, "fuchsia": {255, 0, 255},
	"magenta": {255, 0, 255}, "green": {0, 128, 0}, "lime": {0, 255, 0},
	"olive": {128, 128, 0}, "yellow": {255, 255, 0}, "navy": {0, 0, 128},
	"blue": {0, 0, 255}, "teal": {0, 128, 128}, "aqua": {0, 255, 255},
	"cyan": {0, 255, 255}, "orange": {255, 165, 0},
}

// colourRule is what ParseColor accepts, for its errors.
const colourRule = `want "#RRGGBB", "#RGB" or a basic colour name (black, silver, gray, white, maroon, red, purple, fuchsia, green, lime, olive, yellow, navy, blue, teal, aqua, orange)`

// ParseColor reads "#RRGGBB", "#RGB" (hexadecimal digits in either case)
// or a CSS basic colour name (case-insensitive). Anything else is an error
// that states the rule.
func ParseColor(s string) (r, g, b uint8, err error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if c, ok := colourNames[t]; ok {
		return c[0], c[1], c[2], nil
	}
	bad := fmt.Errorf("media: colour %q: %s", s, colourRule)
	if !strings.HasPrefix(t, "#") {
		return 0, 0, 0, bad
	}
	hex := t[1:]
	var v [6]uint8
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			return 0, 0, 0, bad
		}
		if i < len(v) {
			v[i] = c
		}
	}
	switch len(hex) {
	case 6:
		return v[0]<<4 | v[1], v[2]<<4 | v[3], v[4]<<4 | v[5], nil
	case 3:
		return v[0] * 17, v[1] * 17, v[2] * 17, nil
	}
	return 0, 0, 0, bad
}

// assColour is an ASS colour, &HAABBGGRR with alpha aa (0 opaque).
func assColour(r, g, b, alpha uint8) string {
	return fmt.Sprintf("&H%02X%02X%02X%02X", alpha, b, g, r)
}

// style is an ASS style line's variable fields.
type style struct {
	name             string
	size             int
	colour           string // ASS
	bold             bool
	outline          int
	alignment        int // numpad: 2 bottom, 5 middle, 8 top (centred)
	marginH, marginV int
}

// captionStyle resolves s for a WxH video.
func captionStyle(s CaptionStyle, width, height int) (style, error) {
	size := s.FontSize
	if size < 0 {
		return style{}, fmt.Errorf("media: font size %d: want 0 (default) or more", size)
	}
	if size == 0 {
		size = max(8, height/24)
	}
	r, g, b := uint8(255), uint8(255), uint8(255)
	if s.FontColor != "" {
		var err error
		if r, g, b, err = ParseColor(s.FontColor); err != nil {
			return style{}, fmt.Errorf("media: font colour: %w", err)
		}
	}
	st := style{name: "Caption", size: size, colour: assColour(r, g, b, 0), bold: true,
		outline: max(1, size/16), marginH: width / 20, marginV: height / 20}
	switch strings.ToLower(strings.TrimSpace(s.Position)) {
	case "", "bottom":
		st.alignment = 2
	case "middle":
		st.alignment = 5
	case "top":
		st.alignment = 8
	default:
		return style{}, fmt.Errorf("media: caption position %q: want bottom, middle or top", s.Position)
	}
	return st, nil
}

// WriteASS writes cues as an Advanced SubStation Alpha (v4.00+) script for
// a width x height video, drawn in CaptionFont styled by style. A cue's
// lines are joined with \N; in the text, "{" and "}" are escaped as \{ and
// \}, a backslash that would start \N, \n or \h is kept literal by a word
// joiner (U+2060) after it, and line breaks inside a line become \N. Cues
// without text are left out; a cue ending before it starts is an error.
func WriteASS(w io.Writer, cues []Cue, style CaptionStyle, width, height int) error {
	st, err := captionStyle(style, width, height)
	if err != nil {
		return err
	}
	return writeASS(w, cues, st, nil, width, height)
}

// title is a line of text shown by its own style for a time.
type title struct {
	style style
	text  string
	end   time.Duration
}

// writeASS writes the script: the caption style, the title's if any, the
// title's event and the cues'.
func writeASS(w io.Writer, cues []Cue, cs style, ti *title, width, height int) error {
	if width <= 0 || height <= 0 {
		return fmt.Errorf("media: ASS script for a %dx%d video", width, height)
	}
	for i, c := range cues {
		if c.Start < 0 || c.End < c.Start {
			return fmt.Errorf("media: cue %d: from %v to %v: want 0 <= start <= end", i, c.Start, c.End)
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "[Script Info]\nScriptType: v4.00+\nPlayResX: %d\nPlayResY: %d\nWrapStyle: 0\nScaledBorderAndShadow: yes\nYCbCr Matrix: None\n\n", width, height)
	bw.WriteString("[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n")
	styles := []style{cs}
	if ti != nil {
		styles = append(styles, ti.style)
	}
	for _, s := range styles {
		bold := 0
		if s.bold {
			bold = -1
		}
		fmt.Fprintf(bw, "Style: %s,%s,%d,%s,&H000000FF,&H00000000,&H80000000,%d,0,0,0,100,100,0,0,1,%d,0,%d,%d,%d,%d,1\n",
			s.name, CaptionFont, s.size, s.colour, bold, s.outline, s.alignment, s.marginH, s.marginH, s.marginV)
	}
	bw.WriteString("\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
	if ti != nil && strings.TrimSpace(ti.text) != "" {
		fmt.Fprintf(bw, "Dialogue: 0,%s,%s,%s,,0,0,0,,%s\n", assTime(0), assTime(ti.end), ti.style.name, escapeASS(ti.text))
	}
	for _, c := range cues {
		var lines []string
		for _, l := range c.Lines {
			lines = append(lines, escapeASS(l))
		}
		if strings.TrimSpace(strings.Join(c.Lines, "")) == "" || c.End == c.Start {
			continue
		}
		text := strings.Join(lines, `\N`)
		fmt.Fprintf(bw, "Dialogue: 0,%s,%s,%s,,0,0,0,,%s\n", assTime(c.Start), assTime(c.End), cs.name, text)
	}
	return bw.Flush()
}

// assTime is d as ASS's H:MM:SS.cc, rounded to the centisecond.
func assTime(d time.Duration) string {
	cs := (d + 5*time.Millisecond) / (10 * time.Millisecond)
	return fmt.Sprintf("%d:%02d:%02d.%02d", cs/360000, cs/6000%60, cs/100%60, cs%100)
}

// escapeASS makes s literal ASS event text on one line.
func escapeASS(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			b.WriteString(`\{`)
		case '}':
			b.WriteString(`\}`)
		case '\n':
			b.WriteString(`\N`)
		case '\t':
			b.WriteByte(' ')
		case '\\':
			b.WriteByte('\\')
			if i+1 < len(s) && strings.IndexByte("Nnh", s[i+1]) >= 0 {
				b.WriteString("\u2060")
			}
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteByte(' ')
				continue
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}
