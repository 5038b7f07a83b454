package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Debian's paths and names for the offline engine.
const (
	// DefaultPocketsphinxBinary is the CLI of Debian bookworm's package
	// pocketsphinx (0.8+5prealpha).
	DefaultPocketsphinxBinary = "pocketsphinx_continuous"
	// DefaultPocketsphinxModelDir is where Debian's pocketsphinx-en-us puts
	// its US English acoustic model, language model and dictionary.
	DefaultPocketsphinxModelDir = "/usr/share/pocketsphinx/model/en-us"
	// DefaultPocketsphinxTimeout bounds one job (ffmpeg and the decoder).
	DefaultPocketsphinxTimeout = 5 * time.Minute
)

// modelRate is the sample rate of pocketsphinx-en-us's acoustic model.
const modelRate = 16000

// PocketsphinxConfig configures the offline engine; zero fields take
// Debian's defaults.
type PocketsphinxConfig struct {
	// Binary is pocketsphinx_continuous (PATH is searched). Pocketsphinx 5's
	// `pocketsphinx single` CLI (JSON output) is a different program and is
	// not driven by this engine.
	Binary string
	// ModelDir holds the model: HMM, LM and Dict default to ModelDir/en-us,
	// ModelDir/en-us.lm.bin and ModelDir/cmudict-en-us.dict.
	ModelDir      string
	HMM, LM, Dict string
	// Language is the BCP 47 tag of the model's language; default "en-US".
	Language string
	// FFmpeg converts the audio to the model's 16 kHz mono 16-bit PCM
	// (PATH is searched); default "ffmpeg".
	FFmpeg string
	// Timeout bounds a whole Transcribe call; default 5 minutes.
	Timeout time.Duration
	// Version overrides the version in the engine's label; by default it is
	// the version of the Debian package that owns Binary (the CLI prints
	// none), or "(version unknown)".
	Version string
}

// Pocketsphinx is the offline engine: ffmpeg prepares the audio and
// pocketsphinx_continuous decodes it, each a process of its own bounded by
// the Timeout. Build it with NewPocketsphinx.
type Pocketsphinx struct {
	binary, ffmpeg string // resolved paths
	hmm, lm, dict  string
	lang           string
	timeout        time.Duration
	name           string
}

// NewPocketsphinx checks that the programs and model files exist (else an
// error matching ErrUnavailable naming the Debian package to install) and
// reads the engine's version for its label.
func NewPocketsphinx(cfg PocketsphinxConfig) (*Pocketsphinx, error) {
	p := &Pocketsphinx{lang: cfg.Language, timeout: cfg.Timeout}
	if p.lang == "" {
		p.lang = "en-US"
	}
	if p.timeout <= 0 {
		p.timeout = DefaultPocketsphinxTimeout
	}
	var err error
	if p.binary, err = exec.LookPath(or(cfg.Binary, DefaultPocketsphinxBinary)); err != nil {
		return nil, fmt.Errorf("%w: %v (Debian package pocketsphinx)", ErrUnavailable, err)
	}
	if p.ffmpeg, err = exec.LookPath(or(cfg.FFmpeg, "ffmpeg")); err != nil {
		return nil, fmt.Errorf("%w: %v (Debian package ffmpeg)", ErrUnavailable, err)
	}
	dir := or(cfg.ModelDir, DefaultPocketsphinxModelDir)
	p.hmm = or(cfg.HMM, filepath.Join(dir, "en-us"))
	p.lm = or(cfg.LM, filepath.Join(dir, "en-us.lm.bin"))
	p.dict = or(cfg.Dict, filepath.Join(dir, "cmudict-en-us.dict"))
	for _, f := range []string{filepath.Join(p.hmm, "mdef"), p.lm, p.dict} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%w: pocketsphinx model: %v (Debian package pocketsphinx-en-us)", ErrUnavailable, err)
		}
	}
	version := cfg.Version
	if version == "" {
		version = packageVersion(p.binary)
	}
	p.name = "pocketsphinx " + version + " " + filepath.Base(p.hmm)
	return p, nil
}

// Name is "pocketsphinx VERSION MODEL", e.g.
// "pocketsphinx 0.8+5prealpha+1-15 en-us".
func (p *Pocketsphinx) Name() string { return p.name }

// Languages is the model's language.
func (p *Pocketsphinx) Languages() []string { return []string{p.lang} }

