-- The one paid item: a bid's Checkout Sessions at the payment provider (Stripe) and the provider's events
-- about them. A row is claimed (status pending, no session yet) before the provider is asked, so two
-- checkouts at once cannot both create a session; the session is bound to the row once created. A bid is
-- paid while one of its rows is paid (api/bids/payments.ts bidIsPaid). SQL PostgreSQL speaks as well.
CREATE TABLE bid_payments (
  checkout_id TEXT PRIMARY KEY,
  bid_id TEXT NOT NULL REFERENCES bids(bid_id),
  -- pending: claimed, or bound to an open session; paid: the provider confirmed the money; expired: the
  -- session closed unpaid (or the claim was abandoned); failed: a delayed payment (bank debit) failed
  status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'failed')),
  -- the provider's Checkout Session id (cs_…) and hosted page; null while the claim awaits the provider
  session_id TEXT UNIQUE,
  checkout_url TEXT,
  -- in the currency's minor units (cents), as the provider charges it, and the ISO 4217 code
  amount BIGINT NOT NULL,
  currency TEXT NOT NULL,
  requested_by TEXT NOT NULL REFERENCES accounts(account_id),
  -- when a pending row stops counting: the session's expiry, or for a claim the end of its lease
  expires_at TEXT NOT NULL,
  paid_at TEXT,
  -- JSON array of the provider event ids that changed this row, oldest first
  provider_event_ids TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- One checkout in progress per bid: a second claim is refused by this index, whichever instance makes it.
CREATE UNIQUE INDEX bid_payments_one_pending ON bid_payments(bid_id) WHERE status = 'pending';
CREATE INDEX bid_payments_bid ON bid_payments(bid_id, status);

-- Every provider event received, once: a replayed delivery finds its id here and changes nothing.
CREATE TABLE payment_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  session_id TEXT,
  -- the row it changed, or null when it changed none
  checkout_id TEXT REFERENCES bid_payments(checkout_id),
  -- what came of it: a sentence ('paid', 'ignored: …')
  outcome TEXT NOT NULL,
  received_at TEXT NOT NULL
);
