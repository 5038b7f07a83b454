package builder

import (
	"strings"
	"testing"
)

const twoFiles = "Here is the app.\n<file path=\"server.js\">\nconst a = 1 < 2;\nconsole.log('</fil' + 'e>');\n</file>\nand\n<file path=\"public/index.html\">\n<p>hi</p>\n</file>\nDone."

// The same files come out however the output is cut into chunks.
func TestFileParserAnyChunking(t *testing.T) {
	want := []StreamedFile{{"server.js", "const a = 1 < 2;\nconsole.log('</fil' + 'e>');"}, {"public/index.html", "<p>hi</p>"}}
	for size := 1; size <= len(twoFiles); size++ {
		var p FileParser
		var got []StreamedFile
		for i := 0; i < len(twoFiles); i += size {
			fs, err := p.Push(twoFiles[i:min(i+size, len(twoFiles))])
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fs...)
		}
		if err := p.End(); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("chunks of %d: %q", size, got)
		}
	}
}

func TestFileParserCutOutput(t *testing.T) {
	var p FileParser
	if _, err := p.Push("<file path=\"a.txt\">\npartial"); err != nil {
		t.Fatal(err)
	}
	if path, open := p.Open(); !open || path != "a.txt" {
		t.Fatal(path, open)
	}
	if err := p.End(); err == nil || !strings.Contains(err.Error(), "a.txt") {
		t.Fatal(err)
	}
	// Text that only looks like a tag is text.
	var q FileParser
	fs, _ := q.Push("a <b> and <filet> and <file>x</file> <file path=\"ok\">y</file>")
	if len(fs) != 1 || fs[0].Path != "ok" || fs[0].Content != "y" {
		t.Fatalf("%q", fs)
	}
}
