package sip

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/zaf/g711"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// dtmfEvents maps RFC 4733 event codes to digits.
const dtmfEvents = "0123456789*#ABCD"

// rtpPacket is one received audio packet kept for the recording.
type rtpPacket struct {
	seq     uint64 // extended sequence number
	pt      uint8
	payload []byte
}

// media is a call's RTP socket: one reader goroutine keeps the far end's
// audio (when recording) and turns telephone-events into digits; Play
// writes PCMU/PCMA to the far end.
type media struct {
	conn   *net.UDPConn
	dtmfPT atomic.Int32
	// onDigit is called from the reader goroutine for each new digit.
	onDigit func(digit string, at time.Time)
	now     func() time.Time

	recording atomic.Bool // keep audio packets from now on
	mu        sync.Mutex
	remote    *net.UDPAddr
	sendPT    int
	packets   []rtpPacket
	maxSeq    uint64
	haveSeq   bool

	// Digit de-duplication, touched only by the reader goroutine.
	lastEvSSRC uint32
	lastEvTS   uint32
	haveEv     bool

	// Sender state, used only under sendMu.
	sendMu   sync.Mutex
	ssrc     uint32
	seq      uint16
	ts       uint32
	sentAny  bool
	readDone chan struct{}
	closed   atomic.Bool
}

// listenRTP opens a UDP socket on ip: an ephemeral port when the range is
// empty, otherwise the first free even port from the range, starting at a
// rotating offset so consecutive calls do not probe the same ports.
func (p *Provider) listenRTP() (*net.UDPConn, error) {
	ip := p.addr.IP
	lo, hi := p.cfg.RTPPortMin, p.cfg.RTPPortMax
	if lo <= 0 || hi < lo {
		return net.ListenUDP("udp", &net.UDPAddr{IP: ip})
	}
	lo += lo & 1
	n := (hi-lo)/2 + 1
	start := int(p.rtpNext.Add(1))
	var last error
	for i := 0; i < n; i++ {
		port := lo + 2*((start+i)%n)
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: ip, Port: port})
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, fmt.Errorf("sip: no free RTP port in %d-%d: %w", lo, hi, last)
}

func (p *Provider) newMedia(onDigit func(string, time.Time)) (*media, error) {
	conn, err := p.listenRTP()
	if err != nil {
		return nil, err
	}
	m := &media{
		conn:     conn,
		onDigit:  onDigit,
		now:      p.now,
		sendPT:   ptPCMU,
		ssrc:     rand.Uint32(),
		seq:      uint16(rand.Uint32()),
		ts:       rand.Uint32(),
		readDone: make(chan struct{}),
	}
	m.dtmfPT.Store(ptDTMFDef)
	go m.read()
	return m, nil
}

func (m *media) port() int { return m.conn.LocalAddr().(*net.UDPAddr).Port }

// setRemote applies the far end's description: where to send, which codec
// and which telephone-event payload type it uses.
func (m *media) setRemote(s sdpInfo) {
	m.mu.Lock()
	m.remote = s.remote()
	if pt := s.audioPT(); pt >= 0 {
		m.sendPT = pt
	}
	m.mu.Unlock()
	if s.DTMFPT >= 0 {
		m.dtmfPT.Store(int32(s.DTMFPT))
	}
}

