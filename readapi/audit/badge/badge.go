// Package badge renders the agent-readiness audit's shareable badge: a
// 1200x630 PNG (the Open Graph card size) showing the audited host, the
// score out of 100 and the grade in a box of the grade's colour. It is
// pure Go: the Go fonts shipped with golang.org/x/image are embedded in
// the binary, parsed once, and drawn with font.Drawer.
//
// A render is deterministic (the same Input gives the same bytes), so the
// ETag is derived from the input and RendererVersion alone and a client's
// If-None-Match can be answered without drawing anything. Rendered PNGs
// are kept in a bounded LRU cache (512 badges) keyed by that ETag. The
// image is encoded as an 8-bit paletted PNG (see canvas), about 15-20 KB.
//
// Layout (pixels, origin top left), on a dark slate background:
//
//	y 0-12      a stripe in the grade colour across the top
//	y ~140-170  "Agent-readiness audit" (regular, 40 px, light slate)
//	y ~215-260  the host (bold, 60 px, white; 44 px, then ellipsised in
//	            the middle, when it does not fit the 660 px left column)
//	y ~330-445  the score: "87" (bold, 150 px, white) and " / 100"
//	            (regular, 64 px, muted slate)
//	y 480-496   a score bar: the score's share of the column, grade colour
//	GradeBox    x 800-1120, y 130-450: filled with GradeColour, the grade
//	            letter centred in it (bold, up to 220 px, white or, on
//	            yellow, near-black); "GRADE" captioned under it
//	y 540       a divider; "rubric v1 · 7 checks" in the footer (28 px)
package badge

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/strata-platform/strata/domain/kernel"
)

// Width and Height are the badge's size in pixels (an Open Graph image).
const Width, Height = 1200, 630

// RubricVersion is the rubric the footer names ("rubric v1"). It mirrors
// the audit domain's rubric version; when that changes, change this (and
// so RendererVersion) with it.
const RubricVersion = "1"

// RendererVersion is folded into every ETag. Bump it whenever the drawing
// changes (layout, colours, fonts, text) so cached badges are revalidated
// and re-rendered.
const RendererVersion = "ax-badge-1/rubric-" + RubricVersion

// MaxHostLength is the longest host Check accepts (a DNS name's limit).
const MaxHostLength = 253

// cacheSize bounds the cache of rendered PNGs (each is some tens of KB).
const cacheSize = 512

// GradeBox is the rectangle filled with GradeColour, the grade letter
// centred in it. It is exported so tests can sample its pixels.
var GradeBox = image.Rect(800, 130, 1120, 450)

// Grades are the grades a badge can show, best first.
var Grades = []string{"A+", "A", "B", "C", "D", "F"}

// Input is what a badge shows. Grade is one of A+, A, B, C, D, F; Score
// is 0-100; Host is the audited site's host (shown as given; a long host
// is drawn smaller and then ellipsised to fit).
type Input struct {
	Host  string
	Score int
	Grade string
}

