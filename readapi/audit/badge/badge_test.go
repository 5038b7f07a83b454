package badge

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/strata-platform/strata/domain/kernel"
)

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// boxSamples are points inside GradeBox away from the centred letter:
// near the corners and the middles of the edges.
func boxSamples() []image.Point {
	r := GradeBox
	in := 8
	return []image.Point{
		{r.Min.X + in, r.Min.Y + in},
		{r.Max.X - 1 - in, r.Min.Y + in},
		{r.Min.X + in, r.Max.Y - 1 - in},
		{r.Max.X - 1 - in, r.Max.Y - 1 - in},
		{(r.Min.X + r.Max.X) / 2, r.Min.Y + in},
		{(r.Min.X + r.Max.X) / 2, r.Max.Y - 1 - in},
		{r.Min.X + in, (r.Min.Y + r.Max.Y) / 2},
		{r.Max.X - 1 - in, (r.Min.Y + r.Max.Y) / 2},
		r.Min,
		r.Max.Sub(image.Pt(1, 1)),
	}
}

func TestRenderSizeAndGradeBoxColour(t *testing.T) {
	want := map[string]color.RGBA{
		"A+": {0x15, 0x80, 0x3D, 0xFF},
		"A":  {0x15, 0x80, 0x3D, 0xFF},
		"B":  {0xFA, 0xCC, 0x15, 0xFF},
		"C":  {0xB9, 0x1C, 0x1C, 0xFF},
		"D":  {0xB9, 0x1C, 0x1C, 0xFF},
		"F":  {0xB9, 0x1C, 0x1C, 0xFF},
	}
	for _, g := range Grades {
		t.Run(g, func(t *testing.T) {
			if GradeColour(g) != want[g] {
				t.Fatalf("GradeColour(%q) = %v, want %v", g, GradeColour(g), want[g])
			}
			b, err := Render(Input{Host: "example.com", Score: 87, Grade: g})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
				t.Fatal("not a PNG")
			}
			img := decode(t, b)
			if got := img.Bounds(); got != image.Rect(0, 0, Width, Height) || Width != 1200 || Height != 630 {
				t.Fatalf("bounds = %v, want 1200x630", got)
			}
			for _, p := range boxSamples() {
				if got := rgba(img.At(p.X, p.Y)); got != want[g] {
					t.Errorf("pixel %v = %v, want %v", p, got, want[g])
				}
			}
			// Just outside the box is the background, not the grade colour.
			for _, p := range []image.Point{GradeBox.Min.Sub(image.Pt(1, 1)), GradeBox.Max} {
				if got := rgba(img.At(p.X, p.Y)); got != background {
					t.Errorf("pixel %v outside the box = %v, want the background %v", p, got, background)
				}
			}
			// The letter is drawn: the box's centre row holds the ink colour.
			ink, y := inkColour(g), (GradeBox.Min.Y+GradeBox.Max.Y)/2
			found := false
			for x := GradeBox.Min.X; x < GradeBox.Max.X && !found; x++ {
				found = rgba(img.At(x, y)) == ink
			}
			if !found {
				t.Errorf("no %v letter pixel on the box's centre row", ink)
			}
		})
	}
}

func TestGradesGiveDifferentBoxColours(t *testing.T) {
	colourOf := func(g string) color.RGBA {
		b, err := Render(Input{Host: "example.com", Score: 50, Grade: g})
		if err != nil {
			t.Fatal(err)
		}
		p := boxSamples()[0]
		return rgba(decode(t, b).At(p.X, p.Y))
	}
	a, bb, f := colourOf("A"), colourOf("B"), colourOf("F")
	if a == bb || bb == f || a == f {
		t.Fatalf("box colours A %v, B %v, F %v: want all different", a, bb, f)
	}
	if colourOf("A+") != a || colourOf("C") != f || colourOf("D") != f {
		t.Fatal("A+ must share A's colour and C, D share F's")
	}
}

