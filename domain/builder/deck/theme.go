package deck

import (
	"strconv"
	"strings"
)

// themeXML is the Office theme a master refers to: a colour scheme, the
// Calibri font pair and the format scheme, whose four style lists carry the
// three entries each that PowerPoint requires.
func themeXML(name string) string {
	var b strings.Builder
	b.WriteString(xmlDecl + `<a:theme xmlns:a="` + nsA + `" name="` + esc(name) + `"><a:themeElements>`)
	b.WriteString(`<a:clrScheme name="Strata">` +
		`<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>` +
		`<a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>` +
		`<a:dk2><a:srgbClr val="1F2A44"/></a:dk2>` +
		`<a:lt2><a:srgbClr val="E7E9EE"/></a:lt2>` +
		`<a:accent1><a:srgbClr val="2F5BEA"/></a:accent1>` +
		`<a:accent2><a:srgbClr val="12A594"/></a:accent2>` +
		`<a:accent3><a:srgbClr val="F5A524"/></a:accent3>` +
		`<a:accent4><a:srgbClr val="E5484D"/></a:accent4>` +
		`<a:accent5><a:srgbClr val="8E4EC6"/></a:accent5>` +
		`<a:accent6><a:srgbClr val="5B6B7F"/></a:accent6>` +
		`<a:hlink><a:srgbClr val="2F5BEA"/></a:hlink>` +
		`<a:folHlink><a:srgbClr val="8E4EC6"/></a:folHlink>` +
		`</a:clrScheme>`)
	b.WriteString(`<a:fontScheme name="Strata">` +
		`<a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>` +
		`<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont>` +
		`</a:fontScheme>`)
	b.WriteString(`<a:fmtScheme name="Strata"><a:fillStyleLst>` +
		solid("") + solid(`<a:tint val="50000"/>`) + solid(`<a:shade val="80000"/>`) +
		`</a:fillStyleLst><a:lnStyleLst>` + line(6350) + line(12700) + line(19050) +
		`</a:lnStyleLst><a:effectStyleLst>` + strings.Repeat(`<a:effectStyle><a:effectLst/></a:effectStyle>`, 3) +
		`</a:effectStyleLst><a:bgFillStyleLst>` +
		solid("") + solid(`<a:tint val="95000"/>`) + solid(`<a:shade val="90000"/>`) +
		`</a:bgFillStyleLst></a:fmtScheme>`)
	b.WriteString(`</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`)
	return b.String()
}

// solid is a fill of the placeholder colour with optional transforms.
func solid(transforms string) string {
	if transforms == "" {
		return `<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>`
	}
	return `<a:solidFill><a:schemeClr val="phClr">` + transforms + `</a:schemeClr></a:solidFill>`
}

// line is a solid line style of the placeholder colour, w EMU wide.
func line(w int) string {
	return `<a:ln w="` + strconv.Itoa(w) + `" cap="flat" cmpd="sng" algn="ctr">` + solid("") +
		`<a:prstDash val="solid"/><a:miter lim="800000"/></a:ln>`
}

// Presentation-wide property parts, all minimal and valid.
const (
	presPropsXML = xmlDecl + `<p:presentationPr ` + nsPML + `/>`
	viewPropsXML = xmlDecl + `<p:viewPr ` + nsPML + `><p:normalViewPr><p:restoredLeft sz="15620"/>` +
		`<p:restoredTop sz="94660"/></p:normalViewPr><p:gridSpacing cx="76200" cy="76200"/></p:viewPr>`
	// tableStylesXML names PowerPoint's built-in "Medium Style 2 - Accent 1"
	// as the default table style and defines none.
	tableStylesXML = xmlDecl + `<a:tblStyleLst xmlns:a="` + nsA + `" def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>`
)
