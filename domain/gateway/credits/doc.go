// Package credits is the inference gateway's credit ledger: the events that
// change an account's credits (credits.granted, credits.debited,
// credits.refunded, credits.adjusted), the pricing rule that turns a
// request's tokens into a debit, the fold that gives a balance and the
// period's use, and the decisions (a plan's monthly grant, a refund, an
// operator's new balance, refusing a paid request without credits).
//
// Credits are a ledger of events, never a mutable counter: the balance is
// the sum of the amounts of an account's events, nothing else.
//
// # Units
//
// One credit is worth US$0.001 (a tenth of a cent): the gateway plan table
// sells 50,000 credits for $49 and 150,000 for $149. The model catalog
// prices text models in US dollars per million tokens, so a model priced
// $p per 1M tokens costs p credits per 1,000 tokens. Amounts are exact
// integers of micro-credits (Micro, a millionth of a credit, US$1e-9):
// cost = Σ tokens × price × 1,000 micro-credits, summed exactly over the
// input, output and cache-read tokens and rounded up once per request to a
// whole micro-credit (so a request is never under-billed, and never by
// more than US$0.000000001 over). Free models cost nothing.
package credits
