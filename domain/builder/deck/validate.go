package deck

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// ErrInvalid is wrapped by every error Validate returns for a package that
// breaks one of its rules (as opposed to one it cannot read at all, which
// also wraps it: an unreadable package is invalid).
var ErrInvalid = errors.New("deck: invalid pptx")

// maxPartSize bounds how much of one part Validate decompresses.
const maxPartSize = 64 << 20

// Validate checks pptx as far as Go can without rendering it, and returns
// its slide count:
//   - the zip opens, its entries read, and no part name repeats (part names
//     compare case-insensitively, as in OPC);
//   - [Content_Types].xml gives every other part a content type, by Default
//     (extension) or Override (part name), and overrides no missing part;
//   - every .xml and .rels part is well-formed XML 1.0: one root element,
//     matching tags, no duplicate attribute, no undeclared prefix, no
//     character or entity XML forbids;
//   - every .rels part belongs to a part that exists, its ids are unique,
//     and every internal relationship target resolves to a part in the zip;
//   - the package's officeDocument relationship leads to a presentation
//     part; each sldMasterId and sldId of it resolves through its
//     relationships to a slide master or slide part of that content type,
//     slide ids are unique and at least 256, and each slide relates to
//     exactly one slide layout.
//
// Every error wraps ErrInvalid and names the part at fault.
func Validate(pptx []byte) (slides int, err error) {
	zr, err := zip.NewReader(bytes.NewReader(pptx), int64(len(pptx)))
	if err != nil {
		return 0, fmt.Errorf("%w: open zip: %v", ErrInvalid, err)
	}
	pkg := map[string][]byte{} // lower-cased part name -> bytes
	var names []string
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue // a directory entry, not a part
		}
		key := strings.ToLower(f.Name)
		if _, dup := pkg[key]; dup {
			return 0, fmt.Errorf("%w: %s: part name repeats", ErrInvalid, f.Name)
		}
		body, err := readPart(f)
		if err != nil {
			return 0, fmt.Errorf("%w: %s: %v", ErrInvalid, f.Name, err)
		}
		pkg[key] = body
		names = append(names, f.Name)
	}
	for _, n := range names {
		if ext := strings.ToLower(path.Ext(n)); ext == ".xml" || ext == ".rels" {
			if err := wellFormed(pkg[strings.ToLower(n)]); err != nil {
				return 0, fmt.Errorf("%w: %s: not well-formed: %v", ErrInvalid, n, err)
			}
		}
	}
	types, err := parseTypes(pkg)
	if err != nil {
		return 0, err
	}
	for _, n := range names {
		if n != contentTypesName && types.of(n) == "" {
			return 0, fmt.Errorf("%w: %s: no content type (no Default for its extension, no Override)", ErrInvalid, n)
		}
	}
	rels := map[string][]relation{} // lower-cased source part ("" for the package) -> relations
	for _, n := range names {
		if strings.ToLower(path.Ext(n)) != ".rels" {
			continue
		}
		src, rs, err := parseRels(n, pkg)
		if err != nil {
			return 0, err
		}
		rels[strings.ToLower(src)] = rs
	}
	return checkPresentation(pkg, types, rels)
}

// contentTypesName is the content types stream's zip entry name.
const contentTypesName = "[Content_Types].xml"

// readPart decompresses one zip entry, at most maxPartSize bytes.
func readPart(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	body, err := io.ReadAll(io.LimitReader(rc, maxPartSize+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxPartSize {
		return nil, fmt.Errorf("larger than %d bytes", maxPartSize)
	}
	return body, nil
}

// wellFormed reports the first well-formedness error of an XML document.
// The decoder checks lexical syntax, characters and entities; tag matching,
// the single root, duplicate attributes and prefix declarations are
// checked here on raw tokens.
func wellFormed(doc []byte) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	var open []xml.Name
	var scopes []map[string]bool
	roots := 0
	declared := func(prefix string) bool {
		if prefix == "" || prefix == "xml" || prefix == "xmlns" {
			return true
		}
		for i := len(scopes) - 1; i >= 0; i-- {
			if scopes[i][prefix] {
				return true
			}
		}
		return false
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 {
				if roots++; roots > 1 {
					return fmt.Errorf("second root element <%s>", qname(t.Name))
				}
			}
			scope := map[string]bool{}
			seen := map[xml.Name]bool{}
			for _, a := range t.Attr {
				if seen[a.Name] {
					return fmt.Errorf("<%s>: attribute %s repeats", qname(t.Name), qname(a.Name))
				}
				seen[a.Name] = true
				if a.Name.Space == "xmlns" {
					scope[a.Name.Local] = true
				}
			}
			scopes = append(scopes, scope)
			if !declared(t.Name.Space) {
				return fmt.Errorf("<%s>: prefix %q not declared", qname(t.Name), t.Name.Space)
			}
			for _, a := range t.Attr {
				if !declared(a.Name.Space) {
					return fmt.Errorf("<%s>: attribute prefix %q not declared", qname(t.Name), a.Name.Space)
				}
			}
			open = append(open, t.Name)
		case xml.EndElement:
			if len(open) == 0 || open[len(open)-1] != t.Name {
				return fmt.Errorf("unexpected </%s>", qname(t.Name))
			}
			open, scopes = open[:len(open)-1], scopes[:len(scopes)-1]
		case xml.CharData:
			if len(open) == 0 && len(bytes.TrimSpace(t)) > 0 {
				return errors.New("text outside the root element")
			}
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("<%s> not closed", qname(open[len(open)-1]))
	}
	if roots == 0 {
		return errors.New("no root element")
	}
	return nil
}

// qname is a raw name as written, prefix:local.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// contentTypes is the parsed [Content_Types].xml.
type contentTypes struct {
	defaults  map[string]string // lower-cased extension -> type
	overrides map[string]string // lower-cased part name, no leading slash -> type
}

// of is the content type of a part, "" when none covers it.
func (c contentTypes) of(name string) string {
	if t, ok := c.overrides[strings.ToLower(name)]; ok {
		return t
	}
	return c.defaults[strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))]
}

// parseTypes reads [Content_Types].xml; every Override must name a part.
func parseTypes(pkg map[string][]byte) (contentTypes, error) {
	body, ok := pkg[strings.ToLower(contentTypesName)]
	if !ok {
		return contentTypes{}, fmt.Errorf("%w: %s missing", ErrInvalid, contentTypesName)
	}
	var doc struct {
		XMLName  xml.Name `xml:"http://schemas.openxmlformats.org/package/2006/content-types Types"`
		Defaults []struct {
			Ext  string `xml:"Extension,attr"`
			Type string `xml:"ContentType,attr"`
		} `xml:"Default"`
		Overrides []struct {
			Part string `xml:"PartName,attr"`
			Type string `xml:"ContentType,attr"`
		} `xml:"Override"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		return contentTypes{}, fmt.Errorf("%w: %s: %v", ErrInvalid, contentTypesName, err)
	}
	c := contentTypes{defaults: map[string]string{}, overrides: map[string]string{}}
	for _, d := range doc.Defaults {
		c.defaults[strings.ToLower(d.Ext)] = d.Type
	}
	for _, o := range doc.Overrides {
		name := strings.ToLower(strings.TrimPrefix(o.Part, "/"))
		if _, ok := pkg[name]; !ok || !strings.HasPrefix(o.Part, "/") {
			return contentTypes{}, fmt.Errorf("%w: %s: Override for %q, which is not a part", ErrInvalid, contentTypesName, o.Part)
		}
		c.overrides[name] = o.Type
	}
	return c, nil
}