// Transcribe converts a to 16 kHz mono 16-bit PCM with ffmpeg (8 kHz
// telephone audio is upsampled), decodes it with pocketsphinx_continuous
// and groups the words into segments (see the package doc).
func (p *Pocketsphinx) Transcribe(ctx context.Context, a Audio) (Transcript, error) {
	lang := languageOf(a.Language)
	if !Serves(p.Languages(), lang) {
		return Transcript{}, refuse(lang, p)
	}
	if len(a.WAV) == 0 && (len(a.PCM) == 0 || a.SampleRate <= 0) {
		return Transcript{}, errors.New("transcribe: no audio (WAV, or PCM with its SampleRate)")
	}
	job, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "transcribe-*")
	if err != nil {
		return Transcript{}, err
	}
	defer os.RemoveAll(dir)
	raw := filepath.Join(dir, "audio.raw")

	in, args := a.WAV, []string{"-nostdin", "-hide_banner", "-loglevel", "error"}
	if len(in) == 0 {
		in = pcmBytes(a.PCM)
		args = append(args, "-f", "s16le", "-ar", strconv.Itoa(a.SampleRate), "-ac", "1")
	}
	args = append(args, "-i", "pipe:0")
	rate := a.SampleRate
	if len(a.WAV) > 0 {
		rate = wavRate(a.WAV)
	}
	if rate > 0 && rate < modelRate {
		args = append(args, narrowband(rate)...)
	}
	args = append(args, "-map_metadata", "-1", "-ac", "1", "-ar", strconv.Itoa(modelRate),
		"-c:a", "pcm_s16le", "-f", "s16le", "-y", raw)
	if _, err := run(job, bytes.NewReader(in), p.ffmpeg, args...); err != nil {
		if job.Err() != nil {
			return Transcript{}, deadline(ctx, job, "ffmpeg", p.timeout)
		}
		return Transcript{}, err
	}
	st, err := os.Stat(raw)
	if err != nil {
		return Transcript{}, err
	}
	duration := time.Duration(st.Size()/2) * time.Second / modelRate

	// A .raw name makes the CLI read headerless samples at -samprate.
	bin, dargs := p.Decoder(raw)
	out, err := run(job, nil, bin, dargs...)
	if err != nil {
		if job.Err() != nil {
			return Transcript{}, deadline(ctx, job, "pocketsphinx", p.timeout)
		}
		return Transcript{}, err
	}
	words, err := parseWordTimes(out)
	if err != nil {
		return Transcript{}, err
	}
	t := Transcript{Engine: p.name, Language: lang, Segments: segmentWords(words, duration)}
	t.Text, t.Confidence = joinSegments(t.Segments)
	return t, nil
}

// Decoder is the decoder's command line for a file of headerless 16 kHz
// mono 16-bit samples (a .raw name): the binary and its arguments, as
// Transcribe runs it (the benchmark runs it bare for its baseline).
func (p *Pocketsphinx) Decoder(raw string) (binary string, args []string) {
	return p.binary, []string{"-infile", raw, "-time", "yes", "-bestpath", "yes",
		"-hmm", p.hmm, "-lm", p.lm, "-dict", p.dict, "-samprate", strconv.Itoa(modelRate)}
}

// noiseFloor is the amplitude (of full scale, about -50 dBFS) of the
// white noise narrowband fills the empty band with.
const noiseFloor = 0.003

// narrowband is ffmpeg's arguments for audio sampled below the model's
// rate (8 kHz telephone audio): it is upsampled, and the band it cannot
// carry (rate/2 up to 8 kHz) gets a low, fixed noise floor (seeded, so a
// recording always gives the same transcript). Upsampling alone leaves that
// band digitally silent, which the wideband model has never heard: on
// espeak-ng speech through G.711 the word error rate was 0.95-1.0 without
// the floor and 0.67-0.83 with it (see the package doc).
func narrowband(rate int) []string {
	hp := fmt.Sprintf("highpass=f=%d:poles=2", rate/2)
	return []string{
		"-f", "lavfi", "-i", fmt.Sprintf("anoisesrc=color=white:amplitude=%g:sample_rate=%d:seed=1", noiseFloor, modelRate),
		"-filter_complex", fmt.Sprintf("[0:a]aresample=%d,aformat=channel_layouts=mono[s];[1:a]%s,%s[n];[s][n]amix=inputs=2:duration=first:normalize=0[out]", modelRate, hp, hp),
		"-map", "[out]",
	}
}

// wavRate is the sample rate in a RIFF WAV's fmt chunk, or 0 when b is not
// such a WAV.
func wavRate(b []byte) int {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return 0
	}
	for off := 12; off+8 <= len(b); {
		id, size := string(b[off:off+4]), int(binary.LittleEndian.Uint32(b[off+4:]))
		if id == "fmt " {
			if size < 16 || off+8+16 > len(b) {
				return 0
			}
			return int(binary.LittleEndian.Uint32(b[off+12:]))
		}
		if size < 0 || size > len(b) {
			return 0
		}
		off += 8 + size + size%2
	}
	return 0
}

// packageVersion is the version of the Debian package owning path, or
// "(version unknown)" where dpkg does not know it.
func packageVersion(path string) string {
	const unknown = "(version unknown)"
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	owner, err := run(ctx, nil, "dpkg-query", "-S", path)
	if err != nil {
		return unknown
	}
	pkg, _, ok := strings.Cut(strings.TrimSpace(string(owner)), ":")
	if !ok || strings.ContainsAny(pkg, ", ") {
		return unknown
	}
	v, err := run(ctx, nil, "dpkg-query", "-W", "-f=${Version}", pkg)
	if err != nil || len(bytes.TrimSpace(v)) == 0 {
		return unknown
	}
	return string(bytes.TrimSpace(v))
}

// pcmBytes is samples as little-endian 16-bit PCM.
func pcmBytes(samples []int16) []byte {
	b := make([]byte, 2*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(s))
	}
	return b
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
