package deck

import (
	"archive/zip"
	"bytes"
	"errors"
	"sort"
	"strings"
	"testing"
)

// rezip rebuilds a package: edit may rename (to ""), drop (false) or
// rewrite each part; extra parts are appended.
func rezip(t *testing.T, pptx []byte, edit func(name, body string) (string, string, bool), extra ...[2]string) []byte {
	t.Helper()
	parts := unzip(t, pptx)
	var order []string
	for n := range parts {
		order = append(order, n)
	}
	sort.Strings(order)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	write := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range order {
		name, body, keep := n, parts[n], true
		if edit != nil {
			name, body, keep = edit(n, parts[n])
		}
		if keep {
			write(name, body)
		}
	}
	for _, e := range extra {
		write(e[0], e[1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// replaceIn rewrites one part by a string replacement, which must apply.
func replaceIn(t *testing.T, part, old, new string) func(string, string) (string, string, bool) {
	return func(name, body string) (string, string, bool) {
		if name == part {
			if !strings.Contains(body, old) {
				t.Fatalf("%s does not contain %q", part, old)
			}
			body = strings.Replace(body, old, new, 1)
		}
		return name, body, true
	}
}

// drop removes one part.
func drop(part string) func(string, string) (string, string, bool) {
	return func(name, body string) (string, string, bool) { return name, body, name != part }
}

func TestValidateCatchesCorruption(t *testing.T) {
	good := mustPPTX(t, Deck{Title: "Acme", Subtitle: "Idea", Generated: generated, Slides: []Slide{
		{Title: "One", Bullets: []string{"a", "b"}, Notes: "n", Source: "src"},
		{Title: "Two", Bullets: []string{"c"}},
	}})
	if n, err := Validate(rezip(t, good, nil)); err != nil || n != 3 {
		t.Fatalf("the untouched package rezipped: %d slides, %v", n, err)
	}
	const ct = "[Content_Types].xml"
	cases := []struct {
		name string
		pptx []byte
		want string
	}{
		{"not a zip", []byte("PK\x03\x04 not really"), "open zip"},
		{"empty input", nil, "open zip"},
		{"broken slide rel", rezip(t, good, replaceIn(t, "ppt/slides/_rels/slide2.xml.rels", "slideLayout2.xml", "slideLayout9.xml")),
			`targets "../slideLayouts/slideLayout9.xml", which is not a part`},
		{"rel leaving the package", rezip(t, good, replaceIn(t, "ppt/slides/_rels/slide2.xml.rels", "../slideLayouts/", "../../../")),
			"leaves the package"},
		{"missing layout part", rezip(t, good, func(n, b string) (string, string, bool) {
			if n == ct {
				b = strings.Replace(b, `<Override PartName="/ppt/slideLayouts/slideLayout2.xml" ContentType="`+ctSlideLayout+`"/>`, "", 1)
			}
			return n, b, n != "ppt/slideLayouts/slideLayout2.xml" && n != "ppt/slideLayouts/_rels/slideLayout2.xml.rels"
		}), "slideLayout2.xml\", which is not a part"},
		{"duplicate relationship id", rezip(t, good, replaceIn(t, "ppt/_rels/presentation.xml.rels", `Id="rId3"`, `Id="rId2"`)),
			`relationship id "rId2" empty or repeated`},
		{"rels of a missing part", rezip(t, good, nil, [2]string{"ppt/slides/_rels/slide99.xml.rels", relsXML(nil)}),
			"relationships of ppt/slides/slide99.xml, which is not a part"},
		{"missing content types", rezip(t, good, drop(ct)), "[Content_Types].xml missing"},
		{"part without content type", rezip(t, good, nil, [2]string{"ppt/media/image1.png", "\x89PNG"}),
			"ppt/media/image1.png: no content type"},
		{"xml part without default or override", rezip(t, good, replaceIn(t, ct, `<Default Extension="xml" ContentType="application/xml"/>`, ""),
			[2]string{"docProps/foo.xml", "<x/>"}),
			"docProps/foo.xml: no content type"},
		{"override of a missing part", rezip(t, good, replaceIn(t, ct, `</Types>`, `<Override PartName="/ppt/slides/slide9.xml" ContentType="`+ctSlide+`"/></Types>`)),
			`Override for "/ppt/slides/slide9.xml", which is not a part`},
		{"truncated slide", rezip(t, good, replaceIn(t, "ppt/slides/slide2.xml", "</p:sld>", "")), "ppt/slides/slide2.xml: not well-formed"},
		{"mismatched tag", rezip(t, good, replaceIn(t, "ppt/slides/slide1.xml", "</p:cSld>", "</p:cSLD>")), "unexpected </p:cSLD>"},
		{"raw ampersand", rezip(t, good, replaceIn(t, "ppt/slides/slide2.xml", "<a:t>One</a:t>", "<a:t>A & B</a:t>")), "not well-formed"},
		{"control character", rezip(t, good, replaceIn(t, "ppt/slides/slide2.xml", "<a:t>One</a:t>", "<a:t>O\x01ne</a:t>")), "not well-formed"},
		{"undeclared prefix", rezip(t, good, replaceIn(t, "ppt/slides/slide3.xml", "<a:t>Two</a:t>", "<x:t>Two</x:t>")), `prefix "x" not declared`},
		{"duplicate attribute", rezip(t, good, replaceIn(t, "ppt/presentation.xml", `saveSubsetFonts="1"`, `saveSubsetFonts="1" saveSubsetFonts="0"`)),
			"attribute saveSubsetFonts repeats"},
		{"two roots", rezip(t, good, replaceIn(t, "docProps/app.xml", "</Properties>", "</Properties><Properties/>")), "second root element"},
		{"malformed rels", rezip(t, good, replaceIn(t, "_rels/.rels", "/>", ">")), "_rels/.rels: not well-formed"},
		{"no office document", rezip(t, good, replaceIn(t, "_rels/.rels", "/officeDocument\"", "/somethingElse\"")), "no officeDocument relationship"},
		{"slide id without relationship", rezip(t, good, replaceIn(t, "ppt/presentation.xml", `r:id="rId4"/></p:sldIdLst>`, `r:id="rId42"/></p:sldIdLst>`)),
			`sldId r:id "rId42" has no relationship`},
		{"slide id to a non-slide", rezip(t, good, replaceIn(t, "ppt/presentation.xml", `id="257" r:id="rId3"`, `id="257" r:id="rId1"`)),
			`sldId r:id "rId1" is not a slide relationship`},
		{"repeated slide id", rezip(t, good, replaceIn(t, "ppt/presentation.xml", `id="257"`, `id="256"`)), `slide id "256" not a unique number`},
		{"slide part of the wrong type", rezip(t, good, replaceIn(t, ct, `/ppt/slides/slide2.xml" ContentType="`+ctSlide, `/ppt/slides/slide2.xml" ContentType="`+ctSlideLayout)),
			"ppt/slides/slide2.xml: content type"},
		{"slide without layout", rezip(t, good, replaceIn(t, "ppt/slides/_rels/slide3.xml.rels", relSlideLayout, relBase+"image")),
			"ppt/slides/slide3.xml: 0 slide layout relationships"},
		{"repeated part name", rezip(t, good, nil, [2]string{"PPT/presProps.xml", presPropsXML}), "part name repeats"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := Validate(c.pptx)
			if err == nil {
				t.Fatalf("Validate accepted it (%d slides)", n)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not wrap ErrInvalid: %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}
