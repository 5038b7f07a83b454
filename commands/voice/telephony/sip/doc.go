// Package sip is the SIP adapter of the voice service's telephony
// interface: telephony.Provider (Dial, SendSMS, Ping), telephony.Receiver
// (inbound calls), telephony.SMSReceiver (inbound MESSAGEs) and
// telephony.Call (Hangup, Transfer), over UDP to one SIP trunk, with
// G.711 RTP media.
//
// # Libraries
//
// Signalling is github.com/emiago/sipgo (transactions, dialogs, CANCEL,
// ACK and BYE). github.com/emiago/diago, the media layer on top of sipgo,
// was evaluated and not used: its recording is a real-time stereo mix of
// both directions written to a file (we need the far end only, as decoded
// samples, ordered by sequence number), its API hides the provisional
// responses and timing that the reports need, and it pulls the whole
// WebRTC stack (pion ice/dtls/srtp/turn) into go.mod. The media here is
// small: one UDP socket per call, github.com/pion/rtp for the packet
// format and github.com/zaf/g711 for the codec.
//
// # Outbound calls
//
// Dial sends INVITE sip:<To>@<Trunk> from sip:<From>@<Domain> with
// X-Strata-Call-ID: <CallID> and an SDP offer of PCMU (0), PCMA (8) and
// telephone-event/8000 (101). One goroutine per call calls Report, in
// order, each call waiting for the previous to return. The first report
// carries ProviderCallID (the SIP Call-ID); At is when the SIP message
// arrived (the adapter's clock, Config.Now).
//
//	SIP                                      Reports (SIPCode, Reason)
//	first response (100, or whatever first)  Dialing (code, "trying" / "ringing" / "sip_<code>"), once
//	180 / 183                                Ringing (code, "ringing" / "session_progress"), once
//	200 (we ACK, then report)                Answered (200, "answered")
//	  far end BYE                            Ended Completed (0, "remote_hangup")
//	  our Hangup: BYE                        Ended Completed (0, "local_hangup")
//	  after a transfer: either BYE           Ended Completed (0, "transferred")
//	486, 600                                 Ended Busy ("sip_486", "sip_600")
//	603 Decline                              Ended Busy ("sip_603"; Twilio's convention: a declined call is busy)
//	408, 480                                 Ended NoAnswer ("sip_408", "sip_480")
//	RingTimeout, no final: CANCEL, 487       Ended NoAnswer (487, "ring_timeout")
//	our Hangup while ringing: CANCEL, 487    Ended Canceled (487, "caller_cancel")
//	any other 3xx-6xx                        Ended Failed (code, "sip_<code>")
//	no response (Timer B, 32 s)              Ended Failed (0, "timeout"); no Dialing before it
//	Provider.Close during a call             Ended (Failed before the answer, Completed after), "provider_closed"
//
// The 487's At is when the CANCEL wait returned (sipgo consumes it). If the
// 200 crosses our CANCEL we ACK and BYE it and still report the
// NoAnswer/Canceled end.
//
// sipgo hands every UDP message to its transaction on a goroutine of its
// own, so responses that arrive within microseconds of each other can
// reach the call out of order: a 180 overtaken by the 200 finds the
// transaction answered and is dropped (no Ringing report), a 180 before
// the 100 makes the Dialing report carry 180. Real far ends space their
// responses by far more; the SIPp scenarios (sipptest) pause 20 ms after
// each provisional response.
//
// # Recording
//
// With CallRequest.Record (or Answer's record) the far end's RTP after the
// answer (PCMU or PCMA, by payload type) is kept, ordered by extended
// sequence number with duplicates dropped, decoded to 16-bit PCM and
// attached to the Ended report as an 8 kHz mono WAV (Samples counts the
// decoded samples; Codec is the first packet's codec). Lost packets and
// timestamp gaps (silence suppression) are left out, not filled with
// silence: the recording is the audio that arrived. Only Completed calls
// carry a recording.
//
// # Transfers
//
// Cold: REFER with Refer-To <sip:<target>@<Trunk>>; after the 202 we wait
// for the NOTIFY whose message/sipfrag is final: 2xx reports Transferred
// (Target, the sipfrag code, "cold_transfer"), anything else returns
// telephony.ErrTransfer. The far end then BYEs us (Ended Completed
// "transferred"); if it has not within Config.TransferTimeout we BYE it.
//
// Warm: re-INVITE with a=sendonly (Held, "hold"), then a consultation
// INVITE to sip:<target>@<Trunk> (ringing at most the call's ring
// timeout). When the target answers we REFER the far end to the target
// with Replaces naming the consultation dialog (RFC 3891/5589 attended
// transfer), so the far end and the target talk directly and our media
// leaves the path; on the final NOTIFY 2xx we report Transferred
// ("warm_transfer") and BYE the consultation leg if the target has not.
// We chose REFER/Replaces over bridging media B2BUA-style because it keeps
// no media relay per transferred call and SIPp can script both legs. If
// the target refuses, does not answer, or the REFER fails, we cancel or
// hang up the consultation, re-INVITE a=sendrecv (Resumed, "resume") and
// return an error wrapping telephony.ErrTransfer.
//
// # Inbound calls
//
// INVITEs outside our dialogs go to the Receive handler (on a goroutine of
// their own; without a handler we answer 480) after a 100 Trying, with
// From and To the user parts of the From and To URIs. Answer sends 200
// with an SDP answer (the first of PCMU/PCMA in the offer, and
// telephone-event when offered) and starts the call's report goroutine:
// a Digit report per RFC 4733 event, sent on the event's end packet and
// deduplicated by (SSRC, RTP timestamp) across its retransmissions,
// Ended Completed "remote_hangup" on the caller's BYE, "local_hangup" on
// our Hangup. Reject answers the given code (no reports). Play sends PCM
// as 20 ms G.711 packets (PCMU unless the caller only offered PCMA), paced
// by a ticker. A call neither answered nor rejected within
// Config.RingTimeout gets 480; a caller's CANCEL makes Answer return
// telephony.ErrCallOver. Answer and Reject return once the caller ACKs
// the final response (sipgo waits for it, at most 64*T1 = 32 s). Hangup
// before Answer rejects the call with 480. The handler's context ends with
// the call's dialog.
//
// # SMS and health
//
// SendSMS: SIP MESSAGE (RFC 3428, text/plain) to sip:<To>@<Trunk>; 2xx is
// Status "sent" with the MESSAGE's Call-ID as ProviderID, a final
// 3xx-6xx an error wrapping telephony.ErrRejected, no answer an error.
//
// Inbound SMS (telephony.SMSReceiver): a MESSAGE arriving at our listener
// goes to the ReceiveSMS handler with From and To the user parts of the
// From and To URIs, the body as sent and ProviderID "<Call-ID>/<CSeq
// number>". We answer 200 once the handler returns nil, 500 when it
// returns an error (its context ends after 10 s, well before the sender's
// Timer F), 480 without a handler, 415 (Accept: text/plain) for a body other than
// text/plain in UTF-8 or US-ASCII, 400 for a body that is not UTF-8. Its
// server transaction absorbs the sender's retransmissions, so the handler
// runs once per MESSAGE.
//
// Ping: OPTIONS to the trunk; any SIP response (even 4xx/5xx: a SIP
// element answered) before the context's deadline is healthy, none is an
// error.
//
// # Load
//
// A call costs one report goroutine, one RTP reader goroutine and one UDP
// socket; nothing polls. The only shared lock guards the Call-ID → call
// map and is never held across network I/O.
package sip
