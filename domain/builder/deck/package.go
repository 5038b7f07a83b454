package deck

import (
	"strconv"
	"strings"
)

// Relationship types (ECMA-376 Part 1 and Part 2) used by the package.
const (
	relBase        = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	relOfficeDoc   = relBase + "officeDocument"
	relExtProps    = relBase + "extended-properties"
	relCoreProps   = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
	relSlideMaster = relBase + "slideMaster"
	relSlideLayout = relBase + "slideLayout"
	relSlide       = relBase + "slide"
	relTheme       = relBase + "theme"
	relNotesMaster = relBase + "notesMaster"
	relNotesSlide  = relBase + "notesSlide"
	relPresProps   = relBase + "presProps"
	relViewProps   = relBase + "viewProps"
	relTableStyles = relBase + "tableStyles"
)

// Content types of the parts.
const (
	ctPML          = "application/vnd.openxmlformats-officedocument.presentationml."
	ctPresentation = ctPML + "presentation.main+xml"
	ctSlide        = ctPML + "slide+xml"
	ctSlideLayout  = ctPML + "slideLayout+xml"
	ctSlideMaster  = ctPML + "slideMaster+xml"
	ctNotesMaster  = ctPML + "notesMaster+xml"
	ctNotesSlide   = ctPML + "notesSlide+xml"
	ctPresProps    = ctPML + "presProps+xml"
	ctViewProps    = ctPML + "viewProps+xml"
	ctTableStyles  = ctPML + "tableStyles+xml"
	ctTheme        = "application/vnd.openxmlformats-officedocument.theme+xml"
	ctCore         = "application/vnd.openxmlformats-package.core-properties+xml"
	ctApp          = "application/vnd.openxmlformats-officedocument.extended-properties+xml"
	ctRels         = "application/vnd.openxmlformats-package.relationships+xml"
)

// part is one zip entry: its name, content type (empty for .rels parts,
// covered by the Default) and body.
type part struct {
	name, ctype, body string
}

// rel is one relationship: its target relative to the source part.
type rel struct {
	id, typ, target string
}

// relsXML is a relationships part.
func relsXML(rels []rel) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for _, r := range rels {
		b.WriteString(`<Relationship Id="` + r.id + `" Type="` + r.typ + `" Target="` + esc(r.target) + `"/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// rid is the relationship id "rId<n>".
func rid(n int) string { return "rId" + strconv.Itoa(n) }

// build lays out every part of the package in a fixed order, so the zip is
// deterministic: content types, package rels, properties, presentation,
// themes, master, layouts, notes master, then slides with their notes.
func build(d Deck) []part {
	pages := []page(nil)
	for _, s := range d.Slides {
		pages = append(pages, paginate(s)...)
	}
	notes := 0
	for _, p := range pages {
		if p.notes != "" {
			notes++
		}
	}
	var parts []part
	add := func(name, ctype, body string) { parts = append(parts, part{name, ctype, body}) }

	add("_rels/.rels", "", relsXML([]rel{
		{"rId1", relOfficeDoc, "ppt/presentation.xml"},
		{"rId2", relCoreProps, "docProps/core.xml"},
		{"rId3", relExtProps, "docProps/app.xml"},
	}))
	add("docProps/core.xml", ctCore, coreXML(d))
	add("docProps/app.xml", ctApp, appXML(len(pages)+1, notes))

	presRels := []rel{{"rId1", relSlideMaster, "slideMasters/slideMaster1.xml"}}
	for i := 0; i <= len(pages); i++ {
		presRels = append(presRels, rel{rid(i + 2), relSlide, "slides/slide" + strconv.Itoa(i+1) + ".xml"})
	}
	next := len(presRels) + 1
	notesMasterRID := ""
	if notes > 0 {
		notesMasterRID = rid(next)
		presRels = append(presRels, rel{notesMasterRID, relNotesMaster, "notesMasters/notesMaster1.xml"})
		next++
	}
	presRels = append(presRels,
		rel{rid(next), relPresProps, "presProps.xml"},
		rel{rid(next + 1), relViewProps, "viewProps.xml"},
		rel{rid(next + 2), relTheme, "theme/theme1.xml"},
		rel{rid(next + 3), relTableStyles, "tableStyles.xml"})
	add("ppt/presentation.xml", ctPresentation, presentationXML(len(pages)+1, notesMasterRID))
	add("ppt/_rels/presentation.xml.rels", "", relsXML(presRels))
	add("ppt/presProps.xml", ctPresProps, presPropsXML)
	add("ppt/viewProps.xml", ctViewProps, viewPropsXML)
	add("ppt/tableStyles.xml", ctTableStyles, tableStylesXML)
	add("ppt/theme/theme1.xml", ctTheme, themeXML("Strata"))

	add("ppt/slideMasters/slideMaster1.xml", ctSlideMaster, slideMasterXML())
	add("ppt/slideMasters/_rels/slideMaster1.xml.rels", "", relsXML([]rel{
		{"rId1", relSlideLayout, "../slideLayouts/slideLayout1.xml"},
		{"rId2", relSlideLayout, "../slideLayouts/slideLayout2.xml"},
		{"rId3", relTheme, "../theme/theme1.xml"},
	}))
	toMaster := relsXML([]rel{{"rId1", relSlideMaster, "../slideMasters/slideMaster1.xml"}})
	add("ppt/slideLayouts/slideLayout1.xml", ctSlideLayout, titleLayoutXML())
	add("ppt/slideLayouts/_rels/slideLayout1.xml.rels", "", toMaster)
	add("ppt/slideLayouts/slideLayout2.xml", ctSlideLayout, bodyLayoutXML())
	add("ppt/slideLayouts/_rels/slideLayout2.xml.rels", "", toMaster)
	if notes > 0 {
		add("ppt/theme/theme2.xml", ctTheme, themeXML("Strata Notes"))
		add("ppt/notesMasters/notesMaster1.xml", ctNotesMaster, notesMasterXML())
		add("ppt/notesMasters/_rels/notesMaster1.xml.rels", "", relsXML([]rel{{"rId1", relTheme, "../theme/theme2.xml"}}))
	}

	add("ppt/slides/slide1.xml", ctSlide, titleSlideXML(d))
	add("ppt/slides/_rels/slide1.xml.rels", "", relsXML([]rel{{"rId1", relSlideLayout, "../slideLayouts/slideLayout1.xml"}}))
	n := 0
	for i, p := range pages {
		name := "slide" + strconv.Itoa(i+2) + ".xml"
		rels := []rel{{"rId1", relSlideLayout, "../slideLayouts/slideLayout2.xml"}}
		add("ppt/slides/"+name, ctSlide, slideXML(p))
		if p.notes != "" {
			n++
			notesName := "notesSlide" + strconv.Itoa(n) + ".xml"
			rels = append(rels, rel{"rId2", relNotesSlide, "../notesSlides/" + notesName})
			add("ppt/notesSlides/"+notesName, ctNotesSlide, notesSlideXML(p.notes))
			add("ppt/notesSlides/_rels/"+notesName+".rels", "", relsXML([]rel{
				{"rId1", relNotesMaster, "../notesMasters/notesMaster1.xml"},
				{"rId2", relSlide, "../slides/" + name},
			}))
		}
		add("ppt/slides/_rels/"+name+".rels", "", relsXML(rels))
	}
	return append([]part{{"[Content_Types].xml", "", contentTypesXML(parts)}}, parts...)
}

// contentTypesXML covers .rels and .xml by Default and every typed part by
// an Override.
func contentTypesXML(parts []part) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="` + ctRels + `"/><Default Extension="xml" ContentType="application/xml"/>`)
	for _, p := range parts {
		if p.ctype != "" {
			b.WriteString(`<Override PartName="/` + esc(p.name) + `" ContentType="` + p.ctype + `"/>`)
		}
	}
	b.WriteString(`</Types>`)
	return b.String()
}