func TestRenderDeterministic(t *testing.T) {
	in := Input{Host: "shop.example.co.uk", Score: 73, Grade: "B"}
	first, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	cachedAgain, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := render(in) // bypasses the cache
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, cachedAgain) || !bytes.Equal(first, fresh) {
		t.Fatal("the same input rendered different bytes")
	}
	// The returned slice is the caller's: changing it does not touch the cache.
	first[len(first)-1] ^= 0xFF
	again, _ := Render(in)
	if bytes.Equal(first, again) {
		t.Fatal("Render returned the cache's own slice")
	}
	other, _ := Render(Input{Host: "shop.example.co.uk", Score: 74, Grade: "B"})
	if bytes.Equal(again, other) {
		t.Fatal("different scores rendered the same bytes")
	}
}

func TestETag(t *testing.T) {
	in := Input{Host: "example.com", Score: 87, Grade: "A"}
	tag := ETag(in)
	if len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' || strings.HasPrefix(tag, "W/") {
		t.Fatalf("ETag %s: want a strong quoted tag", tag)
	}
	if ETag(in) != tag {
		t.Fatal("ETag is not stable")
	}
	for _, other := range []Input{
		{Host: "example.org", Score: 87, Grade: "A"},
		{Host: "example.com", Score: 88, Grade: "A"},
		{Host: "example.com", Score: 87, Grade: "A+"},
	} {
		if ETag(other) == tag {
			t.Errorf("ETag(%+v) equals ETag(%+v)", other, in)
		}
	}
}

func TestCheck(t *testing.T) {
	ok := Input{Host: "example.com", Score: 0, Grade: "F"}
	if err := ok.Check(); err != nil {
		t.Fatalf("valid input refused: %v", err)
	}
	if err := (Input{Host: "example.com", Score: 100, Grade: "A+"}).Check(); err != nil {
		t.Fatalf("score 100 refused: %v", err)
	}
	cases := []struct {
		name  string
		in    Input
		field string
	}{
		{"score -1", Input{Host: "example.com", Score: -1, Grade: "A"}, "score"},
		{"score 101", Input{Host: "example.com", Score: 101, Grade: "A"}, "score"},
		{"grade E", Input{Host: "example.com", Score: 50, Grade: "E"}, "grade"},
		{"grade empty", Input{Host: "example.com", Score: 50, Grade: ""}, "grade"},
		{"grade lower case", Input{Host: "example.com", Score: 50, Grade: "a"}, "grade"},
		{"host empty", Input{Host: "", Score: 50, Grade: "A"}, "url"},
		{"host blank", Input{Host: "   ", Score: 50, Grade: "A"}, "url"},
		{"host too long", Input{Host: strings.Repeat("a", 254), Score: 50, Grade: "A"}, "url"},
		{"host control", Input{Host: "exa\nmple.com", Score: 50, Grade: "A"}, "url"},
		{"host bad utf8", Input{Host: "exa\xffmple.com", Score: 50, Grade: "A"}, "url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.in.Check()
			var ke *kernel.Error
			if !errors.As(err, &ke) {
				t.Fatalf("Check() = %v, want a *kernel.Error", err)
			}
			if !errors.Is(err, kernel.ErrInvalid) || ke.Field != c.field || ke.Rule == "" {
				t.Fatalf("Check() = %+v, want invalid on field %q with a rule", ke, c.field)
			}
			if _, err := Render(c.in); !errors.Is(err, kernel.ErrInvalid) {
				t.Fatalf("Render accepted invalid input: %v", err)
			}
		})
	}
	if err := (Input{Host: strings.Repeat("a", 253), Score: 1, Grade: "C"}).Check(); err != nil {
		t.Fatalf("253-character host refused: %v", err)
	}
}

