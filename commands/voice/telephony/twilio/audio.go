package twilio

import (
	"encoding/binary"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxAudioBytes bounds the rendered audio held for Twilio to fetch (all
// calls together); a Play beyond it fails.
const MaxAudioBytes = 64 << 20

// clip is audio rendered for a <Play>, fetchable until expires.
type clip struct {
	wav     []byte
	expires time.Time
}

// renderWAV is pcm as a RIFF WAVE file: 16-bit linear PCM, 8 kHz, mono.
func renderWAV(pcm []int16) []byte {
	le := binary.LittleEndian
	b := make([]byte, 44+2*len(pcm))
	copy(b[0:], "RIFF")
	le.PutUint32(b[4:], uint32(36+2*len(pcm)))
	copy(b[8:], "WAVEfmt ")
	le.PutUint32(b[16:], 16)
	le.PutUint16(b[20:], 1)    // linear PCM
	le.PutUint16(b[22:], 1)    // mono
	le.PutUint32(b[24:], 8000) // samples a second
	le.PutUint32(b[28:], 16000)
	le.PutUint16(b[32:], 2) // block align
	le.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	le.PutUint32(b[40:], uint32(2*len(pcm)))
	for i, s := range pcm {
		le.PutUint16(b[44+2*i:], uint16(s))
	}
	return b
}

// putClip renders pcm and returns the URL Twilio fetches it at.
func (p *Provider) putClip(pcm []int16) (string, error) {
	if p.cfg.AudioURL == "" {
		return "", errors.New("twilio: Play needs an AudioURL")
	}
	wav := renderWAV(pcm)
	now := p.now()
	tok := newToken()
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, c := range p.clips {
		if !now.Before(c.expires) {
			p.clipMem -= len(c.wav)
			delete(p.clips, k)
		}
	}
	if p.clipMem+len(wav) > MaxAudioBytes {
		return "", errors.New("twilio: too much audio waiting to be played")
	}
	p.clips[tok] = &clip{wav: wav, expires: now.Add(p.cfg.AudioTTL)}
	p.clipMem += len(wav)
	return p.cfg.AudioURL + "/" + tok + ".wav", nil
}

// AudioHandler serves the audio of <Play> verbs (GET and HEAD of
// Config.AudioURL/<token>.wav) as audio/wav, for Config.AudioTTL after it
// was rendered; the token is 128 random bits, the only credential (Twilio
// fetches media without signing for it). An unknown or expired token is
// 404.
func (p *Provider) AudioHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		tok, ok := strings.CutSuffix(name, ".wav")
		p.mu.Lock()
		c := p.clips[tok]
		p.mu.Unlock()
		if !ok || c == nil || !p.now().Before(c.expires) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "audio/wav")
		w.Header().Set("Content-Length", strconv.Itoa(len(c.wav)))
		w.Header().Set("Cache-Control", "private, no-store")
		if r.Method == http.MethodGet {
			_, _ = w.Write(c.wav)
		}
	})
}
