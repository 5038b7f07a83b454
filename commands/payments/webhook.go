package payments

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/strata-platform/strata/commands/jobs"
	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/payments"
	"github.com/strata-platform/strata/eventstore"
)

// Receipt is what a webhook delivery came to.
type Receipt struct {
	EventID   string
	Type      string
	Duplicate bool  // the event was received before; nothing was recorded
	Job       int64 // the processing job's id (0 for a duplicate)
}

// ProcessWebhookArgs is the job that processes one received provider event.
type ProcessWebhookArgs struct {
	EventID string `json:"event_id"`
}

// Kind implements jobs.Args.
func (ProcessWebhookArgs) Kind() string { return "payments.process_webhook" }

// RegisterJobs declares the payments job kinds on the platform's jobs
// service (before it starts); webhooks are refused (503) until it is done.
func (s *Service) RegisterJobs(js *jobs.Service) error {
	if err := jobs.Handle(js, s.processJob, jobs.KindOptions{}); err != nil {
		return err
	}
	s.jobs = js
	return nil
}

// ReceiveWebhook verifies a provider event, records it once and enqueues
// its processing, without waiting for it:
//   - the signature must verify (provider's rules: timestamped HMAC within
//     a tolerance, under any configured secret), else invalid (400) and
//     nothing is recorded;
//   - payments.webhook_received (its payload sealed) is appended as the
//     first event of the stream payments-webhook:<event id> at expected
//     version NoStream, so a second delivery of the same event, however
//     concurrent, clashes and is answered as a duplicate without being
//     processed again;
//   - the job payments.process_webhook is enqueued in the append's
//     transaction: a recorded event always has its processing job, and a
//     refused append has none. The job runs ProcessWebhook (retried with
//     backoff on failure, by whichever process is free).
func (s *Service) ReceiveWebhook(ctx context.Context, payload []byte, signature string) (Receipt, error) {
	prov := s.cfg.Provider
	if prov == nil {
		return Receipt{}, kernel.Unavailable("payments are not configured: set "+SettingSecretKey+" and "+SettingWebhookSecrets, nil)
	}
	we, err := prov.VerifyWebhook(payload, signature)
	if errors.Is(err, ErrWebhookNotConfigured) {
		return Receipt{}, kernel.Unavailable("webhooks are not configured: set "+SettingWebhookSecrets, nil)
	}
	if err != nil {
		return Receipt{}, err
	}
	if s.jobs == nil {
		return Receipt{}, kernel.Unavailable("webhook processing is not running", errors.New("payments: RegisterJobs was not called"))
	}
	obj := readObject(we.Object)
	owner := s.PayerOwner(obj.email())
	if owner == "payments" && obj.customer() != "" {
		owner = "payments-customer:" + obj.customer()
	}
	ev := &payments.WebhookReceived{Provider: prov.Name(), EventID: we.ID, Type: we.Type, APIVersion: we.APIVersion,
		Livemode: we.Livemode, ProviderCreated: we.Created, ObjectType: obj.Object, ObjectID: obj.ID,
		CustomerID: obj.customer(), At: s.clock.Now().UTC(), Payload: we.Payload}
	key, err := s.fresh(ev, payments.WebhookKey(we.ID), owner)
	if err != nil {
		return Receipt{}, err
	}
	md := eventstore.MetadataFrom(ctx)
	md.Actor, md.CorrelationID = "provider:"+prov.Name(), we.ID
	ctx = eventstore.WithMetadata(ctx, md)
	stream := eventstore.Stream{Type: payments.StreamWebhook, ID: payments.WebhookStream(we.ID)}
	out := Receipt{EventID: we.ID, Type: we.Type}
	err = s.store.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := s.store.AppendTx(ctx, tx, stream, eventstore.NoStream, ev); err != nil {
			return err
		}
		if err := s.keys.Store(ctx, tx, key); err != nil {
			return err
		}
		job, err := s.jobs.Enqueue(ctx, tx, ProcessWebhookArgs{EventID: we.ID}, nil)
		out.Job = job.ID
		return err
	})
	if kernel.KindOf(err) == kernel.KindConflict {
		return Receipt{EventID: we.ID, Type: we.Type, Duplicate: true}, nil
	}
	if err != nil {
		return Receipt{}, err
	}
	s.keys.Remember(key)
	return out, nil
}

// processJob works payments.process_webhook: ProcessWebhook, with the
// job's completion in the transaction that records the outcome, so the
// outcome is recorded exactly once even if the process dies after it.
func (s *Service) processJob(ctx context.Context, job *jobs.Job[ProcessWebhookArgs]) error {
	ctx = eventstore.WithMetadata(ctx, eventstore.Metadata{Actor: "payments", CorrelationID: job.Args.EventID})
	_, err := s.process(ctx, job.Args.EventID, func(tx *sql.Tx) error { return jobs.CompleteTx(ctx, tx, job) })
	if kernel.KindOf(err) == kernel.KindNotFound {
		return jobs.Permanent(err) // no such receipt: retrying cannot help
	}
	return err
}

// objectHead is what the receipt reads of an event's object.
type objectHead struct {
	Object          string `json:"object"`
	ID              string `json:"id"`
	Customer        any    `json:"customer"` // an id or an expanded customer
	Email           string `json:"email"`
	CustomerEmail   string `json:"customer_email"`
	ReceiptEmail    string `json:"receipt_email"`
	CustomerDetails *struct {
		Email string `json:"email"`
	} `json:"customer_details"`
	BillingDetails *struct {
		Email string `json:"email"`
	} `json:"billing_details"`
}

func readObject(raw []byte) objectHead {
	var o objectHead
	_ = jsonUnmarshal(raw, &o) // a verified event whose object is odd still gets recorded
	return o
}

// customer is the object's customer id (the object's own id for a customer).
func (o objectHead) customer() string {
	if o.Object == "customer" {
		return o.ID
	}
	return idOf(o.Customer)
}

// email is the first payer email the object names, if any.
func (o objectHead) email() string {
	for _, e := range []string{o.CustomerEmail, o.Email, o.ReceiptEmail} {
		if strings.TrimSpace(e) != "" {
			return e
		}
	}
	if o.CustomerDetails != nil && o.CustomerDetails.Email != "" {
		return o.CustomerDetails.Email
	}
	if o.BillingDetails != nil {
		return o.BillingDetails.Email
	}
	return ""
}

// idOf reads a field that is an id or an expanded object with an id.
func idOf(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		if id, ok := t["id"].(string); ok {
			return id
		}
	}
	return ""
}