func TestLongHostEllipsised(t *testing.T) {
	long := strings.Repeat("very-long-subdomain-label.", 9) + "example.com"
	b, err := Render(Input{Host: long, Score: 42, Grade: "D"})
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, b)
	// Nothing is drawn between the left column and the grade box.
	for y := 200; y < 280; y++ {
		for x := columnRight + 1; x < GradeBox.Min.X; x++ {
			if got := rgba(img.At(x, y)); got != background {
				t.Fatalf("host overflows its column: pixel (%d,%d) = %v", x, y, got)
			}
		}
	}
	fs, _ := loadFonts()
	f := face(fs.bold, 44)
	got := ellipsise(f, long, 300<<6)
	head, tail, ok := strings.Cut(got, "…")
	if !ok || head == "" || tail == "" || !strings.HasPrefix(long, head) || !strings.HasSuffix(long, tail) {
		t.Fatalf("ellipsise = %q: want the host's start, an ellipsis and its end", got)
	}
	if font.MeasureString(f, got) > 300<<6 || font.MeasureString(f, got) < 200<<6 {
		t.Fatalf("ellipsise = %q: %v wide, want close to but at most 300", got, font.MeasureString(f, got))
	}
	if got := ellipsise(f, long, fixed.I(columnRight-marginX)); !strings.HasSuffix(got, "example.com") {
		t.Fatalf("ellipsise to the column = %q: want the site's name kept", got)
	}
	if ellipsise(f, "a.io", 300<<6) != "a.io" {
		t.Fatal("a short host was ellipsised")
	}
}

// contrast is the WCAG 2 contrast ratio of two opaque colours.
func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			s := float64(v) / 255
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	l1, l2 := lum(a), lum(b)
	if l1 < l2 {
		l1, l2 = l2, l1
	}
	return (l1 + 0.05) / (l2 + 0.05)
}

func TestLetterContrast(t *testing.T) {
	for _, g := range append(Grades, "?") {
		if c := contrast(GradeColour(g), inkColour(g)); c < 4.5 {
			t.Errorf("grade %q: letter contrast %.2f:1, want at least 4.5:1", g, c)
		}
	}
}

// TestWriteSamples writes a badge per grade to BADGE_SAMPLES_DIR when it
// is set, for looking at.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("BADGE_SAMPLES_DIR")
	if dir == "" {
		t.Skip("BADGE_SAMPLES_DIR not set")
	}
	hosts := map[string]string{"A+": "stripe.com", "A": "example.com", "B": "shop.example.co.uk",
		"C": "a.io", "D": strings.Repeat("very-long-subdomain-label.", 9) + "example.com", "F": "legacy-intranet.example.org"}
	scores := map[string]int{"A+": 100, "A": 87, "B": 73, "C": 61, "D": 42, "F": 0}
	for _, g := range Grades {
		b, err := Render(Input{Host: hosts[g], Score: scores[g], Grade: g})
		if err != nil {
			t.Fatal(err)
		}
		name := strings.ReplaceAll(g, "+", "plus")
		if err := os.WriteFile(filepath.Join(dir, "badge-"+name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkRender measures an uncached render (draw and PNG encode).
func BenchmarkRender(b *testing.B) {
	in := Input{Host: "shop.example.co.uk", Score: 87, Grade: "A+"}
	if _, err := render(in); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderCached measures a repeated request's render (a cache hit).
func BenchmarkRenderCached(b *testing.B) {
	in := Input{Host: "shop.example.co.uk", Score: 87, Grade: "A+"}
	if _, err := Render(in); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}

// Renders run concurrently (run with -race): the fonts are shared, faces,
// canvases and scratch buffers are not.
func TestRenderConcurrent(t *testing.T) {
	want := make(map[string][]byte)
	for _, g := range Grades {
		b, err := render(Input{Host: "concurrent.example", Score: 64, Grade: g})
		if err != nil {
			t.Fatal(err)
		}
		want[g] = b
	}
	errs := make(chan error, 4*len(Grades))
	for range 4 {
		for _, g := range Grades {
			go func() {
				b, err := render(Input{Host: "concurrent.example", Score: 64, Grade: g})
				if err == nil && !bytes.Equal(b, want[g]) {
					err = errors.New("grade " + g + ": different bytes when rendered concurrently")
				}
				errs <- err
			}()
		}
	}
	for range 4 * len(Grades) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
