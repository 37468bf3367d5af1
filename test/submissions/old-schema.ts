/**
 * Two rows as the release before versioned migrations wrote them (a pending lead leased to its
 * first attempt long ago, and a delivered one), for the upgrade tests of both databases.
 */
export const OLD_ROWS = {
  pending: {
    id: '00000000-0000-4000-8000-000000000001',
    fields: { name: 'Old Pending', email: 'old.pending@example.com' },
  },
  delivered: {
    id: '00000000-0000-4000-8000-000000000002',
    fields: { name: 'Old Delivered', email: 'old.delivered@example.com' },
  },
} as const;

const T_OLD = Date.UTC(2025, 0, 1);

/** Plain SQL both databases accept. */
export function oldRowsSql(): string {
  const submission = (id: string, fields: object, at: number) =>
    `INSERT INTO frontdoor_submissions (id, kind, received_at_ms, provider, fields, request_id, client_ip,
       user_agent, idempotency_key, fingerprint, request_hash)
     VALUES ('${id}', 'lead', ${at}, 'crm', '${JSON.stringify(fields)}', 'req-${id}', '203.0.113.9', 'old-agent',
       NULL, 'fp-${id}', 'hash-${id}');`;
  return [
    submission(OLD_ROWS.pending.id, OLD_ROWS.pending.fields, T_OLD),
    submission(OLD_ROWS.delivered.id, OLD_ROWS.delivered.fields, T_OLD + 1),
    `INSERT INTO frontdoor_outbox (submission_id, provider, state, attempts, next_attempt_at_ms, lease_token,
       lease_until_ms, last_error, delivered_at_ms, updated_at_ms)
     VALUES ('${OLD_ROWS.pending.id}', 'crm', 'pending', 1, ${T_OLD}, 'lost-lease', ${T_OLD + 21_000}, NULL, NULL, ${T_OLD}),
            ('${OLD_ROWS.delivered.id}', 'crm', 'delivered', 1, NULL, NULL, NULL, NULL, ${T_OLD + 5}, ${T_OLD + 5});`,
  ].join('\n');
}
