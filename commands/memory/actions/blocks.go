package actions

import (
	"regexp"
	"strings"
	"unicode/utf16"
)

// Notion's request limits the conversion keeps to.
const (
	// MaxRichText is the longest text of one rich text object (Notion
	// counts UTF-16 code units; so does the chunking).
	MaxRichText = 2000
	// maxRichItems is how many rich text objects one block may hold.
	maxRichItems = 100
	// MaxBlocksPerRequest is how many children one request may carry.
	MaxBlocksPerRequest = 100
	// MaxBlocks bounds one page's blocks (ten append requests).
	MaxBlocks = 1000
)

// Block is one Notion block object, as sent.
type Block map[string]any

var (
	heading  = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	bullet   = regexp.MustCompile(`^\s*[-*+]\s+(.*)$`)
	numbered = regexp.MustCompile(`^\s*[0-9]{1,9}[.)]\s+(.*)$`)
	quote    = regexp.MustCompile(`^>\s?(.*)$`)
	divider  = regexp.MustCompile(`^\s*(?:-{3,}|\*{3,}|_{3,})\s*$`)
	fence    = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([^`\\s]*)")
)

// Blocks converts plain text or markdown to Notion blocks: '#', '##' and
// '###' (and deeper) headings, '-', '*', '+' bullets, "1." and "1)"
// numbered items (nesting is flattened), '>' quotes, '---' dividers,
// fenced code (``` or ~~~, with its language where Notion knows it) and
// paragraphs (consecutive lines, joined with line breaks). Inline markup
// stays as written. Long text is split into rich text objects of at most
// MaxRichText code units, and into several blocks past 100 of them.
func Blocks(content string) []Block {
	var (
		out  []Block
		para []string
	)
	flush := func() {
		if len(para) > 0 {
			out = append(out, textBlocks("paragraph", strings.Join(para, "\n"))...)
			para = nil
		}
	}
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := fence.FindStringSubmatch(line); m != nil {
			flush()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), m[1]); i++ {
				code = append(code, lines[i])
			}
			for _, b := range textBlocks("code", strings.Join(code, "\n")) {
				b["code"].(map[string]any)["language"] = codeLanguage(m[2])
				out = append(out, b)
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		kind, text := "", ""
		switch {
		case divider.MatchString(line):
			flush()
			out = append(out, Block{"object": "block", "type": "divider", "divider": map[string]any{}})
			continue
		case heading.MatchString(line):
			m := heading.FindStringSubmatch(line)
			kind, text = "heading_"+string("123"[min(len(m[1]), 3)-1]), m[2]
		case bullet.MatchString(line):
			kind, text = "bulleted_list_item", bullet.FindStringSubmatch(line)[1]
		case numbered.MatchString(line):
			kind, text = "numbered_list_item", numbered.FindStringSubmatch(line)[1]
		case quote.MatchString(line):
			kind, text = "quote", quote.FindStringSubmatch(line)[1]
		default:
			para = append(para, line)
			continue
		}
		flush()
		out = append(out, textBlocks(kind, strings.TrimSpace(text))...)
	}
	flush()
	return out
}

// textBlocks is one block of kind holding text, or several when text
// needs more than 100 rich text objects.
func textBlocks(kind, text string) []Block {
	chunks := Chunk(text, MaxRichText)
	var out []Block
	for len(chunks) > 0 || len(out) == 0 {
		n := min(len(chunks), maxRichItems)
		rich := make([]map[string]any, n)
		for i, c := range chunks[:n] {
			rich[i] = map[string]any{"type": "text", "text": map[string]any{"content": c}}
		}
		chunks = chunks[n:]
		out = append(out, Block{"object": "block", "type": kind, kind: map[string]any{"rich_text": rich}})
	}
	return out
}

// RichText is a title or text as Notion rich text objects.
func RichText(text string) []map[string]any {
	chunks := Chunk(text, MaxRichText)
	rich := make([]map[string]any, len(chunks))
	for i, c := range chunks {
		rich[i] = map[string]any{"type": "text", "text": map[string]any{"content": c}}
	}
	return rich
}

// Chunk splits s into pieces of at most max UTF-16 code units, never
// inside a character, preferring to split after a line break or a space
// in the last fifth of a piece.
func Chunk(s string, max int) []string {
	var out []string
	for s != "" {
		units, cut := 0, len(s)
		for i, r := range s {
			n := utf16.RuneLen(r)
			if n < 0 {
				n = 1
			}
			if units+n > max {
				cut = i
				break
			}
			units += n
		}
		if cut < len(s) {
			if j := strings.LastIndexAny(s[:cut], "\n "); j > 0 && j >= cut*4/5 {
				cut = j + 1
			}
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// codeLanguage maps a fence's language to one of Notion's code languages
// ("plain text" when Notion has none of that name).
func codeLanguage(l string) string {
	l = strings.ToLower(l)
	alias := map[string]string{"js": "javascript", "ts": "typescript", "py": "python", "sh": "shell", "zsh": "shell",
		"yml": "yaml", "golang": "go", "cpp": "c++", "cs": "c#", "csharp": "c#", "rb": "ruby", "rs": "rust",
		"kt": "kotlin", "md": "markdown", "dockerfile": "docker", "tf": "hcl", "text": "plain text", "txt": "plain text"}
	if a, ok := alias[l]; ok {
		return a
	}
	switch l {
	case "bash", "c", "c#", "c++", "clojure", "css", "dart", "diff", "docker", "elixir", "erlang", "go", "graphql",
		"haskell", "hcl", "html", "java", "javascript", "json", "kotlin", "latex", "lua", "makefile", "markdown",
		"mermaid", "nix", "objective-c", "ocaml", "perl", "php", "powershell", "protobuf", "python", "r", "ruby",
		"rust", "scala", "scss", "shell", "sql", "swift", "toml", "typescript", "xml", "yaml", "zig":
		return l
	}
	return "plain text"
}