// Check validates the input. Errors are *kernel.Error of kind invalid:
// field "score" (rule "range:0-100"), "grade" ("enum:A+,A,B,C,D,F") and
// "url", the field clients send the host in ("required",
// "max_length:253", "printable": no control, format or other
// non-printing characters, valid UTF-8).
func (in Input) Check() error {
	switch {
	case strings.TrimSpace(in.Host) == "":
		return kernel.Invalid("url", "required", "url is required (the audited site)")
	case len(in.Host) > MaxHostLength:
		return kernel.Invalid("url", "max_length:"+strconv.Itoa(MaxHostLength),
			"the url's host must be at most "+strconv.Itoa(MaxHostLength)+" characters")
	case !printable(in.Host):
		return kernel.Invalid("url", "printable", "the url's host must be printable text")
	case in.Score < 0 || in.Score > 100:
		return kernel.Invalid("score", "range:0-100", "score must be a whole number from 0 to 100")
	case !validGrade(in.Grade):
		return kernel.Invalid("grade", "enum:"+strings.Join(Grades, ","),
			"grade must be one of "+strings.Join(Grades, ", "))
	}
	return nil
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func validGrade(g string) bool {
	for _, v := range Grades {
		if g == v {
			return true
		}
	}
	return false
}

// Grade colours. They are chosen so the grade letter passes WCAG 2 AA
// contrast (4.5:1, more than the 3:1 large text needs) on its box:
//
//	A+, A  #15803D green  (white letter, 5.0:1)
//	B      #FACC15 yellow (#0F172A letter, 12.0:1)
//	C,D,F  #B91C1C red    (white letter, 6.5:1)
//
// An unknown grade gets slate #64748B (white letter, 4.8:1).
var (
	green   = color.RGBA{0x15, 0x80, 0x3D, 0xFF}
	yellow  = color.RGBA{0xFA, 0xCC, 0x15, 0xFF}
	red     = color.RGBA{0xB9, 0x1C, 0x1C, 0xFF}
	neutral = color.RGBA{0x64, 0x74, 0x8B, 0xFF}

	background = color.RGBA{0x0F, 0x17, 0x2A, 0xFF} // slate 900
	white      = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	light      = color.RGBA{0xCB, 0xD5, 0xE1, 0xFF} // slate 300: the title
	muted      = color.RGBA{0x94, 0xA3, 0xB8, 0xFF} // slate 400: secondary text
	track      = color.RGBA{0x33, 0x41, 0x55, 0xFF} // slate 700: bar track, divider
)

// GradeColour is the grade box's colour: green for A+ and A, yellow for
// B, red for C, D and F (see the hex values above).
func GradeColour(grade string) color.RGBA {
	switch grade {
	case "A+", "A":
		return green
	case "B":
		return yellow
	case "C", "D", "F":
		return red
	}
	return neutral
}

// inkColour is the grade letter's colour on GradeColour(grade).
func inkColour(grade string) color.RGBA {
	if grade == "B" {
		return background
	}
	return white
}

// ETag is the badge's strong entity tag (quoted), derived from the input
// and RendererVersion only, so it can be compared with If-None-Match
// without rendering.
func ETag(in Input) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%q\n%d\n%q", RendererVersion, in.Host, in.Score, in.Grade)
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

var cache = func() *lru.Cache[string, []byte] {
	c, err := lru.New[string, []byte](cacheSize)
	if err != nil {
		panic(err) // only for a non-positive size
	}
	return c
}()

// Render draws the badge and returns its PNG bytes: the same bytes for
// the same input. The input is checked first. Results are cached by ETag;
// the slice returned is the caller's own.
func Render(in Input) ([]byte, error) {
	b, _, err := cached(in)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b), nil
}

// cached returns the (shared, read-only) PNG for in, its ETag, and
// renders it on a miss.
func cached(in Input) ([]byte, string, error) {
	if err := in.Check(); err != nil {
		return nil, "", err
	}
	tag := ETag(in)
	if b, ok := cache.Get(tag); ok {
		return b, tag, nil
	}
	b, err := render(in)
	if err != nil {
		return nil, "", err
	}
	cache.Add(tag, b)
	return b, tag, nil
}

type fonts struct{ bold, regular *opentype.Font }

var loadFonts = sync.OnceValues(func() (fonts, error) {
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("badge: parse Go Bold: %w", err)
	}
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("badge: parse Go Regular: %w", err)
	}
	return fonts{bold: bold, regular: regular}, nil
})

// face makes a face of f at size pixels whose glyph coverage is
// quantised to alphaLevels levels. Faces are cheap and not safe for
// concurrent use, so every render makes its own from the shared fonts.
func face(f *opentype.Font, size float64) font.Face {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err) // opentype.NewFace never fails
	}
	return &quantFace{Face: fc}
}

// alphaLevels is how many coverage levels a glyph's edge keeps (of 256).
// Text is drawn in uniform colours on uniform backgrounds, so the badge
// then has few distinct colours (at most alphaLevels per text colour and
// background pair: about 126 in all) and fits a palette exactly; a
// paletted PNG encodes several times faster than an RGB one. 32 levels
// look the same as 256 at these sizes.
const alphaLevels = 32

var quantised = func() (t [256]uint8) {
	for a := range t {
		q := (a*(alphaLevels-1) + 127) / 255
		t[a] = uint8((q*255 + (alphaLevels-1)/2) / (alphaLevels - 1))
	}
	return t
}()

// quantFace is a face whose glyph masks are quantised to alphaLevels.
type quantFace struct {
	font.Face
	mask image.Alpha
}

func (q *quantFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	dr, mask, maskp, adv, ok := q.Face.Glyph(dot, r)
	src, isAlpha := mask.(*image.Alpha)
	if !ok || !isAlpha {
		return dr, mask, maskp, adv, ok
	}
	w, h := dr.Dx(), dr.Dy()
	if cap(q.mask.Pix) < w*h {
		q.mask.Pix = make([]uint8, w*h)
	}
	q.mask.Pix, q.mask.Stride, q.mask.Rect = q.mask.Pix[:w*h], w, image.Rect(0, 0, w, h)
	for y := range h {
		row := src.Pix[src.PixOffset(maskp.X, maskp.Y+y):][:w]
		out := q.mask.Pix[y*w:][:w]
		for x, a := range row {
			out[x] = quantised[a]
		}
	}
	return dr, &q.mask, image.Point{}, adv, ok
}

