package transcribe

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// espeakVoice is espeak-ng's US English voice with the Klatt synthesiser:
// pocketsphinx-en-us recognises it far better than the default formant
// voice (measured: the default "en-us" lost most content words).
const espeakVoice = "en-us+klatt2"

// need skips the test when tool is missing, naming the Debian package.
func need(t *testing.T, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s not found: install the Debian package %s (apt-get install -y --no-install-recommends %s)", tool, pkg, pkg)
	}
}

// offline is the Debian engine, or a skip naming the package that is missing.
func offline(t *testing.T, cfg PocketsphinxConfig) *Pocketsphinx {
	t.Helper()
	need(t, "ffmpeg", "ffmpeg")
	need(t, DefaultPocketsphinxBinary, "pocketsphinx")
	if _, err := os.Stat(filepath.Join(DefaultPocketsphinxModelDir, "en-us", "mdef")); err != nil {
		t.Skipf("pocketsphinx model missing: install the Debian package pocketsphinx-en-us (%v)", err)
	}
	p, err := NewPocketsphinx(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// speak is text spoken by espeak-ng as a WAV (22.05 kHz mono).
func speak(t *testing.T, text string) []byte {
	t.Helper()
	need(t, "espeak-ng", "espeak-ng")
	out := filepath.Join(t.TempDir(), "speech.wav")
	if b, err := exec.Command("espeak-ng", "-v", espeakVoice, "-w", out, text).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v: %s", err, b)
	}
	wav, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wav
}

// ffmpeg runs ffmpeg with args between "-i pipe:0" and its output file (a
// file, so that a WAV header carries its sizes) on in.
func ffmpeg(t *testing.T, in []byte, args ...string) []byte {
	t.Helper()
	need(t, "ffmpeg", "ffmpeg")
	out := filepath.Join(t.TempDir(), "out")
	full := append([]string{"-nostdin", "-hide_banner", "-loglevel", "error", "-i", "pipe:0"}, args...)
	cmd := exec.Command("ffmpeg", append(full, "-y", out)...)
	cmd.Stdin = bytes.NewReader(in)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v: %s", args, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// phone is wav as a telephone recording: 8 kHz, G.711 mu-law companded,
// decoded back to 16-bit 8 kHz WAV (what the voice service stores).
func phone(t *testing.T, wav []byte) []byte {
	t.Helper()
	ulaw := ffmpeg(t, wav, "-ac", "1", "-ar", "8000", "-c:a", "pcm_mulaw", "-f", "wav")
	return ffmpeg(t, ulaw, "-c:a", "pcm_s16le", "-f", "wav")
}

// duration is a WAV's length as ffprobe reads it.
func duration(t *testing.T, wav []byte) time.Duration {
	t.Helper()
	need(t, "ffprobe", "ffmpeg")
	f := filepath.Join(t.TempDir(), "probe.wav")
	if err := os.WriteFile(f, wav, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", f).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	d, err := time.ParseDuration(strings.TrimSpace(string(out)) + "s")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// transcribe runs e on a with a test deadline.
func transcribe(t *testing.T, e Transcriber, a Audio) Transcript {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr, err := e.Transcribe(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
