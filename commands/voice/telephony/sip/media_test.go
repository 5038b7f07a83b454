package sip

import (
	"math/rand/v2"
	"testing"

	"github.com/pion/rtp"
	"github.com/zaf/g711"

	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

// The recording orders packets by sequence number across the 16-bit wrap,
// drops duplicates and leaves lost packets out.
func TestRecordingOrder(t *testing.T) {
	m := &media{}
	var pkts []*rtp.Packet
	for i := range 12 {
		if i == 7 {
			continue // lost
		}
		pl := make([]byte, 160)
		for j := range pl {
			pl[j] = g711.EncodeUlawFrame(int16(i * 1000))
		}
		pkts = append(pkts, &rtp.Packet{Header: rtp.Header{PayloadType: ptPCMU, SequenceNumber: uint16(65530 + i)}, Payload: pl})
	}
	pkts = append(pkts, pkts[3]) // a duplicate
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(pkts)-1, func(i, j int) { pkts[i+1], pkts[j+1] = pkts[j+1], pkts[i+1] })
	for _, p := range pkts {
		m.keep(p)
	}
	rec := m.recordingWAV()
	if rec.Samples != 11*160 || rec.Codec != "PCMU" {
		t.Fatalf("recording: %d samples %s, want %d PCMU", rec.Samples, rec.Codec, 11*160)
	}
	want := []int{0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11}
	for k, i := range want {
		s := int16(uint16(rec.WAV[44+2*k*160]) | uint16(rec.WAV[45+2*k*160])<<8)
		if w := g711.DecodeUlawFrame(g711.EncodeUlawFrame(int16(i * 1000))); s != w {
			t.Errorf("packet %d of the recording has sample %d, want %d (packet %d)", k, s, w, i)
		}
	}
}

func TestParseSDP(t *testing.T) {
	info, err := parseSDP([]byte("v=0\r\nc=IN IP4 10.0.0.1\r\nm=audio 4000 RTP/AVP 8 0 96\r\na=rtpmap:96 telephone-event/8000\r\na=sendonly\r\nm=video 5000 RTP/AVP 31\r\na=recvonly\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if info.IP.String() != "10.0.0.1" || info.Port != 4000 || info.audioPT() != ptPCMA || info.DTMFPT != 96 || info.Direction != "sendonly" {
		t.Errorf("parseSDP = %+v", info)
	}
	if _, err := parseSDP([]byte("v=0\r\n")); err == nil {
		t.Error("parseSDP without audio succeeded")
	}
}

// With an RTP port range, calls get even ports from it until it is used up.
func TestRTPPortRange(t *testing.T) {
	base := sipptest.FreePorts(t, 4)
	base += base & 1
	p, err := New(t.Context(), Config{ListenAddr: "127.0.0.1:0", Trunk: "127.0.0.1:9", RTPPortMin: base, RTPPortMax: base + 3})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	seen := map[int]bool{}
	for range 2 {
		m, err := p.newMedia(nil)
		if err != nil {
			t.Fatalf("newMedia: %v", err)
		}
		defer m.close()
		if port := m.port(); port%2 != 0 || port < base || port > base+3 || seen[port] {
			t.Errorf("RTP port %d, want a new even port in %d-%d", port, base, base+3)
		} else {
			seen[port] = true
		}
	}
	if m, err := p.newMedia(nil); err == nil {
		m.close()
		t.Error("a third RTP socket from a range of two even ports")
	}
}
