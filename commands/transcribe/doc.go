// Package transcribe turns call recordings, voicemails and media into text
// behind one interface, Transcriber, with two engines:
//
//   - Pocketsphinx, offline: Debian bookworm's pocketsphinx
//     (pocketsphinx_continuous 0.8+5prealpha) with the pocketsphinx-en-us
//     model, run as processes (ffmpeg, then the decoder) under a Timeout,
//     each in a process group of its own that is killed whole when the
//     Timeout or the caller's context ends. It serves US English only; any
//     other language is refused with a *LanguageError (errors.Is
//     ErrLanguage) naming the engines and what would serve it.
//   - OpenAI, any OpenAI-compatible POST /v1/audio/transcriptions endpoint
//     (multipart: file, model, language, response_format=verbose_json,
//     timestamp_granularities[]=segment), when one is configured.
//
// Pick routes a language to the first engine that serves it.
//
// # Labels and confidence
//
// Every Transcript names its engine, so that a reading is never taken for
// more than it is: "pocketsphinx VERSION MODEL" (for example
// "pocketsphinx 0.8+5prealpha+1-15 en-us"; the CLI prints no version, so
// VERSION is that of the Debian package owning the binary, as dpkg-query
// reports it, or "(version unknown)") and "openai-compatible MODEL at HOST".
//
// Pocketsphinx: pocketsphinx_continuous -time yes prints, per word,
// exp(ps_seg_prob), the word's posterior probability in the decoder's word
// lattice; it is already a probability and is only clamped to [0,1] (log
// arithmetic prints 1.000100). A segment's confidence is the mean of its
// words' posteriors, the transcript's the mean over all its words. It is
// not calibrated: on clean synthetic speech correctly recognised words
// score from under 0.1 to 1, and a telephone sample with 73% of its words
// wrong still averaged 0.45 (against 0.45-0.59 at 16 kHz), so treat it as
// a ranking aid, not as the chance that the text is right.
//
// OpenAI-compatible: a segment's confidence is exp(avg_logprob), the
// geometric mean of the probabilities of its tokens; the transcript's is
// the duration-weighted mean of its segments'. no_speech_prob is kept
// apart in Segment.NoSpeechProb. Where the endpoint sends no avg_logprob
// the confidences are nil, never made up.
//
// # Segments
//
// Pocketsphinx's words (fillers such as <sil> and [NOISE] dropped,
// pronunciation variants such as "the(2)" read as "the") are grouped into
// segments: a new one starts at a pause of 300 ms or more between two words
// (the decoder's own utterance breaks need longer silences), or once a
// segment spans 7 s or holds 84 characters (about two caption lines). The
// OpenAI engine keeps the endpoint's segments. Times are from the audio's
// start; segments are time-ordered and never past the audio's end.
//
// # Audio
//
// Audio is converted with ffmpeg to the model's 16 kHz mono 16-bit PCM.
// Audio sampled below 16 kHz (8 kHz G.711 telephone recordings) is
// upsampled and the band above its Nyquist frequency is given a fixed,
// seeded noise floor at about -50 dBFS: upsampling alone leaves that band
// digitally silent, which the wideband model has never heard.
//
// # Measured accuracy
//
// On espeak-ng speech (voice en-us+klatt2; the default voice is recognised
// far worse) of four short voicemail-like passages, pocketsphinx's word
// error rate was 0.10-0.53 (mean 0.33) at 16 kHz, recognising 53-82% of the
// content words (mean 73%), and 0.67-0.83 (mean 0.73) on the same speech
// through 8 kHz G.711, recognising 18-50% of the content words (mean 38%;
// without the noise floor the word error rate was 0.95-1.0 and almost no
// content word survived). The decoder is sensitive: shifting the audio by a millisecond
// changes words. Telephone transcripts from the offline engine are rough
// cues for search and triage, not records; use an OpenAI-compatible
// endpoint where accuracy matters.
package transcribe
