package deck

import "strings"

// MaxBulletsPerPage is the most bullets one slide carries; a Slide with
// more continues on further slides titled "<Title> (cont.)".
const MaxBulletsPerPage = 6

// MinPackedFontSize is the smallest body size, in hundredths of a point,
// at which several bullets are packed onto one slide: a bullet that would
// push the estimated height past the body at this size starts a new page.
// A single bullet too long even alone gets a page of its own at a smaller
// size (down to 12 pt) and relies on <a:normAutofit/> beyond that.
const MinPackedFontSize = 1800

// contSuffix marks the title of a continuation page.
const contSuffix = " (cont.)"

// minFontSize is the smallest body font size, in hundredths of a point.
const minFontSize = 1200

// The body placeholder's text area in points (see geometry in slide.go):
// 11.5 in wide less 0.1 in insets each side and the 0.25 in bullet indent;
// 4.76 in tall less 0.05 in insets top and bottom.
const (
	bodyWidthPt  = 828 - 14.4 - 18
	bodyHeightPt = 342.6 - 7.2
	paraSpacePt  = 10  // spcBef of every body paragraph (master bodyStyle)
	lineFactor   = 1.2 // line height as a multiple of the font size
	avgGlyphEm   = 0.5 // average advance of a narrow glyph, in ems
)

// page is one slide's worth of a Slide.
type page struct {
	title   string
	bullets []string // cleaned, non-empty
	size    int      // body font size, hundredths of a point
	notes   string   // cleaned; only on a Slide's first page
	source  string   // cleaned
}

// paginate splits s into pages: at most MaxBulletsPerPage bullets each, and
// no more than fit the body at MinPackedFontSize by the height estimate. A
// Slide without bullets is one page. The result is never empty.
func paginate(s Slide) []page {
	var bullets []string
	for _, b := range s.Bullets {
		if t := textOf(b); t != "" {
			bullets = append(bullets, t)
		}
	}
	var groups [][]string
	var cur []string
	for _, b := range bullets {
		next := append(append([]string(nil), cur...), b)
		if len(cur) > 0 && (len(cur) == MaxBulletsPerPage || !fits(next, MinPackedFontSize)) {
			groups = append(groups, cur)
			next = []string{b}
		}
		cur = next
	}
	if len(cur) > 0 || len(groups) == 0 {
		groups = append(groups, cur)
	}
	title := textOf(s.Title)
	pages := make([]page, len(groups))
	for i, g := range groups {
		p := page{title: title, bullets: g, size: fontSize(g), source: textOf(s.Source)}
		if i == 0 {
			p.notes = textOf(s.Notes)
		} else {
			p.title = strings.TrimSpace(title + contSuffix)
		}
		pages[i] = p
	}
	return pages
}

// fontSize is the largest of 24, 20, 18, 16 and 14 pt at which bullets fit
// the body by the estimate, or minFontSize (12 pt) when none does.
func fontSize(bullets []string) int {
	for _, sz := range [...]int{2400, 2000, 1800, 1600, 1400} {
		if fits(bullets, sz) {
			return sz
		}
	}
	return minFontSize
}

// fits estimates whether bullets fit the body at size (hundredths of a
// point): each line holds bodyWidthPt / (size × avgGlyphEm) narrow glyphs,
// a wide (East Asian, emoji) glyph counts as two, and each paragraph adds
// its spacing. It is an estimate; normAutofit covers the error.
func fits(bullets []string, size int) bool {
	pt := float64(size) / 100
	perLine := int(bodyWidthPt / (pt * avgGlyphEm))
	height := 0.0
	for _, b := range bullets {
		lines := 0
		for _, l := range strings.Split(b, "\n") {
			w := 0
			for _, r := range l {
				w += glyphWidth(r)
			}
			lines += max(1, (w+perLine-1)/perLine)
		}
		height += float64(lines)*pt*lineFactor + paraSpacePt
	}
	return height <= bodyHeightPt
}

// glyphWidth is 2 for runes usually drawn full-width (CJK, Hangul,
// full-width forms, emoji and other symbols from U+2E80 up, except the
// half-width forms block), 1 otherwise.
func glyphWidth(r rune) int {
	if r >= 0x2E80 && !(r >= 0xFF61 && r <= 0xFFDC) {
		return 2
	}
	return 1
}
