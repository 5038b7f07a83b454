package audit

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"
)

const maxFormat = 15

// checkFormat scores response format consistency (15 points).
func checkFormat(s Snapshot) CheckResult {
	var fs []Finding

	homeOK, homeWhy := contentMatches(s.Home)
	accOK, accWhy := contentMatches(s.AcceptJSON)
	fs = append(fs, finding("response_format.content_type_matches", "Declared Content-Type matches the body (home, JSON probe)", 4, b2i(homeOK, 2)+b2i(accOK, 2),
		fmt.Sprintf("home: %s; %s. JSON probe: %s; %s", describe(s.Home), homeWhy, describe(s.AcceptJSON), accWhy),
		"Send the Content-Type of what the body is (text/html for pages, application/json for JSON), from the same code path that writes the body."))

	a := s.AcceptJSON
	apts, aev := 0, describeBody(a)
	if a != nil && a.Err == "" {
		mt := mediaType(a)
		_, valid := jsonBody(a)
		switch {
		case a.Status == http.StatusNotAcceptable:
			apts, aev = 5, aev+"; 406 Not Acceptable is a correct answer"
		case isJSONType(mt) && valid:
			apts = 5
		case isJSONType(mt):
			aev += "; declared JSON but the body is not JSON"
		case valid:
			apts, aev = 2, aev+"; JSON body under a non-JSON Content-Type"
		default:
			aev += "; Accept: application/json was ignored"
		}
	}
	fs = append(fs, finding("response_format.accept_json", "Accept: application/json gets JSON (or 406)", 5, apts, aev,
		"Honour Accept: answer application/json (or application/problem+json for errors) when it is asked for, or 406 Not Acceptable; do not serve an HTML page."))

	errs := errorResponses(s)
	var sigs []string
	allJSON := true
	for _, r := range errs {
		eb := readErrorBody(r)
		sigs = append(sigs, fmt.Sprintf("%d %s", r.Status, eb.Signature))
		if !eb.JSON {
			allJSON = false
		}
	}
	same := true
	for i := 1; i < len(errs); i++ {
		if readErrorBody(errs[i]).Signature != readErrorBody(errs[0]).Signature {
			same = false
		}
	}
	epts := 0
	eev := fmt.Sprintf("%d error %s observed", len(errs), plural(len(errs), "response", "responses"))
	if len(sigs) > 0 {
		eev += ": " + excerptString(strings.Join(sigs, "; "))
	}
	switch {
	case len(errs) == 0:
		eev += "; nothing to compare"
	case len(errs) == 1 && allJSON:
		epts, eev = 2, eev+"; only one error response, consistency not observable"
	case allJSON && same:
		epts = 4
	case allJSON:
		epts, eev = 1, eev+"; JSON, but in different shapes"
	}
	fs = append(fs, finding("response_format.one_error_envelope", "Error responses share one JSON envelope", 4, epts, eev,
		"Answer every error in one envelope, ideally RFC 9457 application/problem+json {type, title, status, detail}, from a single error handler."))

	h := s.Home
	cpts, cev := 0, describe(h)
	if h != nil && h.Err == "" {
		mt := mediaType(h)
		switch {
		case charsetOf(h) != "":
			cpts, cev = 2, fmt.Sprintf("%s; charset=%s", cev, charsetOf(h))
		case isJSONType(mt):
			cpts, cev = 2, cev+"; JSON is UTF-8 by definition (RFC 8259)"
		case strings.HasPrefix(mt, "text/") || mt == "application/xhtml+xml" || mt == "":
			if metaCharset.Match(h.Body[:min(len(h.Body), 4096)]) {
				cpts, cev = 1, cev+"; charset only in a <meta> tag"
			} else {
				cev += "; no charset"
			}
		default:
			cpts, cev = 2, cev+"; not a text type"
		}
	}
	fs = append(fs, finding("response_format.charset", "Text responses declare their charset", 2, cpts, cev,
		"Declare the charset in the header: Content-Type: text/html; charset=utf-8."))
	return result(CheckFormat, maxFormat, fs)
}

var metaCharset = regexp.MustCompile(`(?i)<meta[^>]+charset\s*=`)

// contentMatches checks a response's declared Content-Type against its body.
func contentMatches(r *Response) (bool, string) {
	if r == nil {
		return false, "not fetched"
	}
	if r.Err != "" {
		return false, "request failed"
	}
	body := trimBOM(r.Body)
	if len(body) == 0 {
		return true, "empty body"
	}
	mt := mediaType(r)
	switch {
	case mt == "":
		return false, "no Content-Type for a " + sniffName(body) + " body"
	case isJSONType(mt):
		if jsonValid(body) {
			return true, "JSON as declared"
		}
		return false, "declared " + mt + " but the body is " + sniffName(body)
	case mt == "text/html" || mt == "application/xhtml+xml":
		if looksHTML(body) {
			return true, "HTML as declared"
		}
		return false, "declared " + mt + " but the body is " + sniffName(body)
	case mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml"):
		if body[0] == '<' {
			return true, "XML as declared"
		}
		return false, "declared " + mt + " but the body is " + sniffName(body)
	case strings.HasPrefix(mt, "text/") || mt == "application/yaml" || mt == "application/x-yaml" || mt == "application/javascript":
		if looksHTML(body) {
			return false, "declared " + mt + " but the body is HTML"
		}
		if !utf8.Valid(body) && !strings.HasPrefix(http.DetectContentType(body), "text/") {
			return false, "declared " + mt + " but the body is binary"
		}
		return true, "text as declared"
	}
	sn := http.DetectContentType(body)
	if sn == "application/octet-stream" || strings.SplitN(sn, "/", 2)[0] == strings.SplitN(mt, "/", 2)[0] {
		return true, "consistent with " + mt
	}
	return false, "declared " + mt + " but the body sniffs as " + sn
}

func jsonValid(b []byte) bool {
	_, ok := jsonBody(&Response{Body: b})
	return ok
}

func sniffName(b []byte) string {
	switch {
	case jsonValid(b):
		return "JSON"
	case looksHTML(b):
		return "HTML"
	}
	sn := http.DetectContentType(b)
	if i := strings.IndexByte(sn, ';'); i >= 0 {
		sn = sn[:i]
	}
	return sn
}
