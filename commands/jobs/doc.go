// Package jobs is the platform's one facility for work that happens later or
// on a clock: a welcome mail a day after a checkout, a sync, a calendar item
// due at 09:00, nightly loops, weekly refreshes at fixed Pacific times,
// retried webhooks and callbacks. Every context calls it; none keeps its own.
//
// Jobs are rows in PostgreSQL (schema "jobs"), kept and worked by River
// (github.com/riverqueue/river) through its database/sql driver, so that
//   - Enqueue takes the *sql.Tx of the append that causes the job (the one
//     eventstore.Store.InTx or eventstore.RunInTx hands out): a committed event
//     never loses its job and a rolled-back one never runs it. Call it after
//     Store.AppendTx, as with eventstore.Claim: the append's version check
//     must be the transaction's first write;
//   - a worker that changes the domain appends its events and marks the job
//     completed in one transaction (CompleteTx), so its outcome is recorded
//     exactly once even when the process dies right after;
//   - several processes share the work: River locks each job it fetches
//     (FOR UPDATE SKIP LOCKED), so no two run one job. A process that dies
//     while running a job leaves it "running"; after Config.RescueAfter the
//     elected leader among the processes makes it retryable and another
//     process runs it again, once;
//   - failures are retried with backoff (River's attempt^4 seconds, or the
//     kind's own) up to MaxAttempts, then the job is discarded: the dead
//     state, kept for operators (strata jobs list --state discarded, strata
//     jobs retry ID);
//   - Stop lets running jobs finish within Config.ShutdownGrace, then cancels
//     their contexts: a job that returns because of it is released (available
//     again, the attempt not counted) for another process;
//   - unique jobs (Opts.Unique) are enforced by a unique index, within the
//     rows River keeps (Config.Retention);
//   - periodic jobs (Periodic) follow a cron expression in an IANA zone with
//     the clock-change rule of Schedule, each run enqueued once by whichever
//     process gets there first (see Periodic).
package jobs
