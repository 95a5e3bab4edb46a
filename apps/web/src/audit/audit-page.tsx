// Placeholder: replaced by the audit view.
export function AuditPage({ sessionId }: { sessionId: string }) {
  return <section class="page">Audit {sessionId}</section>;
}
