/** One redaction applied to a recorded call: which field, what was done, and why — never the value. */
export interface Redaction {
  /** The mock's `id` (`POST api.stripe.com/v1/charges`). */
  mock: string;
  /** `request.headers.authorization`, `request.query.api_key`, `request.body.card.cvc`, `response.body.client_secret`, `response.headers.location`, `request.url`. */
  field: string;
  /**
   * `not recorded`: a request header, which is not matched and so never written;
   * `removed from match`: the request field is not matched at all (never against a placeholder);
   * `replaced`: the response value became `[redacted]` (in a URL path of `request.url`: a `*` wildcard).
   */
  action: 'not recorded' | 'removed from match' | 'replaced';
  /** `secret-looking name`, `env STRIPE_KEY`, `the value of request.headers.authorization`. */
  reason: string;
}

/** A redaction before its mock has an ID. */
export type PendingRedaction = Omit<Redaction, 'mock'>;