// presentationXML lists the master, the notes master (when notesRID is not
// empty) and the slides (rId2 onwards, ids from 256), and sets 16:9.
func presentationXML(slides int, notesRID string) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:presentation ` + nsPML + ` saveSubsetFonts="1">`)
	b.WriteString(`<p:sldMasterIdLst><p:sldMasterId id="` + masterID + `" r:id="rId1"/></p:sldMasterIdLst>`)
	if notesRID != "" {
		b.WriteString(`<p:notesMasterIdLst><p:notesMasterId r:id="` + notesRID + `"/></p:notesMasterIdLst>`)
	}
	b.WriteString(`<p:sldIdLst>`)
	for i := 0; i < slides; i++ {
		b.WriteString(`<p:sldId id="` + strconv.Itoa(256+i) + `" r:id="` + rid(i+2) + `"/>`)
	}
	b.WriteString(`</p:sldIdLst><p:sldSz cx="` + strconv.Itoa(slideCX) + `" cy="` + strconv.Itoa(slideCY) + `"/>`)
	b.WriteString(`<p:notesSz cx="6858000" cy="9144000"/>`)
	b.WriteString(`<p:defaultTextStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr><a:lvl1pPr marL="0"` + pPrCommon +
		`><a:defRPr sz="1800" kern="1200">` + txFill + minorFont + `</a:defRPr></a:lvl1pPr></p:defaultTextStyle>`)
	b.WriteString(`</p:presentation>`)
	return b.String()
}

// coreXML is docProps/core.xml: the title and, when Generated is set, the
// created and modified dates in UTC.
func coreXML(d Deck) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
		`xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ` +
		`xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	b.WriteString(`<dc:title>` + esc(textOf(d.Title)) + `</dc:title><dc:creator>Strata</dc:creator>` +
		`<cp:lastModifiedBy>Strata</cp:lastModifiedBy>`)
	if !d.Generated.IsZero() {
		at := d.Generated.UTC().Format("2006-01-02T15:04:05Z")
		b.WriteString(`<dcterms:created xsi:type="dcterms:W3CDTF">` + at + `</dcterms:created>` +
			`<dcterms:modified xsi:type="dcterms:W3CDTF">` + at + `</dcterms:modified>`)
	}
	b.WriteString(`</cp:coreProperties>`)
	return b.String()
}

// appXML is docProps/app.xml: the producing application and the counts.
func appXML(slides, notes int) string {
	return xmlDecl + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
		`xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
		`<Application>Strata</Application><PresentationFormat>Widescreen</PresentationFormat>` +
		`<Slides>` + strconv.Itoa(slides) + `</Slides><Notes>` + strconv.Itoa(notes) + `</Notes>` +
		`<HiddenSlides>0</HiddenSlides></Properties>`
}
