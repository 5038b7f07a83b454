package media

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Engines of local voices.
const (
	EngineFlite    = "flite"
	EngineEspeakNG = "espeak-ng"
)

// Voice is a local text-to-speech voice.
type Voice struct {
	// ID names the voice in the platform, e.g. "flite-slt" (see the package
	// documentation for the list).
	ID string
	// Engine is EngineFlite or EngineEspeakNG.
	Engine string
	// Name is the engine's own name of the voice (flite -voice NAME,
	// espeak-ng -v NAME), e.g. "slt" or "en-us".
	Name string
	// Language is the voice's BCP 47 language tag, e.g. "en-US".
	Language string
	// Description says what the voice sounds like.
	Description string
}

// catalog is every voice the package knows, sorted by ID.
var catalog = []Voice{
	{"espeak-en-gb", EngineEspeakNG, "en-gb", "en-GB", "British English male (espeak-ng)"},
	{"espeak-en-gb-scotland", EngineEspeakNG, "en-gb-scotland", "en-GB", "Scottish English male (espeak-ng)"},
	{"espeak-en-us", EngineEspeakNG, "en-us", "en-US", "US English male (espeak-ng)"},
	{"espeak-en-us-f3", EngineEspeakNG, "en-us+f3", "en-US", "US English female variant f3 (espeak-ng)"},
	{"flite-awb", EngineFlite, "awb", "en-GB", "Scottish English male (flite, CMU ARCTIC awb)"},
	{"flite-kal", EngineFlite, "kal", "en-US", "US English male (flite diphone, 8 kHz)"},
	{"flite-kal16", EngineFlite, "kal16", "en-US", "US English male (flite diphone, 16 kHz)"},
	{"flite-rms", EngineFlite, "rms", "en-US", "US English male (flite, CMU ARCTIC rms)"},
	{"flite-slt", EngineFlite, "slt", "en-US", "US English female (flite, CMU ARCTIC slt)"},
}

// fliteVoices caches, per flite binary, the voices `flite -lv` lists (nil
// when it could not be asked).
var fliteVoices sync.Map // path -> map[string]bool

// builtIn is the set of voices flite at path reports, or nil when unknown.
func builtIn(path string) map[string]bool {
	if v, ok := fliteVoices.Load(path); ok {
		return v.(map[string]bool)
	}
	ctx, cancel := context.WithTimeout(context.Background(), ProbeTimeout)
	defer cancel()
	out, err := run(ctx, "", path, "-lv")
	if err != nil {
		return nil // transient: ask again next time
	}
	_, list, _ := strings.Cut(string(out), ":")
	set := map[string]bool{}
	for _, name := range strings.Fields(list) {
		set[name] = true
	}
	fliteVoices.Store(path, set)
	return set
}

