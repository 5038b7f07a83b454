//go:build unix

package deck

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// renderTimeout bounds one LibreOffice conversion run.
const renderTimeout = 120 * time.Second

// TestLibreOfficeRendersEverySlide converts decks to PDF with LibreOffice
// headless and checks that each PDF has one page per slide, and (when
// pdftotext is present) that the text survived. Without LibreOffice on
// PATH the test is skipped, saying so.
func TestLibreOfficeRendersEverySlide(t *testing.T) {
	office := ""
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			office = p
			break
		}
	}
	if office == "" {
		t.Skip("LibreOffice is absent (neither soffice nor libreoffice is on PATH): the rendering check did not run; install libreoffice-impress to run it")
	}
	decks := fixtures()
	decks["pitch"] = Deck{
		Title:     "Acme Grooming",
		Subtitle:  "Online bookings for independent dog groomers",
		Generated: generated,
		Slides: []Slide{
			{Title: "Problem", Bullets: []string{"Groomers book by phone & text", "No-shows cost 1 slot in 10"}, Source: "From the thesis artifact"},
			{Title: "Traction", Bullets: numbered(9, "Customer interview notes"), Notes: "Speak to the pilot.", Source: "From the company's systems: 0 deals, 0 invoices"},
		},
	}
	dir := t.TempDir()
	var inputs []string
	want := map[string]int{}
	for i, name := range names(decks) {
		file := "deck" + strconv.Itoa(i)
		pptx := mustPPTX(t, decks[name])
		if err := os.WriteFile(filepath.Join(dir, file+".pptx"), pptx, 0o600); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, filepath.Join(dir, file+".pptx"))
		want[file] = SlideCount(decks[name])
	}
	home := filepath.Join(dir, "home")
	out := filepath.Join(dir, "pdf")
	ctx, cancel := context.WithTimeout(context.Background(), renderTimeout)
	defer cancel()
	args := append([]string{"-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(dir, "profile")),
		"--headless", "--norestore", "--convert-to", "pdf", "--outdir", out}, inputs...)
	cmd := exec.CommandContext(ctx, office, args...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	// soffice hands over to soffice.bin: kill the whole process group on
	// timeout so nothing outlives the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", office, err, msg)
	}
	for i, name := range names(decks) {
		file := "deck" + strconv.Itoa(i)
		pdf, err := os.ReadFile(filepath.Join(out, file+".pdf"))
		if err != nil {
			t.Errorf("%s: LibreOffice wrote no PDF: %v", name, err)
			continue
		}
		if got := pageCount(t, filepath.Join(out, file+".pdf"), pdf); got != want[file] {
			t.Errorf("%s: %d PDF pages for %d slides", name, got, want[file])
		}
	}
	checkRenderedText(t, filepath.Join(out, "deck"+strconv.Itoa(slices.Index(names(decks), "pitch"))+".pdf"),
		"Acme Grooming", "Groomers book by phone & text", "Traction (cont.)", "From the company's systems: 0 deals, 0 invoices")
}

// pageCount reads the page count with pdfinfo when present, otherwise by
// counting page objects (/Type /Page, not /Pages) in the PDF.
func pageCount(t *testing.T, path string, pdf []byte) int {
	t.Helper()
	if pdfinfo, err := exec.LookPath("pdfinfo"); err == nil {
		out, err := exec.Command(pdfinfo, path).Output()
		if err != nil {
			t.Fatalf("pdfinfo %s: %v", path, err)
		}
		m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("pdfinfo printed no page count:\n%s", out)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	return len(regexp.MustCompile(`/Type\s*/Page\b`).FindAll(pdf, -1))
}

// checkRenderedText checks, when pdftotext is present, that each want
// string is in the PDF's text.
func checkRenderedText(t *testing.T, path string, want ...string) {
	t.Helper()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Log("pdftotext is absent: rendered text not checked")
		return
	}
	out, err := exec.Command(pdftotext, path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	text := string(bytes.Join(bytes.Fields(out), []byte(" ")))
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("rendered text lacks %q:\n%s", w, text)
		}
	}
}
