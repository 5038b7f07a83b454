package content_test

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/media"
)

// mediaTools is media.FindTools(), or a skip naming the Debian package of
// the first program missing (ffmpeg, ffprobe, flite, the DejaVu fonts).
func mediaTools(t *testing.T) *media.Tools {
	t.Helper()
	for _, tp := range [][2]string{{"ffmpeg", "ffmpeg"}, {"ffprobe", "ffmpeg"}, {"flite", "flite"}} {
		if _, err := exec.LookPath(tp[0]); err != nil {
			t.Skipf("%s not found: install the Debian package %s (apt-get install -y --no-install-recommends %s)", tp[0], tp[1], tp[1])
		}
	}
	if _, err := os.Stat("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"); err != nil {
		t.Skipf("DejaVu fonts missing: install the Debian package fonts-dejavu-core (%v)", err)
	}
	tools := media.FindTools()
	return &tools
}

// ffmpegRun runs ffmpeg with args to make a test's fixture.
func ffmpegRun(t *testing.T, args ...string) {
	t.Helper()
	args = append([]string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y"}, args...)
	if out, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// speechVideo is a 640x360 H.264/AAC MP4 of a plain colour (0x203040)
// whose audio is text spoken by flite's rms voice; it lasts as long as the
// speech.
func speechVideo(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	wav := filepath.Join(dir, "speech.wav")
	if b, err := exec.Command("flite", "-voice", "rms", "-t", text, "-o", wav).CombinedOutput(); err != nil {
		t.Fatalf("flite: %v: %s", err, b)
	}
	out := filepath.Join(dir, "speech.mp4")
	ffmpegRun(t, "-f", "lavfi", "-i", "color=c=0x203040:s=640x360:r=25", "-i", wav,
		"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out)
	return out
}

// smallVideo is a short 720x1280 H.264/AAC MP4 (a colour and a tone) of
// seconds seconds, as a provider would render.
func smallVideo(t *testing.T, seconds string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "provider.mp4")
	ffmpegRun(t, "-f", "lavfi", "-i", "color=c=0x336699:s=720x1280:r=25:d="+seconds, "-f", "lavfi", "-i", "sine=f=440:d="+seconds,
		"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out)
	return out
}

// probe is ffprobe's report of path.
func probe(t *testing.T, tools *media.Tools, path string) media.Info {
	t.Helper()
	info, err := tools.Probe(context.Background(), path)
	if err != nil {
		t.Fatalf("probe %s: %v", path, err)
	}
	return info
}

// frameAt grabs and decodes video's frame at `at`.
func frameAt(t *testing.T, tools *media.Tools, video string, at time.Duration) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frame.png")
	if err := tools.Frame(context.Background(), video, at, path); err != nil {
		t.Fatalf("frame at %v: %v", at, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode frame: %v", err)
	}
	return img
}

func rgb(img image.Image, x, y int) (r, g, b int) {
	r32, g32, b32, _ := img.At(x, y).RGBA()
	return int(r32 >> 8), int(g32 >> 8), int(b32 >> 8)
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// countPixels counts the pixels in rows [top, bottom) (fractions of the
// height) for which ok holds.
func countPixels(img image.Image, top, bottom float64, ok func(x, y, r, g, b int) bool) int {
	bd := img.Bounds()
	n := 0
	for y := bd.Min.Y + int(top*float64(bd.Dy())); y < bd.Min.Y+int(bottom*float64(bd.Dy())); y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if r, g, b := rgb(img, x, y); ok(x, y, r, g, b) {
				n++
			}
		}
	}
	return n
}

// diffPixels counts the pixels in rows [top, bottom) that differ clearly
// between a and b.
func diffPixels(a, b image.Image, top, bottom float64) int {
	return countPixels(a, top, bottom, func(x, y, r1, g1, b1 int) bool {
		r2, g2, b2 := rgb(b, x, y)
		return iabs(r1-r2)+iabs(g1-g2)+iabs(b1-b2) > 150
	})
}

// fetch downloads a signed link without credentials into a file.
func (w *world) fetch(t *testing.T, link string) string {
	t.Helper()
	if !strings.HasPrefix(link, w.URL+base+"/downloads/") {
		t.Fatalf("link %q is not a download link of the API", link)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "video/mp4" {
		t.Fatalf("GET %s: %d %s: %.200s", link, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	path := filepath.Join(t.TempDir(), "download.mp4")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// poll GETs path until settled says the reply is final or within passes.
func (w *world) poll(t *testing.T, u *user, path string, within time.Duration, settled func(reply) bool) reply {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		r := w.must(t, http.StatusOK, u, "GET", path, nil)
		if settled(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: not settled after %v: %s", path, within, r.Raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// final is a task or job whose status is done or error.
func final(r reply) bool { return r.Body["status"] == "done" || r.Body["status"] == "error" }

// waitTask waits for a task to be done or failed.
func (w *world) waitTask(t *testing.T, u *user, id string) reply {
	t.Helper()
	return w.poll(t, u, base+"/tasks/"+id, time.Minute, final)
}

// twin creates a twin of u's and returns its id.
func (w *world) twin(t *testing.T, u *user, fields map[string]any) string {
	t.Helper()
	if fields == nil {
		fields = map[string]any{}
	}
	if fields["name"] == nil {
		fields["name"] = "Test Twin"
	}
	r := w.must(t, http.StatusCreated, u, "POST", base+"/twins", fields)
	return r.Body["id"].(string)
}

// multipart posts a multipart form: fields, and files by field name
// (file name "<field>.csv" or the given name before a colon).
func (w *world) multipart(t *testing.T, u *user, path string, fields map[string]string, files map[string][]byte) reply {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	for k, data := range files {
		field, name, ok := strings.Cut(k, ":")
		if !ok {
			name = field + ".csv"
		}
		fw, _ := mw.CreateFormFile(field, name)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", w.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-API-Key", u.Key)
	return w.send(t, req)
}

// str is a member of a reply body as a string ("" when absent).
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// obj is a member of a reply body as an object (nil when absent).
func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// charge is one ChargeTx call the credits double saw.
type charge struct {
	Account, ChargeID string
	Micro             int64
}

// fakeCredits is the credits ledger's double: a balance the test sets and
// the charges asked for. ChargeTx records each call and, like the real
// ledger, refuses a charge id charged before (ErrAlreadyCharged).
type fakeCredits struct {
	mu      sync.Mutex
	balance int64
	calls   []charge
	byID    map[string]charge
}

var errAlreadyCharged = errors.New("credits double: charged already")

func newCredits(balance int64) *fakeCredits {
	return &fakeCredits{balance: balance, byID: map[string]charge{}}
}

func (c *fakeCredits) setBalance(micro int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.balance = micro
}

func (c *fakeCredits) AvailableMicro(context.Context, string) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.balance, nil
}

func (c *fakeCredits) ChargeTx(_ context.Context, tx *stdsql.Tx, account, chargeID string, micro int64, _ string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tx == nil {
		return errors.New("credits double: a charge needs the transaction")
	}
	ch := charge{Account: account, ChargeID: chargeID, Micro: micro}
	c.calls = append(c.calls, ch)
	if _, dup := c.byID[chargeID]; dup {
		return fmt.Errorf("%w: %s", errAlreadyCharged, chargeID)
	}
	c.byID[chargeID] = ch
	c.balance -= micro
	return nil
}

// seen returns the ChargeTx calls so far.
func (c *fakeCredits) seen() []charge {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]charge(nil), c.calls...)
}
