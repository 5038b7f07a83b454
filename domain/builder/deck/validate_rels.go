package deck

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
)

// relation is one parsed relationship; part is the resolved target part
// name (empty for an external target).
type relation struct {
	id, typ, part string
}

// parseRels reads the .rels part name, checks that its source part exists
// and that its ids are unique and internal targets resolve, and returns the
// source part's name ("" for the package) and its relations.
func parseRels(name string, pkg map[string][]byte) (string, []relation, error) {
	dir, file := path.Split(name)
	if path.Base(dir) != "_rels" || !strings.HasSuffix(file, ".rels") {
		return "", nil, fmt.Errorf("%w: %s: a .rels part outside a _rels folder", ErrInvalid, name)
	}
	base := strings.TrimSuffix(strings.TrimSuffix(dir, "/"), "_rels") // the source's folder, with a trailing slash or empty
	source := base + strings.TrimSuffix(file, ".rels")
	if source != "" {
		if _, ok := pkg[strings.ToLower(source)]; !ok {
			return "", nil, fmt.Errorf("%w: %s: relationships of %s, which is not a part", ErrInvalid, name, source)
		}
	}
	var doc struct {
		XMLName xml.Name `xml:"http://schemas.openxmlformats.org/package/2006/relationships Relationships"`
		Rels    []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
			Mode   string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(pkg[strings.ToLower(name)], &doc); err != nil {
		return "", nil, fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	ids := map[string]bool{}
	var out []relation
	for _, r := range doc.Rels {
		if r.ID == "" || ids[r.ID] {
			return "", nil, fmt.Errorf("%w: %s: relationship id %q empty or repeated", ErrInvalid, name, r.ID)
		}
		ids[r.ID] = true
		if r.Mode == "External" {
			out = append(out, relation{id: r.ID, typ: r.Type})
			continue
		}
		target, err := resolve(base, r.Target)
		if err != nil {
			return "", nil, fmt.Errorf("%w: %s: %s: %v", ErrInvalid, name, r.ID, err)
		}
		if _, ok := pkg[strings.ToLower(target)]; !ok {
			return "", nil, fmt.Errorf("%w: %s: %s targets %q, which is not a part", ErrInvalid, name, r.ID, r.Target)
		}
		out = append(out, relation{id: r.ID, typ: r.Type, part: target})
	}
	return source, out, nil
}

// resolve turns an internal target URI into a part name: absolute from the
// package root when it starts with "/", otherwise relative to the source's
// folder base; it may not leave the package.
func resolve(base, target string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return "", fmt.Errorf("target %q is not a part reference", target)
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		p = p[1:]
	} else {
		p = base + p
	}
	clean := path.Clean(p) // unrooted, so a ".." too many stays visible
	if clean == ".." || strings.HasPrefix(clean, "../") || clean == "." {
		return "", fmt.Errorf("target %q leaves the package", target)
	}
	return clean, nil
}

// checkPresentation follows the package's officeDocument relationship to
// the presentation part and checks its master and slide lists; it returns
// the number of slides.
func checkPresentation(pkg map[string][]byte, types contentTypes, rels map[string][]relation) (int, error) {
	var pres string
	for _, r := range rels[""] {
		if r.typ == relOfficeDoc && r.part != "" {
			pres = r.part
		}
	}
	if pres == "" {
		return 0, fmt.Errorf("%w: _rels/.rels: no officeDocument relationship to a part", ErrInvalid)
	}
	if t := types.of(pres); !strings.HasPrefix(t, ctPML) || !strings.HasSuffix(t, ".main+xml") {
		return 0, fmt.Errorf("%w: %s: content type %q is not a presentation's", ErrInvalid, pres, t)
	}
	var doc struct {
		XMLName xml.Name `xml:"http://schemas.openxmlformats.org/presentationml/2006/main presentation"`
		Masters []struct {
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sldMasterIdLst>sldMasterId"`
		Slides []struct {
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sldIdLst>sldId"`
	}
	if err := xml.Unmarshal(pkg[strings.ToLower(pres)], &doc); err != nil {
		return 0, fmt.Errorf("%w: %s: %v", ErrInvalid, pres, err)
	}
	byID := map[string]relation{}
	for _, r := range rels[strings.ToLower(pres)] {
		byID[r.id] = r
	}
	follow := func(attrs []xml.Attr, typ, ctype, what string) (id, part string, err error) {
		for _, a := range attrs {
			switch {
			case a.Name.Space == "" && a.Name.Local == "id":
				id = a.Value
			case a.Name.Space == nsR && a.Name.Local == "id":
				r, ok := byID[a.Value]
				if !ok {
					return "", "", fmt.Errorf("%w: %s: %s r:id %q has no relationship", ErrInvalid, pres, what, a.Value)
				}
				if r.typ != typ || r.part == "" {
					return "", "", fmt.Errorf("%w: %s: %s r:id %q is not a %s relationship", ErrInvalid, pres, what, a.Value, path.Base(typ))
				}
				if t := types.of(r.part); t != ctype {
					return "", "", fmt.Errorf("%w: %s: content type %q, want %q", ErrInvalid, r.part, t, ctype)
				}
				part = r.part
			}
		}
		if part == "" {
			return "", "", fmt.Errorf("%w: %s: %s without r:id", ErrInvalid, pres, what)
		}
		return id, part, nil
	}
	if len(doc.Masters) == 0 {
		return 0, fmt.Errorf("%w: %s: no slide master", ErrInvalid, pres)
	}
	for _, m := range doc.Masters {
		if _, _, err := follow(m.Attrs, relSlideMaster, ctSlideMaster, "sldMasterId"); err != nil {
			return 0, err
		}
	}
	seen := map[string]bool{}
	for _, s := range doc.Slides {
		id, part, err := follow(s.Attrs, relSlide, ctSlide, "sldId")
		if err != nil {
			return 0, err
		}
		if n, err := strconv.ParseUint(id, 10, 32); err != nil || n < 256 || seen[id] {
			return 0, fmt.Errorf("%w: %s: slide id %q not a unique number from 256", ErrInvalid, pres, id)
		}
		seen[id] = true
		layouts := 0
		for _, r := range rels[strings.ToLower(part)] {
			if r.typ == relSlideLayout {
				layouts++
			}
		}
		if layouts != 1 {
			return 0, fmt.Errorf("%w: %s: %d slide layout relationships, want 1", ErrInvalid, part, layouts)
		}
	}
	return len(doc.Slides), nil
}