func (m *media) read() {
	defer close(m.readDone)
	buf := make([]byte, 1500)
	var pkt rtp.Packet
	for {
		n, _, err := m.conn.ReadFromUDP(buf)
		if err != nil {
			if m.closed.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		at := m.now()
		if err := pkt.Unmarshal(buf[:n]); err != nil {
			continue
		}
		pt := pkt.PayloadType
		switch {
		case int32(pt) == m.dtmfPT.Load():
			m.dtmf(&pkt, at)
		case (pt == ptPCMU || pt == ptPCMA) && m.recording.Load():
			m.keep(&pkt)
		}
	}
}

// dtmf reports a digit on the end packet of an RFC 4733 event; the end
// packet is normally sent three times, all with the event's timestamp, so
// an end packet with the timestamp (and SSRC) of the last reported event
// is a retransmission.
func (m *media) dtmf(pkt *rtp.Packet, at time.Time) {
	if len(pkt.Payload) < 4 || pkt.Payload[1]&0x80 == 0 {
		return
	}
	if m.haveEv && m.lastEvTS == pkt.Timestamp && m.lastEvSSRC == pkt.SSRC {
		return
	}
	m.haveEv, m.lastEvTS, m.lastEvSSRC = true, pkt.Timestamp, pkt.SSRC
	ev := int(pkt.Payload[0])
	if ev >= len(dtmfEvents) || m.onDigit == nil {
		return
	}
	m.onDigit(dtmfEvents[ev:ev+1], at)
}

// keep stores an audio packet under its extended sequence number (the
// 16-bit number unwrapped against the highest one seen so far).
func (m *media) keep(pkt *rtp.Packet) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seq := uint64(pkt.SequenceNumber)
	if !m.haveSeq {
		seq += 1 << 16 // room for packets reordered before the first one
		m.maxSeq, m.haveSeq = seq, true
	} else {
		// The candidate nearest to the highest extended number.
		base := m.maxSeq &^ 0xffff
		best := base | seq
		for _, c := range []uint64{best - 1<<16, best + 1<<16} {
			if absDiff(c, m.maxSeq) < absDiff(best, m.maxSeq) {
				best = c
			}
		}
		seq = best
		if seq > m.maxSeq {
			m.maxSeq = seq
		}
	}
	m.packets = append(m.packets, rtpPacket{seq: seq, pt: pkt.PayloadType, payload: slices.Clone(pkt.Payload)})
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// close stops the reader and waits for it.
func (m *media) close() {
	if m.closed.Swap(true) {
		<-m.readDone
		return
	}
	m.conn.Close()
	<-m.readDone
}

// recordingWAV decodes the kept packets in sequence order (duplicates
// dropped) into a WAV; call it after close. Lost packets are left out, not
// filled with silence: the recording is the audio that arrived.
func (m *media) recordingWAV() *telephony.Recording {
	m.mu.Lock()
	pkts := m.packets
	m.packets = nil
	m.mu.Unlock()
	slices.SortStableFunc(pkts, func(a, b rtpPacket) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	codec := ""
	var pcm []int16
	for i, pk := range pkts {
		if i > 0 && pkts[i-1].seq == pk.seq {
			continue
		}
		if codec == "" {
			codec = codecName(int(pk.pt))
		}
		for _, b := range pk.payload {
			if pk.pt == ptPCMA {
				pcm = append(pcm, g711.DecodeAlawFrame(b))
			} else {
				pcm = append(pcm, g711.DecodeUlawFrame(b))
			}
		}
	}
	if codec == "" {
		m.mu.Lock()
		codec = codecName(m.sendPT)
		m.mu.Unlock()
	}
	return &telephony.Recording{WAV: wav(pcm), SampleRate: 8000, Samples: len(pcm), Codec: codec}
}

// wav wraps 8 kHz mono 16-bit PCM in a RIFF/WAVE container.
func wav(pcm []int16) []byte {
	data := len(pcm) * 2
	b := make([]byte, 44+data)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+data))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], 8000)
	binary.LittleEndian.PutUint32(b[28:], 8000*2)
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(data))
	for i, s := range pcm {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(s))
	}
	return b
}

// play sends pcm to the far end as G.711 (PCMU unless the far end chose
// PCMA) in 20 ms packets, paced by a ticker.
func (m *media) play(ctx context.Context, pcm []int16) error {
	m.mu.Lock()
	remote, pt := m.remote, m.sendPT
	m.mu.Unlock()
	if remote == nil {
		return errors.New("sip: no remote media address")
	}
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	const frame = 160
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	payload := make([]byte, frame)
	buf := make([]byte, 0, 12+frame)
	for off := 0; off < len(pcm); off += frame {
		if off > 0 {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		n := min(frame, len(pcm)-off)
		for i := range frame {
			var s int16
			if i < n {
				s = pcm[off+i]
			}
			if pt == ptPCMA {
				payload[i] = g711.EncodeAlawFrame(s)
			} else {
				payload[i] = g711.EncodeUlawFrame(s)
			}
		}
		pkt := rtp.Packet{
			Header: rtp.Header{
				Version:        2,
				Marker:         !m.sentAny,
				PayloadType:    uint8(pt),
				SequenceNumber: m.seq,
				Timestamp:      m.ts,
				SSRC:           m.ssrc,
			},
			Payload: payload,
		}
		out, err := pkt.Header.MarshalTo(buf[:cap(buf)])
		if err != nil {
			return err
		}
		b := append(buf[:out], payload...)
		if _, err := m.conn.WriteToUDP(b, remote); err != nil {
			return fmt.Errorf("sip: send rtp: %w", err)
		}
		m.sentAny = true
		m.seq++
		m.ts += frame
	}
	return nil
}
