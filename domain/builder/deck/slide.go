package deck

import (
	"strconv"
	"strings"
)

// Slide geometry in EMU (914400 to the inch) on a 13.333 × 7.5 in (16:9)
// slide, shared by the master, the layouts and the slides.
const (
	slideCX = 12192000
	slideCY = 6858000

	titleXfrm    = `<a:xfrm><a:off x="838200" y="365125"/><a:ext cx="10515600" cy="1325563"/></a:xfrm>`
	bodyXfrm     = `<a:xfrm><a:off x="838200" y="1825625"/><a:ext cx="10515600" cy="4351338"/></a:xfrm>`
	sourceXfrm   = `<a:xfrm><a:off x="838200" y="6356350"/><a:ext cx="10515600" cy="365125"/></a:xfrm>`
	ctrTitleXfrm = `<a:xfrm><a:off x="1524000" y="1122363"/><a:ext cx="9144000" cy="2387600"/></a:xfrm>`
	subTitleXfrm = `<a:xfrm><a:off x="1524000" y="3602038"/><a:ext cx="9144000" cy="1655762"/></a:xfrm>`
)

// Shape tree pieces every slide-like part shares.
const (
	spTreeOpen = `<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
		`<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`
	spTreeClose  = `</p:spTree>`
	clrMapOvr    = `<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>`
	autofitBody  = `<a:bodyPr><a:normAutofit/></a:bodyPr>`
	sourceSize   = 1200
	sourceFill   = `<a:solidFill><a:schemeClr val="tx1"><a:lumMod val="65000"/><a:lumOff val="35000"/></a:schemeClr></a:solidFill>`
	sourceBodyPr = `<a:bodyPr wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0" anchor="ctr"><a:normAutofit/></a:bodyPr>`
)

// shape writes a placeholder (ph not empty) or a text box (ph empty) with
// the given id, name, transform (empty to inherit the position), body
// properties, list style (empty for none) and paragraphs.
func shape(b *strings.Builder, id int, name, ph, xfrm, bodyPr, lstStyle, paras string) {
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="` + strconv.Itoa(id) + `" name="` + esc(name) + `"/>`)
	if ph != "" {
		b.WriteString(`<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr>` + ph + `</p:nvPr></p:nvSpPr>`)
	} else {
		b.WriteString(`<p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>`)
	}
	b.WriteString(`<p:spPr>`)
	if xfrm != "" {
		b.WriteString(xfrm + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`)
	}
	if ph == "" {
		b.WriteString(`<a:noFill/>`)
	}
	b.WriteString(`</p:spPr>`)
	if lstStyle == "" {
		lstStyle = `<a:lstStyle/>`
	}
	b.WriteString(`<p:txBody>` + bodyPr + lstStyle + paras + `</p:txBody></p:sp>`)
}

// paraText is one paragraph of text as a string.
func paraText(text string, size int, fill string) string {
	var b strings.Builder
	para(&b, "", text, size, fill)
	return b.String()
}

// titleSlideXML is the first slide: the company name and the idea in the
// title layout's centred title and subtitle placeholders.
func titleSlideXML(d Deck) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:sld ` + nsPML + `><p:cSld>` + spTreeOpen)
	shape(&b, 2, "Title 1", `<p:ph type="ctrTitle"/>`, ctrTitleXfrm, autofitBody, "", paraText(textOf(d.Title), 0, ""))
	shape(&b, 3, "Subtitle 2", `<p:ph type="subTitle" idx="1"/>`, subTitleXfrm, autofitBody, "", paraText(textOf(d.Subtitle), 0, ""))
	b.WriteString(spTreeClose + `</p:cSld>` + clrMapOvr + `</p:sld>`)
	return b.String()
}

// slideXML is one page of a Slide: the title placeholder, the body
// placeholder with one bulleted paragraph per bullet at the page's font
// size, and the source line in a text box along the bottom.
func slideXML(p page) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:sld ` + nsPML + `><p:cSld>` + spTreeOpen)
	shape(&b, 2, "Title 1", `<p:ph type="title"/>`, titleXfrm, autofitBody, "", paraText(p.title, 0, ""))
	var body strings.Builder
	for _, bl := range p.bullets {
		para(&body, "", bl, p.size, "")
	}
	if len(p.bullets) == 0 {
		para(&body, "", "", 0, "")
	}
	shape(&b, 3, "Content Placeholder 2", `<p:ph idx="1"/>`, bodyXfrm, autofitBody, "", body.String())
	if p.source != "" {
		shape(&b, 4, "Source 3", "", sourceXfrm, sourceBodyPr, "", paraText(p.source, sourceSize, sourceFill))
	}
	b.WriteString(spTreeClose + `</p:cSld>` + clrMapOvr + `</p:sld>`)
	return b.String()
}

// notesSlideXML is the speaker notes of a page: the slide image and the
// notes body placeholders of the notes master, one paragraph per line.
func notesSlideXML(notes string) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:notes ` + nsPML + `><p:cSld>` + spTreeOpen)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/>` +
		`<p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr>` +
		`<p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>`)
	var body strings.Builder
	for _, line := range strings.Split(notes, "\n") {
		para(&body, "", line, 0, "")
	}
	shape(&b, 3, "Notes Placeholder 2", `<p:ph type="body" idx="1"/>`, "", `<a:bodyPr/>`, "", body.String())
	b.WriteString(spTreeClose + `</p:cSld>` + clrMapOvr + `</p:notes>`)
	return b.String()
}
