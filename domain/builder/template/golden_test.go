package template

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenIdeas are the ideas whose whole output is kept in testdata.
func goldenIdeas() []struct{ name, idea string } {
	return []struct{ name, idea string }{
		{"pottery_marketplace", "a marketplace for handmade pottery"},
		{"yoga_booking", "book yoga classes at my studio"},
		{"real_estate_crm", "a CRM for my real estate deals"},
		{"sneaker_store", "online store for vintage sneakers"},
		{"vegan_directory", "directory of vegan restaurants in Berlin"},
		{"saas_helpdesk", "helpdesk for my SaaS customers"},
		{"cooking_courses", "sell cooking courses online"},
		{"freelance_invoicing", "send invoices to my freelance clients"},
		{"gamedev_community", "a community for indie game developers"},
		{"running_tracker", "track my running workouts"},
		{"no_match", "  just an app  "},
		{"mixed_signals", "an online shop for my bakery where customers can book cake tastings, pay a deposit and leave reviews"},
	}
}

// sharedFiles are the same for every app; a golden file keeps their size
// and digest, and TestSharedFilesAreTheAssets checks their content.
func sharedFiles() map[string]bool {
	return map[string]bool{"server.js": true, "public/app.js": true, "public/style.css": true}
}

// goldenText is the whole output of one idea as text: each file under a
// "-- path --" line, shared files as their size and SHA-256.
func goldenText(files []File) []byte {
	var buf bytes.Buffer
	for _, f := range files {
		fmt.Fprintf(&buf, "-- %s --\n", f.Path)
		if sharedFiles()[f.Path] {
			fmt.Fprintf(&buf, "(shared: %d bytes, sha256 %x)\n", len(f.Content), sha256.Sum256(f.Content))
			continue
		}
		buf.Write(f.Content)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	for _, c := range goldenIdeas() {
		t.Run(c.name, func(t *testing.T) {
			s, err := Plan(c.idea)
			if err != nil {
				t.Fatalf("Plan(%q): %v", c.idea, err)
			}
			files, err := Generate(s)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			again, err := Generate(s)
			if err != nil {
				t.Fatalf("Generate again: %v", err)
			}
			got := goldenText(files)
			if !bytes.Equal(got, goldenText(again)) {
				t.Fatal("two Generate calls on the same spec gave different files")
			}
			for i := range files {
				if !bytes.Equal(files[i].Content, again[i].Content) {
					t.Fatalf("%s differs between two Generate calls", files[i].Path)
				}
			}
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("output for %q differs from %s (run go test -update and review the diff)\n%s",
					c.idea, path, firstDiff(got, want))
			}
		})
	}
}

func TestGenerateListsFilesSortedByPath(t *testing.T) {
	s, err := Plan("book yoga classes at my studio")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "package.json", "public/app.js", "public/index.html",
		"public/style.css", "server.js", "spec.json"}
	if len(files) != len(want) {
		t.Fatalf("got %d files, want %d", len(files), len(want))
	}
	for i, f := range files {
		if f.Path != want[i] {
			t.Errorf("file %d is %s, want %s", i, f.Path, want[i])
		}
	}
}

func TestSharedFilesAreTheAssets(t *testing.T) {
	s, err := Plan("a marketplace for handmade pottery")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !sharedFiles()[f.Path] {
			continue
		}
		want, err := assets.ReadFile("assets/" + filepath.Base(f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.Content, want) {
			t.Errorf("%s is not assets/%s", f.Path, filepath.Base(f.Path))
		}
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return ""
}

// A spec read back from its spec.json generates the same files, so a
// stored spec.json is enough to rebuild an app.
func TestSpecJSONRoundTrips(t *testing.T) {
	for _, c := range goldenIdeas() {
		s, _ := Plan(c.idea)
		files, err := Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Spec
		if err := json.Unmarshal(files[fileIndex(files, "spec.json")].Content, &back); err != nil {
			t.Fatalf("%s: spec.json: %v", c.name, err)
		}
		again, err := Generate(back)
		if err != nil {
			t.Fatalf("%s: Generate(spec.json): %v", c.name, err)
		}
		if !bytes.Equal(goldenText(files), goldenText(again)) {
			t.Errorf("%s: a spec read back from spec.json generates different files", c.name)
		}
	}
}

// fileIndex returns the index of the file at path, or -1.
func fileIndex(files []File, path string) int {
	for i, f := range files {
		if f.Path == path {
			return i
		}
	}
	return -1
}