// Voices lists the local voices whose engine is installed, sorted by ID.
// flite voices are those `flite -lv` lists (all of the catalog's when it
// cannot be asked).
func (t Tools) Voices() []Voice {
	var vs []Voice
	var flite map[string]bool
	if t.Flite != "" {
		flite = builtIn(t.Flite)
	}
	for _, v := range catalog {
		switch v.Engine {
		case EngineFlite:
			if t.Flite == "" || (flite != nil && !flite[v.Name]) {
				continue
			}
		case EngineEspeakNG:
			if t.EspeakNG == "" {
				continue
			}
		}
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	return vs
}

// Voice finds an installed voice by ID, ignoring case.
func (t Tools) Voice(id string) (Voice, bool) {
	for _, v := range t.Voices() {
		if strings.EqualFold(v.ID, strings.TrimSpace(id)) {
			return v, true
		}
	}
	return Voice{}, false
}

// Speak writes text spoken by v (looked up by its ID) to outWAV, a PCM WAV
// file, and returns the audio's duration as measured from the file's
// header (ffprobe when the header cannot be read). An unknown voice is an
// error; one whose engine is not installed matches ErrUnavailable.
func (t Tools) Speak(ctx context.Context, v Voice, text, outWAV string) (time.Duration, error) {
	known := false
	for _, c := range catalog {
		if strings.EqualFold(c.ID, v.ID) {
			v, known = c, true
			break
		}
	}
	if !known {
		return 0, fmt.Errorf("media: unknown voice %q (see Tools.Voices)", v.ID)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, errors.New("media: speak: no text")
	}
	if outWAV == "" {
		return 0, errors.New("media: speak: no output path")
	}
	dir, err := os.MkdirTemp("", "strata-media-tts-*")
	if err != nil {
		return 0, fmt.Errorf("media: speak: %w", err)
	}
	defer os.RemoveAll(dir)
	input := filepath.Join(dir, "text.txt")
	if err := os.WriteFile(input, []byte(text+"\n"), 0o600); err != nil {
		return 0, fmt.Errorf("media: speak: %w", err)
	}
	out := fileArg(outWAV)
	ctx, cancel := bounded(ctx, SpeakTimeout)
	defer cancel()
	switch v.Engine {
	case EngineFlite:
		if err := need(t.Flite, "flite", "flite"); err != nil {
			return 0, err
		}
		_, err = run(ctx, "", t.Flite, "-voice", v.Name, "-f", input, "-o", out)
	case EngineEspeakNG:
		if err := need(t.EspeakNG, "espeak-ng", "espeak-ng"); err != nil {
			return 0, err
		}
		_, err = run(ctx, "", t.EspeakNG, "-v", v.Name, "-f", input, "-w", out)
	}
	if err != nil {
		return 0, fmt.Errorf("media: speak with %s: %w", v.ID, err)
	}
	return t.audioDuration(ctx, out)
}

// audioDuration is a WAV file's duration from its header, else ffprobe's.
func (t Tools) audioDuration(ctx context.Context, path string) (time.Duration, error) {
	if d, err := wavDuration(path); err == nil && d > 0 {
		return d, nil
	}
	info, err := t.Probe(ctx, path)
	if err != nil {
		return 0, err
	}
	if info.AudioCodec == "" || info.Duration <= 0 {
		return 0, fmt.Errorf("media: %s: no audio", path)
	}
	return info.Duration, nil
}

// errNotWAV is wavDuration's error for a file it cannot measure.
var errNotWAV = errors.New("media: not a PCM WAV file")

// wavDuration reads a RIFF WAVE file's header: the data chunk's size over
// the fmt chunk's block size and sample rate. A data size that is unset
// (0 or 0xFFFFFFFF, as streaming writers leave it) or past the end of the
// file is taken from the file's size.
func wavDuration(path string) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	var riff [12]byte
	if _, err := io.ReadFull(f, riff[:]); err != nil || string(riff[0:4]) != "RIFF" || string(riff[8:12]) != "WAVE" {
		return 0, errNotWAV
	}
	var rate, block uint32
	pos := int64(12)
	for {
		var h [8]byte
		if _, err := io.ReadFull(f, h[:]); err != nil {
			return 0, errNotWAV
		}
		id, size := string(h[0:4]), binary.LittleEndian.Uint32(h[4:8])
		pos += 8
		switch id {
		case "fmt ":
			if size < 16 {
				return 0, errNotWAV
			}
			var fmtc [16]byte
			if _, err := io.ReadFull(f, fmtc[:]); err != nil {
				return 0, errNotWAV
			}
			rate = binary.LittleEndian.Uint32(fmtc[4:8])
			block = uint32(binary.LittleEndian.Uint16(fmtc[12:14]))
			if _, err := f.Seek(pos+int64(size)+int64(size&1), io.SeekStart); err != nil {
				return 0, errNotWAV
			}
		case "data":
			if rate == 0 || block == 0 {
				return 0, errNotWAV
			}
			n := int64(size)
			if rest := st.Size() - pos; size == 0 || size == 0xFFFFFFFF || n > rest {
				n = rest
			}
			frames, r := n/int64(block), int64(rate)
			return time.Duration(frames/r)*time.Second + time.Duration(frames%r)*time.Second/time.Duration(r), nil
		default:
			if _, err := f.Seek(pos+int64(size)+int64(size&1), io.SeekStart); err != nil {
				return 0, errNotWAV
			}
		}
		pos += int64(size) + int64(size&1)
	}
}
