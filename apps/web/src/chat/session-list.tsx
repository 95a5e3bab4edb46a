// Placeholder: replaced by the session list.
export function SessionList({ currentSessionId }: { currentSessionId?: string }) {
  return <nav aria-label="Sessions">{currentSessionId}</nav>;
}
