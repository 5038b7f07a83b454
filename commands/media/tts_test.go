package media

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestVoicesListsFlite(t *testing.T) {
	needTool(t, "flite", "flite")
	tools := FindTools()
	vs := tools.Voices()
	if !sort.SliceIsSorted(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID }) {
		t.Errorf("Voices not sorted by ID: %v", vs)
	}
	ids := map[string]Voice{}
	for _, v := range vs {
		ids[v.ID] = v
	}
	for _, id := range []string{"flite-kal", "flite-kal16", "flite-awb", "flite-rms", "flite-slt"} {
		v, ok := ids[id]
		if !ok {
			t.Errorf("Voices lacks %s: %v", id, vs)
			continue
		}
		if v.Engine != EngineFlite || v.Name != strings.TrimPrefix(id, "flite-") || v.Language == "" {
			t.Errorf("%s = %+v", id, v)
		}
	}
	if _, ok := ids["flite-awb_time"]; ok {
		t.Error("Voices lists flite's limited-domain awb_time")
	}
	if tools.EspeakNG != "" {
		if v, ok := ids["espeak-en-us"]; !ok || v.Name != "en-us" || v.Engine != EngineEspeakNG {
			t.Errorf("espeak-en-us = %+v, %v", v, ok)
		}
	}
	noEspeak := tools
	noEspeak.EspeakNG = ""
	for _, v := range noEspeak.Voices() {
		if v.Engine != EngineFlite {
			t.Errorf("without espeak-ng, Voices lists %s", v.ID)
		}
	}
}

func TestVoiceLookup(t *testing.T) {
	needTool(t, "flite", "flite")
	tools := FindTools()
	if v, ok := tools.Voice("FLITE-SLT"); !ok || v.ID != "flite-slt" {
		t.Errorf(`Voice("FLITE-SLT") = %+v, %v`, v, ok)
	}
	if v, ok := tools.Voice("flite-nobody"); ok {
		t.Errorf(`Voice("flite-nobody") = %+v, want not found`, v)
	}
	_, err := tools.Speak(context.Background(), Voice{ID: "flite-nobody"}, "hello", filepath.Join(t.TempDir(), "x.wav"))
	if err == nil || !strings.Contains(err.Error(), "unknown voice") {
		t.Errorf("Speak with an unknown voice: err = %v", err)
	}
}

func TestSpeakDuration(t *testing.T) {
	tools := withFFmpeg(t)
	needTool(t, "flite", "flite")
	var ids []string // every installed voice
	for _, v := range tools.Voices() {
		ids = append(ids, v.ID)
	}
	ctx := context.Background()
	for _, id := range ids {
		v, ok := tools.Voice(id)
		if !ok {
			t.Errorf("no voice %s", id)
			continue
		}
		out := filepath.Join(t.TempDir(), id+".wav")
		d, err := tools.Speak(ctx, v, "The quick brown fox jumps over the lazy dog. -- {it} said \\N.", out)
		if err != nil {
			t.Errorf("Speak(%s): %v", id, err)
			continue
		}
		info, err := tools.Probe(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		if d < time.Second || info.AudioCodec == "" {
			t.Errorf("%s: duration %v, codec %q; want over a second of audio", id, d, info.AudioCodec)
		}
		if diff := d - info.Duration; diff < -50*time.Millisecond || diff > 50*time.Millisecond {
			t.Errorf("%s: Speak says %v, ffprobe %v", id, d, info.Duration)
		}
		t.Logf("%s: %v (ffprobe %v)", id, d, info.Duration)
	}
	if _, err := tools.Speak(ctx, Voice{ID: "flite-slt"}, "  ", filepath.Join(t.TempDir(), "e.wav")); err == nil {
		t.Error("Speak of blank text: no error")
	}
}

func TestWAVDuration(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.wav")
	os.WriteFile(path, silentWAV(12000), 0o600)
	if d, err := wavDuration(path); err != nil || d != 1500*time.Millisecond {
		t.Errorf("wavDuration = %v, %v; want 1.5s", d, err)
	}
	// A streaming writer's unset data size is taken from the file.
	b := silentWAV(4000)
	b[40], b[41], b[42], b[43] = 0xff, 0xff, 0xff, 0xff
	os.WriteFile(path, b, 0o600)
	if d, err := wavDuration(path); err != nil || d != 500*time.Millisecond {
		t.Errorf("wavDuration (unset size) = %v, %v; want 0.5s", d, err)
	}
	os.WriteFile(path, []byte("RIFF...."), 0o600)
	if _, err := wavDuration(path); err == nil {
		t.Error("wavDuration of a truncated header: no error")
	}
}
