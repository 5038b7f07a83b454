package builder

import (
	"fmt"
	"regexp"
	"strings"
)

// StreamedFile is a file parsed from a model's output.
type StreamedFile struct {
	Path    string
	Content string
}

// FileParser reads files out of a model's streamed text, where each file
// is a tagged block:
//
//	<file path="public/index.html">
//	...content...
//	</file>
//
// Text outside blocks is ignored (a model's commentary). Chunks may cut a
// tag anywhere: the parser holds back a chunk's tail that could still be
// the start of a tag until the next chunk says. The newline right after an
// opening tag and right before a closing one belong to the tags.
type FileParser struct {
	pending string // unparsed text, outside or inside a block
	inFile  bool
	skipNL  bool // the newline after an opening tag has not come yet
	path    string
	content strings.Builder
	files   int
}

var openTagRE = regexp.MustCompile(`^<file\s+path="([^"<>]{1,200})"\s*>`)

const (
	openPrefix = "<file"
	closeTag   = "</file>"
	// maxOpenTag bounds how long an opening tag may be.
	maxOpenTag = 240
)

// Push feeds a chunk and returns the files it completed.
func (p *FileParser) Push(chunk string) ([]StreamedFile, error) {
	p.pending += chunk
	var out []StreamedFile
	for {
		if !p.inFile {
			i := strings.Index(p.pending, "<")
			if i < 0 {
				p.pending = ""
				return out, nil
			}
			rest := p.pending[i:]
			if m := openTagRE.FindStringSubmatch(rest); m != nil {
				p.inFile, p.path, p.skipNL = true, m[1], true
				p.content.Reset()
				p.pending = rest[len(m[0]):]
				continue
			}
			if couldStart(rest) {
				p.pending = rest // hold back: the tag may complete
				return out, nil
			}
			p.pending = rest[1:]
			continue
		}
		if p.skipNL && p.pending != "" {
			p.pending, p.skipNL = strings.TrimPrefix(p.pending, "\n"), false
		}
		j := strings.Index(p.pending, closeTag)
		if j < 0 {
			// Keep what cannot be the start of the closing tag.
			keep := holdBack(p.pending, closeTag)
			p.content.WriteString(p.pending[:len(p.pending)-keep])
			p.pending = p.pending[len(p.pending)-keep:]
			return out, nil
		}
		p.content.WriteString(p.pending[:j])
		out = append(out, StreamedFile{Path: p.path, Content: strings.TrimSuffix(p.content.String(), "\n")})
		p.files++
		p.inFile, p.path = false, ""
		p.content.Reset()
		p.pending = p.pending[j+len(closeTag):]
	}
}

// End reports a block the output left open (the stream was cut).
func (p *FileParser) End() error {
	if p.inFile {
		return fmt.Errorf("the output ended inside the file block of %s", p.path)
	}
	return nil
}

// Open is the path of the block being read, if any (a continuation picks
// it up).
func (p *FileParser) Open() (string, bool) { return p.path, p.inFile }

// couldStart reports whether s (starting with '<') may still become an
// opening tag with more text.
func couldStart(s string) bool {
	if len(s) > maxOpenTag || strings.Contains(s, ">") {
		return false
	}
	if len(s) <= len(openPrefix) {
		return strings.HasPrefix(openPrefix, s)
	}
	return strings.HasPrefix(s, openPrefix) && (s[len(openPrefix)] == ' ' || s[len(openPrefix)] == '\t' || s[len(openPrefix)] == '\n')
}

// holdBack is how many bytes at the end of s could be the start of tag.
func holdBack(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
