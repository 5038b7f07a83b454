package sipptest

import (
	"strings"
	"testing"
)

func TestScenariosFillEveryPlaceholder(t *testing.T) {
	names := Scenarios()
	if len(names) < 10 {
		t.Fatalf("embedded scenarios: %v", names)
	}
	if _, err := load("uas_reject.xml", map[string]string{"status": "486"}); err == nil || !strings.Contains(err.Error(), "{{reason}}") {
		t.Fatalf("a placeholder left unfilled: %v", err)
	}
	src, err := load("uas_reject.xml", map[string]string{"status": "486", "reason": "Busy Here"})
	if err != nil || !strings.Contains(string(src), "SIP/2.0 486 Busy Here") {
		t.Fatalf("filled: %v", err)
	}
	if _, err := load("no_such.xml", nil); err == nil {
		t.Fatal("an unknown scenario loaded")
	}
}

func TestPCAP(t *testing.T) {
	Require(t)
	pkts, err := PCAP(PCAPDir + "/g711a.pcap")
	if err != nil {
		t.Fatal(err)
	}
	// SIPp's capture: 236 PCMA packets of 30 ms (240 samples).
	if len(pkts) != 236 || pkts[0].PayloadType != 8 || len(pkts[0].Payload) != 240 || AudioSamples(pkts) != 236*240 {
		t.Fatalf("g711a.pcap: %d packets, first PT %d with %d bytes, %d samples", len(pkts), pkts[0].PayloadType, len(pkts[0].Payload), AudioSamples(pkts))
	}
	dtmf, err := PCAP(PCAPDir + "/dtmf_2833_1.pcap")
	if err != nil || len(dtmf) == 0 || AudioSamples(dtmf) != 0 {
		t.Fatalf("dtmf_2833_1.pcap: %d packets, %d audio samples, %v", len(dtmf), AudioSamples(dtmf), err)
	}
}

func TestLoadFillsForRunnersOutsideTests(t *testing.T) {
	src, err := Load("uas_message.xml", map[string]string{"to": `\+1555`, "status": "200", "reason": "OK"})
	if err != nil || !strings.Contains(string(src), "SIP/2.0 200 OK") || !strings.Contains(string(src), `^MESSAGE sip:\+1555@`) {
		t.Fatalf("Load: %v\n%s", err, src)
	}
	if _, err := Load("uas_message.xml", nil); err == nil {
		t.Fatal("Load left placeholders unfilled without an error")
	}
}
