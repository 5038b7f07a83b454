package deck

import "strings"

// Ids of the slide master and its layouts in presentation.xml and the
// master's sldLayoutIdLst: one space, from 2^31 up, as the format requires.
const (
	masterID      = "2147483648"
	titleLayoutID = "2147483649"
	bodyLayoutID  = "2147483650"
)

// Text style pieces of the master.
const (
	clrMap = `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" ` +
		`accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>`
	bg        = `<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>`
	pPrCommon = ` algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"`
	txFill    = `<a:solidFill><a:schemeClr val="tx1"/></a:solidFill>`
	majorFont = `<a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/><a:cs typeface="+mj-cs"/>`
	minorFont = `<a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/>`
	bullet    = `<a:buFont typeface="Arial" panose="020B0604020202020204" pitchFamily="34" charset="0"/><a:buChar char="&#8226;"/>`

	titleStyle = `<p:titleStyle><a:lvl1pPr` + pPrCommon + `><a:lnSpc><a:spcPct val="90000"/></a:lnSpc>` +
		`<a:spcBef><a:spcPct val="0"/></a:spcBef><a:buNone/><a:defRPr sz="4400" kern="1200">` + txFill + majorFont +
		`</a:defRPr></a:lvl1pPr></p:titleStyle>`
	// bodyStyle: 100 % line spacing and 10 pt before each paragraph, which
	// the height estimate in pages.go assumes.
	bodyStyle = `<p:bodyStyle>` +
		`<a:lvl1pPr marL="228600" indent="-228600"` + pPrCommon + `><a:lnSpc><a:spcPct val="100000"/></a:lnSpc>` +
		`<a:spcBef><a:spcPts val="1000"/></a:spcBef>` + bullet + `<a:defRPr sz="2400" kern="1200">` + txFill + minorFont +
		`</a:defRPr></a:lvl1pPr>` +
		`<a:lvl2pPr marL="685800" indent="-228600"` + pPrCommon + `><a:lnSpc><a:spcPct val="100000"/></a:lnSpc>` +
		`<a:spcBef><a:spcPts val="500"/></a:spcBef>` + bullet + `<a:defRPr sz="2000" kern="1200">` + txFill + minorFont +
		`</a:defRPr></a:lvl2pPr></p:bodyStyle>`
	otherStyle = `<p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr><a:lvl1pPr marL="0"` + pPrCommon +
		`><a:defRPr sz="1800" kern="1200">` + txFill + minorFont + `</a:defRPr></a:lvl1pPr></p:otherStyle>`
	notesStyle = `<p:notesStyle><a:lvl1pPr marL="0"` + pPrCommon + `><a:defRPr sz="1200" kern="1200">` + txFill +
		minorFont + `</a:defRPr></a:lvl1pPr></p:notesStyle>`

	masterTitleBodyPr = `<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0" anchor="ctr"><a:normAutofit/></a:bodyPr>`
	masterBodyBodyPr  = `<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"><a:normAutofit/></a:bodyPr>`
)

// prompt is a placeholder's prompt text, as PowerPoint shows it in masters.
func prompt(text string) string { return paraText(text, 0, "") }

// slideMasterXML is the one slide master: a title and a body placeholder,
// the colour map, the two layouts and the text styles.
func slideMasterXML() string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:sldMaster ` + nsPML + `><p:cSld>` + bg + spTreeOpen)
	shape(&b, 2, "Title Placeholder 1", `<p:ph type="title"/>`, titleXfrm, masterTitleBodyPr, "",
		prompt("Click to edit Master title style"))
	shape(&b, 3, "Text Placeholder 2", `<p:ph type="body" idx="1"/>`, bodyXfrm, masterBodyBodyPr, "",
		prompt("Click to edit Master text styles"))
	b.WriteString(spTreeClose + `</p:cSld>` + clrMap)
	b.WriteString(`<p:sldLayoutIdLst><p:sldLayoutId id="` + titleLayoutID + `" r:id="rId1"/>` +
		`<p:sldLayoutId id="` + bodyLayoutID + `" r:id="rId2"/></p:sldLayoutIdLst>`)
	b.WriteString(`<p:txStyles>` + titleStyle + bodyStyle + otherStyle + `</p:txStyles></p:sldMaster>`)
	return b.String()
}

// titleLayoutXML is the "Title Slide" layout: a centred title and subtitle.
func titleLayoutXML() string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:sldLayout ` + nsPML + ` type="title" preserve="1"><p:cSld name="Title Slide">` + spTreeOpen)
	shape(&b, 2, "Title 1", `<p:ph type="ctrTitle"/>`, ctrTitleXfrm, `<a:bodyPr anchor="b"><a:normAutofit/></a:bodyPr>`,
		`<a:lstStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="5400"/></a:lvl1pPr></a:lstStyle>`,
		prompt("Click to edit Master title style"))
	shape(&b, 3, "Subtitle 2", `<p:ph type="subTitle" idx="1"/>`, subTitleXfrm, autofitBody,
		`<a:lstStyle><a:lvl1pPr marL="0" indent="0" algn="ctr"><a:buNone/><a:defRPr sz="2400"/></a:lvl1pPr></a:lstStyle>`,
		prompt("Click to edit Master subtitle style"))
	b.WriteString(spTreeClose + `</p:cSld>` + clrMapOvr + `</p:sldLayout>`)
	return b.String()
}

// bodyLayoutXML is the "Title and Content" layout: a title and a bulleted
// body.
func bodyLayoutXML() string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:sldLayout ` + nsPML + ` type="obj" preserve="1"><p:cSld name="Title and Content">` + spTreeOpen)
	shape(&b, 2, "Title 1", `<p:ph type="title"/>`, titleXfrm, autofitBody, "", prompt("Click to edit Master title style"))
	shape(&b, 3, "Content Placeholder 2", `<p:ph idx="1"/>`, bodyXfrm, autofitBody, "", prompt("Click to edit Master text styles"))
	b.WriteString(spTreeClose + `</p:cSld>` + clrMapOvr + `</p:sldLayout>`)
	return b.String()
}

// notesMasterXML is the notes master, present only when a slide has
// notes: the slide image above the notes body on a 7.5 × 10 in page.
func notesMasterXML() string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<p:notesMaster ` + nsPML + `><p:cSld>` + bg + spTreeOpen)
	b.WriteString(`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/>` +
		`<p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr>` +
		`<p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>` +
		`<p:spPr><a:xfrm><a:off x="685800" y="1143000"/><a:ext cx="5486400" cy="3086100"/></a:xfrm>` +
		`<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/>` +
		`<a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>`)
	shape(&b, 3, "Notes Placeholder 2", `<p:ph type="body" sz="quarter" idx="3"/>`,
		`<a:xfrm><a:off x="685800" y="4400550"/><a:ext cx="5486400" cy="3600450"/></a:xfrm>`,
		`<a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"/>`, "",
		prompt("Click to edit Master text styles"))
	b.WriteString(spTreeClose + `</p:cSld>` + clrMap + notesStyle + `</p:notesMaster>`)
	return b.String()
}