// Layout constants (see the package comment).
const (
	marginX     = 80
	columnRight = 740 // the left column ends 60 px before the grade box
	stripeH     = 12
	titleY      = 170
	hostY       = 260
	scoreY      = 445
	barTop      = 480
	barH        = 16
	dividerY    = 540
	footerY     = 592
	letterMax   = 220 // the grade letter's size in pixels, before fitting
	letterPad   = 40  // the least gap between the letter and the box's sides
)

var encoderPool = &bufferPool{}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer  { v, _ := b.p.Get().(*png.EncoderBuffer); return v }
func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoderPool}

// render draws and encodes in, bypassing the cache.
func render(in Input) ([]byte, error) {
	fs, err := loadFonts()
	if err != nil {
		return nil, err
	}
	c := newCanvas()
	defer c.release()

	gc := GradeColour(in.Grade)
	c.fill(image.Rect(0, 0, Width, Height), background)
	c.fill(image.Rect(0, 0, Width, stripeH), gc)

	// Title.
	c.text(face(fs.regular, 40), light, background, fixed.P(marginX, titleY), "Agent-readiness audit")

	// Host: 60 px, else 44 px, else 44 px ellipsised.
	maxW := fixed.I(columnRight - marginX)
	hf := face(fs.bold, 60)
	host := in.Host
	if font.MeasureString(hf, host) > maxW {
		hf = face(fs.bold, 44)
		host = ellipsise(hf, host, maxW)
	}
	c.text(hf, white, background, fixed.P(marginX, hostY), host)

	// Score: "87" then " / 100" on its baseline.
	adv := c.text(face(fs.bold, 150), white, background, fixed.P(marginX, scoreY), strconv.Itoa(in.Score))
	c.text(face(fs.regular, 64), muted, background, fixed.Point26_6{X: fixed.I(marginX) + adv, Y: fixed.I(scoreY)}, " / 100")

	// Score bar.
	barW := columnRight - marginX
	c.fill(image.Rect(marginX, barTop, columnRight, barTop+barH), track)
	c.fill(image.Rect(marginX, barTop, marginX+barW*min(max(in.Score, 0), 100)/100, barTop+barH), gc)

	// Grade box and letter, the letter's ink centred in the box.
	c.fill(GradeBox, gc)
	lf := face(fs.bold, letterMax)
	bounds, _ := font.BoundString(lf, in.Grade)
	if w := (bounds.Max.X - bounds.Min.X).Ceil(); w > GradeBox.Dx()-2*letterPad {
		lf = face(fs.bold, float64(letterMax*(GradeBox.Dx()-2*letterPad))/float64(w))
		bounds, _ = font.BoundString(lf, in.Grade)
	}
	cx := fixed.I(GradeBox.Min.X+GradeBox.Max.X) / 2
	cy := fixed.I(GradeBox.Min.Y+GradeBox.Max.Y) / 2
	c.text(lf, inkColour(in.Grade), gc, fixed.Point26_6{
		X: cx - (bounds.Min.X+bounds.Max.X)/2,
		Y: cy - (bounds.Min.Y+bounds.Max.Y)/2,
	}, in.Grade)

	// Caption under the box, centred.
	cf := face(fs.regular, 28)
	const caption = "GRADE"
	c.text(cf, muted, background, fixed.Point26_6{X: cx - font.MeasureString(cf, caption)/2, Y: fixed.I(GradeBox.Max.Y + 46)}, caption)

	// Footer.
	c.fill(image.Rect(marginX, dividerY, GradeBox.Max.X, dividerY+2), track)
	c.text(face(fs.regular, 28), muted, background, fixed.P(marginX, footerY), "rubric v"+RubricVersion+" · 7 checks")

	if c.overflow {
		return nil, errors.New("badge: more than 256 colours")
	}
	var buf bytes.Buffer
	buf.Grow(48 << 10)
	if err := encoder.Encode(&buf, c.img); err != nil {
		return nil, fmt.Errorf("badge: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// canvas is the badge being drawn: a paletted image whose palette grows
// as colours are used, in the order they are first used (so the bytes are
// deterministic). Rectangles are filled in it directly; text is drawn by
// font.Drawer on a small RGBA scratch image filled with the colour the
// text sits on (text is only ever drawn on a uniform background), then
// copied in. With glyph coverage quantised (alphaLevels) the badge has
// about 126 colours, so it fits a palette exactly, and a paletted PNG
// (one byte a pixel, no per-row filter search) encodes several times
// faster than an RGB one.
type canvas struct {
	img      *image.Paletted
	index    map[color.RGBA]uint8
	scratch  []uint8
	overflow bool
}

// pixPool recycles the canvases' pixels (each render overwrites them all:
// it starts by filling the whole badge) and text scratch buffers.
var pixPool, scratchPool sync.Pool

func newCanvas() *canvas {
	pix, _ := pixPool.Get().([]uint8)
	if len(pix) != Width*Height {
		pix = make([]uint8, Width*Height)
	}
	scratch, _ := scratchPool.Get().([]uint8)
	return &canvas{
		img: &image.Paletted{Pix: pix, Stride: Width, Rect: image.Rect(0, 0, Width, Height),
			Palette: make(color.Palette, 0, 256)},
		index:   make(map[color.RGBA]uint8, 256),
		scratch: scratch,
	}
}

// release returns the canvas's buffers to their pools; the encoded PNG
// does not refer to them.
func (c *canvas) release() {
	pixPool.Put(c.img.Pix)
	if c.scratch != nil {
		scratchPool.Put(c.scratch)
	}
	c.img, c.scratch = nil, nil
}

// colour is col's palette index, adding it to the palette if new.
func (c *canvas) colour(col color.RGBA) uint8 {
	if i, ok := c.index[col]; ok {
		return i
	}
	if len(c.img.Palette) == 256 {
		c.overflow = true
		return 0
	}
	i := uint8(len(c.img.Palette))
	c.img.Palette = append(c.img.Palette, col)
	c.index[col] = i
	return i
}

func (c *canvas) fill(r image.Rectangle, col color.RGBA) {
	r = r.Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	i := c.colour(col)
	first := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y):][:r.Dx()]
	for x := range first {
		first[x] = i
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(c.img.Pix[c.img.PixOffset(r.Min.X, y):][:r.Dx()], first)
	}
}

// text draws s in f and ink with its baseline origin at dot, on the
// uniform colour bg, and returns its advance.
func (c *canvas) text(f font.Face, ink, bg color.RGBA, dot fixed.Point26_6, s string) fixed.Int26_6 {
	b, adv := font.BoundString(f, s)
	r := image.Rect((dot.X + b.Min.X).Floor(), (dot.Y + b.Min.Y).Floor(),
		(dot.X + b.Max.X).Ceil(), (dot.Y + b.Max.Y).Ceil()).Intersect(c.img.Rect)
	if r.Empty() {
		return adv
	}
	w, h := r.Dx(), r.Dy()
	if cap(c.scratch) < 4*w*h {
		c.scratch = make([]uint8, 4*w*h)
	}
	dst := &image.RGBA{Pix: c.scratch[:4*w*h], Stride: 4 * w, Rect: r}
	draw.Draw(dst, r, image.NewUniform(bg), image.Point{}, draw.Src)
	(&font.Drawer{Dst: dst, Src: image.NewUniform(ink), Face: f, Dot: dot}).DrawString(s)

	var last uint32
	var lastIndex uint8
	for y := range h {
		src := dst.Pix[y*dst.Stride:][:4*w]
		out := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y+y):][:w]
		for x := range out {
			v := binary.LittleEndian.Uint32(src[4*x:])
			if v != last || (x == 0 && y == 0) {
				last = v
				lastIndex = c.colour(color.RGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)})
			}
			out[x] = lastIndex
		}
	}
	return adv
}

// ellipsise returns s if it fits in maxW when drawn in f, else s with
// its middle replaced by "…": as many runes kept as fit, split evenly
// between the start and the end (a host's end names the site), with dots
// and hyphens next to the ellipsis dropped.
func ellipsise(f font.Face, s string, maxW fixed.Int26_6) string {
	if font.MeasureString(f, s) <= maxW {
		return s
	}
	runes := []rune(s)
	cut := func(keep int) string {
		head := string(runes[:keep/2])
		tail := string(runes[len(runes)-(keep-keep/2):])
		return strings.TrimRight(head, ".-") + "…" + strings.TrimLeft(tail, ".-")
	}
	lo, hi := 0, len(runes)-1 // the most runes kept that fit is lo
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if font.MeasureString(f, cut(mid)) <= maxW {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cut(lo)
}
