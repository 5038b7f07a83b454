// Package mail sends Strata's outgoing e-mail, such as the identity
// context's password-reset links.
//
// Two Senders are provided. SMTP delivers messages to a real mail server
// using the standard library's net/smtp, configured from an smtp:// or
// smtps:// URL (see NewSMTP). Mailbox is a development stand-in used when
// no SMTP URL is configured: it does NOT deliver mail to anyone; it only
// writes each message as an .eml file into a local directory and logs where
// it put it, so a developer can open the reset link by hand. Never rely on
// the Mailbox in production.
//
// Both Senders produce the same RFC 5322 bytes, built by Build.
package mail

import (
	"errors"
	"log/slog"
)

// New returns the Sender Strata should use: an SMTP sender when smtpURL is
// not empty, otherwise a development Mailbox writing into mailDir (which
// then must not be empty). logger is used by the Mailbox only.
func New(smtpURL, mailDir string, logger *slog.Logger) (Sender, error) {
	if smtpURL != "" {
		s, err := NewSMTP(smtpURL)
		if err != nil {
			return nil, err // not a typed nil *SMTP in a non-nil Sender
		}
		return s, nil
	}
	if mailDir == "" {
		return nil, errors.New("mail: neither an SMTP URL nor a dev mailbox directory is configured")
	}
	return NewMailbox(mailDir, logger), nil
}
