// Placeholder: replaced by the groups browser.
export function GroupsPage({ sessionId }: { sessionId?: string }) {
  return <section class="page">Groups {sessionId}</section>;
}
