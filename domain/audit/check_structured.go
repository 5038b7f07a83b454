package audit

import (
	"fmt"
	"strings"
)

const maxStructured = 15

// checkStructured scores the home page's JSON-LD (15 points).
func checkStructured(s Snapshot) CheckResult {
	r := s.Home
	var fs []Finding
	var blocks []JSONLDBlock
	isHTML := r.OK() && looksHTML(r.Body)
	if isHTML {
		blocks = ExtractJSONLD(r.Body)
	}
	ev := describe(r)
	if r.OK() && !isHTML {
		ev += "; not an HTML page"
	}
	fs = append(fs, finding("structured_data.jsonld_present", "JSON-LD blocks on the home page", 4, b2i(len(blocks) > 0, 4),
		fmt.Sprintf("%s; %d JSON-LD %s", ev, len(blocks), plural(len(blocks), "block", "blocks")),
		"Describe the site in a <script type=\"application/ld+json\"> block on the home page (schema.org Organization and WebSite at least)."))

	valid, withCtx := 0, 0
	var firstBad string
	for _, b := range blocks {
		if b.Valid {
			valid++
			if b.SchemaOrg {
				withCtx++
			} else if firstBad == "" {
				firstBad = "no schema.org @context: " + excerptString(b.Raw)
			}
		} else if firstBad == "" {
			firstBad = "invalid JSON: " + excerptString(b.Raw)
		}
	}
	ctxPts := 0
	switch {
	case len(blocks) > 0 && withCtx == len(blocks):
		ctxPts = 3
	case withCtx > 0:
		ctxPts = 2
	}
	cev := fmt.Sprintf("%d of %d blocks valid JSON, %d with a schema.org @context", valid, len(blocks), withCtx)
	if firstBad != "" {
		cev += "; " + firstBad
	}
	fs = append(fs, finding("structured_data.context", "Valid JSON with a schema.org @context", 3, ctxPts, cev,
		"Make every block valid JSON (no trailing commas or comments) with \"@context\": \"https://schema.org\"."))

	var ents []JSONLDEntity
	for _, b := range blocks {
		if b.Valid {
			ents = append(ents, JSONLDEntities(b.Value)...)
		}
	}
	var recognised []string
	var seenTypes []string
	bestHave, bestWant, bestType := 0, 1, ""
	var bestMissing []string
	for _, e := range ents {
		for _, t := range e.Types {
			seenTypes = appendUnique(seenTypes, t)
			keys, ok := keyProperties[t]
			if !ok {
				continue
			}
			recognised = appendUnique(recognised, t)
			have := 0
			var missing []string
			for _, k := range keys {
				if present(e.Props[k]) {
					have++
				} else {
					missing = append(missing, k)
				}
			}
			if bestType == "" || have*bestWant > bestHave*len(keys) {
				bestHave, bestWant, bestType, bestMissing = have, len(keys), t, missing
			}
		}
	}
	tev := "types: (none)"
	if len(seenTypes) > 0 {
		tev = "types: " + excerptString(strings.Join(seenTypes, ", "))
	}
	fs = append(fs, finding("structured_data.recognised_type", "A recognised schema.org type", 4, b2i(len(recognised) > 0, 4), tev,
		"Use a type agents understand: Organization, WebSite, SoftwareApplication, WebAPI, Product, Article, FAQPage, BreadcrumbList, LocalBusiness..."))

	kpts, kev := 0, "no recognised entity"
	if bestType != "" {
		kpts = 4 * bestHave / bestWant
		kev = fmt.Sprintf("best: %s with %d of %d key properties (%s)", bestType, bestHave, bestWant, strings.Join(keyProperties[bestType], ", "))
		if len(bestMissing) > 0 {
			kev += "; missing " + strings.Join(bestMissing, ", ")
		}
	}
	fs = append(fs, finding("structured_data.key_properties", "The type's key properties are present", 4, kpts, kev,
		"Fill the type's key properties (Organization: name, url, logo; WebSite: name, url; Product: name, description, offers; see RUBRIC.md)."))
	return result(CheckStructured, maxStructured, fs)
}

func appendUnique(l []string, s string) []string {
	for _, e := range l {
		if e == s {
			return l
		}
	}
	return append(l, s)
}
